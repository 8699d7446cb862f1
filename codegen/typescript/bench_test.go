package typescript

import (
	"testing"

	"github.com/gramc-dev/gramc/codegen/internal/gentest"
)

// BenchmarkGen generates TypeScript for a package of 10,000 tools in 100
// files (internal/gramgen), checked once outside the timer, as
// codegen/golang's BenchmarkGen does for Go. Bytes are the four generated
// files together.
func BenchmarkGen(b *testing.B) {
	pkg := gentest.Package(b, 10000, 100)
	files, err := Generate(Request{Package: pkg})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, f := range files {
		n += len(f.Contents)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Generate(Request{Package: pkg}); err != nil {
			b.Fatal(err)
		}
	}
}
