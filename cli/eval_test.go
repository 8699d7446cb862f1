package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/eval"
)

// TestProgressBar: on a terminal the bar shows runs done of all, the
// pass rate so far and the spend, on one line it rewrites; elsewhere
// (a pipe, a file, a test's buffer) nothing.
func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	quiet := newProgressBar(&env{stderr: &b})
	quiet.show(eval.Progress{Done: 1, Total: 4, Passed: 1, Counted: 1})
	quiet.clear()
	if b.Len() != 0 {
		t.Errorf("not a terminal, yet the bar wrote %q", b.String())
	}
	bar := &progressBar{w: &b, on: true}
	bar.show(eval.Progress{Done: 3, Total: 4, Passed: 2, Counted: 3, Cost: 0.5})
	want := "\r[" + strings.Repeat("=", 22) + strings.Repeat(" ", 8) + "] 3/4 runs, 66.7% passed, $0.5000"
	if b.String() != want {
		t.Errorf("bar %q, want %q", b.String(), want)
	}
	b.Reset()
	bar.show(eval.Progress{Done: 0, Total: 4})
	if !strings.Contains(b.String(), "0/4 runs, – passed") {
		t.Errorf("no run counted yet: %q", b.String())
	}
}
