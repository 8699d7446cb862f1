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
