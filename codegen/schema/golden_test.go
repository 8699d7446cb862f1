package schema

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
)

// examplePackages returns the example gram packages, checked (none until
// the checker lands).
func examplePackages(t *testing.T) []*check.Package { return nil }
