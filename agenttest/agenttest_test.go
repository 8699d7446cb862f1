package agenttest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// agents is a package with one agent per provider; each test's agent is
// named by its provider.
const agents = `
[openai:Agent {instruction: "Greet", model: "OpenAI/gpt-4o-mini"} | sayHello]
[anthropic:Agent {instruction: "Greet", model: "Anthropic/claude-sonnet-4-5"} | sayHello]
[gemini:Agent {instruction: "Greet", model: "Gemini/gemini-2.5-flash"} | sayHello]
[sayHello:Tool {description: "Greets"} | (personName::String {default: "world"})==>(::String)]
`

// loadTests writes src (after the agents) to a package in a new directory
// and returns its tests by name.
func loadTests(t *testing.T, dir, src string) map[string]*check.Test {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "agent.gram"), []byte(agents+src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs, ds, err := load.Packages([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasErrors() {
		t.Fatalf("the package has errors:\n%v", ds)
	}
	out := map[string]*check.Test{}
	for _, p := range pkgs {
		for _, tt := range p.Tests {
			out[tt.Name] = tt
		}
	}
	return out
}

// record runs test against the provider's fake, recording its cassette.
func record(t *testing.T, provider string, test *check.Test, o Options) *Result {
	t.Helper()
	fake := runtimetest.NewProviderServer(t, provider, runtimetest.Echo)
	o.Mode = cassette.Record
	o.Secrets = []string{"test-key"}
	o.ClientOptions = append(o.ClientOptions, clientopt.WithBaseURL(fake.URL), clientopt.WithAPIKey("test-key"))
	return Run(context.Background(), test, o)
}

func failures(r *Result) string {
	var b strings.Builder
	for _, f := range r.Failures {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

var providers = []string{runtimetest.OpenAI, runtimetest.Anthropic, runtimetest.Gemini}

// forEachProvider runs f in a subtest per provider, in a new directory
// holding the agents and src, where PROVIDER names the provider's agent.
func forEachProvider(t *testing.T, src string, f func(t *testing.T, p, dir string, tests map[string]*check.Test)) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			dir := t.TempDir()
			f(t, p, dir, loadTests(t, dir, strings.ReplaceAll(src, "PROVIDER", p)))
		})
	}
}

// TestRecordThenReplay: for each provider, a test with a mocked result
// records against the fake and replays with no server and no key, with
// the same answer and calls; the cassette holds no key.
func TestRecordThenReplay(t *testing.T) {
	forEachProvider(t, `
[greets:Test {agent: "PROVIDER", input: "Hello, I am Alice", answerContains: "Hi there, Alice", answerMatches: "^Hi there"} |
  (::Call {tool: "sayHello", args: {personName: "Alice"}, returns: "Hi there, Alice!"})
]`, func(t *testing.T, p, dir string, tests map[string]*check.Test) {
		rec := record(t, p, tests["greets"], Options{})
		if !rec.Passed() {
			t.Fatalf("recording failed:\n%s", failures(rec))
		}
		data, err := os.ReadFile(filepath.Join(dir, "testdata", "greets.cassette"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "test-key") {
			t.Error("the cassette holds the key")
		}
		rep := Run(context.Background(), tests["greets"], Options{})
		if !rep.Passed() {
			t.Fatalf("replay failed:\n%s", failures(rep))
		}
		if rep.Answer != rec.Answer || rep.Answer != "Hi there, Alice!" {
			t.Errorf("replayed answer %q, recorded %q", rep.Answer, rec.Answer)
		}
		if len(rep.Calls) != 1 || rep.Calls[0].Result != "Hi there, Alice!" {
			t.Errorf("calls %+v", rep.Calls)
		}
	})
}

// TestFailures: each way a test fails is reported, positioned at what it
// concerns.
func TestFailures(t *testing.T) {
	dir := t.TempDir()
	tests := loadTests(t, dir, `
[wrongArgs:Test {agent: "openai", input: "Hello, I am Alice"} |
  (::Call {tool: "sayHello", args: {personName: "Bob"}, returns: "Hi"})
]
[wrongAnswer:Test {agent: "openai", input: "Hello, I am Alice", answerContains: ["Hi", "Bob"], answerMatches: "(?i)^bye"} |
  (::Call {tool: "sayHello", returns: "Hi, Alice"})
]
[unexpected:Test {agent: "openai", input: "Hello, I am Alice"}]
[missing:Test {agent: "openai", input: "Hello, I am Alice"} |
  (::Call {tool: "sayHello", returns: "Hi"}),
  (::Call {tool: "sayHello", returns: "Hi again"})
]
`)
	kinds := map[string]FailureKind{"wrongArgs": WrongArgument, "wrongAnswer": WrongAnswer, "unexpected": ExtraCall, "missing": MissingCall}
	for name, want := range map[string][]string{
		"wrongArgs":   {`agent.gram:8:3: call 1: want sayHello {personName: "Bob"}, got sayHello {"personName":"Alice"}`},
		"wrongAnswer": {`the answer does not contain "Bob"; it is "Hi, Alice"`, `the answer does not match "(?i)^bye"`},
		"unexpected":  {`call 1: sayHello {"personName":"Alice"}, which the test does not expect`},
		"missing":     {`agent.gram:16:3: call 2: want sayHello, but the run made 1 call`},
	} {
		t.Run(name, func(t *testing.T) {
			r := record(t, runtimetest.OpenAI, tests[name], Options{})
			got := failures(r)
			if r.Passed() {
				t.Fatal("passed")
			}
			for _, f := range r.Failures {
				if f.Kind != kinds[name] {
					t.Errorf("failure %q is of kind %q, want %q", f.Message, f.Kind, kinds[name])
				}
			}
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("failures do not say %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestReplayMismatch: a test whose input changed since the recording
// fails with the difference named; so does a missing cassette.
func TestReplayMismatch(t *testing.T) {
	dir := t.TempDir()
	test := `
[greets:Test {agent: "anthropic", input: "INPUT"} |
  (::Call {tool: "sayHello", returns: "Hi"})
]`
	tests := loadTests(t, dir, strings.Replace(test, "INPUT", "Hello, I am Alice", 1))
	if r := record(t, runtimetest.Anthropic, tests["greets"], Options{}); !r.Passed() {
		t.Fatalf("recording failed:\n%s", failures(r))
	}
	tests = loadTests(t, dir, strings.Replace(test, "INPUT", "Hello, I am Bob", 1))
	r := Run(context.Background(), tests["greets"], Options{})
	if got := failures(r); !strings.Contains(got, "Bob") || !strings.Contains(got, "Alice") || !strings.Contains(got, "messages") {
		t.Errorf("want the changed message named with both values; got:\n%s", got)
	}
	os.RemoveAll(filepath.Join(dir, "testdata"))
	r = Run(context.Background(), tests["greets"], Options{})
	if got := failures(r); !strings.Contains(got, "no cassette") {
		t.Errorf("want no cassette; got:\n%s", got)
	}
}

// TestAnyOrder: calls: "anyOrder" matches the calls made as a set.
func TestAnyOrder(t *testing.T) {
	calls := []runtime.Invocation{
		{Tool: "sayHello", Args: json.RawMessage(`{"personName":"Bob"}`)},
		{Tool: "sayHello", Args: json.RawMessage(`{"personName":"Alice"}`)},
	}
	dir := t.TempDir()
	tests := loadTests(t, dir, `
[set:Test {agent: "openai", input: "x", calls: "anyOrder"} |
  (::Call {tool: "sayHello", returns: "a"}),
  (::Call {tool: "sayHello", args: {personName: "Bob"}, returns: "b"})
]
[seq:Test {agent: "openai", input: "x"} |
  (::Call {tool: "sayHello", returns: "a"}),
  (::Call {tool: "sayHello", args: {personName: "Bob"}, returns: "b"})
]`)
	// A greedy pairing would give Bob's call to the first element and
	// find nothing for the second; the matching finds the pairing.
	if f := newMatcher(tests["set"]).compare(calls); len(f) != 0 {
		t.Errorf("anyOrder: %v", f)
	}
	if f := newMatcher(tests["seq"]).compare(calls); len(f) != 1 || !strings.Contains(f[0].Message, "call 2") {
		t.Errorf("inOrder: %v", f)
	}
	if f := newMatcher(tests["set"]).compare(calls[:1]); len(f) != 1 || !strings.Contains(f[0].Message, `no call matches sayHello {personName: "Bob"}`) && !strings.Contains(f[0].Message, "no call matches sayHello") {
		t.Errorf("anyOrder, one call short: %v", f)
	}
}

// TestToolResultsFromTheCassette: results "bound" runs the tool every
// time; "cassette" runs it when recording and replays its result without
// running it.
func TestToolResultsFromTheCassette(t *testing.T) {
	forEachProvider(t, `
[fromCassette:Test {agent: "PROVIDER", input: "Hello, I am Alice", results: "cassette", answerContains: "Hello, Alice! (run 1)"} |
  (::Call {tool: "sayHello", args: {personName: "Alice"}})
]
[bound:Test {agent: "PROVIDER", input: "Hello, I am Alice", results: "bound", cassette: "testdata/bound.cassette"} |
  (::Call {tool: "sayHello", args: {personName: "Alice"}})
]`, func(t *testing.T, p, dir string, tests map[string]*check.Test) {
		var runs atomic.Int32
		tools := map[string]runtime.ToolFunc{"sayHello": func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct{ PersonName string }
			json.Unmarshal(args, &a)
			return "Hello, " + a.PersonName + "! (run " + string(rune('0'+runs.Add(1))) + ")", nil
		}}
		if r := record(t, p, tests["fromCassette"], Options{Tools: tools}); !r.Passed() {
			t.Fatalf("recording failed:\n%s", failures(r))
		}
		if runs.Load() != 1 {
			t.Fatalf("recording ran the tool %d times", runs.Load())
		}
		r := Run(context.Background(), tests["fromCassette"], Options{})
		if !r.Passed() || runs.Load() != 1 {
			t.Fatalf("replay ran the tool (%d runs) or failed:\n%s", runs.Load(), failures(r))
		}
		data, _ := os.ReadFile(r.Cassette)
		if !strings.Contains(string(data), "POST /tools/sayHello") {
			t.Errorf("the cassette does not hold the tool's exchange:\n%s", data)
		}

		if r := record(t, p, tests["bound"], Options{Tools: tools}); !r.Passed() {
			t.Fatalf("recording bound failed:\n%s", failures(r))
		}
		// Bound tools run on replay: a tool that now answers
		// differently makes the replayed request differ.
		r = Run(context.Background(), tests["bound"], Options{Tools: tools})
		if r.Passed() || !strings.Contains(failures(r), "run 3") {
			t.Errorf("a changed tool result replayed silently:\n%s", failures(r))
		}
		// From Go, the message names the Go way to bind it.
		r = Run(context.Background(), tests["bound"], Options{})
		if got := failures(r); !strings.Contains(got, `bind it in agenttest.Options.Tools["sayHello"]`) {
			t.Errorf("unbound: %s", got)
		}
	})
}

// BenchmarkReplay runs the weather example's test from its cassette (a
// model request, a tool result from the cassette, a second request): the
// cost of one offline test in gramc test. Bytes are the cassette's.
func BenchmarkReplay(b *testing.B) {
	pkgs, ds, err := load.Packages([]string{filepath.Join("..", "examples", "weather")}, nil)
	if err != nil || ds.HasErrors() {
		b.Fatal(err, ds)
	}
	test := pkgs[0].Tests[0]
	info, err := os.Stat(CassettePath(test))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(context.Background(), test, Options{Secrets: []string{}}); !r.Passed() {
			b.Fatal(failures(r))
		}
	}
}

// TestLive: a live run talks to the provider with no cassette and
// counts the tokens of every response; a provider that answers 500
// makes the run errored (not a failure of the agent), and one that
// runs out of iterations fails with that kind.
func TestLive(t *testing.T) {
	dir := t.TempDir()
	tests := loadTests(t, dir, `
[greets:Test {agent: "openai", input: "Hello, I am Alice", answerContains: "Hi"} |
  (::Call {tool: "sayHello", args: {personName: "Alice"}, returns: "Hi, Alice"})
]`)
	live := func(p runtimetest.Policy) *Result {
		fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, p)
		o := Options{Live: true, ClientOptions: []clientopt.Option{clientopt.WithBaseURL(fake.URL), clientopt.WithAPIKey("k"), clientopt.WithMaxRetries(1), clientopt.WithBackoff(time.Millisecond, time.Millisecond)}}
		return Run(context.Background(), tests["greets"], o)
	}
	r := live(runtimetest.Echo)
	if !r.Passed() || r.Errored() {
		t.Fatalf("live run: %s", failures(r))
	}
	if r.Usage.TotalTokens == 0 {
		t.Error("no tokens counted")
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); err == nil {
		t.Error("a live run wrote a cassette")
	}
	r = live(func(*runtimetest.Turn, int) runtimetest.Reply { return runtimetest.ErrorReply(500, "down") })
	if !r.Errored() || r.Passed() {
		t.Errorf("500s: errored %v, failures %s", r.Errored(), failures(r))
	}
	r = live(runtimetest.Replies(runtimetest.TextReply("no")))
	if r.Errored() || len(r.Failures) == 0 || r.Failures[0].Kind != MissingCall {
		t.Errorf("a text answer: errored %v, failures %+v", r.Errored(), r.Failures)
	}
}
