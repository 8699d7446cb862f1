package typescript

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/internal/gentest"
)

// BenchmarkGen generates TypeScript for a package of 10,000 tools in 100
// files (internal/gramgen), checked once outside the timer, as
// codegen/golang's BenchmarkGen does for Go. Bytes are the four generated
// files together.
func BenchmarkGen(b *testing.B) {
	gentest.Bench(b, func(pkg *check.Package) (int, error) {
		files, err := Generate(Request{Package: pkg})
		n := 0
		for _, f := range files {
			n += len(f.Contents)
		}
		return n, err
	})
}
