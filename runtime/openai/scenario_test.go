package openai_test

// The scenarios every provider client runs (tool loop, parallel calls,
// invalid arguments, unknown tool, tool error and panic, timeout,
// iteration limit, retries, malformed responses, cancellation, resumed
// conversation) are table-driven over the providers, streamed and not, in
// runtime/runtimetest/scenario_test.go. These are OpenAI's own: the wire
// shape, arguments as an object, the legacy functions API, A/B libraries.

import (
	"context"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// helloAgent is the hello/goodbye agent every provider's scenarios run
// (runtimetest).
var helloAgent = runtimetest.HelloGoodbyeAgent()

type sleeps = runtimetest.Sleeps

func client(t *testing.T, srv *runtimetest.ProviderServer, opts ...openai.Option) (*openai.Client, *sleeps) {
	t.Helper()
	s := &sleeps{}
	all := append([]openai.Option{clientopt.WithBaseURL(srv.URL), clientopt.WithAPIKey("sk-test-secret-123"), clientopt.WithSleep(s.Sleep)}, opts...)
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
	return runtime.Run(context.Background(), c, helloAgent, runtimetest.HelloGoodbyeLibrary(), input, conv, opts...)
}

func TestHelloAgent(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
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
	reqs := srv.Chats()
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

func TestArgumentsAsObject(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
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
	if a := srv.Chats()[1].Messages[2].ToolCalls[0].Function.Arguments; a != `{"personName":"Olga"}` {
		t.Errorf("arguments sent back as %q", a)
	}
}

func TestLegacyFunctionMode(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, func(tn *runtimetest.Turn, n int) runtimetest.Reply {
		if n == 1 {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayGoodbye", `{"personName":"Eve"}`)}, Legacy: true}
		}
		return runtimetest.TextReply(tn.Last().Content)
	})
	c, _ := client(t, srv, openai.WithMode(openai.FunctionsMode))
	agent := helloAgent
	agent.ToolChoice = "auto"
	resp, err := runtime.Run(context.Background(), c, agent, runtimetest.HelloGoodbyeLibrary(), "bye", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Goodbye, Eve!" {
		t.Errorf("content %q", resp.Content)
	}
	reqs := srv.Chats()
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
		runtime.Tool{Spec: runtimetest.HelloSpec(), Func: runtimetest.Greeter("Good day")},
		runtime.Tool{Spec: runtimetest.GoodbyeSpec(), Func: runtimetest.Greeter("Farewell")},
	)
	answers := map[string]string{}
	for name, lib := range map[string]*runtime.ToolLibrary{"A": runtimetest.HelloGoodbyeLibrary(), "B": formal} {
		srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
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
