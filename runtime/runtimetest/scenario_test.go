package runtimetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// Every scenario runs against each provider's fake server, streamed and
// not: the fakes check every request against the provider's rules, so a
// scenario passes only when the client speaks the provider's protocol and
// the runtime's loop works through it.

// The hello/goodbye agent every provider's scenarios run (runtimetest).
var (
	helloSpec   = runtimetest.HelloSpec()
	goodbyeSpec = runtimetest.GoodbyeSpec()
	helloAgent  = runtimetest.HelloGoodbyeAgent()
	library     = runtimetest.HelloGoodbyeLibrary
)

func call(name, args string) runtimetest.FakeCall {
	return runtimetest.FakeCall{Name: name, Arguments: args}
}

type sleeps = runtimetest.Sleeps

const secret = "sk-test-secret-123"

// clientConfig is what a scenario sets on a client, whatever its
// provider.
type clientConfig struct {
	maxRetries    int           // 0: the default
	timeout       time.Duration // 0: the default
	streamTimeout time.Duration // 0: the default
	realSleep     bool
}

// newClients make each provider's client from options.
var newClients = map[string]func(opts ...clientopt.Option) (runtime.Model, error){
	runtimetest.OpenAI: func(opts ...clientopt.Option) (runtime.Model, error) { return openai.New(opts...) },
	runtimetest.OpenAIResponses: func(opts ...clientopt.Option) (runtime.Model, error) {
		return openai.New(append(opts, openai.WithMode(openai.ResponsesMode))...)
	},
	runtimetest.Gemini:    func(opts ...clientopt.Option) (runtime.Model, error) { return gemini.New(opts...) },
	runtimetest.Anthropic: func(opts ...clientopt.Option) (runtime.Model, error) { return anthropic.New(opts...) },
}

// newClient makes provider p's client for a fake server at url,
// configured by cfg; its waits between retries go to s unless
// cfg.realSleep.
func newClient(p, url string, s *sleeps, cfg clientConfig) (runtime.Model, error) {
	opts := []clientopt.Option{clientopt.WithBaseURL(url), clientopt.WithAPIKey(secret), clientopt.WithMaxRetries(cfg.maxRetries), clientopt.WithTimeout(cfg.timeout), clientopt.WithStreamTimeout(cfg.streamTimeout)}
	if !cfg.realSleep {
		opts = append(opts, clientopt.WithSleep(s.Sleep))
	}
	return newClients[p](opts...)
}

// fakeClient is provider p's client for a fake server at url, configured
// by default; an error ends the test.
func fakeClient(tb testing.TB, p, url string) runtime.Model {
	tb.Helper()
	model, err := newClient(p, url, &sleeps{}, clientConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	return model
}

// boundHello is fakeClient and the hello/goodbye agent bound to its
// library.
func boundHello(tb testing.TB, p, url string) (runtime.Model, *runtime.BoundAgent) {
	tb.Helper()
	bound, err := runtime.Bind(helloAgent, library())
	if err != nil {
		tb.Fatal(err)
	}
	return fakeClient(tb, p, url), bound
}

// harness is one provider, streamed or not.
type harness struct {
	t        *testing.T
	provider string
	stream   bool
}

// forEach runs f for every provider, streamed and not.
func forEach(t *testing.T, f func(h *harness)) {
	for _, p := range runtimetest.Providers() {
		if newClients[p] == nil {
			continue
		}
		for _, stream := range []bool{false, true} {
			name := p
			if stream {
				name += "/stream"
			}
			t.Run(name, func(t *testing.T) { f(&harness{t: t, provider: p, stream: stream}) })
		}
	}
}

func (h *harness) server(p runtimetest.Policy) *runtimetest.ProviderServer {
	h.t.Helper()
	return runtimetest.NewProviderServer(h.t, h.provider, p)
}

func (h *harness) client(srv *runtimetest.ProviderServer, cfg clientConfig) (runtime.Model, *sleeps) {
	h.t.Helper()
	s := &sleeps{}
	m, err := newClient(h.provider, srv.URL, s, cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	return m, s
}

// answer is run with the hello/goodbye library in the background
// context; an error ends the test.
func (h *harness) answer(m runtime.Model, srv *runtimetest.ProviderServer, input string, conv *runtime.Conversation, opts ...runtime.Option) *runtime.Response {
	h.t.Helper()
	resp, err := h.run(context.Background(), m, library(), input, conv, srv, opts...)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

// run runs the agent; streamed, it checks that the text events add up to
// each answer and that every request asked for a stream.
func (h *harness) run(ctx context.Context, m runtime.Model, lib *runtime.ToolLibrary, input string, conv *runtime.Conversation, srv *runtimetest.ProviderServer, opts ...runtime.Option) (*runtime.Response, error) {
	h.t.Helper()
	var text strings.Builder
	var done *runtime.Response
	if h.stream {
		opts = append(opts, runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventText:
				text.WriteString(ev.Text)
			case runtime.EventUsage:
				text.Reset() // the text of the last response is the answer
			case runtime.EventDone:
				done = ev.Response
			}
		}))
	}
	resp, err := runtime.Run(ctx, m, helloAgent, lib, input, conv, opts...)
	for _, turn := range srv.Turns() {
		if turn.Stream != h.stream {
			h.t.Errorf("request asked for stream %v, want %v", turn.Stream, h.stream)
		}
	}
	if h.stream && err == nil {
		if done != resp {
			h.t.Errorf("the done event's response is not Run's")
		}
		if resp.Content != "" && !strings.HasSuffix(resp.Conversation.Messages[len(resp.Conversation.Messages)-1].Content, resp.Content) {
			h.t.Errorf("streamed answer does not end the conversation")
		}
	}
	return resp, err
}

func TestScenarioToolLoop(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Replies(
			runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Alice"}`)}},
			runtimetest.TextReply("Hello, Alice! How are you?"),
		))
		c, _ := h.client(srv, clientConfig{})
		resp := h.answer(c, srv, "Hi, I am Alice", nil)
		if resp.Content != "Hello, Alice! How are you?" || len(resp.Invocations) != 1 || resp.Invocations[0].Result != "Hello, Alice!" {
			t.Errorf("response = %+v", resp)
		}
		if resp.Usage.TotalTokens == 0 || resp.StopReason != runtime.StopEnd {
			t.Errorf("usage %+v, stop reason %q", resp.Usage, resp.StopReason)
		}
		turns := srv.Turns()
		if len(turns) != 2 {
			t.Fatalf("%d requests", len(turns))
		}
		first := turns[0]
		if first.Model != "gpt-4o-mini" || first.System != helloAgent.Instruction || len(first.Tools) != 2 ||
			first.Last().Role != runtime.RoleUser || first.Last().Content != "Hi, I am Alice" {
			t.Errorf("first request: %+v", first)
		}
		last := turns[1].Last()
		if last.Role != runtime.RoleTool || last.Content != "Hello, Alice!" {
			t.Errorf("second request ends with %+v", last)
		}
	})
}

func TestScenarioParallelCalls(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Replies(
			runtimetest.Reply{Text: "Both at once.", ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Ann"}`), call("sayGoodbye", `{"personName":"Bob"}`)}},
			runtimetest.TextReply("done"),
		))
		c, _ := h.client(srv, clientConfig{})
		resp := h.answer(c, srv, "greet Ann, bid Bob farewell", nil)
		if len(resp.Invocations) != 2 || resp.Invocations[0].Result != "Hello, Ann!" || resp.Invocations[1].Result != "Goodbye, Bob!" {
			t.Errorf("invocations = %+v", resp.Invocations)
		}
		msgs := srv.Turns()[1].Messages
		n := len(msgs)
		if n < 3 || msgs[n-3].Content != "Both at once." || len(msgs[n-3].ToolCalls) != 2 ||
			msgs[n-2].Content != "Hello, Ann!" || msgs[n-1].Content != "Goodbye, Bob!" {
			t.Errorf("second request: %+v", msgs)
		}
	})
}

// TestScenarioProviderCallIDs: the IDs a provider gives its calls go back
// with the results (for Gemini, whose ids are optional, the fake refuses a
// functionResponse without its call's id).
func TestScenarioProviderCallIDs(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		ann, bob := call("sayHello", `{"personName":"Ann"}`), call("sayGoodbye", `{"personName":"Bob"}`)
		ann.ID, bob.ID = "fc-ann", "fc-bob"
		srv := h.server(runtimetest.Replies(
			runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{ann, bob}},
			runtimetest.TextReply("done"),
		))
		c, _ := h.client(srv, clientConfig{})
		if _, err := h.run(context.Background(), c, library(), "greet Ann, bid Bob farewell", nil, srv); err != nil {
			t.Fatal(err)
		}
		msgs := srv.Turns()[1].Messages
		n := len(msgs)
		if n < 2 || msgs[n-2].ToolCallID != "fc-ann" || msgs[n-1].ToolCallID != "fc-bob" {
			t.Errorf("second request's results: %+v", msgs)
		}
	})
}

func TestScenarioInvalidArgumentsFedBack(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(func(turn *runtimetest.Turn, n int) runtimetest.Reply {
			switch n {
			case 1:
				return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"name":"Alice"}`)}}
			case 2:
				last := turn.Last()
				if !strings.Contains(last.Content, "additional properties 'name' not allowed") {
					return runtimetest.TextReply("the error was not precise: " + last.Content)
				}
				if !last.IsError && h.provider == runtimetest.Anthropic {
					return runtimetest.TextReply("the error was not marked is_error")
				}
				return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Alice"}`)}}
			}
			return runtimetest.TextReply(turn.Last().Content)
		})
		c, _ := h.client(srv, clientConfig{})
		resp := h.answer(c, srv, "hi", nil)
		if resp.Content != "Hello, Alice!" || len(resp.Invocations) != 2 {
			t.Errorf("content %q, %d invocations", resp.Content, len(resp.Invocations))
		}
		var tce *runtime.ToolCallError
		if !errors.As(resp.Invocations[0].Err, &tce) || tce.Kind != runtime.InvalidArguments {
			t.Errorf("first invocation error = %v", resp.Invocations[0].Err)
		}
	})
}

// lastResult runs one tool call through the fake and returns the tool
// result the model was sent.
func (h *harness) lastResult(lib *runtime.ToolLibrary, fc runtimetest.FakeCall, opts ...runtime.Option) (string, *runtime.Response) {
	h.t.Helper()
	srv := h.server(func(turn *runtimetest.Turn, n int) runtimetest.Reply {
		if n == 1 {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{fc}}
		}
		return runtimetest.TextReply("seen: " + turn.Last().Content)
	})
	c, _ := h.client(srv, clientConfig{})
	resp, err := h.run(context.Background(), c, lib, "hi", nil, srv, opts...)
	if err != nil {
		h.t.Fatal(err)
	}
	return strings.TrimPrefix(resp.Content, "seen: "), resp
}

func TestScenarioUnknownTool(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		msg, _ := h.lastResult(library(), call("sayHi", `{}`))
		if want := `error: unknown tool "sayHi"`; !strings.HasPrefix(msg, want) || !strings.Contains(msg, "sayHello, sayGoodbye") {
			t.Errorf("tool message = %q", msg)
		}
	})
}

func TestScenarioToolErrorAndPanic(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		lib := library()
		lib.Replace(runtime.Tool{Spec: helloSpec, Func: func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New("no greetings today")
		}})
		lib.Replace(runtime.Tool{Spec: goodbyeSpec, Func: func(context.Context, json.RawMessage) (any, error) {
			var m map[string]int
			m["x"]++
			return nil, nil
		}})
		msg, _ := h.lastResult(lib, call("sayHello", `{}`))
		if msg != "error: tool sayHello failed: no greetings today" {
			t.Errorf("tool error message = %q", msg)
		}
		msg, resp := h.lastResult(lib, call("sayGoodbye", `{}`))
		if !strings.HasPrefix(msg, "error: tool sayGoodbye failed: panic: assignment to entry in nil map") {
			t.Errorf("panic message = %q", msg)
		}
		var tce *runtime.ToolCallError
		if !errors.As(resp.Invocations[0].Err, &tce) || tce.Kind != runtime.ToolPanicked || !strings.Contains(tce.Err.Error(), "goroutine") {
			t.Errorf("panic invocation error = %#v (want the stack in Err)", resp.Invocations[0].Err)
		}
	})
}

func TestScenarioToolTimeout(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		lib := library()
		lib.Replace(runtime.Tool{Spec: helloSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
			select {
			case <-time.After(5 * time.Second):
				return "late", nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
		msg, _ := h.lastResult(lib, call("sayHello", `{}`), runtime.WithToolTimeout(30*time.Millisecond))
		if msg != "error: tool sayHello timed out after 30ms" {
			t.Errorf("timeout message = %q", msg)
		}
	})
}

func TestScenarioIterationLimit(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(func(*runtimetest.Turn, int) runtimetest.Reply {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{}`)}}
		})
		c, _ := h.client(srv, clientConfig{})
		resp, err := h.run(context.Background(), c, library(), "loop forever", nil, srv, runtime.WithMaxIterations(4))
		var ie *runtime.IterationLimitError
		if !errors.As(err, &ie) || ie.Limit != 4 {
			t.Fatalf("err = %v", err)
		}
		if len(srv.Turns()) != 4 || len(ie.Response.Invocations) != 4 || ie.Response != resp {
			t.Errorf("%d requests, %d invocations", len(srv.Turns()), len(ie.Response.Invocations))
		}
	})
}

func TestScenarioRetries(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Replies(
			runtimetest.Reply{Status: http.StatusTooManyRequests, Message: "Rate limit reached", Header: map[string]string{"Retry-After": "7"}},
			runtimetest.Reply{Status: http.StatusServiceUnavailable, Message: "overloaded"},
			runtimetest.TextReply("hello after waiting"),
		))
		c, s := h.client(srv, clientConfig{})
		resp := h.answer(c, srv, "hi", nil)
		if resp.Content != "hello after waiting" {
			t.Errorf("content %q", resp.Content)
		}
		w := s.Waits()
		if len(w) != 2 || w[0] != 7*time.Second || w[1] < 500*time.Millisecond || w[1] > time.Second {
			t.Errorf("slept %v, want [7s] from Retry-After, then the backoff's second wait", w)
		}
		// Exhausted: the provider's message, the attempts.
		srv = h.server(func(*runtimetest.Turn, int) runtimetest.Reply {
			return runtimetest.Reply{Status: http.StatusInternalServerError, Message: "The server had an error while processing your request."}
		})
		c, s = h.client(srv, clientConfig{maxRetries: 2})
		_, err := h.run(context.Background(), c, library(), "hi", nil, srv)
		var ae *runtime.APIError
		if !errors.As(err, &ae) || ae.StatusCode != 500 || !ae.Retryable || ae.Attempts != 3 || !strings.Contains(err.Error(), "The server had an error") {
			t.Fatalf("err = %#v", err)
		}
		if len(srv.Turns()) != 3 || len(s.Waits()) != 2 {
			t.Errorf("%d requests, %d sleeps", len(srv.Turns()), len(s.Waits()))
		}
		// Exponential backoff with jitter: each wait in [d/2, d], d doubling from 500ms.
		for i, d := range s.Waits() {
			hi := 500 * time.Millisecond << i
			if d < hi/2 || d > hi {
				t.Errorf("sleep %d = %v, want within [%v, %v]", i, d, hi/2, hi)
			}
		}
	})
}

func TestScenarioMalformedResponses(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		bad := []runtimetest.Reply{{Body: `{"id":"x","choices":[{"message":`}, {Body: `[1,2,3]`}}
		if h.stream {
			bad = []runtimetest.Reply{{SSE: "data: {\"id\":\"x\",\"choices\":[{\"delta\":\n\n"}, {SSE: "event: message_start\ndata: [1,2\n\n"}}
		}
		for _, reply := range bad {
			srv := h.server(runtimetest.Replies(reply))
			c, s := h.client(srv, clientConfig{})
			_, err := h.run(context.Background(), c, library(), "hi", nil, srv)
			var ae *runtime.APIError
			if !errors.As(err, &ae) || !strings.Contains(ae.Message, "malformed") || ae.Retryable {
				t.Errorf("%q: err = %v", reply.Body+reply.SSE, err)
			}
			if len(s.Waits()) != 0 {
				t.Error("a malformed response was retried")
			}
		}
	})
}

func TestScenarioCancellation(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Replies(runtimetest.Reply{Hang: true}))
		c, _ := h.client(srv, clientConfig{})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := h.run(ctx, c, library(), "hi", nil, srv)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
}

// throughJSON is conv stored as JSON and read back, as a program that
// resumes a conversation later has it.
func throughJSON(t *testing.T, conv *runtime.Conversation) *runtime.Conversation {
	t.Helper()
	stored, err := json.Marshal(conv)
	if err != nil {
		t.Fatal(err)
	}
	var back runtime.Conversation
	if err := json.Unmarshal(stored, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

func TestScenarioResumedConversation(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Echo)
		c, _ := h.client(srv, clientConfig{})
		resp := h.answer(c, srv, "Hello, I am Max", nil)
		conv := throughJSON(t, resp.Conversation)
		resp2 := h.answer(c, srv, "and again, for Lea", conv)
		if resp2.Content != "Hello, Lea!" || len(resp2.Conversation.Messages) != 8 {
			t.Errorf("second answer %q, %d messages", resp2.Content, len(resp2.Conversation.Messages))
		}
		third := srv.Turns()[2] // the first request of the second turn carries the whole history
		if len(third.Messages) != 5 || third.Messages[0].Content != "Hello, I am Max" || third.Messages[2].Content != "Hello, Max!" {
			t.Errorf("resumed request: %+v", third.Messages)
		}
	})
}

// TestResumeOnAnotherProvider: a conversation is provider-neutral JSON; one
// begun on each provider continues on every other.
func TestResumeOnAnotherProvider(t *testing.T) {
	for _, from := range runtimetest.Providers() {
		for _, to := range runtimetest.Providers() {
			if from == to || newClients[from] == nil || newClients[to] == nil {
				continue
			}
			t.Run(from+"-to-"+to, func(t *testing.T) {
				h1 := &harness{t: t, provider: from}
				srv1 := h1.server(runtimetest.Echo)
				c1, _ := h1.client(srv1, clientConfig{})
				resp := h1.answer(c1, srv1, "Hello, I am Max", nil)
				conv := throughJSON(t, resp.Conversation)
				h2 := &harness{t: t, provider: to, stream: true}
				srv2 := h2.server(runtimetest.Echo)
				c2, _ := h2.client(srv2, clientConfig{})
				resp2 := h2.answer(c2, srv2, "and again, for Lea", conv)
				if resp2.Content != "Hello, Lea!" {
					t.Errorf("answer %q", resp2.Content)
				}
				if got := srv2.Turns()[0].Messages; len(got) != 5 || got[2].Content != "Hello, Max!" {
					t.Errorf("history sent to %s: %+v", to, got)
				}
			})
		}
	}
}

// TestWeatherAgentOnEveryProvider runs the weather example (enums, records,
// defaults in $defs, a temperature) through each provider's fake, so each
// provider's rules check the schemas gramc sends for it.
func TestWeatherAgentOnEveryProvider(t *testing.T) {
	agent, err := gramfile.LoadAgent("../../testdata/examples/weather.gram", "weather_agent")
	if err != nil {
		t.Fatal(err)
	}
	forEach(t, func(h *harness) {
		t := h.t
		lib, got := runtimetest.WeatherLibrary(agent.Tools)
		srv := h.server(runtimetest.Echo)
		c, _ := h.client(srv, clientConfig{})
		var opts []runtime.Option
		if h.stream {
			opts = append(opts, runtime.WithEvents(func(runtime.Event) {}))
		}
		resp, err := runtime.Run(context.Background(), c, agent, lib, "What is the weather in Paris", nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if string(got()) != `{"city":"Paris","unit":"celsius"}` {
			t.Errorf("tool got %s", got())
		}
		if !strings.Contains(resp.Content, `"conditions":"sunny"`) {
			t.Errorf("content %s", resp.Content)
		}
		if n := len(srv.Turns()[0].Tools); n != len(agent.Tools) {
			t.Errorf("%d tools offered, want %d", n, len(agent.Tools))
		}
	})
}
