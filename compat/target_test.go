package compat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/load"
)

// TestTargetStrictSeesRequired: openai-strict makes every property
// required, so an optional parameter added is, in its payload, a required
// one: breaking for that target only, positioned at the new parameter.
func TestTargetStrictSeesRequired(t *testing.T) {
	old := pkgs(t, "[t:Tool {description: \"T\"} |\n  (a::String)==>(::String)]\n")
	new := pkgs(t, "[t:Tool {description: \"T\"} |\n  (a::String)==>\n  (b::Integer {optional: true})==>(::String)]\n")
	base := compat.Compare(old, new)
	if len(base) != 1 || base[0].Code != compat.ParamAddedOptional {
		t.Fatalf("base: %v", summary(base))
	}
	extra := compat.CompareTargets(old, new, base, []schema.Target{schema.OpenAI, schema.OpenAIStrict, schema.Anthropic})
	if len(extra) != 1 {
		t.Fatalf("%+v", extra)
	}
	c := extra[0]
	if c.Target != "openai-strict" || c.Code != compat.ParamAddedRequired || c.Severity != compat.Breaking || c.Path != "b" {
		t.Errorf("%+v", c)
	}
	if got := fmt.Sprintf("%d:%d", c.New.Start.Line, c.New.Start.Column); !strings.HasSuffix(c.New.File, "t.gram") || got != "3:4" {
		t.Errorf("at %v, want the new parameter (3:4)", c.New)
	}
	if !strings.HasPrefix(c.Message, "for openai-strict, required parameter b was added") {
		t.Errorf("%s", c.Message)
	}
}

// TestTargetRejected: a tool the target accepted and now rejects (a
// free-form Object under openai-strict; a recursive type under Gemini,
// which inlines types) is breaking for that target, at the reason.
func TestTargetRejected(t *testing.T) {
	old := pkgs(t, "[N:Type | (v::String)]\n[t:Tool {description: \"T\"} |\n  (a::N)==>(::String)]\n")
	new := pkgs(t, "[N:Type | (v::String), (next::N {optional: true})]\n[t:Tool {description: \"T\"} |\n  (a::N)==>\n  (o::Object {optional: true})==>(::String)]\n")
	base := compat.Compare(old, new)
	got := map[string]compat.Change{}
	for _, c := range compat.CompareTargets(old, new, base, schema.Targets()) {
		got[c.Target+" "+string(c.Code)] = c
	}
	for _, want := range []struct{ key, at, msg string }{
		{"openai-strict diff-target-rejected", "4:3", "openai-strict rejects tool t now: openai-strict does not accept a free-form Object"},
		{"gemini diff-target-rejected", "", "gemini rejects tool t now: gemini cannot express the recursive type N"},
	} {
		c, ok := got[want.key]
		if !ok {
			t.Errorf("no %s in %v", want.key, got)
			continue
		}
		if c.Severity != compat.Breaking || c.Tool != "t" || !strings.HasPrefix(c.Message, want.msg) {
			t.Errorf("%+v", c)
		}
		if want.at != "" && fmt.Sprintf("%d:%d", c.New.Start.Line, c.New.Start.Column) != want.at {
			t.Errorf("%s at %v, want %s", want.key, c.New, want.at)
		}
	}
	// Compared the other way, the target accepts what it rejected: no
	// change of its own.
	for _, c := range compat.CompareTargets(new, old, compat.Compare(new, old), schema.Targets()) {
		if c.Code == compat.TargetRejected {
			t.Errorf("%+v", c)
		}
	}
}

// TestTargetsAgreeWithTheModel (property): on every rule's case, both
// directions, the payload of every target finds no change of its own but
// openai-strict's required optional parameters: the targets express what
// the rules judge, so --target reports only what a provider changes.
func TestTargetsAgreeWithTheModel(t *testing.T) {
	for _, c := range ruleCases {
		for i, pair := range [][2]string{{c.old, c.new}, {c.new, c.old}} {
			old, new := pkgs(t, pair[0]), pkgs(t, pair[1])
			base := compat.Compare(old, new)
			for _, x := range compat.CompareTargets(old, new, base, schema.Targets()) {
				strictOptional := x.Target == "openai-strict" && x.Code == compat.ParamAddedRequired
				for _, b := range base {
					if b.Path == x.Path && b.Code != compat.ParamAddedOptional {
						strictOptional = false
					}
				}
				if !strictOptional {
					t.Errorf("%s (%d): %s sees %s at %s (%s)", c.name, i, x.Target, x.Code, x.Path, x.Severity)
				}
			}
		}
	}
}

// TestTargetsRandomMutations (property): on the random packages and edits
// of TestRandomMutations, no target adds a change of its own but
// openai-strict's required optional parameters, and every change a
// target adds names it and is placed in the .gram files.
func TestTargetsRandomMutations(t *testing.T) {
	forRandomEdits(t, 100, 626, func(it int, old, cur genPkg, oldPkgs, newPkgs []*check.Package) {
		base := compat.Compare(oldPkgs, newPkgs)
		for _, x := range compat.CompareTargets(oldPkgs, newPkgs, base, schema.Targets()) {
			ok := x.Target == "openai-strict" && x.Code == compat.ParamAddedRequired && strings.HasSuffix(x.New.File, ".gram")
			for _, b := range base {
				if b.Tool == x.Tool && b.Path == x.Path && b.Code != compat.ParamAddedOptional {
					ok = false
				}
			}
			if !ok {
				t.Errorf("iteration %d: %s sees %s at %s.%s (%s, %v)\nOLD:\n%sNEW:\n%s", it, x.Target, x.Code, x.Tool, x.Path, x.Severity, x.New, old.gram(), cur.gram())
			}
		}
	})
}

// TestTargetsWithSnapshot: a package compared with its own mcp snapshot,
// either way round, under every target, finds nothing (the snapshot's
// unknown results stay unknown in its payloads).
func TestTargetsWithSnapshot(t *testing.T) {
	for _, c := range ruleCases {
		p := pkgs(t, c.old)
		snap := snapshotOf(t, p, schema.MCP).Packages
		for _, pair := range [][2][]*check.Package{{snap, p}, {p, snap}} {
			if x := compat.CompareTargets(pair[0], pair[1], compat.Compare(pair[0], pair[1]), schema.Targets()); len(x) != 0 {
				t.Errorf("%s: %v", c.name, summary(x))
			}
		}
	}
}

// BenchmarkTargets10k: CompareTargets for openai-strict on two
// 10,000-tool versions (every description changed).
func BenchmarkTargets10k(b *testing.B) {
	dir := b.TempDir()
	doc := gramgen.Document(10000)
	for name, data := range map[string][]byte{"old": doc, "new": []byte(strings.ReplaceAll(string(doc), "description: \"", "description: \"Now: "))} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "t.gram"), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	old, _, err := load.Packages([]string{filepath.Join(dir, "old")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	new, _, _ := load.Packages([]string{filepath.Join(dir, "new")}, nil)
	base := compat.Compare(old, new)
	b.ResetTimer()
	var n int
	for b.Loop() {
		n = len(compat.CompareTargets(old, new, base, []schema.Target{schema.OpenAIStrict}))
	}
	b.ReportMetric(float64(n), "target-changes")
}
