package gramctemporal

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// serverModule is the Temporal server, which takes five times the CPU time of
// the SDK to build and makes a binary five times the size (issue 49.7).
const serverModule = "go.temporal.io/server"

// TestNoServerLinked: gramc-temporal (the worker and run) links the
// Temporal SDK and not the server; only gramc-temporal-dev, the
// development server, links it — which also shows that the check finds
// the server where it is linked.
func TestNoServerLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, c := range []struct {
		pkg        string
		wantServer bool
	}{
		{"../cmd/gramc-temporal", false},
		{"../cmd/gramc-temporal-dev", true},
	} {
		out, err := exec.Command("go", "list", "-deps", c.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", c.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "go.temporal.io/sdk/client") {
			t.Errorf("%s does not link the Temporal SDK's client: go list -deps says %d packages", c.pkg, len(deps))
		}
		var server []string
		for _, d := range deps {
			if d == serverModule || strings.HasPrefix(d, serverModule+"/") {
				server = append(server, d)
			}
		}
		switch {
		case c.wantServer && len(server) == 0:
			t.Errorf("%s links no package of %s", c.pkg, serverModule)
		case !c.wantServer && len(server) > 0:
			t.Errorf("%s links %d packages of %s, among them %s", c.pkg, len(server), serverModule, strings.Join(server[:min(3, len(server))], ", "))
		}
	}
}
