package schema

import (
	"testing"

	"github.com/gramc-dev/gramc/codegen/internal/gentest"
)

// BenchmarkSchema emits 10,000 tools (gramgen.Package(10000, 100), checked
// once outside the timer) for every target. Bytes/s is output bytes.
func BenchmarkSchema(b *testing.B) {
	pkg := gentest.Package(b, 10000, 100)
	if len(pkg.Tools) != 10000 {
		b.Fatalf("%d tools", len(pkg.Tools))
	}
	for _, target := range Targets() {
		b.Run(string(target), func(b *testing.B) {
			out, err := Emit(pkg.Tools, target)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Emit(pkg.Tools, target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
