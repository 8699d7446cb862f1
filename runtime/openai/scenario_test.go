package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

var helloSpec = runtime.ToolSpecification{
	Name:        "sayHello",
	Description: "Returns a friendly greeting message for the given name",
	Schema:      json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`),
}

var goodbyeSpec = runtime.ToolSpecification{
	Name:        "sayGoodbye",
	Description: "Returns a friendly farewell message for the given name",
	Schema:      json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`),
}

var helloAgent = runtime.Agent{
	Name:        "hello_goodbye_agent",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "You are a friendly assistant.",
	Tools:       []runtime.ToolSpecification{helloSpec, goodbyeSpec},
}

func greeter(greeting string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ PersonName string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return fmt.Sprintf("%s, %s!", greeting, a.PersonName), nil
	}
}

func library() *runtime.ToolLibrary {
	return runtime.NewToolLibrary(
		runtime.Tool{Spec: helloSpec, Func: greeter("Hello")},
		runtime.Tool{Spec: goodbyeSpec, Func: greeter("Goodbye")},
	)
}

// sleeps records the client's waits between retries instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func client(t *testing.T, srv *runtimetest.Server, opts ...openai.Option) (*openai.Client, *sleeps) {
	t.Helper()
	s := &sleeps{}
	all := append([]openai.Option{openai.WithBaseURL(srv.URL), openai.WithAPIKey("sk-test-secret-123"), openai.WithSleep(s.sleep)}, opts...)
	c, err := openai.New(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func call(name, args string) runtimetest.FakeCall {
	return runtimetest.FakeCall{Name: name, Arguments: args}
}

func run(t *testing.T, c runtime.Model, input string, conv *runtime.Conversation, opts ...runtime.Option) (*runtime.Response, error) {
	t.Helper()
	return runtime.Run(context.Background(), c, helloAgent, library(), input, conv, opts...)
}

func TestHelloAgent(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.Script(
		runtimetest.ToolCallsReply(call("sayHello", `{"personName":"Alice"}`)),
		runtimetest.TextReply("Hello, Alice! How are you?"),
	))
	c, _ := client(t, srv)
	resp, err := run(t, c, "Hi, I am Alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Hello, Alice! How are you?" || len(resp.Invocations) != 1 || resp.Invocations[0].Result != "Hello, Alice!" {
		t.Errorf("response = %+v", resp)
	}
	if resp.Usage.TotalTokens == 0 {
		t.Error("usage not recorded")
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := reqs[0]
	if first.Model != "gpt-4o-mini" || first.Messages[0].Role != "system" || *first.Messages[0].Content != helloAgent.Instruction ||
		first.Messages[1].Role != "user" || len(first.Tools) != 2 {
		t.Errorf("first request: %s", first.Raw)
	}
	if got := first.Header.Get("Authorization"); got != "Bearer sk-test-secret-123" {
		t.Errorf("Authorization = %q", got)
	}
	second := reqs[1]
	last := second.Last()
	if last.Role != "tool" || *last.Content != "Hello, Alice!" || last.ToolCallID != second.Messages[2].ToolCalls[0].ID {
		t.Errorf("second request: %s", second.Raw)
	}
}

func TestTwoToolCallsInOneResponse(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.Script(
		runtimetest.ToolCallsReply(call("sayHello", `{"personName":"Ann"}`), call("sayGoodbye", `{"personName":"Bob"}`)),
		runtimetest.TextReply("done"),
	))
	c, _ := client(t, srv)
	resp, err := run(t, c, "greet Ann, bid Bob farewell", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Invocations) != 2 || resp.Invocations[0].Result != "Hello, Ann!" || resp.Invocations[1].Result != "Goodbye, Bob!" {
		t.Errorf("invocations = %+v", resp.Invocations)
	}
	msgs := srv.Requests()[1].Messages
	if len(msgs) != 5 || *msgs[3].Content != "Hello, Ann!" || *msgs[4].Content != "Goodbye, Bob!" {
		t.Errorf("tool results out of order: %s", srv.Requests()[1].Raw)
	}
}

func TestInvalidArgumentsCorrected(t *testing.T) {
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		switch n {
		case 1:
			return runtimetest.ToolCallsReply(call("sayHello", `{"name":"Alice"}`))
		case 2:
			// The model reads the error and corrects itself.
			if c := *req.Last().Content; !strings.Contains(c, "additional properties 'name' not allowed") {
				return runtimetest.TextReply("the error was not precise: " + c)
			}
			return runtimetest.ToolCallsReply(call("sayHello", `{"personName":"Alice"}`))
		}
		return runtimetest.TextReply(*req.Last().Content)
	})
	c, _ := client(t, srv)
	resp, err := run(t, c, "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Hello, Alice!" || len(resp.Invocations) != 2 {
		t.Errorf("content %q, %d invocations", resp.Content, len(resp.Invocations))
	}
	var tce *runtime.ToolCallError
	if !errors.As(resp.Invocations[0].Err, &tce) || tce.Kind != runtime.InvalidArguments {
		t.Errorf("first invocation error = %v", resp.Invocations[0].Err)
	}
}

// lastToolMessage runs one tool call through the fake server and returns
// the tool message sent back to it.
func lastToolMessage(t *testing.T, lib *runtime.ToolLibrary, fc runtimetest.FakeCall, opts ...runtime.Option) (string, *runtime.Response) {
	t.Helper()
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		if n == 1 {
			return runtimetest.ToolCallsReply(fc)
		}
		return runtimetest.TextReply("seen: " + *req.Last().Content)
	})
	c, _ := client(t, srv)
	resp, err := runtime.Run(context.Background(), c, helloAgent, lib, "hi", nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(resp.Content, "seen: "), resp
}

func TestUnknownTool(t *testing.T) {
	msg, _ := lastToolMessage(t, library(), call("sayHi", `{}`))
	if want := `error: unknown tool "sayHi"`; !strings.HasPrefix(msg, want) || !strings.Contains(msg, "sayHello, sayGoodbye") {
		t.Errorf("tool message = %q", msg)
	}
}

func TestToolErrorAndPanic(t *testing.T) {
	lib := library()
	lib.Replace(runtime.Tool{Spec: helloSpec, Func: func(context.Context, json.RawMessage) (any, error) {
		return nil, errors.New("no greetings today")
	}})
	lib.Replace(runtime.Tool{Spec: goodbyeSpec, Func: func(context.Context, json.RawMessage) (any, error) {
		var m map[string]int
		//lint:ignore SA5000 the test needs a real runtime panic
		m["x"]++
		return nil, nil
	}})
	msg, _ := lastToolMessage(t, lib, call("sayHello", `{}`))
	if msg != "error: tool sayHello failed: no greetings today" {
		t.Errorf("tool error message = %q", msg)
	}
	msg, resp := lastToolMessage(t, lib, call("sayGoodbye", `{}`))
	if !strings.HasPrefix(msg, "error: tool sayGoodbye failed: panic: assignment to entry in nil map") {
		t.Errorf("panic message = %q", msg)
	}
	var tce *runtime.ToolCallError
	if !errors.As(resp.Invocations[0].Err, &tce) || tce.Kind != runtime.ToolPanicked || !strings.Contains(tce.Err.Error(), "goroutine") {
		t.Errorf("panic invocation error = %#v (want the stack in Err)", resp.Invocations[0].Err)
	}
}

func TestSlowToolTimesOut(t *testing.T) {
	lib := library()
	lib.Replace(runtime.Tool{Spec: helloSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		select {
		case <-time.After(5 * time.Second):
			return "late", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}})
	start := time.Now()
	msg, _ := lastToolMessage(t, lib, call("sayHello", `{}`), runtime.WithToolTimeout(30*time.Millisecond))
	if msg != "error: tool sayHello timed out after 30ms" {
		t.Errorf("timeout message = %q", msg)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestIterationLimit(t *testing.T) {
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		return runtimetest.ToolCallsReply(call("sayHello", `{}`))
	})
	c, _ := client(t, srv)
	resp, err := run(t, c, "loop forever", nil)
	var ie *runtime.IterationLimitError
	if !errors.As(err, &ie) || ie.Limit != runtime.DefaultMaxIterations {
		t.Fatalf("err = %v", err)
	}
	if len(srv.Requests()) != 10 || len(ie.Response.Invocations) != 10 || ie.Response != resp {
		t.Errorf("%d requests, %d invocations", len(srv.Requests()), len(ie.Response.Invocations))
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		if n == 1 {
			r := runtimetest.ErrorReply(http.StatusTooManyRequests, "Rate limit reached for gpt-4o-mini")
			r.Header = map[string]string{"Retry-After": "7"}
			return r
		}
		return runtimetest.TextReply("hello after waiting")
	})
	c, s := client(t, srv)
	resp, err := run(t, c, "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "hello after waiting" {
		t.Errorf("content %q", resp.Content)
	}
	if len(s.d) != 1 || s.d[0] != 7*time.Second {
		t.Errorf("slept %v, want [7s] from Retry-After", s.d)
	}
}

func TestServerErrorsExhaustRetries(t *testing.T) {
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		return runtimetest.ErrorReply(http.StatusInternalServerError, "The server had an error while processing your request.")
	})
	c, s := client(t, srv, openai.WithMaxRetries(3))
	_, err := run(t, c, "hi", nil)
	var ae *runtime.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 || !ae.Retryable || ae.Attempts != 4 {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "The server had an error") {
		t.Errorf("error lacks the provider's message: %v", err)
	}
	if len(srv.Requests()) != 4 || len(s.d) != 3 {
		t.Errorf("%d requests, %d sleeps", len(srv.Requests()), len(s.d))
	}
	// Exponential backoff with jitter: each wait in [d/2, d], d doubling from 500ms.
	for i, d := range s.d {
		hi := 500 * time.Millisecond << i
		if d < hi/2 || d > hi {
			t.Errorf("sleep %d = %v, want within [%v, %v]", i, d, hi/2, hi)
		}
	}
}

func TestMalformedJSONFromServer(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.Script(runtimetest.Reply{Body: `{"id":"x","choices":[{"message":`}))
	c, s := client(t, srv)
	_, err := run(t, c, "hi", nil)
	var ae *runtime.APIError
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "malformed response") || ae.Retryable {
		t.Fatalf("err = %v", err)
	}
	if len(s.d) != 0 {
		t.Error("a malformed response was retried")
	}
}

func TestContextCancelledMidCall(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.Script(runtimetest.Reply{Hang: true}))
	c, _ := client(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := runtime.Run(ctx, c, helloAgent, library(), "hi", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}

func TestArgumentsAsObject(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.Script(
		runtimetest.ToolCallsReply(runtimetest.FakeCall{Name: "sayHello", Arguments: `{"personName":"Olga"}`, AsObject: true}),
		runtimetest.TextReply("ok"),
	))
	c, _ := client(t, srv)
	resp, err := run(t, c, "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Invocations[0].Result != "Hello, Olga!" {
		t.Errorf("invocation %+v", resp.Invocations[0])
	}
	// Sent back as the string form the API documents.
	if a := srv.Requests()[1].Messages[2].ToolCalls[0].Function.Arguments; a != `{"personName":"Olga"}` {
		t.Errorf("arguments sent back as %q", a)
	}
}

func TestLegacyFunctionMode(t *testing.T) {
	srv := runtimetest.NewServer(t, func(req *runtimetest.ChatRequest, n int) runtimetest.Reply {
		if n == 1 {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayGoodbye", `{"personName":"Eve"}`)}, Legacy: true}
		}
		return runtimetest.TextReply(*req.Last().Content)
	})
	c, _ := client(t, srv, openai.WithMode(openai.FunctionsMode))
	agent := helloAgent
	agent.ToolChoice = "auto"
	resp, err := runtime.Run(context.Background(), c, agent, library(), "bye", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Goodbye, Eve!" {
		t.Errorf("content %q", resp.Content)
	}
	reqs := srv.Requests()
	if len(reqs[0].Functions) != 2 || len(reqs[0].Tools) != 0 || string(reqs[0].FunctionCall) != `"auto"` {
		t.Errorf("first request: %s", reqs[0].Raw)
	}
	m := reqs[1].Messages
	if m[2].FunctionCall == nil || m[2].FunctionCall.Name != "sayGoodbye" || m[3].Role != "function" || m[3].Name != "sayGoodbye" {
		t.Errorf("second request: %s", reqs[1].Raw)
	}
}

func TestABLibraries(t *testing.T) {
	formal := runtime.NewToolLibrary(
		runtime.Tool{Spec: helloSpec, Func: greeter("Good day")},
		runtime.Tool{Spec: goodbyeSpec, Func: greeter("Farewell")},
	)
	answers := map[string]string{}
	for name, lib := range map[string]*runtime.ToolLibrary{"A": library(), "B": formal} {
		srv := runtimetest.NewServer(t, runtimetest.EchoPolicy)
		c, _ := client(t, srv)
		resp, err := runtime.Run(context.Background(), c, helloAgent, lib, "Hello, I am Zoe", nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		answers[name] = resp.Content
	}
	if answers["A"] != "Hello, Zoe!" || answers["B"] != "Good day, Zoe!" {
		t.Errorf("answers = %q", answers)
	}
}

func TestResumeConversationFromJSON(t *testing.T) {
	srv := runtimetest.NewServer(t, runtimetest.EchoPolicy)
	c, _ := client(t, srv)
	resp, err := run(t, c, "Hello, I am Max", nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(resp.Conversation)
	if err != nil {
		t.Fatal(err)
	}
	var conv runtime.Conversation
	if err := json.Unmarshal(stored, &conv); err != nil {
		t.Fatal(err)
	}
	resp2, err := run(t, c, "and again, for Lea", &conv)
	if err != nil {
		t.Fatal(err)
	}
	if resp2.Content != "Hello, Lea!" {
		t.Errorf("second answer %q", resp2.Content)
	}
	reqs := srv.Requests()
	third := reqs[2] // the first request of the second turn carries the whole history
	if len(third.Messages) != 6 || *third.Messages[1].Content != "Hello, I am Max" || *third.Messages[4].Content != "Hello, Max!" {
		t.Errorf("resumed request: %s", third.Raw)
	}
	if len(resp2.Conversation.Messages) != 8 {
		t.Errorf("%d messages after two turns, want 8", len(resp2.Conversation.Messages))
	}
}
