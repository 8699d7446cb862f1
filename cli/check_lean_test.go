package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/gramgen"
)

// TestCheckLeanOutputUnchanged: gramc check loads with
// load.Config.DiagnosticsOnly (check.Diagnose) unless --target is given;
// every format's output and the exit status are byte for byte those of
// the full check, on a file of thousands of tools with one diagnostic
// each (gramgen.Mistakes, BenchmarkCheckMistakes's input, smaller) plus
// a suppressed warning, an unused suppression and a second package.
func TestCheckLeanOutputUnchanged(t *testing.T) {
	const n = 3000
	dir := t.TempDir()
	src := append(gramgen.Mistakes(n), `
[warned:Tool {description: "d", colour: 1} | (x::String)==>(::String)] // gramc:ignore unknown-property -- a test
[warned2:Tool {description: "d", colour: 1} | (x::String)==>(::String)]
// gramc:ignore unknown-property -- nothing to suppress here
[clean:Tool {description: "d"} | (x::String)==>(::String)]
`...)
	if err := os.WriteFile(filepath.Join(dir, "big.gram"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "a.gram"), []byte("[a:Tool {description: \"d\"} | (x::Strng)==>(::String)]\n[s:Agent {instruction: \"x\", model: \"OpenAI/gpt-4o-mini\"} | a, b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(lean bool, args ...string) (int, string, string) {
		defer func(l bool) { checkLean = l }(checkLean)
		checkLean = lean
		var stdout, stderr bytes.Buffer
		code := Do(append([]string{"check"}, args...), nil, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	for _, format := range diagFormats {
		for _, c := range []struct {
			args     []string
			mistakes int // diagnostics of gramgen.Mistakes
			warning  bool
		}{
			{[]string{"-e", "--format", format, filepath.Join(dir, "big.gram")}, n, true},
			{[]string{"-e", "--format", format, dir + "/..."}, n, true},
			// Without -e, 1000 of a code in a file (diag.MaxSameCode).
			{[]string{"--format", format, dir + "/..."}, diag.MaxSameCode, true},
			{[]string{"--werror", "--format", format, other}, 0, false},
		} {
			name := strings.Join(c.args, " ")
			code, stdout, stderr := run(true, c.args...)
			wantCode, wantStdout, wantStderr := run(false, c.args...)
			if code != wantCode || stdout != wantStdout || stderr != wantStderr {
				t.Fatalf("gramc check %s: lean check printed (status %d)\n%.2000s\n%.2000s\nfull check (status %d)\n%.2000s\n%.2000s",
					name, code, stdout, stderr, wantCode, wantStdout, wantStderr)
			}
			if code != ExitProblem {
				t.Errorf("gramc check %s: exit status %d, want %d", name, code, ExitProblem)
			}
			out := stdout + stderr
			if got := strings.Count(out, "unknown type Strin"); got != c.mistakes {
				t.Errorf("gramc check %s: %d diagnostics of the mistakes, want %d", name, got, c.mistakes)
			}
			if got := strings.Count(out, "unknown tool property colour"); got != map[bool]int{true: 1}[c.warning] {
				t.Errorf("gramc check %s: %d unknown-property warnings, want the unsuppressed one only", name, got)
			}
		}
	}
	if code, _, stderr := run(true, filepath.Join(dir, "big.gram")); !strings.Contains(stderr, fmt.Sprintf("%d errors, 2 warnings", n)) {
		t.Errorf("gramc check: status %d, summary not found in %.300s", code, stderr[max(0, len(stderr)-300):])
	}
}
