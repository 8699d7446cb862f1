package cli

import (
	"bytes"
	"strings"
	"testing"
)

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
