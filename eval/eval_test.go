package eval

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// pkg is a package whose test passes when the model echoes (the fake's
// Echo) and fails when it answers runtimetest.FailingRun; greets calls a
// mocked tool on the way.
const pkg = `
[echo:Agent {instruction: "Echo", model: "OpenAI/gpt-4o-mini"}]
[helper:Agent {instruction: "Greet", model: "OpenAI/gpt-4o-mini"} | sayHello]
[sayHello:Tool {description: "Greets"} | (personName::String {default: "world"})==>(::String)]
[echoes:Test {agent: "echo", input: "ping", answerContains: "You said: ping"}]
[greets:Test {agent: "helper", input: "Hello, I am Ada", answerContains: "Hi, Ada"} |
  (::Call {tool: "sayHello", args: {personName: "Ada"}, returns: "Hi, Ada"})
]
`

// loadPackage writes src to a package in a new directory and returns it,
// checked without errors.
func loadPackage(t testing.TB, src string) *check.Package {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.gram"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs, ds, err := load.Packages([]string{dir}, nil)
	if err != nil || ds.HasErrors() || len(pkgs) != 1 {
		t.Fatalf("the package: %v %v", err, ds)
	}
	return pkgs[0]
}

// loadTests is loadPackage's tests by name.
func loadTests(t testing.TB, src string) map[string]*check.Test {
	t.Helper()
	out := map[string]*check.Test{}
	for _, tt := range loadPackage(t, src).Tests {
		out[tt.Name] = tt
	}
	return out
}

// fakeServer serves c through a Gauge; no schema checks (they are the
// fake's own tests' business, and cost time at thousands of runs).
func fakeServer(t testing.TB, c *runtimetest.Chance) (*runtimetest.Gauge, []clientopt.Option) {
	t.Helper()
	f := &runtimetest.Fake{Provider: runtimetest.OpenAI, Policy: c.Policy(), NoSchema: true, Problem: func(err error) { t.Error(err) }}
	g := &runtimetest.Gauge{Handler: f}
	hs := httptest.NewServer(g)
	t.Cleanup(hs.Close)
	return g, []clientopt.Option{clientopt.WithBaseURL(hs.URL + "/v1"), clientopt.WithAPIKey("k"),
		clientopt.WithBackoff(time.Millisecond, 2*time.Millisecond)}
}

func modelVariant(model string) Variant { return Variant{Name: model, Model: model} }

func cell(t *testing.T, r *Report, test, variant string) Cell {
	t.Helper()
	for _, c := range r.Cells {
		if c.Test == test && c.Variant == variant {
			return c
		}
	}
	t.Fatalf("no cell %s × %s", test, variant)
	return Cell{}
}

// TestWilsonCoversTheTruth: over 100 seeds of 50 runs of a model that
// succeeds with probability 0.8, the reported Wilson 95% interval holds
// 0.8 at least 93 times; pass^k and pass@k are the exact formulas'.
func TestWilsonCoversTheTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000 runs")
	}
	tests := loadTests(t, pkg)
	const truth = 0.8
	covered := 0
	for seed := range 100 {
		c := &runtimetest.Chance{Seed: uint64(seed), Success: map[string]float64{"gpt-4o-mini": truth}}
		_, opts := fakeServer(t, c)
		r, err := Run(context.Background(), []*check.Test{tests["echoes"]}, nil, Options{Runs: 50, K: 3, Concurrency: 8, ClientOptions: opts})
		if err != nil {
			t.Fatal(err)
		}
		got := cell(t, r, "echoes", "default")
		if got.Errored != 0 || got.Counted != 50 {
			t.Fatalf("seed %d: %d counted, %d errored: %+v", seed, got.Counted, got.Errored, r.RunList[0])
		}
		if got.Wilson != Wilson95(got.Passed, 50) || *got.PassHatK != PassHatK(got.Passed, 50, 3) || *got.PassAtK != PassAtK(got.Passed, 50, 3) {
			t.Fatalf("seed %d: the cell's figures are not the formulas': %+v", seed, got.Rates)
		}
		if got.Wilson.Contains(truth) {
			covered++
		}
	}
	if covered < 93 {
		t.Errorf("the Wilson interval covered the true rate %g in %d of 100 seeds, want at least 93", truth, covered)
	}
}

// TestComparisons: over ten seeds of 50 runs each, 0.9 against 0.6 is
// "better" (at least 9 times: the test's power is above 99%) and 0.9
// against 0.88 "no significant difference" (at least 8 times: a 95%
// interval is wrong about 1 time in 20).
func TestComparisons(t *testing.T) {
	tests := loadTests(t, pkg)
	variants := []Variant{modelVariant("OpenAI/good"), modelVariant("OpenAI/bad"), modelVariant("OpenAI/close")}
	better, same := 0, 0
	for seed := range 10 {
		c := &runtimetest.Chance{Seed: uint64(seed), Success: map[string]float64{"good": 0.9, "bad": 0.6, "close": 0.88}}
		_, opts := fakeServer(t, c)
		r, err := Run(context.Background(), []*check.Test{tests["echoes"]}, variants, Options{Runs: 50, Concurrency: 4, ClientOptions: opts})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmp := range r.Comparisons {
			switch {
			case cmp.A == "OpenAI/good" && cmp.B == "OpenAI/bad" && cmp.Verdict == Better:
				better++
			case cmp.A == "OpenAI/good" && cmp.B == "OpenAI/close" && cmp.Verdict == NoSignificant:
				same++
			}
		}
	}
	if better < 9 {
		t.Errorf("0.9 against 0.6 was better in %d of 10 seeds, want at least 9", better)
	}
	if same < 8 {
		t.Errorf("0.9 against 0.88 was no significant difference in %d of 10 seeds, want at least 8", same)
	}
}

// TestErroredAndConcurrency: a model answering 500 forever is errored,
// apart from the rate, and compared with nothing; the fake never has
// more than Concurrency requests in flight.
func TestErroredAndConcurrency(t *testing.T) {
	tests := loadTests(t, pkg)
	c := &runtimetest.Chance{Seed: 1, Success: map[string]float64{"good": 0.9}, Status: map[string]int{"down": 500}}
	g, opts := fakeServer(t, c)
	variants := []Variant{modelVariant("OpenAI/good"), modelVariant("OpenAI/down")}
	r, err := Run(context.Background(), []*check.Test{tests["echoes"], tests["greets"]}, variants, Options{Runs: 10, Concurrency: 3, ClientOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	down := r.Variants[1].Pooled
	if down.Errored != 20 || down.Counted != 0 || down.PassRate != nil {
		t.Errorf("the model that is down: %+v, want 20 errored, none counted, no rate", down)
	}
	if len(r.Comparisons) != 0 {
		t.Errorf("a variant with no counted run is compared: %+v", r.Comparisons)
	}
	if good := r.Variants[0].Pooled; good.Errored != 0 || good.Counted != 20 {
		t.Errorf("the model that is up: %+v", good)
	}
	if most := g.Most(); most > 3 || most < 1 {
		t.Errorf("%d requests in flight at once, with concurrency 3", most)
	}
	if r.Completed != 40 || r.Scheduled != 40 || r.Stopped != "" {
		t.Errorf("completed %d of %d, stopped %q", r.Completed, r.Scheduled, r.Stopped)
	}
}

// TestRetryAfter: a 429 with Retry-After: 1 is waited for (by the
// runtime's retry policy) and the run passes.
func TestRetryAfter(t *testing.T) {
	tests := loadTests(t, pkg)
	c := &runtimetest.Chance{RetryAfter: map[string]int{"gpt-4o-mini": 1}}
	_, opts := fakeServer(t, c)
	r, err := Run(context.Background(), []*check.Test{tests["echoes"]}, nil, Options{Runs: 1, ClientOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.RunList[0]; got.Outcome != Passed {
		t.Fatalf("run: %+v", got)
	}
	if w := c.Waited("gpt-4o-mini"); w < time.Second {
		t.Errorf("the retry came %v after a 429 with Retry-After: 1", w)
	}
}

// recorded runs pkg's tests echoes and greets under o against the fake
// server, where half the runs pass by chance seed, recording them; it
// returns the report, the tests, and o set to replay the recording
// offline.
func recorded(t *testing.T, seed uint64, o Options) (*Report, []*check.Test, Options) {
	t.Helper()
	tests := loadTests(t, pkg)
	list := []*check.Test{tests["echoes"], tests["greets"]}
	_, o.ClientOptions = fakeServer(t, &runtimetest.Chance{Seed: seed, Success: map[string]float64{"gpt-4o-mini": 0.5}})
	o.Record = t.TempDir()
	rec, err := Run(context.Background(), list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Record, o.Replay, o.ClientOptions = "", o.Record, nil
	return rec, list, o
}

// TestReplayIsByteIdentical: a recorded eval replays, offline, to the
// same JSON bytes.
func TestReplayIsByteIdentical(t *testing.T) {
	rec, list, o := recorded(t, 3, Options{Runs: 6, Concurrency: 4, Prices: Prices{"OpenAI/gpt-4o-mini": {Input: 0.15, Output: 0.6}}})
	rep, err := Run(context.Background(), list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the replay's report", rep, "the recording's", rec)
	if rec.Variants[0].CostUSD == 0 {
		t.Error("no cost reckoned")
	}
}

// sameJSON fails t unless reports got and want write the same JSON bytes,
// naming them gotName and wantName.
func sameJSON(t *testing.T, gotName string, got *Report, wantName string, want *Report) {
	t.Helper()
	var g, w bytes.Buffer
	if err := got.WriteJSON(&g); err != nil {
		t.Fatal(err)
	}
	if err := want.WriteJSON(&w); err != nil {
		t.Fatal(err)
	}
	if g.String() != w.String() {
		t.Errorf("%s differs from %s:\n%s\n---\n%s", gotName, wantName, g.String(), w.String())
	}
}

// TestMaxCost: the eval stops scheduling before the budget would be
// crossed, and says so.
func TestMaxCost(t *testing.T) {
	tests := loadTests(t, pkg)
	_, opts := fakeServer(t, &runtimetest.Chance{})
	prices := Prices{"OpenAI/gpt-4o-mini": {Input: 1000, Output: 1000}}
	one, err := Run(context.Background(), []*check.Test{tests["echoes"]}, nil, Options{Runs: 1, ClientOptions: opts, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	perRun := one.RunList[0].CostUSD
	budget := 3.5 * perRun
	r, err := Run(context.Background(), []*check.Test{tests["echoes"]}, nil, Options{Runs: 10, Concurrency: 2, ClientOptions: opts, Prices: prices, MaxCost: budget})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stopped != StoppedMaxCost || r.Completed != 3 || r.Variants[0].CostUSD > budget {
		t.Errorf("stopped %q after %d runs costing %g of %g", r.Stopped, r.Completed, r.Variants[0].CostUSD, budget)
	}
}

// TestInterrupt: an interrupted eval stops scheduling and reports the
// runs it finished.
func TestInterrupt(t *testing.T) {
	tests := loadTests(t, pkg)
	_, opts := fakeServer(t, &runtimetest.Chance{})
	ctx, cancel := context.WithCancel(context.Background())
	o := Options{Runs: 50, Concurrency: 2, ClientOptions: opts, Progress: func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}}
	r, err := Run(ctx, []*check.Test{tests["echoes"]}, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stopped != StoppedInterrupted || r.Completed < 5 || r.Completed > 7 {
		t.Errorf("stopped %q after %d runs", r.Stopped, r.Completed)
	}
}

func testNamed(name string) *check.Test { return &check.Test{Name: name} }

// TestListedAgentUsage: a run's tokens are its listed agents' too — the
// same sum as the response's usage and its nested responses'.
func TestListedAgentUsage(t *testing.T) {
	tests := loadTests(t, `
[coordinator:Agent {instruction: "Coordinate.", model: "OpenAI/gpt-4o-mini"} | triage]
[triage:Agent {description: "Triages a ticket", instruction: "Triage the ticket.", model: "OpenAI/gpt-4o-mini", outputMode: "tool"} |
  (ticket::String)==>(::Triage)
]
[Triage:Type | (priority::String), (summary::String)]
[runsTriage:Test {agent: "coordinator", input: "The site is down for ACME", results: "bound", answerContains: "ACME"} |
  (::Call {tool: "triage", args: {ticket: "ACME"}})
]`)
	_, opts := fakeServer(t, &runtimetest.Chance{})
	r, err := Run(context.Background(), []*check.Test{tests["runsTriage"]}, nil, Options{Runs: 1, ClientOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	run := r.RunList[0]
	if run.Outcome != Passed {
		t.Fatalf("%+v", run)
	}
	// The same run by runtime.Run: its usage and the listed agent's.
	direct := newDirectRuns(t, tests["runsTriage"], opts)
	resp, err := runtime.Run(context.Background(), direct.model, direct.agent, direct.lib, direct.input, nil,
		runtime.WithModels(func(runtime.Agent) (runtime.Model, error) { return direct.model, nil }))
	if err != nil {
		t.Fatal(err)
	}
	want := resp.Usage
	nested := 0
	for _, inv := range resp.Invocations {
		if inv.Agent != nil {
			want.Add(inv.Agent.Usage)
			nested++
		}
	}
	if nested != 1 || resp.Usage.PromptTokens == want.PromptTokens {
		t.Fatalf("the direct run has %d nested responses: %+v", nested, resp.Invocations)
	}
	if run.InputTokens != want.PromptTokens || run.OutputTokens != want.CompletionTokens {
		t.Errorf("the eval counted %d/%d tokens, the run and its listed agent used %d/%d", run.InputTokens, run.OutputTokens, want.PromptTokens, want.CompletionTokens)
	}
}
