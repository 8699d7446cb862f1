package golang

import (
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/internal/hostile"
)

// hostileText is the shared corpus's text (codegen/internal/hostile).
const hostileText = hostile.Text

// hostileModels are the shared corpus's models, whose generated code must
// still format, compile and vet.
func hostileModels() map[string]*check.Package { return hostile.Models() }
