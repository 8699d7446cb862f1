package check

import (
	"strings"
	"testing"
)

func TestDedent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"  You are a friendly assistant.\n  Be brief.\n  ", "You are a friendly assistant.\nBe brief."},
		{"  a\n    b\n\n  c\n", "a\n  b\n\nc"},
		{"\ta\n\t\tb\n", "a\n\tb"},
		{"no indent\n", "no indent"},
		{"", ""},
		{"   \n  \n", ""},
		{"  mixed\n \n  x", "mixed\n\nx"},
		{"  Line one\r\n  line two\r\n  ", "Line one\nline two"},
		{"  a\r\n\r\n    b\r\n", "a\n\n  b"},
	} {
		if got := dedent(tc.in); got != tc.want {
			t.Errorf("dedent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFencedProseIsDedented(t *testing.T) {
	src := "[a:Agent {\n  description: ```\n    Greets people.\n    ```,\n  instruction: ```\n  You are friendly.\n    Use sayHello.\n  ```,\n  model: \"OpenAI/gpt-4o-mini\"\n} |\n  [sayHello:Tool {description: ```\n      Returns a greeting.\n      ```} |\n    (personName::String {default: ```\n  world\n```})==>(::String)\n  ]\n]\n"
	pkg, ds := loadSource("a.gram", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	a := pkg.Agents[0]
	if a.Instruction != "You are friendly.\n  Use sayHello." {
		t.Errorf("instruction = %q", a.Instruction)
	}
	if a.Description != "Greets people." {
		t.Errorf("description = %q", a.Description)
	}
	tool := pkg.Tools[0]
	if tool.Description != "Returns a greeting." {
		t.Errorf("tool description = %q", tool.Description)
	}
	// A default is a value: kept exactly as written.
	if d := tool.Params[0].Default; d != "  world\n" {
		t.Errorf("default = %q, want the fenced content unchanged", d)
	}
}

// TestFencedProseCRLF: a file with CRLF line breaks gives the same prose as
// the same file with LF (a Windows checkout must not change schemas or
// generated code).
func TestFencedProseCRLF(t *testing.T) {
	lf := "[a:Agent {\n  instruction: ```\n  You are friendly.\n    Use sayHello.\n  ```,\n  model: \"OpenAI/gpt-4o-mini\"\n} |\n  [sayHello:Tool {description: ```\n      Returns a greeting.\n      ```} |\n    (personName::String)==>(::String)\n  ]\n]\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	want, ds := loadSource("lf.gram", []byte(lf))
	if ds.HasErrors() {
		t.Fatalf("LF: %v", ds)
	}
	got, ds := loadSource("crlf.gram", []byte(crlf))
	if ds.HasErrors() {
		t.Fatalf("CRLF: %v", ds)
	}
	if got.Agents[0].Instruction != want.Agents[0].Instruction || got.Tools[0].Description != want.Tools[0].Description {
		t.Errorf("CRLF prose differs from LF: instruction %q vs %q, description %q vs %q",
			got.Agents[0].Instruction, want.Agents[0].Instruction, got.Tools[0].Description, want.Tools[0].Description)
	}
}
