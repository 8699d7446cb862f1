package check

import (
	"runtime"
	"sync"
)

// parallelMin is the number of tools worth a goroutine of their own:
// packages with fewer tools to lower are lowered on one. parallelWorkers,
// when not 0, replaces GOMAXPROCS as the number of goroutines. (Variables
// so that tests can make small packages go parallel on any machine.)
var (
	parallelMin     = 256
	parallelWorkers = 0
)

// aheadBatch is how many tools a check without a Cache lowers ahead at a
// time: the units of a batch are held until they are entered, so a
// package of many tools holds a batch of them, not all (and Diagnose lets
// go of each batch's trees before the next). A variable for tests.
var aheadBatch = 8192

// lowerAhead lowers the tool occurrences of c.toolSrc[from:to] that need
// it (all, or those a Cache cannot reuse) on up to GOMAXPROCS goroutines,
// before they are entered into the package in order. Lowering a tool
// reads only its own tree and the lowered enums and types, which nothing
// changes any more. Each goroutine has its own did-you-mean budget, and a
// unit says whether it was refused a suggestion; the caller charges the
// units in order. Where together they would spend more than the package's
// budget (the suggestions could differ), a check without a Cache lowers
// the rest sequentially, in order, and one with a Cache checks the whole
// package again, sequentially. It returns nil when there is too little
// to share; else units aligned with the range, out[i-from] being tool
// i's, with sp nil where a tool was left to the sequential loop.
func (c *checker) lowerAhead(from, to int) []toolUnit {
	var need []int
	var reuse []bool
	if c.inc != nil {
		reuse = c.inc.probe(c)
	}
	for i := from; i < to; i++ {
		if reuse == nil || !reuse[i] {
			need = append(need, i)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if parallelWorkers > 0 {
		workers = parallelWorkers
	}
	workers = min(workers, len(need)/parallelMin)
	if workers < 2 {
		return nil
	}
	for _, td := range c.pkg.Types {
		if c.lowered[td] != 2 {
			return nil // (cannot happen) a worker would lower it
		}
	}
	out := make([]toolUnit, to-from)
	refused := make([]bool, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(need)*w/workers, len(need)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			wc := c.worker()
			for _, i := range need[lo:hi] {
				t := c.toolSrc[i]
				wc.file = t.file
				wc.suggestRefused = false
				u := wc.lowerUnit(t.sp)
				u.refused = wc.suggestRefused
				refused[w] = refused[w] || u.refused
				if c.lean {
					c.strip(u.tool)
				}
				out[i-from] = u
			}
		}()
	}
	wg.Wait()
	for _, r := range refused {
		c.aheadRefused = c.aheadRefused || r
	}
	return out
}

// worker returns a checker that lowers tools against c's enums and types,
// which it only reads, with its own diagnostics and budget.
func (c *checker) worker() *checker {
	return &checker{
		pkg:     c.pkg,
		types:   c.types,
		enums:   c.enums,
		typeSP:  c.typeSP,
		lowered: c.lowered,
		recDeps: c.recDeps,
	}
}

// charge adds work done elsewhere (reused, or lowered ahead) to the
// did-you-mean budget.
func (c *checker) charge(n int) {
	c.suggestSpent += n
	if c.suggestSpent > suggestBudget {
		c.overBudget = true
	}
}

// inexact reports whether work done elsewhere may differ from what a
// sequential check would have done: together it spent more than the
// did-you-mean budget, or a goroutine ran out of it.
func (c *checker) inexact() bool { return c.overBudget || c.aheadRefused }
