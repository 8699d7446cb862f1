package compat_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/load"
)

// snapshotOf is what `gramc schema --target target` writes for pkgs, read
// back as a snapshot.
func snapshotOf(t testing.TB, pkgs []*check.Package, target schema.Target) *compat.Snapshot {
	t.Helper()
	var tools []*check.Tool
	for _, p := range pkgs {
		tools = append(tools, p.Tools...)
	}
	data, err := schema.Emit(tools, target)
	if err != nil {
		t.Fatal(err)
	}
	s, err := compat.ReadSnapshot("old.json", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return s
}

// summary is what a change says, without where.
func summary(changes []compat.Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, fmt.Sprintf("%s %s %s %s %s->%s", c.Tool, c.Path, c.Code, c.Severity, c.OldText, c.NewText))
	}
	slices.Sort(out)
	return out
}

// TestSnapshotSameChanges (property): for every rule's case, both
// directions (old→new and new→old), comparing the old version's mcp or
// jsonschema snapshot with the new version finds the same changes as
// comparing the two .gram versions — all of them, for both targets (an
// mcp entry lists every result's output schema, MCP 2026-07-28).
func TestSnapshotSameChanges(t *testing.T) {
	type pair struct{ name, old, new string }
	var pairs []pair
	for _, c := range ruleCases {
		pairs = append(pairs, pair{c.name, c.old, c.new}, pair{c.name + " (reversed)", c.new, c.old})
	}
	toolsOld := "[a:Tool {description: \"A\"} | (x::String)==>(::String)]\n[b:Tool {description: \"B\"} | (x::String)==>(::String)]\n"
	toolsNew := "[a:Tool {description: \"A, better\", deprecated: true} | (x::String)==>(::String)]\n[c:Tool {description: \"C\"} | (x::String)==>(::String)]\n"
	pairs = append(pairs, pair{"tools", toolsOld, toolsNew}, pair{"tools (reversed)", toolsNew, toolsOld})
	for _, target := range []schema.Target{schema.MCP, schema.JSONSchema} {
		for _, p := range pairs {
			t.Run(string(target)+"/"+p.name, func(t *testing.T) {
				old, new := pkgs(t, p.old), pkgs(t, p.new)
				var want []compat.Change
				for _, c := range compat.Compare(old, new) {
					// The jsonschema target does not mark a deprecated tool:
					// a deprecation is not reported against its snapshot.
					if !(target == schema.JSONSchema && c.Code == compat.ToolDeprecated) {
						want = append(want, c)
					}
				}
				snap := snapshotOf(t, old, target)
				got := compat.Compare(snap.Packages, new)
				if !slices.Equal(summary(got), summary(want)) {
					t.Errorf("snapshot vs new:\n%s\n.gram vs new:\n%s", strings.Join(summary(got), "\n"), strings.Join(summary(want), "\n"))
				}
				if !strings.HasSuffix(p.name, "(reversed)") && len(compat.Compare(old, new)) == 0 {
					t.Errorf("the case finds no change: the test is broken")
				}
				// The snapshot side's positions are in the JSON, each with
				// its pointer.
				for _, c := range got {
					if c.Old.File == "" {
						continue
					}
					if c.Old.File != "old.json" || c.Old.Start.Line < 1 {
						t.Errorf("%s at %s: old position %v", c.Code, c.Path, c.Old)
					}
					if ptr, ok := snap.Pointer(c.Old); !ok || !strings.HasPrefix(ptr, "/") {
						t.Errorf("%s at %s: no pointer for %v", c.Code, c.Path, c.Old)
					}
				}
				// And as NEW: the .gram old version against the new one's
				// snapshot.
				newSnap := snapshotOf(t, new, target)
				var wantRev []compat.Change
				for _, c := range compat.Compare(old, new) {
					// The jsonschema target does not mark a deprecated tool.
					if !(target == schema.JSONSchema && c.Code == compat.ToolDeprecated) {
						wantRev = append(wantRev, c)
					}
				}
				if g, w := summary(compat.Compare(old, newSnap.Packages)), summary(wantRev); !slices.Equal(g, w) {
					t.Errorf("old vs snapshot:\n%s\n.gram vs .gram:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
				}
			})
		}
	}
}

// TestSnapshotSelf: every example package's snapshot compared with the
// package finds nothing.
func TestSnapshotSelf(t *testing.T) {
	for _, src := range []string{ignoreOld, ruleCases[len(ruleCases)-2].old} {
		p := pkgs(t, src)
		for _, target := range []schema.Target{schema.MCP, schema.JSONSchema} {
			if c := compat.Compare(snapshotOf(t, p, target).Packages, p); len(c) != 0 {
				t.Errorf("%s: %v", target, summary(c))
			}
		}
	}
}

// TestSnapshotErrors: what is not a snapshot is a positioned error.
func TestSnapshotErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`[{"name": "a", "inputSchema": {"type": "object"}}`, "f.json:1:50: unexpected end of JSON"},
		{`{"a": 1, "a": 2}`, `f.json:1:10: key "a" appears twice`},
		{`{"tools": 3}`, "f.json:1:1: not a tool list"},
		{"[\n {\"type\": \"function\", \"function\": {}}]", "f.json:2:2: this entry is another target's (openai, anthropic or gemini)"},
		{`[{"name": "a"}]`, `f.json:1:2: tool "a" has no inputSchema (at /0)`},
		{`[{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"anyOf": []}}}}]`, `a schema without "type" or "$ref"`},
		{`[{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}}}]`, `$ref "#/$defs/Nope" names no definition of this schema's $defs (at /0/inputSchema/properties/x/$ref)`},
		{`[{"name": "a", "inputSchema": {"properties": {"x": {"type": "string", "minLength": -1}}}}]`, `"minLength" is a count`},
		{`[{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]`, `f.json:1:36: tool "a" is listed twice`},
		{`[] []`, "more than one JSON value"},
	} {
		_, err := compat.ReadSnapshot("f.json", []byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.json, err, c.want)
		}
	}
	big := make([]byte, compat.MaxSnapshotBytes+1)
	if _, err := compat.ReadSnapshot("big.json", big); err == nil || !strings.Contains(err.Error(), "MaxSnapshotBytes") {
		t.Errorf("%v", err)
	}
}

// TestSnapshotDeep: a 117 KB snapshot nested 60,000 deep ran out of
// memory (issue 35: a pointer built for every value, no depth limit); it
// is refused at the 257th level, in linear time, naming the limit.
func TestSnapshotDeep(t *testing.T) {
	data := `[{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"default": ` +
		strings.Repeat("[", 60000) + strings.Repeat("]", 60000) + `}}}}]`
	_, err := compat.ReadSnapshot("f.json", []byte(data))
	if err == nil || !strings.Contains(err.Error(), "f.json:1:333: JSON nested more than 256 levels deep") {
		t.Errorf("%.200v", err)
	}
	// 256 levels are read.
	data = `[{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"type": "array", "default": ` +
		strings.Repeat("[", 251) + strings.Repeat("]", 251) + `}}}}]`
	if _, err := compat.ReadSnapshot("f.json", []byte(data)); err != nil {
		t.Errorf("256 levels: %.200v", err)
	}
}

// TestSnapshotToolsList: an MCP tools/list result reads as the array.
func TestSnapshotToolsList(t *testing.T) {
	s, err := compat.ReadSnapshot("l.json", []byte(`{"tools": [{"name": "a", "description": "A", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := compat.Compare(s.Packages, pkgs(t, "[a:Tool {description: \"A\"} | (x::String)==>(y::Integer)==>(::String)]"))
	if len(got) != 1 || got[0].Code != compat.ParamAddedRequired || got[0].Path != "y" {
		t.Errorf("%v", summary(got))
	}
}

// TestSnapshotRandomMutations (property): on the random packages and
// edits of TestRandomMutations, the snapshot of OLD compared with NEW,
// and OLD compared with the snapshot of NEW, find what comparing the two
// .gram versions finds.
func TestSnapshotRandomMutations(t *testing.T) {
	compared := 0
	iterations := forRandomEdits(t, 200, 1125, func(it int, old, cur genPkg, oldPkgs, newPkgs []*check.Package) {
		want := summary(compat.Compare(oldPkgs, newPkgs))
		for _, target := range []schema.Target{schema.MCP, schema.JSONSchema} {
			if got := summary(compat.Compare(snapshotOf(t, oldPkgs, target).Packages, newPkgs)); !slices.Equal(got, want) {
				t.Errorf("iteration %d, %s snapshot of OLD:\n%s\nwant:\n%s\nOLD:\n%sNEW:\n%s", it, target, strings.Join(got, "\n"), strings.Join(want, "\n"), old.gram(), cur.gram())
			}
			if got := summary(compat.Compare(oldPkgs, snapshotOf(t, newPkgs, target).Packages)); !slices.Equal(got, want) {
				t.Errorf("iteration %d, %s snapshot of NEW:\n%s\nwant:\n%s\nOLD:\n%sNEW:\n%s", it, target, strings.Join(got, "\n"), strings.Join(want, "\n"), old.gram(), cur.gram())
			}
		}
		if len(want) > 0 {
			compared++
		}
	})
	if compared < iterations/2 {
		t.Errorf("only %d of %d iterations changed anything", compared, iterations)
	}
}

// BenchmarkSnapshot10k: reading the mcp snapshot of a 10,000-tool package
// and comparing it with the package (issue 23's bound: a diff of two
// 10,000-tool versions under 1 s), as gramc schema writes it (indented)
// and on one line (as a server's tools/list comes).
func BenchmarkSnapshot10k(b *testing.B) {
	// As importer's mcpSnapshot makes its input (test code is not shared
	// across packages), but the package is kept to compare with.
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.gram"), gramgen.Document(10000), 0o644); err != nil {
		b.Fatal(err)
	}
	p, _, err := load.Packages([]string{dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	data, err := schema.Emit(p[0].Tools, schema.MCP)
	if err != nil {
		b.Fatal(err)
	}
	var line bytes.Buffer
	if err := json.Compact(&line, data); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"indented", data}, {"one-line", line.Bytes()}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			var n int
			for b.Loop() {
				snap, err := compat.ReadSnapshot("old.json", c.data)
				if err != nil {
					b.Fatal(err)
				}
				n = len(compat.Compare(snap.Packages, p))
			}
			b.ReportMetric(float64(len(p[0].Tools)), "tools")
			b.ReportMetric(float64(n), "changes")
		})
	}
}

// TestSnapshotShapes: gramc schema's output for several targets is read
// by its mcp list, and draft-07's "definitions" as $defs.
func TestSnapshotShapes(t *testing.T) {
	p := pkgs(t, ignoreOld)
	var tools []*check.Tool
	for _, q := range p {
		tools = append(tools, q.Tools...)
	}
	js, err := schema.Emit(tools, schema.JSONSchema)
	if err != nil {
		t.Fatal(err)
	}
	mcp, err := schema.Emit(tools, schema.MCP)
	if err != nil {
		t.Fatal(err)
	}
	several := `{"jsonschema": ` + string(js) + `, "mcp": ` + string(mcp) + `}`
	draft7 := strings.ReplaceAll(strings.ReplaceAll(string(mcp), `"$defs"`, `"definitions"`), `#/$defs/`, `#/definitions/`)
	for name, data := range map[string]string{"several targets": several, "draft-07": draft7} {
		s, err := compat.ReadSnapshot("s.json", []byte(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := compat.Compare(s.Packages, p); len(c) != 0 {
			t.Errorf("%s: %v", name, summary(c))
		}
		if _, ok := s.Pointer(s.Packages[0].Tools[0].NameRange); !ok {
			t.Errorf("%s: no pointer", name)
		}
	}
	if !strings.Contains(draft7, "#/definitions/U") {
		t.Fatal("the draft-07 rewrite found no reference: the test is broken")
	}
}

// TestSnapshotDeprecation: an mcp snapshot says which tools are
// deprecated (_meta), so one deprecated since is reported; a jsonschema
// snapshot cannot, so a tool deprecated all along is not reported as
// newly deprecated against it.
func TestSnapshotDeprecation(t *testing.T) {
	plain := pkgs(t, "[t:Tool {description: \"T\"} | (x::String)==>(::String)]\n")
	deprecated := pkgs(t, "[t:Tool {description: \"T\", deprecated: true} | (x::String)==>(::String)]\n")
	codes := func(cs []compat.Change) string { return strings.Join(summary(cs), "; ") }
	if c := compat.Compare(snapshotOf(t, plain, schema.MCP).Packages, deprecated); len(c) != 1 || c[0].Code != compat.ToolDeprecated {
		t.Errorf("mcp, deprecated since: %s", codes(c))
	}
	if c := compat.Compare(snapshotOf(t, deprecated, schema.MCP).Packages, deprecated); len(c) != 0 {
		t.Errorf("mcp, deprecated all along: %s", codes(c))
	}
	if c := compat.Compare(snapshotOf(t, deprecated, schema.JSONSchema).Packages, deprecated); len(c) != 0 {
		t.Errorf("jsonschema, deprecated all along: %s", codes(c))
	}
}
