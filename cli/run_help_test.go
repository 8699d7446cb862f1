package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
)

// TestRunHelpListsTheTable: gramc run --help's providers come from
// package provider's table: a row added there (without a key header or
// Output, as a row may be) is listed with its key and base-URL variables
// and its address, and so is every row of the table.
func TestRunHelpListsTheTable(t *testing.T) {
	saved := provider.Table
	t.Cleanup(func() { provider.Table = saved })
	provider.Table = append(append([]provider.Info(nil), saved...), provider.Info{
		Name: "Scratch", KeyEnv: []string{"SCRATCH_API_KEY"}, BaseURLEnv: "SCRATCH_BASE_URL",
		BaseURL: "https://api.scratch.example/v1", Client: provider.OpenAI, Telemetry: "scratch"})
	var stdout, stderr bytes.Buffer
	if code := Do([]string{"run", "--help"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("gramc run --help: exit %d\n%s", code, stderr.String())
	}
	help := stdout.String()
	for _, p := range provider.Table {
		words := append(append([]string{"\n  " + p.Name + " ", p.BaseURL, p.BaseURLEnv}, p.KeyEnv...), p.Aliases...)
		for _, w := range words {
			if !strings.Contains(help, w) {
				t.Errorf("gramc run --help does not name %q of %s:\n%s", w, p.Name, help)
			}
		}
	}
	if !strings.Contains(help, "\n  Scratch    SCRATCH_API_KEY,") || !strings.Contains(help, "SCRATCH_BASE_URL (https://api.scratch.example/v1),\n") {
		t.Errorf("the added row's line:\n%s", help)
	}
}
