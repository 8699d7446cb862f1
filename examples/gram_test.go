// Package examples_test runs the :Test declarations of every example
// package, as gramc test does, through the Go API (agenttest).
package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/agenttest"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestGramTests replays every example's tests from its cassettes: no
// network, no key, no tool run. GRAMC_RECORD=1 go test ./examples
// re-records them against the repository's fake of each provider (a
// user's own tests record against the real provider with gramc test
// --record), running the weather tools with weather.sh.
func TestGramTests(t *testing.T) {
	pkgs, ds, err := load.Packages([]string{"./..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasErrors() {
		// examples/testdata/broken is meant to have errors; the packages
		// with tests must not.
		for _, d := range ds {
			if d.Severity.String() == "error" && filepath.Base(filepath.Dir(d.Range.File)) != "broken" {
				t.Fatalf("example has errors: %v", d)
			}
		}
	}
	mode := cassette.ModeFromEnv()
	n := 0
	for _, p := range pkgs {
		for _, test := range p.Tests {
			n++
			t.Run(test.Name, func(t *testing.T) {
				o := agenttest.Options{Mode: mode, Tools: weatherTools(p.Dir)}
				if mode == cassette.Record {
					fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
					o.Secrets = []string{"test-key"}
					o.ClientOptions = []clientopt.Option{clientopt.WithBaseURL(fake.URL), clientopt.WithAPIKey("test-key")}
				}
				r := agenttest.Run(context.Background(), test, o)
				for _, f := range r.Failures {
					t.Error(f)
				}
				if len(r.Calls) == 0 {
					t.Errorf("the test made no tool call: %+v", r)
				}
			})
		}
	}
	if n < 3 {
		t.Errorf("found %d tests under examples/, want the weather and hellogoodbye ones", n)
	}
}

// weatherTools run examples/weather/weather.sh, as the README's gramc run
// binds them, for recording.
func weatherTools(dir string) map[string]runtime.ToolFunc {
	tools := map[string]runtime.ToolFunc{}
	for _, name := range []string{"getWeather", "getForecast", "getAlerts", "convertTemperature"} {
		tools[name] = func(ctx context.Context, args json.RawMessage) (any, error) {
			cmd := exec.CommandContext(ctx, "sh", filepath.Join(dir, "weather.sh"), name)
			cmd.Stdin = bytes.NewReader(args)
			out, err := cmd.Output()
			if err != nil {
				return nil, err
			}
			return string(out), nil
		}
	}
	return tools
}
