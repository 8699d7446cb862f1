package docs

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
)

// TestProvidersNamed (issue 49): the pages that list the model providers
// an agent's model may name list them as the provider table has them,
// aliases included, as the checker's message does (provider.Known): a
// name a message gives is one the pages give.
func TestProvidersNamed(t *testing.T) {
	for _, page := range []string{"language.md", "diagnostics.md"} {
		text := Page(page)
		for _, p := range provider.Table {
			for _, name := range append([]string{p.Name}, p.Aliases...) {
				if !strings.Contains(text, "`"+name+"`") {
					t.Errorf("%s does not name the provider %s (provider.Known: %s)", page, name, provider.Known())
				}
			}
		}
	}
	if want := "Known providers: " + provider.Known(); !strings.Contains(Page("diagnostics.md"), want) {
		t.Errorf("diagnostics.md's unknown-provider section does not say %q", want)
	}
}
