package check

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// BenchmarkCheck loads (reads, parses concurrently and checks) generated
// packages of 1k, 10k and 100k tools, as `gramc check` does: 1k tools in 10
// files, 10k in 100 files (about 4.2 MB), 100k in 100 files.
// Run: go test ./check -run '^$' -bench BenchmarkCheck -benchtime 3x
func BenchmarkCheck(b *testing.B) {
	for _, size := range []struct{ tools, files int }{{1000, 10}, {10000, 100}, {100000, 100}} {
		n := size.tools
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var bytes int64
			for name, src := range gramgen.Package(n, size.files) {
				if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
					b.Fatal(err)
				}
				bytes += int64(len(src))
			}
			b.SetBytes(bytes)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				pkgs, ds, err := loadPaths(dir)
				if err != nil {
					b.Fatal(err)
				}
				if len(ds) > 0 {
					b.Fatalf("generated package has diagnostics, first: %s", ds[0].Error())
				}
				if got := len(pkgs[0].Tools); got != n {
					b.Fatalf("got %d tools, want %d", got, n)
				}
			}
		})
	}
}
