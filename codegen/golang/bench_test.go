package golang

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/internal/gentest"
)

// BenchmarkGen generates Go for a package of 10,000 tools in 100 files
// (internal/gramgen), checked once outside the timer. Bytes are the
// generated Go source.
func BenchmarkGen(b *testing.B) {
	gentest.Bench(b, func(pkg *check.Package) (int, error) {
		files, err := Generate(Request{Package: pkg})
		if err != nil {
			return 0, err
		}
		return len(files[0].Contents), nil
	})
}
