package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompletionUsage: gramc completion needs a known shell; anything else
// is a usage error (exit 2), not help with exit 0.
func TestCompletionUsage(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"completion"}, ExitUsage, "name a shell: bash, zsh, fish or powershell"},
		{[]string{"completion", "tcsh"}, ExitUsage, `unknown command "tcsh"`},
		{[]string{"completion", "bash"}, ExitOK, ""},
		{[]string{"completion", "zsh"}, ExitOK, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := Do(tt.args, strings.NewReader(""), &stdout, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("gramc %s: exit %d, stderr %q; want exit %d, stderr containing %q", strings.Join(tt.args, " "), code, stderr.String(), tt.code, tt.stderr)
		}
		if code == ExitOK && stdout.Len() == 0 {
			t.Errorf("gramc %s: no script", strings.Join(tt.args, " "))
		}
	}
}

// TestCobraUsageExits: cobra's own usage errors (internal/usage) exit
// with ExitUsage, say what is wrong and point at the command's help.
func TestCobraUsageExits(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"nosuch"}, "unknown command"},
		{[]string{"check", "--nosuch"}, "unknown flag: --nosuch"},
		{[]string{"check", "---x"}, "bad flag syntax: ---x"},
		{[]string{"explain"}, "accepts 1 arg(s)"},
	} {
		help := "Run 'gramc --help' for usage."
		if tc.args[0] != "nosuch" {
			help = "Run 'gramc " + tc.args[0] + " --help' for usage."
		}
		var stdout, stderr bytes.Buffer
		if code := Do(tc.args, strings.NewReader(""), &stdout, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), tc.say) || !strings.Contains(stderr.String(), help) {
			t.Errorf("gramc %s: exit %d, stderr %q; want exit %d saying %q and %q", strings.Join(tc.args, " "), code, stderr.String(), ExitUsage, tc.say, help)
		}
	}
}
