package compat_test

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
)

const ignoreOld = `[U:Enum {values: ["c", "f"]}]
[w:Tool {description: "W"} |
  (city::String)==>
  (days::Integer {optional: true})==>
  (unit::U)==>
  (::String)
]
`

// TestAccept: a gramc:ignore comment on the new declaration (alone on the
// line above, or after the code) accepts the change it names, with its
// reason; other changes, and other codes on that line, stay.
func TestAccept(t *testing.T) {
	new := `[U:Enum {values: ["c"]}]
// gramc:ignore diff-description-changed -- reworded for the model
[w:Tool {description: "W, reworded"} |
  (city::String)==>
  // gramc:ignore diff-param-now-required -- no caller leaves it out yet
  (days::Integer)==>
  (unit::U)==> // gramc:ignore diff-enum-value-added -- not this change
  (::String)
]
`
	n := pkgs(t, new)
	changes, ds := compat.Accept(compat.Compare(pkgs(t, ignoreOld), n), n)
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	got := map[diag.Code]compat.Change{}
	for _, c := range changes {
		got[c.Code] = c
	}
	if c := got[compat.ParamNowRequired]; !c.Accepted || c.Reason != "no caller leaves it out yet" {
		t.Errorf("now-required: %+v", c)
	}
	if c := got[compat.DescriptionChanged]; !c.Accepted || c.Reason != "reworded for the model" {
		t.Errorf("description: %+v", c)
	}
	if c, ok := got[compat.EnumValueRemoved]; !ok || c.Accepted {
		t.Errorf("the enum value removed is not accepted by a comment naming another code: %+v", c)
	}
	if len(changes) != 3 {
		t.Errorf("%d changes: %+v", len(changes), changes)
	}
}

// TestAcceptInvalid: a comment naming a diff rule without a reason, or a
// diff-... code that is no rule, is a positioned diff-invalid-ignore
// error and accepts nothing; a comment naming only another stage's code
// is gramc check's business.
func TestAcceptInvalid(t *testing.T) {
	new := `[U:Enum {values: ["c", "f"]}]
[w:Tool {description: "W"} |
  (city::String)==>
  // gramc:ignore diff-param-now-required
  (days::Integer)==>
  // gramc:ignore diff-enum-value-removd -- typo
  (unit::U)==> // gramc:ignore unknown-property -- check's
  (extra::String)==> // gramc:ignore diff-param-added-required --
  (::String)
]
`
	n := pkgs(t, new)
	changes, ds := compat.Accept(compat.Compare(pkgs(t, ignoreOld), n), n)
	for _, c := range changes {
		if c.Accepted {
			t.Errorf("accepted by an invalid comment: %+v", c)
		}
	}
	var lines []string
	for _, d := range ds {
		if d.Code != diag.CodeDiffInvalidIgnore || d.Severity != diag.Error {
			t.Errorf("%v", d)
		}
		lines = append(lines, d.Range.String()+": "+d.Summary)
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		":4:3: gramc:ignore diff-param-now-required accepts a change without a reason",
		":6:3: gramc:ignore names diff-enum-value-removd, which is not a gramc diff rule; did you mean diff-enum-value-removed?",
		":8:22: gramc:ignore diff-param-added-required accepts a change without a reason",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
	if len(ds) != 3 {
		t.Errorf("%d diagnostics:\n%s", len(ds), got)
	}
}

// TestCheckLeavesDiffIgnores: gramc check does not call a comment that
// accepts a diff change an ignore that suppresses nothing (it is gramc
// diff's), while it still does for its own codes.
func TestCheckLeavesDiffIgnores(t *testing.T) {
	p := pkgs(t, "// gramc:ignore diff-param-now-required -- accepted\n[t:Tool {description: \"T\"} | (x::String)==>(::String)]\n// gramc:ignore unknown-property -- r\n[u:Tool {description: \"U\"} | (x::String)==>(::String)]\n")
	var known []diag.Code
	for _, c := range diag.Codes() {
		known = append(known, c.Code)
	}
	ds := check.Suppress(p[0].Files, nil, known)
	if len(ds) != 1 || !strings.Contains(ds[0].Summary, "unknown-property suppresses nothing") {
		t.Errorf("got %v", ds)
	}
	// Nor does it suppress a diff change shown as a warning (the editor's
	// baseline): compat.Accept judges the comment, which wants a reason.
	f := p[0].Files[0]
	change := &diag.Diagnostic{Severity: diag.Warning, Code: compat.ParamNowRequired, Summary: "now required",
		Range: p[0].Tools[0].NameRange}
	if change.Range.Start.Line != 2 || change.Range.File != f.Name {
		t.Fatalf("the tool is at %v: the test is broken", change.Range)
	}
	if ds := check.SuppressOnly(p[0].Files, diag.Diagnostics{change}); len(ds) != 1 {
		t.Errorf("check suppressed a diff change: %v", ds)
	}
}
