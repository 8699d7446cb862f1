package compat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/load"
)

func pkgs(t testing.TB, src string) []*check.Package {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.gram"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, ds, err := load.Packages([]string{dir}, nil)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v\n%s", err, ds, src)
	}
	return ps
}

// tool wraps a signature in a tool (and optional declarations).
func tool(decls, sig string) string {
	return decls + "\n[t:Tool {description: \"T\"} |\n  " + sig + "\n]\n"
}

// ruleCases: one change per rule, in both directions where it has two.
var ruleCases = []struct {
	name     string
	old, new string
	code     diag.Code
	sev      compat.Severity
	path     string
}{
	{"param removed", tool("", "(a::String)==>(b::String)==>(::String)"), tool("", "(a::String)==>(::String)"), compat.ParamRemoved, compat.Breaking, "b"},
	{"required param added", tool("", "(a::String)==>(::String)"), tool("", "(a::String)==>(b::String)==>(::String)"), compat.ParamAddedRequired, compat.Breaking, "b"},
	{"optional param added", tool("", "(a::String)==>(::String)"), tool("", "(a::String)==>(b::String {optional: true})==>(::String)"), compat.ParamAddedOptional, compat.Safe, "b"},
	{"now required", tool("", "(a::String {optional: true})==>(::String)"), tool("", "(a::String)==>(::String)"), compat.ParamNowRequired, compat.Breaking, "a"},
	{"now optional", tool("", "(a::String)==>(::String)"), tool("", "(a::String {default: \"x\"})==>(::String)"), compat.ParamNowOptional, compat.Safe, "a"},
	{"type changed", tool("", "(a::String)==>(::String)"), tool("", "(a::Integer)==>(::String)"), compat.TypeChanged, compat.Breaking, "a"},
	{"input Integer to Number widens", tool("", "(a::Integer)==>(::String)"), tool("", "(a::Number)==>(::String)"), compat.TypeChanged, compat.Safe, "a"},
	{"result Number to Integer narrows", tool("", "(a::String)==>(::Number)"), tool("", "(a::String)==>(::Integer)"), compat.TypeChanged, compat.Safe, "result"},
	{"result Integer to Number widens", tool("", "(a::String)==>(::Integer)"), tool("", "(a::String)==>(::Number)"), compat.TypeChanged, compat.Breaking, "result"},
	{"input maximum lowered", tool("", "(a::Integer {range: 1..14})==>(::String)"), tool("", "(a::Integer {range: 1..7})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "a"},
	{"input maximum raised", tool("", "(a::Integer {range: 1..7})==>(::String)"), tool("", "(a::Integer {range: 1..14})==>(::String)"), compat.ConstraintWidened, compat.Safe, "a"},
	{"input pattern added", tool("", "(a::String)==>(::String)"), tool("", "(a::String {pattern: \"^[a-z]+$\"})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "a"},
	{"enum value removed from an input", tool("[U:Enum {values: [\"c\", \"f\"]}]", "(u::U)==>(::String)"), tool("[U:Enum {values: [\"c\"]}]", "(u::U)==>(::String)"), compat.EnumValueRemoved, compat.Breaking, "u"},
	{"enum value removed from a result", tool("[U:Enum {values: [\"c\", \"f\"]}]", "(a::String)==>(::U)"), tool("[U:Enum {values: [\"c\"]}]", "(a::String)==>(::U)"), compat.EnumValueRemoved, compat.Safe, "result"},
	{"enum value added to an input", tool("[U:Enum {values: [\"c\"]}]", "(u::U)==>(::String)"), tool("[U:Enum {values: [\"c\", \"f\"]}]", "(u::U)==>(::String)"), compat.EnumValueAdded, compat.Safe, "u"},
	{"enum value added to a result", tool("[U:Enum {values: [\"c\"]}]", "(a::String)==>(::U)"), tool("[U:Enum {values: [\"c\", \"f\"]}]", "(a::String)==>(::U)"), compat.EnumValueAdded, compat.Breaking, "result"},
	{"enum order", tool("[U:Enum {values: [\"c\", \"f\"]}]", "(u::U)==>(::String)"), tool("[U:Enum {values: [\"f\", \"c\"]}]", "(u::U)==>(::String)"), compat.EnumOrderChanged, compat.Dangerous, "u"},
	{"default changed", tool("", "(a::Integer {default: 3})==>(::String)"), tool("", "(a::Integer {default: 5})==>(::String)"), compat.DefaultChanged, compat.Dangerous, "a"},
	{"record field required, input", tool("[P:Type | (x::String)]", "(p::P)==>(::String)"), tool("[P:Type | (x::String), (y::String)]", "(p::P)==>(::String)"), compat.ParamAddedRequired, compat.Breaking, "p.y"},
	{"record field removed, result", tool("[P:Type | (x::String), (y::String)]", "(a::String)==>(::P)"), tool("[P:Type | (x::String)]", "(a::String)==>(::P)"), compat.ResultFieldRemoved, compat.Breaking, "result.y"},
	{"record field added, result", tool("[P:Type | (x::String)]", "(a::String)==>(::P)"), tool("[P:Type | (x::String), (y::String)]", "(a::String)==>(::P)"), compat.ResultFieldAdded, compat.Safe, "result.y"},
	{"result field now optional", tool("[P:Type | (x::String)]", "(a::String)==>(::P)"), tool("[P:Type | (x::String {optional: true})]", "(a::String)==>(::P)"), compat.ResultNowOptionalFld, compat.Breaking, "result.x"},
	{"input minimum length raised", tool("", "(a::String {minLength: 1})==>(::String)"), tool("", "(a::String {minLength: 3})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "a"},
	{"input items bound dropped", tool("", "(a::Array {elementType: String, maxItems: 3})==>(::String)"), tool("", "(a::Array {elementType: String})==>(::String)"), compat.ConstraintWidened, compat.Safe, "a"},
	{"input items made unique", tool("", "(a::Array {elementType: String})==>(::String)"), tool("", "(a::Array {elementType: String, uniqueItems: true})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "a"},
	{"input format added", tool("", "(a::String)==>(::String)"), tool("", "(a::String {format: \"email\"})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "a"},
	{"input exclusive minimum lowered", tool("", "(a::Number {exclusiveMinimum: 1})==>(::String)"), tool("", "(a::Number {exclusiveMinimum: 0})==>(::String)"), compat.ConstraintWidened, compat.Safe, "a"},
	{"inline enum value removed", tool("", "(a::String {enum: [\"x\", \"y\"]})==>(::String)"), tool("", "(a::String {enum: [\"x\"]})==>(::String)"), compat.EnumValueRemoved, compat.Breaking, "a"},
	{"default added to an optional", tool("", "(a::Integer {optional: true})==>(::String)"), tool("", "(a::Integer {default: 2})==>(::String)"), compat.DefaultChanged, compat.Dangerous, "a"},
	{"recursive record field removed, input", tool("[N:Type | (next::N {optional: true}), (v::String), (w::String)]", "(n::N)==>(::String)"), tool("[N:Type | (next::N {optional: true}), (v::String)]", "(n::N)==>(::String)"), compat.ParamRemoved, compat.Breaking, "n.w"},
	{"array items narrowed", tool("", "(a::Array {elementType: Number})==>(::String)"), tool("", "(a::Array {elementType: Integer})==>(::String)"), compat.TypeChanged, compat.Breaking, "a[]"},
}

// TestRules: each rule, in both directions where it has two, through named
// types and enums where they apply.
func TestRules(t *testing.T) {
	for _, c := range ruleCases {
		t.Run(c.name, func(t *testing.T) {
			changes := compat.Compare(pkgs(t, c.old), pkgs(t, c.new))
			for _, ch := range changes {
				if ch.Code == c.code && ch.Path == c.path {
					if ch.Severity != c.sev {
						t.Errorf("%s at %s: severity %s, want %s", c.code, c.path, ch.Severity, c.sev)
					}
					return
				}
			}
			t.Errorf("no %s at %s; got %+v", c.code, c.path, changes)
		})
	}
}

// TestToolRules: removed, added, description, deprecation.
func TestToolRules(t *testing.T) {
	old := "[a:Tool {description: \"A\"} | (x::String)==>(::String)]\n[b:Tool {description: \"B\"} | (x::String)==>(::String)]\n"
	new := "[a:Tool {description: \"A, better\", deprecated: true} | (x::String)==>(::String)]\n[c:Tool {description: \"C\"} | (x::String)==>(::String)]\n"
	got := map[diag.Code]compat.Severity{}
	for _, c := range compat.Compare(pkgs(t, old), pkgs(t, new)) {
		got[c.Code] = c.Severity
	}
	want := map[diag.Code]compat.Severity{compat.ToolRemoved: compat.Breaking, compat.ToolAdded: compat.Safe, compat.DescriptionChanged: compat.Dangerous, compat.ToolDeprecated: compat.Dangerous}
	for code, sev := range want {
		if g, ok := got[code]; !ok || g != sev {
			t.Errorf("%s: %v (%v), want %v", code, g, ok, sev)
		}
	}
}

// TestSelfDiff: every example package compared with itself has no change.
func TestSelfDiff(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "examples", "*"))
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() || strings.HasSuffix(p, "testdata") {
			continue
		}
		a, _, err := load.Packages([]string{p}, nil)
		if err != nil {
			continue
		}
		b, _, _ := load.Packages([]string{p}, nil)
		if changes := compat.Compare(a, b); len(changes) != 0 {
			t.Errorf("%s compared with itself: %v", p, changes)
		}
	}
}

// TestRegistered: every rule is a registered code of stage diff, named in
// docs/diff.md.
func TestRegistered(t *testing.T) {
	doc := docs.Page("diff.md")
	n := 0
	for _, c := range diag.Codes() {
		if c.Stage != diag.StageDiff {
			continue
		}
		n++
		if !strings.Contains(doc, "- **`"+string(c.Code)+"`**") {
			t.Errorf("docs/diff.md does not list %s", c.Code)
		}
	}
	if n < 19 {
		t.Errorf("%d diff rules registered", n)
	}
}

// BenchmarkCompare10k: two 10,000-tool packages, every tool's description
// edited (issue 23: under 1 s).
func BenchmarkCompare10k(b *testing.B) {
	dir := b.TempDir()
	oldDir, newDir := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	os.MkdirAll(oldDir, 0o755)
	os.MkdirAll(newDir, 0o755)
	doc := gramgen.Document(10000)
	os.WriteFile(filepath.Join(oldDir, "t.gram"), doc, 0o644)
	os.WriteFile(filepath.Join(newDir, "t.gram"), []byte(strings.ReplaceAll(string(doc), "description: \"", "description: \"Now: ")), 0o644)
	a, _, err := load.Packages([]string{oldDir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	c, _, _ := load.Packages([]string{newDir}, nil)
	b.ResetTimer()
	var n int
	for b.Loop() {
		n = len(compat.Compare(a, c))
	}
	b.ReportMetric(float64(n), "changes")
	_ = fmt.Sprint(n)
}

// TestRenameHints: a tool or a parameter removed while one alike is added
// (the only such pair) is said to be perhaps renamed; it stays a removal
// and an addition, with their severities.
func TestRenameHints(t *testing.T) {
	old := "[getWeather:Tool {description: \"W\"} | (city::String)==>(days::Integer)==>(::String)]\n[other:Tool {description: \"O\"} | (a::String)==>(x::Integer)==>(::String)]\n"
	new := "[weather:Tool {description: \"W\"} | (days::Integer)==>(city::String)==>(::String)]\n[other:Tool {description: \"O\"} | (b::String)==>(x::Integer)==>(::String)]\n"
	msgs := map[string]compat.Change{}
	for _, c := range compat.Compare(pkgs(t, old), pkgs(t, new)) {
		msgs[c.Tool+" "+c.Path+" "+string(c.Code)] = c
	}
	for key, want := range map[string]string{
		"getWeather  diff-tool-removed":     "(renamed to weather? its parameters and result are alike)",
		"weather  diff-tool-added":          "(renamed from getWeather? its parameters and result are alike)",
		"other a diff-param-removed":        "(renamed to b? it has the same type)",
		"other b diff-param-added-required": "(renamed from a? it has the same type)",
	} {
		c, ok := msgs[key]
		if !ok || !strings.HasSuffix(c.Message, want) {
			t.Errorf("%s: %q, want it to end %q", key, c.Message, want)
		}
	}
	if c := msgs["getWeather  diff-tool-removed"]; c.Severity != compat.Breaking {
		t.Errorf("a rename is still breaking: %+v", c)
	}
	// Not when the types differ, nor when two are alike.
	old2 := "[t:Tool {description: \"T\"} | (a::String)==>(b::String)==>(::String)]\n"
	new2 := "[t:Tool {description: \"T\"} | (c::Integer)==>(d::String)==>(e::String)==>(::String)]\n"
	for _, c := range compat.Compare(pkgs(t, old2), pkgs(t, new2)) {
		if strings.Contains(c.Message, "renamed") {
			t.Errorf("%s", c.Message)
		}
	}
}

// agent wraps a signature in a typed agent named a (and optional declarations).
func agent(decls, sig string) string {
	return decls + "\n[a:Agent {description: \"A\", instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"} |\n  " + sig + "\n]\n"
}

// TestAgentSignatures: an agent's signature is judged as a tool's, in the
// same directions, and each change names the agent.
func TestAgentSignatures(t *testing.T) {
	const triage = "[T:Type | (priority::P), (minutes::Integer), (summary::String)]\n[P:Enum {values: [\"low\", \"urgent\"]}]"
	const narrower = "[T:Type | (priority::P), (summary::String)]\n[P:Enum {values: [\"low\", \"urgent\"]}]"
	const wider = "[T:Type | (priority::P), (minutes::Integer), (summary::String)]\n[P:Enum {values: [\"low\", \"urgent\", \"critical\"]}]"
	for _, tc := range []struct {
		name     string
		old, new string
		code     diag.Code
		sev      compat.Severity
		path     string
	}{
		{"output field removed", agent(triage, "(ticket::String)==>(::T)"), agent(narrower, "(ticket::String)==>(::T)"), compat.ResultFieldRemoved, compat.Breaking, "result.minutes"},
		{"output enum widened", agent(triage, "(ticket::String)==>(::T)"), agent(wider, "(ticket::String)==>(::T)"), compat.EnumValueAdded, compat.Breaking, "result.priority"},
		{"required input added", agent(triage, "(ticket::String)==>(::T)"), agent(triage, "(ticket::String)==>(customer::String)==>(::T)"), compat.ParamAddedRequired, compat.Breaking, "customer"},
		{"optional input added", agent(triage, "(ticket::String)==>(::T)"), agent(triage, "(ticket::String)==>(customer::String {optional: true})==>(::T)"), compat.ParamAddedOptional, compat.Safe, "customer"},
		{"output becomes typed", agent("", "(ticket::String)==>(::String)"), agent(triage, "(ticket::String)==>(::T)"), compat.TypeChanged, compat.Breaking, "result"},
		{"message narrowed", agent("", "(ticket::String)==>(::String)"), agent("", "(ticket::String {minLength: 10})==>(::String)"), compat.ConstraintNarrowed, compat.Breaking, "ticket"},
		{"implicit signature to arguments", "[a:Agent {description: \"A\", instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"}]", agent("", "(title::String)==>(hours::Integer)==>(::String)"), compat.ParamRemoved, compat.Breaking, "input"},
		{"description", agent("", "(q::String)==>(::String)"), strings.Replace(agent("", "(q::String)==>(::String)"), `description: "A"`, `description: "B"`, 1), compat.DescriptionChanged, compat.Dangerous, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes := compat.Compare(pkgs(t, tc.old), pkgs(t, tc.new))
			found := false
			for _, c := range changes {
				if !c.Agent || c.Tool != "a" || !strings.HasPrefix(c.Message, "agent a") {
					t.Errorf("a change of agent a that does not say so: %+v", c)
				}
				if c.Code == tc.code && c.Path == tc.path {
					found = true
					if c.Severity != tc.sev {
						t.Errorf("%s at %s is %s, want %s", c.Code, c.Path, c.Severity, tc.sev)
					}
				}
			}
			if !found {
				t.Errorf("no %s at %q in %v", tc.code, tc.path, summary(changes))
			}
		})
	}
	// A message input is that string, whatever its parameter's name; the
	// implicit signature is (input::String)==>(::String).
	same := []struct{ old, new string }{
		{agent("", "(ticket::String)==>(::String)"), agent("", "(text::String)==>(::String)")},
		{"[a:Agent {description: \"A\", instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"}]", agent("", "(question::String)==>(::String)")},
	}
	for _, tc := range same {
		if changes := compat.Compare(pkgs(t, tc.old), pkgs(t, tc.new)); len(changes) > 0 {
			t.Errorf("%s -> %s: %v", tc.old, tc.new, summary(changes))
		}
	}
}

// TestListedAgentChange: a change to an agent that others list says whose
// tool it is.
func TestListedAgentChange(t *testing.T) {
	const callers = "\n[desk:Agent {instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"} | a]\n[ops:Agent {instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"} | a]\n"
	changes := compat.Compare(pkgs(t, agent("", "(q::String)==>(::String)")+callers), pkgs(t, agent("", "(q::String)==>(n::Integer)==>(::String)")+callers))
	if len(changes) != 1 || changes[0].Message != "agent a: required parameter n was added: a call written for the old version lacks it (a tool of agents desk and ops)" {
		t.Errorf("%v", summary(changes))
	}
}
