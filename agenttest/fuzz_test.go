package agenttest

import (
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/load"
)

// FuzzRun runs hostile tests on hostile cassettes: any gram source and any
// cassette give passes or failures, never a panic or a hang. Seeds: the
// examples' tests with their recordings (the weather one holds a tool
// result exchange, so mutations reach the replayed tool results).
func FuzzRun(f *testing.F) {
	seed := func(cassette string, gram ...string) {
		var src []byte
		for _, g := range gram {
			data, err := os.ReadFile(filepath.Join("..", "examples", g))
			if err != nil {
				f.Fatal(err)
			}
			src = append(append(src, data...), '\n')
		}
		c, err := os.ReadFile(filepath.Join("..", "examples", cassette))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, c)
	}
	seed("hellogoodbye/testdata/greetsAda.cassette", "hellogoodbye/hellogoodbye.gram", "hellogoodbye/tests.gram")
	seed("weather/testdata/weatherInParis.cassette", "weather/agent.gram", "weather/tools.gram", "weather/types.gram", "weather/tests.gram")
	f.Fuzz(func(t *testing.T, src, cas []byte) {
		if len(src) > 1<<16 || len(cas) > 1<<20 {
			return
		}
		// A hang anywhere (not only in Run) fails with every goroutine's
		// stack, so the fuzzer keeps the input.
		watchdog := time.AfterFunc(20*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic("FuzzRun: an input hung for 20s:\n" + string(buf[:goruntime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.gram"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs, _, err := load.Packages([]string{dir}, nil)
		if err != nil {
			return
		}
		if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range pkgs {
			for _, test := range p.Tests {
				if n++; n > 4 {
					return
				}
				// Every test replays the fuzzed cassette, wherever its
				// property says it is.
				test.Cassette = filepath.Join(dir, "testdata", "fuzz.cassette")
				if err := os.WriteFile(test.Cassette, cas, 0o644); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				r := Run(ctx, test, Options{Secrets: []string{}})
				timedOut := ctx.Err() != nil
				cancel()
				if timedOut {
					t.Fatalf("test %s did not end within 10s (replays make no network request)", test.Name)
				}
				for _, f := range r.Failures {
					if f.Message == "" {
						t.Errorf("a failure without a message: %+v", r)
					}
				}
			}
		}
	})
}
