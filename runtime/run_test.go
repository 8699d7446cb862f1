package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

var helloSpec = runtime.ToolSpecification{
	Name:        "sayHello",
	Description: "Returns a friendly greeting message for the given name",
	Signature:   `(personName::String {default: "world"})==>(::String)`,
	Schema:      json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`),
}

var helloAgent = runtime.Agent{
	Name:        "hello_world_agent",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "You are a friendly assistant.",
	Tools:       []runtime.ToolSpecification{helloSpec},
}

func helloLib() *runtime.ToolLibrary {
	return runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: runtimetest.Greeter("Hello")})
}

func TestRunScripted(t *testing.T) {
	model := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Alice"}`), runtimetest.Call("sayHello", `{}`)),
		runtimetest.Say("Hello, Alice! And hello, world!"),
	)
	var events []string
	resp, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "hi, I am Alice", nil,
		runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventToolCall:
				events = append(events, "call "+ev.Call.Name)
			case runtime.EventToolResult:
				events = append(events, "result "+ev.Invocation.Result)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Hello, Alice! And hello, world!" || resp.Iterations != 2 {
		t.Errorf("resp = %q after %d iterations", resp.Content, resp.Iterations)
	}
	if len(resp.Invocations) != 2 || resp.Invocations[0].Result != "Hello, Alice!" || resp.Invocations[1].Result != "Hello, world!" {
		t.Errorf("invocations = %+v", resp.Invocations)
	}
	if got := string(resp.Invocations[1].Args); got != `{"personName":"world"}` {
		t.Errorf("defaults not applied: args %s", got)
	}
	if len(events) != 4 {
		t.Errorf("observer events = %q, want 2 calls and 2 results", events)
	}
	reqs := model.Requests()
	if len(reqs) != 2 || reqs[0].Instruction != helloAgent.Instruction || len(reqs[0].Tools) != 1 || reqs[0].Model != "OpenAI/gpt-4o-mini" {
		t.Fatalf("requests = %+v", reqs)
	}
	// user, assistant (2 calls), 2 tool results
	m := reqs[1].Messages
	if len(m) != 4 || m[2].Role != runtime.RoleTool || m[2].ToolCallID != "call_1" || m[3].ToolCallID != "call_2" || m[3].Content != "Hello, world!" {
		t.Errorf("second request messages = %+v", m)
	}
	if n := len(resp.Conversation.Messages); n != 5 {
		t.Errorf("conversation has %d messages, want 5", n)
	}
}

func TestRunRejects(t *testing.T) {
	model := runtimetest.NewScriptedModel()
	var ve *runtime.ValidationError
	if _, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "  \n", nil); !errors.As(err, &ve) || ve.Field != "input" {
		t.Errorf("empty input: %v", err)
	}
	var ce *runtime.ConfigurationError
	if _, err := runtime.Run(context.Background(), nil, helloAgent, helloLib(), "hi", nil); !errors.As(err, &ce) {
		t.Errorf("nil model: %v", err)
	}
	var be *runtime.ToolBindingError
	if _, err := runtime.Run(context.Background(), model, helloAgent, runtime.NewToolLibrary(), "hi", nil); !errors.As(err, &be) || be.Tool != "sayHello" {
		t.Errorf("empty library: %v", err)
	}
	if len(model.Requests()) != 0 {
		t.Error("a rejected run reached the model")
	}
}

// toolResult runs one scripted call of tool with args and returns the
// invocation and the tool message the model saw.
func toolResult(t *testing.T, lib *runtime.ToolLibrary, call runtime.ToolCall, opts ...runtime.Option) (runtime.Invocation, string) {
	t.Helper()
	model := runtimetest.NewScriptedModel(runtimetest.CallTools(call), runtimetest.Say("ok"))
	resp, err := runtime.Run(context.Background(), model, helloAgent, lib, "hi", nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	msgs := model.Requests()[1].Messages
	return resp.Invocations[0], msgs[len(msgs)-1].Content
}

func TestRunToolFailures(t *testing.T) {
	slow := func(ctx context.Context, args json.RawMessage) (any, error) {
		time.Sleep(2 * time.Second) // ignores ctx: Run must not wait
		return "late", nil
	}
	tests := []struct {
		name string
		fn   runtime.ToolFunc
		call runtime.ToolCall
		opts []runtime.Option
		kind runtime.ToolCallErrorKind
		want string
	}{
		{"unknown tool", runtimetest.Greeter("Hello"), runtimetest.Call("sayHelo", `{}`), nil, runtime.UnknownTool,
			`error: unknown tool "sayHelo"; did you mean sayHello? (the available tools are sayHello)`},
		{"invalid arguments", runtimetest.Greeter("Hello"), runtimetest.Call("sayHello", `{"personName":42}`), nil, runtime.InvalidArguments,
			"error: invalid arguments for tool sayHello: at '/personName': got number, want string"},
		{"bad json", runtimetest.Greeter("Hello"), runtimetest.Call("sayHello", `{"personName":`), nil, runtime.InvalidArguments,
			"error: invalid arguments for tool sayHello: arguments are not valid JSON"},
		{"tool error", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("database down") },
			runtimetest.Call("sayHello", `{}`), nil, runtime.ToolFailed, "error: tool sayHello failed: database down"},
		{"panic", func(context.Context, json.RawMessage) (any, error) { panic("boom") },
			runtimetest.Call("sayHello", `{}`), nil, runtime.ToolPanicked, "error: tool sayHello failed: panic: boom"},
		{"timeout", slow, runtimetest.Call("sayHello", `{}`), []runtime.Option{runtime.WithToolTimeout(20 * time.Millisecond)},
			runtime.ToolTimedOut, "error: tool sayHello timed out after 20ms"},
		{"bad result", func(context.Context, json.RawMessage) (any, error) { return func() {}, nil },
			runtimetest.Call("sayHello", `{}`), nil, runtime.BadResult, "cannot be encoded as JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: tt.fn})
			start := time.Now()
			inv, msg := toolResult(t, lib, tt.call, tt.opts...)
			if time.Since(start) > time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			var tce *runtime.ToolCallError
			if !errors.As(inv.Err, &tce) || tce.Kind != tt.kind {
				t.Fatalf("invocation error = %v, want kind %q", inv.Err, tt.kind)
			}
			if !strings.HasPrefix(msg, tt.want) && !strings.Contains(msg, tt.want) {
				t.Errorf("tool message = %q, want %q", msg, tt.want)
			}
		})
	}
}

func TestRunResults(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"text", "text"},
		{json.RawMessage(`{"a":1}`), `{"a":1}`},
		{[]byte("bytes"), "bytes"},
		{map[string]int{"n": 1}, `{"n":1}`},
		{nil, "null"},
		{42, "42"},
	}
	for _, tt := range tests {
		lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: func(context.Context, json.RawMessage) (any, error) { return tt.v, nil }})
		inv, msg := toolResult(t, lib, runtimetest.Call("sayHello", `{}`))
		if inv.Result != tt.want || msg != tt.want {
			t.Errorf("result %#v: invocation %q, message %q, want %q", tt.v, inv.Result, msg, tt.want)
		}
	}
}

func TestRunConcurrentCallsInOrder(t *testing.T) {
	var running, peak atomic.Int32
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		var a struct{ PersonName string }
		json.Unmarshal(args, &a)
		// Later calls finish first.
		d, _ := time.ParseDuration(a.PersonName)
		time.Sleep(30*time.Millisecond - d)
		return a.PersonName, nil
	}})
	var calls []runtime.ToolCall
	for i := range 6 {
		calls = append(calls, runtimetest.Call("sayHello", fmt.Sprintf(`{"personName":"%dms"}`, i*5)))
	}
	model := runtimetest.NewScriptedModel(runtimetest.CallTools(calls...), runtimetest.Say("done"))
	var observed []string // appended from concurrent calls: the observer is serialised
	resp, err := runtime.Run(context.Background(), model, helloAgent, lib, "go", nil, runtime.WithConcurrency(2),
		runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventToolCall:
				observed = append(observed, ev.Call.ID)
			case runtime.EventToolResult:
				observed = append(observed, ev.Invocation.Result)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if len(observed) != 12 {
		t.Errorf("observed %d events, want 12", len(observed))
	}
	for i, inv := range resp.Invocations {
		if want := fmt.Sprintf("%dms", i*5); inv.Result != want {
			t.Errorf("invocation %d = %q, want %q", i, inv.Result, want)
		}
	}
	if p := peak.Load(); p != 2 {
		t.Errorf("peak concurrency %d, want 2", p)
	}
	msgs := resp.Conversation.Messages
	for i := range 6 {
		if m := msgs[2+i]; m.ToolCallID != fmt.Sprintf("call_%d", i+1) {
			t.Errorf("tool message %d answers %s", i, m.ToolCallID)
		}
	}
}

func TestRunIterationLimit(t *testing.T) {
	call := runtimetest.CallTools(runtimetest.Call("sayHello", `{}`))
	model := runtimetest.NewScriptedModel(call, call, call, call)
	agent := helloAgent
	agent.MaxIterations = 3
	resp, err := runtime.Run(context.Background(), model, agent, helloLib(), "loop", nil)
	var ie *runtime.IterationLimitError
	if !errors.As(err, &ie) || ie.Limit != 3 {
		t.Fatalf("err = %v, want an IterationLimitError with limit 3", err)
	}
	if ie.Response != resp || len(resp.Invocations) != 3 || resp.Iterations != 3 {
		t.Errorf("partial response: %d invocations, %d iterations", len(resp.Invocations), resp.Iterations)
	}
	// The option overrides the agent.
	model = runtimetest.NewScriptedModel(call, call)
	_, err = runtime.Run(context.Background(), model, agent, helloLib(), "loop", nil, runtime.WithMaxIterations(1))
	if !errors.As(err, &ie) || ie.Limit != 1 {
		t.Errorf("WithMaxIterations(1): %v", err)
	}
}

func TestRunContextCancelledDuringTool(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: func(context.Context, json.RawMessage) (any, error) {
		cancel()
		time.Sleep(5 * time.Second) // ignores ctx
		return "late", nil
	}})
	model := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("sayHello", `{}`)), runtimetest.Say("never"))
	start := time.Now()
	_, err := runtime.Run(ctx, model, helloAgent, lib, "hi", nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if n := len(model.Requests()); n != 1 {
		t.Errorf("%d model requests after cancellation, want 1", n)
	}
}

func TestRunDoesNotModifyConversation(t *testing.T) {
	conv := &runtime.Conversation{Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "earlier"}, {Role: runtime.RoleAssistant, Content: "yes"}}}
	model := runtimetest.NewScriptedModel(runtimetest.Say("again"))
	resp, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "now", conv)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv.Messages) != 2 || len(resp.Conversation.Messages) != 4 {
		t.Errorf("conv %d messages, response %d", len(conv.Messages), len(resp.Conversation.Messages))
	}
	if got := model.Requests()[0].Messages; len(got) != 3 || got[0].Content != "earlier" || got[2].Content != "now" {
		t.Errorf("sent %+v", got)
	}
}

func TestRepeatedCallIDs(t *testing.T) {
	model := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtime.ToolCall{ID: "x", Name: "sayHello", Arguments: `{}`}, runtime.ToolCall{ID: "x", Name: "sayHello", Arguments: `{"personName":"B"}`}),
		runtimetest.Say("ok"))
	resp, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Conversation.Messages
	if a, b := m[1].ToolCalls[0].ID, m[1].ToolCalls[1].ID; a == b || m[2].ToolCallID != a || m[3].ToolCallID != b || m[3].Content != "Hello, B!" {
		t.Errorf("ids %q %q, results %+v %+v", a, b, m[2], m[3])
	}
}

func TestInvocationJSON(t *testing.T) {
	inv := runtime.Invocation{CallID: "c1", Tool: "t", Args: json.RawMessage(`{"a":1}`), Err: errors.New("boom"), Duration: time.Millisecond}
	data, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"callId":"c1","tool":"t","args":{"a":1},"duration":1000000,"error":"boom"}`; string(data) != want {
		t.Errorf("got %s\nwant %s", data, want)
	}
}

func TestModelErrorIsReturned(t *testing.T) {
	apiErr := &runtime.APIError{Provider: "x", StatusCode: 503, Message: "overloaded", Retryable: true}
	model := runtimetest.NewScriptedModel(runtimetest.Fail(apiErr))
	resp, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "hi", nil)
	var ae *runtime.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 503 || resp == nil {
		t.Errorf("err = %v, resp %v", err, resp)
	}
	// Beyond the script is an error, not a hang.
	if _, err := runtime.Run(context.Background(), runtimetest.NewScriptedModel(), helloAgent, helloLib(), "hi", nil); err == nil || !strings.Contains(err.Error(), "beyond the script") {
		t.Errorf("empty script: %v", err)
	}
}

// TestCallIDsUniquePerConversation: IDs a server sends can clash with the
// ones gramc generates for missing IDs, and with IDs of earlier turns
// (issue 12.6: "same, call_1_1, call_1_3, call_1_3"); every call of a
// conversation ends up with its own ID and each result answers its call.
func TestCallIDsUniquePerConversation(t *testing.T) {
	id := func(s, args string) runtime.ToolCall {
		return runtime.ToolCall{ID: s, Name: "sayHello", Arguments: args}
	}
	model := runtimetest.NewScriptedModel(
		runtimetest.CallTools(id("same", `{"personName":"A"}`), id("call_1_1", `{"personName":"B"}`), id("", `{"personName":"C"}`), id("call_1_0", `{"personName":"D"}`), id("call_1_0", `{"personName":"E"}`)),
		runtimetest.CallTools(id("same", `{"personName":"F"}`), id("", `{"personName":"G"}`)),
		runtimetest.Say("ok"))
	resp, err := runtime.Run(context.Background(), model, helloAgent, helloLib(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	answers := map[string]string{}
	names := map[string]string{}
	var kept []string // the server's IDs gramc kept (Generated false)
	for _, m := range resp.Conversation.Messages {
		for _, tc := range m.ToolCalls {
			if seen[tc.ID] || tc.ID == "" {
				t.Errorf("call ID %q is not unique in the conversation", tc.ID)
			}
			seen[tc.ID] = true
			if !tc.Generated {
				kept = append(kept, tc.ID)
			}
			var a struct{ PersonName string }
			json.Unmarshal([]byte(tc.Arguments), &a)
			names[tc.ID] = a.PersonName
		}
		if m.Role == runtime.RoleTool {
			answers[m.ToolCallID] = m.Content
		}
	}
	if len(seen) != 7 {
		t.Errorf("%d distinct IDs, want 7", len(seen))
	}
	// The scripted model names a blank call by its place (call_3, call_2):
	// those are the server's, with "same" and "call_1_1" of the first
	// turn; the twice-sent call_1_0 and the second turn's repeated "same"
	// are replaced by generated IDs.
	if want := []string{"same", "call_1_1", "call_3", "call_2"}; !slices.Equal(kept, want) {
		t.Errorf("IDs kept as the server's: %q, want %q", kept, want)
	}
	for id, name := range names {
		if answers[id] != "Hello, "+name+"!" {
			t.Errorf("call %s (%s) answered %q", id, name, answers[id])
		}
	}
}

// TestMaxToolCalls: the tool calls of one response beyond the limit are not
// run; each is answered with an error the model can act on (issue 12.13).
func TestMaxToolCalls(t *testing.T) {
	var calls []runtime.ToolCall
	for i := range 5 {
		calls = append(calls, runtime.ToolCall{Name: "sayHello", Arguments: fmt.Sprintf(`{"personName":"P%d"}`, i)})
	}
	model := runtimetest.NewScriptedModel(runtimetest.CallTools(calls...), runtimetest.Say("ok"))
	var ran atomic.Int32
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		ran.Add(1)
		return "hi", nil
	}})
	resp, err := runtime.Run(context.Background(), model, helloAgent, lib, "hi", nil, runtime.WithMaxToolCalls(3))
	if err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 3 || len(resp.Invocations) != 5 {
		t.Fatalf("ran %d tools, %d invocations", ran.Load(), len(resp.Invocations))
	}
	for i, inv := range resp.Invocations {
		var tce *runtime.ToolCallError
		tooMany := errors.As(inv.Err, &tce) && tce.Kind == runtime.TooManyCalls
		if tooMany != (i >= 3) {
			t.Errorf("invocation %d: %v", i, inv.Err)
		}
		if i >= 3 && !strings.Contains(inv.Err.Error(), "asked for 5 tool calls and at most 3 run per response") {
			t.Errorf("message: %v", inv.Err)
		}
	}
}
