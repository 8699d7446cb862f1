package check

import (
	"github.com/gramc-dev/gramc/diag"
	"strings"
	"testing"
)

// TestAnonymousFieldDetail: a record field without a name is told how to
// name it, without the signature's "return type" advice that applies to
// tool parameters only.
func TestAnonymousFieldDetail(t *testing.T) {
	_, ds := loadSource("a.gram", []byte("[Chain:Type | (::String)]\n"))
	var detail string
	for _, d := range ds {
		if d.Code == diag.CodeAnonymousParameter {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, "(name::String)") || strings.Contains(detail, "return type") {
		t.Errorf("detail for an unnamed field = %q", detail)
	}
}

// TestUnknownToolDeclaredWithoutLabel: an agent listing a name that is
// declared under a misspelt label ([lookup:Tol ...]) is pointed at that
// declaration.
func TestUnknownToolDeclaredWithoutLabel(t *testing.T) {
	src := "[lookup:Tol {description: \"Looks up\"} | (q::String)==>(::String)]\n" +
		"[Color:Enum {values: [\"red\"]}]\n" +
		"[helper:Agent {instruction: \"Help\", model: \"OpenAI/gpt-4o\"} | lookup, Color]\n"
	_, ds := loadSource("a.gram", []byte(src))
	var unknown, notATool bool
	for _, d := range ds {
		switch d.Code {
		case diag.CodeUnknownTool:
			unknown = true
			if !strings.Contains(d.Detail, "without the label :Tool") || len(d.Related) != 1 || d.Related[0].Range.Start.Line != 1 {
				t.Errorf("unknown tool lookup: detail %q, related %v", d.Detail, d.Related)
			}
		case diag.CodeNotATool:
			notATool = true
			if !strings.Contains(d.Detail, "declared as an enum") {
				t.Errorf("not a tool: detail %q", d.Detail)
			}
		}
	}
	if !unknown || !notATool {
		t.Errorf("diagnostics: %v", ds)
	}
}
