// Package agenttest runs the `:Test` declarations of a gram package: each
// test runs its agent on its input, talking to the model through a
// cassette (replayed by default: no network, no key), and checks the
// tool calls the run made and the answer it gave (docs/language.md §2.5).
// gramc test is this package on the command line; a Go test can call Run
// for each test of a package as well.
//
// A run is deterministic: tool calls run one at a time, in call order, so
// that mocked results are matched, and a cassette replays, the same way
// every time.
package agenttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gramc-dev/gramc/internal/jsonvalue"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Options configure how tests run.
type Options struct {
	// Mode is cassette.Replay (the default: answers from the cassette) or
	// cassette.Record (the real provider; the cassette is rewritten).
	Mode cassette.Mode
	// Tools are the implementations of tools by name, for tests whose
	// results are "bound", and for recording those whose results are
	// "cassette".
	Tools map[string]runtime.ToolFunc
	// ClientOptions are given to the provider client after the test's own
	// (a base URL, a timeout, a model).
	ClientOptions []clientopt.Option
	// Secrets are never written to a cassette. Nil: the values of every
	// provider's key variable in the environment.
	Secrets []string
	// ToolTimeout bounds each tool call (0: the runtime's default, none).
	ToolTimeout time.Duration
	// Scripted runs each test with no provider and no cassette: the
	// model is Scripted(test), which makes the test's expected calls and
	// gives the answer it expects. Tools whose results are "cassette"
	// run their implementations, as when recording.
	Scripted bool
	// Rerecord re-records each test's cassette from itself: the run's
	// requests are written with the cassette's recorded answers (and
	// tool results), with no provider and no key. It is for an edit that
	// changes only the requests; Mode is ignored.
	Rerecord bool
	// BindHint says how to bind a tool that has no implementation, in
	// the words of the caller ("" is the Go way: Options.Tools); NAME in
	// it is the tool's name. gramc test says --tool NAME=COMMAND.
	BindHint string
	// Live runs against the real provider with no cassette (Mode is
	// ignored): gramc eval's runs. Tools whose results are "cassette"
	// run their implementations, as when recording.
	Live bool
	// Cassette, when not empty, is the cassette's path instead of the
	// test's own (gramc eval --record and --replay DIR: one per run). It
	// may be anywhere, and every tool that runs for real answers through
	// it, recorded or replayed, so a replay runs none.
	Cassette string
	// Variant are tools that run for real whatever the test's results
	// say (gramc eval's variants: an A/B of tool libraries).
	Variant map[string]runtime.ToolFunc
	// Agent, when not nil, changes the agent before the run (a variant's
	// model, instruction, temperature).
	Agent func(runtime.Agent) runtime.Agent
	// Cache, when not nil, keeps what the runs sharing it build alike
	// (an eval's many runs of a test).
	Cache *Cache
	// NoStream asks the models for whole answers rather than streams
	// (the test's checks see the same run; a stream costs more to
	// parse). A cassette records what was asked, so a recording replays
	// with the same setting. gramc eval sets it; gramc test does not.
	NoStream bool
}

// Result is the outcome of one test.
type Result struct {
	Test *check.Test
	// Cassette is the path of the test's cassette.
	Cassette string
	// Failures are what the run did wrong; none means the test passed.
	Failures []Failure
	// Answer is the agent's final answer ("" when the run failed): a
	// typed agent's is its value's JSON text.
	Answer string
	// Value is a typed agent's result (nil for one that answers text).
	Value json.RawMessage
	// Calls are the tool calls the run made, in order.
	Calls   []runtime.Invocation
	Elapsed time.Duration
	// Usage is the tokens of every model response of the run, its listed
	// agents' included (at every depth).
	Usage runtime.Usage
	// RunErr is the error the run ended with (nil when it finished).
	RunErr error
}

// Errored reports whether the run ended with an error of the provider
// or the transport (runtime.APIError, after the runtime's retries): not
// a failure of the agent. gramc test counts it a failure; gramc eval
// counts it apart, outside the pass rate.
func (r *Result) Errored() bool { return ProviderError(r.RunErr) }

// ProviderError reports whether err is an error of the provider or the
// transport: an HTTP error status or no answer at all. A 200 whose
// content is unusable (an empty answer) is the model's doing, and a
// replay that diverged from its cassette is the run's.
func ProviderError(err error) bool {
	var api *runtime.APIError
	var mismatch *cassette.MismatchError
	return errors.As(err, &api) && api.StatusCode != http.StatusOK && !errors.As(err, &mismatch)
}

// Passed reports whether the test passed.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// Failure is one way a test failed, at the part of the test it concerns.
type Failure struct {
	Range   ast.Range
	Message string
	// Kind says which expectation failed.
	Kind FailureKind
}

// FailureKind is which expectation of a test a failure is about.
type FailureKind string

// The kinds of failure.
const (
	// MissingCall: an expected call was not made.
	MissingCall FailureKind = "missing-call"
	// ExtraCall: a call was made that the test does not expect (another
	// tool than the expected call's, or one too many).
	ExtraCall FailureKind = "extra-call"
	// WrongArgument: the expected tool was called with other arguments.
	WrongArgument FailureKind = "argument"
	// WrongAnswer: the answer is not the test's (answer, answerContains,
	// answerMatches).
	WrongAnswer FailureKind = "answer"
	// InvalidTypedAnswer: a typed agent's answer is not a value of its
	// output type (or is text).
	InvalidTypedAnswer FailureKind = "typed-answer"
	// IterationLimit: the run reached its iteration limit.
	IterationLimit FailureKind = "iteration-limit"
	// BudgetSpent: the run, its listed agents included, spent its budget
	// of model requests, tool calls or tokens (runtime.BudgetError).
	BudgetSpent FailureKind = "budget"
	// RunFailed: the run could not be made or failed otherwise (no
	// cassette, a binding, a provider error).
	RunFailed FailureKind = "run"
)

func (f Failure) String() string { return f.Range.String() + ": " + f.Message }

// CassettePath is where test t's cassette is: its `cassette` property, or
// testdata/<name>.cassette, relative to the test's file.
func CassettePath(t *check.Test) string {
	p := t.Cassette
	if p == "" {
		p = filepath.Join("testdata", t.Name+".cassette")
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(t.Range.File), p)
}

// Run runs test t. Problems of the run itself (a replayed request that
// differs from the recording, an API error, the iteration limit) are
// failures of the test too.
func Run(ctx context.Context, t *check.Test, o Options) *Result {
	start := time.Now()
	r := &Result{Test: t, Cassette: o.Cassette}
	if o.Cassette == "" && !o.Live {
		r.Cassette = CassettePath(t)
	}
	if why := r.outside(o); why != "" {
		r.fail(t.NameRange, "%s", why)
	} else {
		r.run(ctx, o)
	}
	r.Elapsed = time.Since(start)
	return r
}

// outsidePackage says why a test's cassette path is refused ("" when it
// is not): a cassette is read and written below its test's package
// directory, never elsewhere (an absolute path, "../", or a directory
// that is a symbolic link out of it) — a package's tests must not make
// gramc test --record write, or a replay read, any other file.
func outsidePackage(t *check.Test, path string) string {
	pkgDir := filepath.Dir(t.Range.File)
	rel, err := filepath.Rel(pkgDir, path)
	if err != nil || filepath.IsAbs(t.Cassette) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Sprintf("cassette %q is outside the test's package directory: give a path below it (the default is testdata/%s.cassette)", t.Cassette, t.Name)
	}
	// The deepest directory on the way that exists must resolve within
	// the package's.
	real, err := filepath.EvalSymlinks(pkgDir)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(path)
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			if rel, err := filepath.Rel(real, r); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return fmt.Sprintf("cassette %q is in %s, a symbolic link out of the test's package directory", t.Cassette, filepath.Dir(path))
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir || len(parent) < len(pkgDir) {
			return ""
		}
		dir = parent
	}
}

// outside is outsidePackage for the test's own cassette; a cassette
// the caller gives, or none, is not the package's.
func (r *Result) outside(o Options) string {
	if o.Cassette != "" || o.Live {
		return ""
	}
	return outsidePackage(r.Test, r.Cassette)
}

func (r *Result) fail(rng ast.Range, format string, args ...any) {
	r.failKind(RunFailed, rng, format, args...)
}

func (r *Result) failKind(kind FailureKind, rng ast.Range, format string, args ...any) {
	r.Failures = append(r.Failures, Failure{Range: rng, Message: fmt.Sprintf(format, args...), Kind: kind})
}

func (r *Result) run(ctx context.Context, o Options) {
	t := r.Test
	if t.Agent == nil {
		r.fail(t.NameRange, "test %s has no agent (gramc check reports why)", t.Name)
		return
	}
	agent, err := o.Cache.agent(t.Agent)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	agent = mockListed(agent, t)
	if o.Agent != nil {
		agent = o.Agent(agent)
	}
	secrets := o.Secrets
	if secrets == nil {
		secrets = provider.KeyValues()
	}
	m := newMatcher(t)
	lib, transport, err := r.library(agent, m, o)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	if o.Scripted {
		model, err := Scripted(t)
		if err != nil {
			r.fail(t.NameRange, "%v", err)
			return
		}
		r.runWith(ctx, model, agent, lib, m, o, nil)
		return
	}
	if o.Live {
		r.runLive(ctx, agent, lib, m, o)
		return
	}
	if o.Rerecord {
		old, err := cassette.Load(r.Cassette)
		if errors.Is(err, fs.ErrNotExist) {
			r.fail(t.NameRange, "no cassette %s to re-record from: record it first (gramc test --record)", r.Cassette)
			return
		}
		if err != nil {
			r.fail(t.NameRange, "%v", err)
			return
		}
		o.Mode, transport = cassette.Record, cassette.NewAnswers(r.Cassette, old)
	}
	if o.Mode == cassette.Record {
		if err := os.MkdirAll(filepath.Dir(r.Cassette), 0o755); err != nil {
			r.fail(t.NameRange, "%v", err)
			return
		}
	}
	if o.Mode == cassette.Replay {
		if _, err := os.Stat(r.Cassette); errors.Is(err, fs.ErrNotExist) {
			r.fail(t.NameRange, "no cassette %s: record it first (gramc test --record, or %s=1 go test), or run the test with no cassette and no key (gramc test --scripted)", r.Cassette, cassette.RecordEnv)
			return
		}
	}
	session, err := cassette.OpenTransport(r.Cassette, o.Mode, transport, secrets...)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	if err := session.IgnorePaths(t.IgnoreRequests...); err != nil {
		r.fail(t.NameRange, "ignoreRequests: %v", err)
		return
	}
	if r.taped(o) {
		// The tools that run for real answer through the session:
		// recorded, or replayed.
		for _, spec := range runtime.LibraryTools(agent) {
			if r.runsForReal(spec.Name, o) {
				lib.Replace(runtime.Tool{Spec: spec, Func: viaCassette(session.Client, spec.Name)})
			}
		}
	}
	copts := []clientopt.Option{clientopt.WithHTTPClient(session.Client)}
	if o.Mode == cassette.Replay || o.Rerecord {
		// No key is needed, and a recorded retry is replayed without its
		// wait: the recording waited already.
		copts = append(copts, clientopt.WithAPIKey(cassette.ReplayKey), clientopt.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() }))
	}
	model, err := newModel(agent.Model, o, append(copts, o.ClientOptions...)...)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	// The agents it lists run on their own models, through the session.
	withModels, err := listedModels(agent, copts, o)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	r.runWith(ctx, model, agent, lib, m, o, session.Close, withModels)
}

// runLive runs the test against the real provider, with no cassette.
func (r *Result) runLive(ctx context.Context, agent runtime.Agent, lib *runtime.ToolLibrary, m *matcher, o Options) {
	model, err := o.Cache.liveModel(agent.Model, o, true)
	if err != nil {
		r.fail(r.Test.NameRange, "%v", err)
		return
	}
	withModels, err := runtime.WithModelPerAgent(runtime.Subagents(agent), func(c runtime.Agent) (runtime.Model, error) {
		return o.Cache.liveModel(c.Model, o, clients.Of(c.Model) == clients.Of(agent.Model))
	})
	if err != nil {
		r.fail(r.Test.NameRange, "%v", err)
		return
	}
	r.runWith(ctx, model, agent, lib, m, o, nil, withModels)
}

// newModel is the client of model, streaming unless o.NoStream.
func newModel(model string, o Options, copts ...clientopt.Option) (runtime.Model, error) {
	m, err := clients.New(model, copts...)
	if err != nil || !o.NoStream {
		return m, err
	}
	return wholeAnswers{m}, nil
}

// wholeAnswers is a Model that does not stream: it has Complete only, so
// a run with events asks it for whole answers.
type wholeAnswers struct{ runtime.Model }

// runWith runs the test's agent on model and holds the run to the test;
// closeModel (nil for none) ends the model's session after the run; more
// are run options of its own (its listed agents' models).
func (r *Result) runWith(ctx context.Context, model runtime.Model, agent runtime.Agent, lib *runtime.ToolLibrary, m *matcher, o Options, closeModel func() error, more ...runtime.Option) {
	t := r.Test
	// The calls are kept as they end, so that a run cut short (a replay
	// that diverged because a call was not the expected one) still shows
	// which call went wrong.
	var calls []runtime.Invocation
	runOpts := append([]runtime.Option{runtime.WithConcurrency(1), runtime.WithEvents(func(ev runtime.Event) {
		if ev.Kind == runtime.EventToolResult && ev.Agent == nil { // a listed agent's calls are its own
			calls = append(calls, ev.Invocation)
		}
	})}, more...)
	if o.ToolTimeout > 0 {
		runOpts = append(runOpts, runtime.WithToolTimeout(o.ToolTimeout))
	}
	input, err := testInput(t, agent)
	if err != nil {
		r.fail(t.NameRange, "%v", err)
		return
	}
	resp, runErr := runtime.Run(ctx, model, agent, lib, input, nil, runOpts...)
	var closeErr error
	if closeModel != nil {
		closeErr = closeModel()
	}
	r.Calls = calls
	if resp != nil {
		r.Answer, r.Calls, r.Value = resp.Content, resp.Invocations, resp.Value
		r.Usage = resp.Total.Usage
	}
	callFailures := m.compare(r.Calls)
	if runErr != nil {
		// The run stopped early: the calls it did not make are not the
		// news, a call that differs is (it is why a replay diverges).
		for _, f := range callFailures {
			if !f.short {
				r.Failures = append(r.Failures, f.Failure)
			}
		}
		r.RunErr = runErr
		r.failKind(runErrorKind(runErr), t.NameRange, "the run failed: %v", runErr)
		return
	}
	if closeErr != nil {
		r.fail(t.NameRange, "%v", closeErr)
	}
	for _, f := range callFailures {
		r.Failures = append(r.Failures, f.Failure)
	}
	r.checkAnswer()
}

// runErrorKind is the kind of failure of a run that ended with err.
func runErrorKind(err error) FailureKind {
	var limit *runtime.IterationLimitError
	var output *runtime.OutputError
	var budget *runtime.BudgetError
	switch {
	case errors.As(err, &limit):
		return IterationLimit
	case errors.As(err, &budget):
		return BudgetSpent
	case errors.As(err, &output):
		return InvalidTypedAnswer
	}
	return RunFailed
}

// taped reports whether the tools that run for real answer through the
// cassette: a test whose results are "cassette", and every run on a
// cassette gramc eval gives — unless the run has no cassette at all.
func (r *Result) taped(o Options) bool {
	if o.Scripted || o.Live {
		return false
	}
	return r.Test.Results == check.CassetteResults || o.Cassette != ""
}

// runsForReal reports whether tool name runs an implementation (bound,
// or the variant's) rather than answering with the test's mocks.
func (r *Result) runsForReal(name string, o Options) bool {
	_, variant := o.Variant[name]
	return r.Test.Results != check.MockResults || variant
}

// library binds the agent's tools as the test's results say (and the
// variant's for real), and returns the transport a recording makes
// requests with. A taped tool is bound here to what a recording runs;
// run puts the cassette in front of it.
func (r *Result) library(agent runtime.Agent, m *matcher, o Options) (*runtime.ToolLibrary, http.RoundTripper, error) {
	lib := runtime.NewToolLibrary()
	specs := runtime.LibraryTools(agent)
	taped := r.taped(o)
	replayed := taped && (o.Mode == cassette.Replay || o.Rerecord) // needs no implementation
	switch {
	case r.Test.Results == check.MockResults:
		for _, spec := range specs {
			lib.Replace(runtime.Tool{Spec: spec, Func: m.mock(spec.Name)})
		}
	case !replayed:
		if err := r.bind(lib, specs, o); err != nil {
			return nil, nil, err
		}
	}
	for _, spec := range specs {
		if f, ok := o.Variant[spec.Name]; ok {
			lib.Replace(runtime.Tool{Spec: spec, Func: f})
		}
	}
	if taped && !replayed && o.Mode == cassette.Record {
		// run replaces lib's real tools with the cassette's; the
		// recording runs these.
		return lib, &toolTransport{lib: copyLibrary(lib, specs)}, nil
	}
	return lib, nil, nil
}

// copyLibrary is a library with lib's tools of specs.
func copyLibrary(lib *runtime.ToolLibrary, specs []runtime.ToolSpecification) *runtime.ToolLibrary {
	out := runtime.NewToolLibrary()
	for _, spec := range specs {
		if t, ok := lib.Lookup(spec.Name); ok {
			out.Replace(t)
		}
	}
	return out
}

// bind binds the implementations: each tool the test calls needs one; a
// tool it does not call is bound to an error (the run fails with the
// call the test does not expect, if the model makes it).
func (r *Result) bind(lib *runtime.ToolLibrary, specs []runtime.ToolSpecification, o Options) error {
	called := calledTools(r.Test)
	var missing []string
	for _, spec := range specs {
		f, ok := o.Tools[spec.Name]
		if !ok {
			if _, variant := o.Variant[spec.Name]; variant {
				continue
			}
			if slices.Contains(called, spec.Name) {
				missing = append(missing, spec.Name)
				continue
			}
			f = unbound(r.Test.Name, spec.Name)
		}
		lib.Replace(runtime.Tool{Spec: spec, Func: f})
	}
	if len(missing) > 0 {
		return fmt.Errorf("test %s runs its tools (results: %q), and tool %s has no implementation: %s", r.Test.Name, r.Test.Results, strings.Join(missing, ", "), bindHint(o.BindHint, missing[0]))
	}
	return nil
}

// testInput is the message a test sends (docs/language.md §2.5): input as a
// string, or as a map of the arguments, which is the one String
// argument's value for an agent whose input is that, else the arguments
// as one JSON object.
func testInput(t *check.Test, agent runtime.Agent) (string, error) {
	if t.Arguments == nil {
		return t.Input, nil
	}
	if sig := agent.Signature; sig != nil && sig.Message != "" {
		if s, ok := t.Arguments[sig.Message].(string); ok {
			return s, nil
		}
	}
	data, err := json.Marshal(t.Arguments)
	if err != nil {
		return "", fmt.Errorf("test %s: its input cannot be encoded: %v", t.Name, err)
	}
	return string(data), nil
}

// checkAnswer holds a typed result to answer (§2.6: a scalar or array it
// must equal, a map whose keys it must have with equal values), and the
// answer's text to answerContains and answerMatches.
func (r *Result) checkAnswer() {
	t := r.Test
	if t.HasAnswer {
		r.checkValue()
	}
	text := r.answerText()
	for _, s := range t.AnswerContains {
		if !strings.Contains(text, s) {
			r.failKind(WrongAnswer, t.NameRange, "the answer does not contain %s; it is %s", jsonstr.Text(s), jsonstr.Text(text))
		}
	}
	if t.AnswerMatches != "" {
		re, err := regexp.Compile(t.AnswerMatches)
		if err != nil {
			r.fail(t.NameRange, "answerMatches: %v", err)
		} else if !re.MatchString(text) {
			r.failKind(WrongAnswer, t.NameRange, "the answer does not match %s; it is %s", jsonstr.Text(t.AnswerMatches), jsonstr.Text(text))
		}
	}
}

// answerText is the text answerContains and answerMatches read: the
// answer, or a typed value's JSON with its strings as written (not
// "\u003c" for "<", as encoding/json writes it for HTML).
func (r *Result) answerText() string {
	if r.Value == nil {
		return r.Answer
	}
	v, err := jsonvalue.Decode(r.Value)
	if err != nil {
		return r.Answer
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return r.Answer
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// checkValue holds the run's typed value to the test's answer.
func (r *Result) checkValue() {
	t := r.Test
	if r.Value == nil {
		r.failKind(InvalidTypedAnswer, t.NameRange, "the test gives an answer, but agent %s answered text, not a typed value: %s", t.Agent.Name, jsonstr.Text(r.Answer))
		return
	}
	got, err := jsonvalue.Decode(r.Value)
	if err != nil {
		r.failKind(InvalidTypedAnswer, t.NameRange, "the answer is not JSON: %v", err)
		return
	}
	data, _ := json.Marshal(t.Answer)
	want, err := jsonvalue.Decode(data)
	if err != nil {
		r.fail(t.NameRange, "the test's answer cannot be encoded: %v", err)
		return
	}
	wm, isMap := want.(map[string]any)
	if !isMap {
		if !jsonvalue.Equal(want, got) {
			r.failKind(WrongAnswer, t.NameRange, "the answer is %s, want %s", showJSON(r.Value), showJSON(data))
		}
		return
	}
	gm, ok := got.(map[string]any)
	if !ok {
		r.failKind(WrongAnswer, t.NameRange, "the answer is %s, want an object with %s", showJSON(r.Value), showJSON(data))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(wm)) {
		g, present := gm[k]
		if !present {
			r.failKind(WrongAnswer, t.NameRange, "the answer has no %s; it is %s", k, showJSON(r.Value))
			continue
		}
		if !jsonvalue.Equal(wm[k], g) {
			gt, _ := json.Marshal(g)
			wt, _ := json.Marshal(wm[k])
			r.failKind(WrongAnswer, t.NameRange, "the answer's %s is %s, want %s", k, showJSON(gt), showJSON(wt))
		}
	}
}

// showJSON is a JSON value for a message: its text on one line, made
// safe for a terminal (the model's strings are untrusted).
func showJSON(data []byte) string { return termsafe.Line(string(data), 400) }

// matcher pairs the calls a run makes with a test's expected calls.
type matcher struct {
	test *check.Test
	used []bool
	next int // in order: the index of the next expected call
}

func newMatcher(t *check.Test) *matcher {
	return &matcher{test: t, used: make([]bool, len(t.Calls))}
}

// mock is the implementation of tool name in a test with mocked results:
// the result of the expected call the call matches (in order: the next
// one; in any order: the first unused one that matches).
func (m *matcher) mock(name string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		inv := runtime.Invocation{Tool: name, Args: args}
		if !m.test.AnyOrder {
			i := m.next
			m.next++
			if i < len(m.test.Calls) && matches(m.test.Calls[i], inv) {
				return mockResult(m.test.Calls[i]), nil
			}
			return nil, fmt.Errorf("test %s expects no such call here: no mocked result", m.test.Name)
		}
		for i, c := range m.test.Calls {
			if !m.used[i] && matches(c, inv) {
				m.used[i] = true
				return mockResult(c), nil
			}
		}
		return nil, fmt.Errorf("test %s expects no such call: no mocked result", m.test.Name)
	}
}

// mockResult is an expected call's result as the tool returns it: a
// string as is, anything else as JSON.
func mockResult(c *check.ExpectedCall) any {
	if s, ok := c.Returns.(string); ok {
		return s
	}
	data, _ := json.Marshal(c.Returns)
	return json.RawMessage(data)
}

// callFailure is a failure of the calls; short when it is only that the
// run made fewer calls than expected.
type callFailure struct {
	Failure
	short bool
}

// compare holds the calls made to the expected ones.
func (m *matcher) compare(calls []runtime.Invocation) []callFailure {
	t := m.test
	var out []callFailure
	if !t.AnyOrder {
		for i, c := range t.Calls {
			if i >= len(calls) {
				out = append(out, callFailure{Failure{c.Range, fmt.Sprintf("call %d: want %s, but the run made %s", i+1, describeExpected(c), english.Plural(len(calls), "call")), MissingCall}, true})
				continue
			}
			if !matches(c, calls[i]) {
				out = append(out, callFailure{Failure: Failure{c.Range, fmt.Sprintf("call %d: want %s, got %s", i+1, describeExpected(c), describeCall(calls[i])), wrongCallKind(c, calls[i])}})
			}
		}
		for i := len(t.Calls); i < len(calls); i++ {
			out = append(out, callFailure{Failure: Failure{t.NameRange, fmt.Sprintf("call %d: %s, which the test does not expect", i+1, describeCall(calls[i])), ExtraCall}})
		}
		return out
	}
	// In any order: a maximum matching of expected calls to calls made
	// (augmenting paths; tests expect a handful of calls).
	owner := make([]int, len(calls)) // the expected call each call made is matched to
	for i := range owner {
		owner[i] = -1
	}
	var try func(e int, seen []bool) bool
	try = func(e int, seen []bool) bool {
		for j := range calls {
			if seen[j] || !matches(t.Calls[e], calls[j]) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = e
				return true
			}
		}
		return false
	}
	matched := make([]bool, len(t.Calls))
	for e := range t.Calls {
		matched[e] = try(e, make([]bool, len(calls)))
	}
	for e, c := range t.Calls {
		if !matched[e] {
			out = append(out, callFailure{Failure{c.Range, fmt.Sprintf("no call matches %s", describeExpected(c)), MissingCall}, true})
		}
	}
	for j, inv := range calls {
		if owner[j] < 0 {
			out = append(out, callFailure{Failure: Failure{t.NameRange, fmt.Sprintf("call %d: %s, which the test does not expect", j+1, describeCall(inv)), ExtraCall}})
		}
	}
	return out
}

// wrongCallKind is the kind of a call made in place of expected call c:
// the right tool with other arguments, or another tool.
func wrongCallKind(c *check.ExpectedCall, inv runtime.Invocation) FailureKind {
	if c.Tool != nil && c.Tool.Name == inv.Tool {
		return WrongArgument
	}
	return ExtraCall
}

// matches reports whether a call made is the expected call: the same tool
// and every expected argument equal, as JSON.
func matches(c *check.ExpectedCall, inv runtime.Invocation) bool {
	if c.Tool == nil || c.Tool.Name != inv.Tool {
		return false
	}
	if len(c.Args) == 0 {
		return true
	}
	v, err := jsonvalue.Decode(inv.Args)
	got, ok := v.(map[string]any)
	if err != nil || !ok {
		return false
	}
	for k, want := range c.Args {
		v, ok := got[k]
		if !ok || !jsonvalue.Equal(want, v) {
			return false
		}
	}
	return true
}

// describeExpected is an expected call as the messages show it:
// sayHello {"personName":"Alice"}.
func describeExpected(c *check.ExpectedCall) string {
	name := "?"
	if c.Tool != nil {
		name = c.Tool.Name
	}
	if len(c.Args) == 0 {
		return name
	}
	keys := slices.Sorted(maps.Keys(c.Args))
	var b strings.Builder
	b.WriteString(name + " {")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", k, jsonstr.Text(c.Args[k]))
	}
	b.WriteString("}")
	return b.String()
}

// describeCall is a call made, as the messages show it, its arguments
// bounded (they are the model's).
func describeCall(inv runtime.Invocation) string {
	args := string(inv.Args)
	if len(args) > 200 {
		args = args[:200] + "…"
	}
	return inv.Tool + " " + args
}

// toolHost is the host of the requests that record and replay tool
// results in a cassette: POST http://gramc.tool/tools/NAME with the
// arguments as the body; the answer is {"result": ...} or {"error": "..."}.
const toolHost = "gramc.tool"

// viaCassette is tool name answered through the cassette session's client.
func viaCassette(client *http.Client, name string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+toolHost+"/tools/"+name, bytes.NewReader(args))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, cassette.MaxBodyBytes+1))
		if err != nil {
			return nil, err
		}
		var out struct {
			Result json.RawMessage `json:"result"`
			Error  *string         `json:"error"`
		}
		if err := json.Unmarshal(data, &out); err != nil || resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("the cassette's result of %s is not a tool result (status %d)", name, resp.StatusCode)
		}
		if out.Error != nil {
			return nil, errors.New(*out.Error)
		}
		var s string
		if json.Unmarshal(out.Result, &s) == nil {
			return s, nil
		}
		return out.Result, nil
	}
}

// toolTransport runs the tool a recorded tool request names and forwards
// every other request to the network.
type toolTransport struct {
	lib *runtime.ToolLibrary
}

func (tt *toolTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != toolHost {
		return http.DefaultTransport.RoundTrip(req)
	}
	name := strings.TrimPrefix(req.URL.Path, "/tools/")
	args, err := io.ReadAll(io.LimitReader(req.Body, cassette.MaxBodyBytes+1))
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	var body any
	tool, ok := tt.lib.Lookup(name)
	if !ok {
		body = map[string]any{"error": "no tool " + name}
	} else if v, err := tool.Func(req.Context(), args); err != nil {
		body = map[string]any{"error": err.Error()}
	} else {
		switch v := v.(type) {
		case string:
			body = map[string]any{"result": v}
		case json.RawMessage:
			if json.Valid(v) {
				body = map[string]any{"result": v}
			} else {
				body = map[string]any{"result": string(v)}
			}
		case []byte:
			body = map[string]any{"result": string(v)}
		default:
			body = map[string]any{"result": v}
		}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(bytes.NewReader(data)),
		Request: req, ContentLength: int64(len(data)),
	}, nil
}
