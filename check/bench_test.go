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
// files, 10k in 100 files (about 4.2 MB), 100k in 100 files; then packages
// of 2,500 and 10,000 types, a chain and a flat one (benchCheckTypes).
// Run: go test ./check -run '^$' -bench 'BenchmarkCheck$' -benchtime 3x
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
	benchCheckTypes(b)
}

// benchCheckTypes checks a package of n record types in one file, two
// shapes of the same size: a chain, each type's required field naming the
// type declared after it (declared in dependency order, the worst case for
// a checker that settles one type per pass over all of them), and a flat
// package whose types name only a record declared first. The two must stay
// within a small factor of each other: a chain costing more per type than
// a flat package is a quadratic walk.
func benchCheckTypes(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		for _, shape := range []string{"chain", "flat"} {
			b.Run(fmt.Sprintf("types=%d/%s", n, shape), func(b *testing.B) {
				benchLoadSource(b, "types.gram", typeChain(n, shape == "chain"), "types", n+1,
					func(pkg *Package) int { return len(pkg.Types) })
			})
		}
	}
}

// BenchmarkCheckAgentCycles checks n agents in a chain, each listing the
// next and the first: n-1 cycles through a path up to n long, each
// reported. A report's cost must not grow with the cycle's length.
// Run: go test ./check -run '^$' -bench BenchmarkCheckAgentCycles -benchmem
func BenchmarkCheckAgentCycles(b *testing.B) {
	const n = 5000
	src := []byte("[t:Tool {description: \"T\"} | (q::String)==>(::String)]\n")
	for i := 0; i < n; i++ {
		src = fmt.Appendf(src, "[a%d:Agent {description: \"A\", instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"} | t", i)
		if i+1 < n {
			src = fmt.Appendf(src, ", a%d", i+1)
		}
		src = append(src, ", a0]\n"...)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ds := loadSource("agents.gram", src); len(ds) < n {
			b.Fatalf("%d diagnostics, want at least %d", len(ds), n)
		}
	}
}

// typeChain is a package of n record types, a record Str declared first,
// and one tool that uses the first type. With chain, type i's required
// field next names type i+1 (the last type's names Str); without it, every
// next is a Str. The two are the same size within a few bytes.
func typeChain(n int, chain bool) []byte {
	var b []byte
	b = append(b, "[Str:Type | (s::String)]\n"...)
	for i := 0; i < n; i++ {
		next := "Str"
		if chain && i+1 < n {
			next = fmt.Sprintf("T%05d", i+1)
		}
		b = fmt.Appendf(b, "[T%05d:Type {description: \"Type %d\"} | (next::%s), (note::String {optional: true})]\n", i, i, next)
	}
	b = append(b, "[use:Tool {description: \"Uses the first type\"} | (t::T00000)==>(::String)]\n"...)
	return b
}

// BenchmarkCheckAgents checks a package of typed agents (a signature, an
// output mode, three tools each) in which each agent lists the two
// declared after it, up to the nesting limit: the cost of agent
// signatures, listed agents and the walk for cycles and nesting.
// Run: go test ./check -run '^$' -bench BenchmarkCheckAgents
func BenchmarkCheckAgents(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			benchLoadSource(b, "agents.gram", typedAgents(n), "agents", n,
				func(pkg *Package) int { return len(pkg.Agents) })
		})
	}
}

// benchLoadSource checks src, one file called name, b.N times, and fails
// on any diagnostic or when count of the package is not want (what it
// counts named by what).
func benchLoadSource(b *testing.B, name string, src []byte, what string, want int, count func(*Package) int) {
	b.Helper()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pkg, ds := loadSource(name, src)
		if len(ds) > 0 {
			b.Fatalf("%d diagnostics, first: %s", len(ds), ds[0].Error())
		}
		if got := count(pkg); got != want {
			b.Fatalf("got %d %s, want %d", got, what, want)
		}
	}
}

// typedAgents is a package of n typed agents: agent i lists tools and,
// within each group of MaxAgentNesting agents, the next two agents.
func typedAgents(n int) []byte {
	var b []byte
	b = append(b, "[Triage:Type | (priority::Priority), (minutes::Integer {range: 0..480}), (summary::String)]\n[Priority:Enum {values: [\"low\", \"normal\", \"urgent\"]}]\n"...)
	for i := 0; i < n; i++ {
		b = fmt.Appendf(b, "[tool%d:Tool {description: \"Tool %d\"} | (q::String)==>(limit::Integer {default: 5})==>(::String)]\n", i, i)
	}
	for i := 0; i < n; i++ {
		b = fmt.Appendf(b, "[agent%d:Agent {description: \"Agent %d\", instruction: \"Triage\", model: \"OpenAI/gpt-4o-mini\", outputMode: \"native\"} |\n  (ticket::String)==>(::Triage),\n  tool%d, tool%d, tool%d", i, i, i, (i+1)%n, (i+2)%n)
		for j := i + 1; j <= i+2 && j/MaxAgentNesting == i/MaxAgentNesting && j < n; j++ {
			b = fmt.Appendf(b, ", agent%d", j)
		}
		b = append(b, "\n]\n"...)
	}
	return b
}
