package cassette_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// secret is a key with characters that JSON and URLs escape, so that
// every escaped form is looked for.
const secret = `sk-test<&>+/=key`

func newModel(t testing.TB, provider, base string, hc *http.Client, extra ...clientopt.Option) runtime.Model {
	t.Helper()
	var m runtime.Model
	var err error
	opts := append([]clientopt.Option{clientopt.WithBaseURL(base), clientopt.WithAPIKey(secret), clientopt.WithHTTPClient(hc)}, extra...)
	switch provider {
	case runtimetest.OpenAI:
		m, err = openai.New(opts...)
	case runtimetest.OpenAIResponses:
		m, err = openai.New(append(opts, openai.WithMode(openai.ResponsesMode))...)
	case runtimetest.Anthropic:
		m, err = anthropic.New(opts...)
	case runtimetest.Gemini:
		m, err = gemini.New(opts...)
	default:
		t.Fatalf("no client for %s", provider)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// output is everything a run shows: its events (streamed text, calls,
// results) and its Response without durations, as text to compare bytes.
func run(t testing.TB, model runtime.Model, agent runtime.Agent, input string, stream bool) (string, error) {
	return runWith(t, model, agent, runtimetest.HelloGoodbyeLibrary(), input, stream)
}

func runWith(t testing.TB, model runtime.Model, agent runtime.Agent, lib *runtime.ToolLibrary, input string, stream bool) (string, error) {
	t.Helper()
	var b strings.Builder
	var opts []runtime.Option
	if stream {
		opts = append(opts, runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventText:
				b.WriteString("text " + ev.Text + "\n")
			case runtime.EventToolCall:
				b.WriteString("call " + ev.Call.Name + " " + ev.Call.Arguments + "\n")
			case runtime.EventToolResult:
				b.WriteString("result " + ev.Invocation.Result + "\n")
			}
		}))
	}
	resp, err := runtime.Run(context.Background(), model, agent, lib, input, nil, opts...)
	if resp != nil {
		for i := range resp.Invocations {
			resp.Invocations[i].Duration = 0
		}
		data, _ := json.Marshal(resp)
		b.Write(data)
	}
	return b.String(), err
}

// record runs the agent against provider's fake, recording to path.
func record(t testing.TB, provider, path string, agent runtime.Agent, input string, stream bool) string {
	t.Helper()
	fake := runtimetest.NewProviderServer(t, provider, runtimetest.Echo)
	s, err := cassette.Open(path, cassette.Record, secret)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(t, newModel(t, provider, fake.URL, s.Client), agent, input, stream)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fake.HTTP.Close() // the replay has no server
	return out
}

// replay runs the agent from the cassette at path, with no server (the
// base URL points nowhere).
func replay(t *testing.T, provider, path string, agent runtime.Agent, input string, stream bool) (string, error, error) {
	t.Helper()
	return replayWith(t, provider, path, agent, runtimetest.HelloGoodbyeLibrary(), input, stream)
}

func replayWith(t *testing.T, provider, path string, agent runtime.Agent, lib *runtime.ToolLibrary, input string, stream bool) (string, error, error) {
	t.Helper()
	s, err := cassette.Open(path, cassette.Replay, secret)
	if err != nil {
		t.Fatal(err)
	}
	out, runErr := runWith(t, newModel(t, provider, "http://127.0.0.1:1"+runtimetest.BasePath(provider), s.Client), agent, lib, input, stream)
	return out, runErr, s.Close()
}

func eachProvider(t *testing.T, f func(t *testing.T, provider string, stream bool)) {
	for _, p := range runtimetest.Providers() {
		for _, stream := range []bool{false, true} {
			name := p + "/whole"
			if stream {
				name = p + "/streamed"
			}
			t.Run(name, func(t *testing.T) { f(t, p, stream) })
		}
	}
}

const input = "Hello, I am Alice"

// TestRecordReplay: for each provider, whole and streamed, a recorded run
// replays with no server to byte-identical output, and recording the same
// run again writes a byte-identical cassette.
func TestRecordReplay(t *testing.T) {
	eachProvider(t, func(t *testing.T, provider string, stream bool) {
		dir := t.TempDir()
		path := filepath.Join(dir, "run.cassette")
		agent := runtimetest.HelloGoodbyeAgent()
		want := record(t, provider, path, agent, input, stream)
		got, runErr, closeErr := replay(t, provider, path, agent, input, stream)
		if runErr != nil || closeErr != nil {
			t.Fatalf("replay: %v; close: %v", runErr, closeErr)
		}
		if got != want {
			t.Errorf("replayed output differs:\n got %s\nwant %s", got, want)
		}
		if !strings.Contains(want, "Alice") {
			t.Errorf("the recorded run did not reach the tool: %s", want)
		}
		first, _ := os.ReadFile(path)
		record(t, provider, path, agent, input, stream)
		second, _ := os.ReadFile(path)
		if !bytes.Equal(first, second) {
			t.Errorf("recording the same run twice gave different cassettes:\n%s\n---\n%s", first, second)
		}
		assertNoKey(t, path)
	})
}

// TestReplayMismatch: a changed tool description or a changed input fails
// the replay with the first difference named, never a stale answer.
func TestReplayMismatch(t *testing.T) {
	eachProvider(t, func(t *testing.T, provider string, stream bool) {
		path := filepath.Join(t.TempDir(), "run.cassette")
		agent := runtimetest.HelloGoodbyeAgent()
		record(t, provider, path, agent, input, stream)

		changed := agent
		changed.Tools = append([]runtime.ToolSpecification(nil), agent.Tools...)
		changed.Tools[0].Description = "Greets someone, loudly"
		lib := runtimetest.HelloGoodbyeLibrary()
		lib.Replace(runtime.Tool{Spec: changed.Tools[0], Func: runtimetest.Greeter("Hello")})
		_, runErr, _ := replayWith(t, provider, path, changed, lib, input, stream)
		var mm *cassette.MismatchError
		if !errors.As(runErr, &mm) {
			t.Fatalf("changed description: err = %v, want a *MismatchError", runErr)
		}
		if mm.Index != 1 || !strings.Contains(mm.Recorded, "Returns a friendly greeting") || !strings.Contains(mm.Got, "Greets someone, loudly") {
			t.Errorf("changed description: %v", mm)
		}

		_, runErr, _ = replay(t, provider, path, agent, "Hello, I am Bob", stream)
		if !errors.As(runErr, &mm) || !strings.Contains(mm.Got, "Bob") || !strings.Contains(mm.Recorded, "Alice") || !strings.HasPrefix(mm.Path, "$.") {
			t.Fatalf("changed input: err = %v, want a mismatch at a JSON path naming Alice and Bob", runErr)
		}
	})
}

func assertNoKey(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	esc, _ := json.Marshal(secret)
	forms := []string{secret, string(esc[1 : len(esc)-1]), url.QueryEscape(secret), url.PathEscape(secret)}
	for _, f := range forms {
		if bytes.Contains(data, []byte(f)) {
			t.Errorf("the cassette holds the key as %q:\n%s", f, data)
		}
	}
	for _, h := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key"} {
		if bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(h)+":")) {
			t.Errorf("the cassette holds a %s header", h)
		}
	}
}

// TestKeyEchoed: a server that echoes the key (in its answer) still
// leaves no key in the cassette.
func TestKeyEchoed(t *testing.T) {
	echoKey := func(tn *runtimetest.Turn, n int) runtimetest.Reply {
		k := tn.Header.Get("Authorization") + tn.Header.Get("X-Api-Key") + tn.Header.Get("X-Goog-Api-Key")
		esc, _ := json.Marshal(k)
		return runtimetest.Reply{Text: "your key is " + k + " or " + string(esc) + " or " + url.QueryEscape(k)}
	}
	for _, provider := range runtimetest.Providers() {
		t.Run(provider, func(t *testing.T) {
			fake := runtimetest.NewProviderServer(t, provider, echoKey)
			path := filepath.Join(t.TempDir(), "echo.cassette")
			s, err := cassette.Open(path, cassette.Record, secret)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, newModel(t, provider, fake.URL, s.Client), runtime.Agent{Name: "a", Model: "m"}, "hi", true); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			assertNoKey(t, path)
		})
	}
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := cassette.Open(filepath.Join(dir, "missing.cassette"), cassette.Replay); err == nil || !strings.Contains(err.Error(), "record it first") {
		t.Errorf("missing cassette: %v", err)
	}
	path := filepath.Join(dir, "run.cassette")
	agent := runtimetest.HelloGoodbyeAgent()
	record(t, runtimetest.OpenAI, path, agent, input, false)

	// A run that stops early leaves recorded requests unmade: Close says so.
	s, err := cassette.Open(path, cassette.Replay, secret)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(t, runtimetest.OpenAI, "http://127.0.0.1:1/v1", s.Client)
	if _, err := runtime.Run(context.Background(), m, agent, runtimetest.HelloGoodbyeLibrary(), input, nil, runtime.WithMaxIterations(1)); err == nil {
		t.Fatal("one iteration of a two-request run: no error")
	}
	if err := s.Close(); err == nil || !strings.Contains(err.Error(), "1 recorded request(s) not made") {
		t.Errorf("Close after a short run: %v", err)
	}

	// A run that makes more requests than recorded fails on the extra one.
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Exchanges = c.Exchanges[:1]
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	s, _ = cassette.Open(path, cassette.Replay, secret)
	_, err = runtime.Run(context.Background(), newModel(t, runtimetest.OpenAI, "http://127.0.0.1:1/v1", s.Client), agent, runtimetest.HelloGoodbyeLibrary(), input, nil)
	var mm *cassette.MismatchError
	if !errors.As(err, &mm) || mm.Index != 2 || !strings.Contains(err.Error(), "holds 1 requests") {
		t.Errorf("beyond the cassette: %v", err)
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Errorf("a replay mismatch was retried: %v", err)
	}
}

// TestRetriesRecorded: a retried attempt is an exchange of its own, so a
// replay retries exactly as the recorded run did and gives its output.
func TestRetriesRecorded(t *testing.T) {
	eachProvider(t, func(t *testing.T, provider string, stream bool) {
		overloadedOnce := func(tn *runtimetest.Turn, n int) runtimetest.Reply {
			if n == 1 {
				return runtimetest.Reply{Status: http.StatusServiceUnavailable, Message: "overloaded"}
			}
			return runtimetest.Echo(tn, n)
		}
		noWait := clientopt.WithSleep(func(context.Context, time.Duration) error { return nil })
		fake := runtimetest.NewProviderServer(t, provider, overloadedOnce)
		path := filepath.Join(t.TempDir(), "retry.cassette")
		s, err := cassette.Open(path, cassette.Record, secret)
		if err != nil {
			t.Fatal(err)
		}
		agent := runtimetest.HelloGoodbyeAgent()
		want, err := run(t, newModel(t, provider, fake.URL, s.Client, noWait), agent, input, stream)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Exchanges) != 3 || c.Exchanges[0].Response.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("%d exchanges (first %d), want 3: the 503, its retry, the answer to the tool result", len(c.Exchanges), c.Exchanges[0].Response.StatusCode)
		}
		fake.HTTP.Close()
		r, err := cassette.Open(path, cassette.Replay, secret)
		if err != nil {
			t.Fatal(err)
		}
		got, err := run(t, newModel(t, provider, "http://127.0.0.1:1"+runtimetest.BasePath(provider), r.Client, noWait), agent, input, stream)
		if err != nil || r.Close() != nil {
			t.Fatalf("replay: %v", err)
		}
		if got != want {
			t.Errorf("replayed output differs:\n got %s\nwant %s", got, want)
		}
	})
}

// TestSaveNotThroughPlantedLink: a NAME.cassette.tmp symbolic link planted
// beside the cassette is not written through (issue 35.3): Save creates
// its temporary file exclusively. The set-up (a file, a link planted
// beside it) parallels cli's TestFmtWriteFile, which checks that fmt -w
// keeps a hard link.
func TestSaveNotThroughPlantedLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.cassette")
	if err := os.Symlink(victim, path+".tmp"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	c := &cassette.Cassette{}
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep\n" {
		t.Errorf("written through the planted link: %q", got)
	}
	if _, err := cassette.Load(path); err != nil {
		t.Error(err)
	}
}

// TestMismatchShowsTheChange (issue 49): a 2,000-character instruction
// changed at its end fails the replay with a window around the first
// difference, so the two values shown differ (cut at one length from the
// start, they were the same), and the message advises --rerecord and
// ignoreRequests before --record.
func TestMismatchShowsTheChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.cassette")
	agent := runtimetest.HelloGoodbyeAgent()
	agent.Instruction = strings.Repeat("You are a friendly assistant. ", 66) + "Answer in one short sentence."
	if n := len(agent.Instruction); n < 2000 {
		t.Fatalf("the instruction has %d characters", n)
	}
	record(t, "openai", path, agent, input, false)
	changed := agent
	changed.Instruction = strings.TrimSuffix(agent.Instruction, "one short sentence.") + "two long paragraphs."
	_, runErr, _ := replayWith(t, "openai", path, changed, runtimetest.HelloGoodbyeLibrary(), input, false)
	var mm *cassette.MismatchError
	if !errors.As(runErr, &mm) {
		t.Fatalf("err = %v, want a *MismatchError", runErr)
	}
	msg := mm.Error()
	for _, want := range []string{
		`recorded "…`, `Answer in one short sentence."`, `got "…`, `Answer in two long paragraphs."`,
		"at $.messages[0].content, from character 1991: recorded", "gramc test --rerecord", "ignoreRequests",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	if mm.Recorded == mm.Got {
		t.Errorf("the two values shown are the same: %s", mm.Recorded)
	}
}
