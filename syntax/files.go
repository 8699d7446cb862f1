package syntax

import (
	"runtime"
	"sync"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// Source is one named file to parse: Src, or Text when Src is nil.
type Source struct {
	Name string
	Src  []byte
	Text string
}

func (s Source) parse() (*ast.File, diag.Diagnostics) {
	if s.Src == nil {
		return ParseString(s.Name, s.Text)
	}
	return ParseFile(s.Name, s.Src)
}

// Result is the outcome of parsing one Source.
type Result struct {
	File  *ast.File // never nil
	Diags diag.Diagnostics
}

// ParseFiles parses srcs concurrently, at most GOMAXPROCS files at a time,
// and returns the results in the order of srcs.
func ParseFiles(srcs []Source) []Result {
	results := make([]Result, len(srcs))
	workers := min(runtime.GOMAXPROCS(0), len(srcs))
	if workers <= 1 {
		for i, s := range srcs {
			results[i].File, results[i].Diags = s.parse()
		}
		return results
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i].File, results[i].Diags = srcs[i].parse()
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}
