package runtimetest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// testTelemetryNested (TestTelemetry's "agents as tools", issue 34.3): a
// parent on Anthropic calls a listed agent on OpenAI, which calls a tool;
// the run is one trace whose tree is
//
//	invoke_agent desk                      (anthropic)
//	├── chat claude-sonnet-4-5
//	├── execute_tool greeter
//	│   └── invoke_agent greeter           (openai)
//	│       ├── chat gpt-4o-mini
//	│       ├── execute_tool sayHello
//	│       └── chat gpt-4o-mini
//	└── chat claude-sonnet-4-5
func testTelemetryNested(t *testing.T) {
	parentModel, parent, withChild := nestedDesk(t, "Hello, Ada!")
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	resp, err := runtime.Run(context.Background(), parentModel, parent, library(), "Greet Ada", nil,
		runtime.WithTracerProvider(tp), withChild)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Invocations[0].Result != "Hello, Ada!" {
		t.Errorf("the child's answer as the tool result: %q", resp.Invocations[0].Result)
	}
	spans := exp.GetSpans()
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	one := func(name string) tracetest.SpanStub {
		t.Helper()
		if len(byName[name]) != 1 {
			t.Fatalf("%d spans named %q, want 1 (spans: %v)", len(byName[name]), name, names(spans))
		}
		return byName[name][0]
	}
	root, call, nested, tool := one("invoke_agent desk"), one("execute_tool greeter"), one("invoke_agent greeter"), one("execute_tool sayHello")
	childOf := func(s, parent tracetest.SpanStub) {
		t.Helper()
		if s.Parent.SpanID() != parent.SpanContext.SpanID() || s.SpanContext.TraceID() != root.SpanContext.TraceID() {
			t.Errorf("%s is not a child of %s in the run's trace", s.Name, parent.Name)
		}
	}
	if root.Parent.IsValid() {
		t.Errorf("the root agent span has a parent")
	}
	childOf(call, root)
	childOf(nested, call)
	childOf(tool, nested)
	if cs := byName["chat claude-sonnet-4-5"]; len(cs) != 2 {
		t.Errorf("%d parent chat spans", len(cs))
	} else {
		childOf(cs[0], root)
		childOf(cs[1], root)
	}
	if cs := byName["chat gpt-4o-mini"]; len(cs) != 2 {
		t.Errorf("%d child chat spans", len(cs))
	} else {
		childOf(cs[0], nested)
		childOf(cs[1], nested)
	}
	for s, want := range map[*tracetest.SpanStub]string{&root: "anthropic", &nested: "openai"} {
		if v, _ := attrOf(*s, "gen_ai.provider.name"); v.AsString() != want {
			t.Errorf("%s's provider %q, want %q", s.Name, v.AsString(), want)
		}
	}
	if len(spans) != 8 {
		t.Errorf("%d spans, want 8: %v", len(spans), names(spans))
	}
	// The nested run's invocations are kept in the parent's, as a tree.
	data, _ := json.Marshal(resp.Invocations[0].Agent.Invocations)
	if resp.Invocations[0].Agent == nil || len(resp.Invocations[0].Agent.Invocations) != 1 {
		t.Errorf("the nested run's invocations: %s", data)
	}
}

// nestedDesk is the run of testTelemetryNested's tree: desk, a parent on
// a fake Anthropic, whose one tool is greeter, a listed agent on a fake
// OpenAI that calls sayHello and answers childAnswer. withChild gives the
// run greeter's model.
func nestedDesk(t *testing.T, childAnswer string) (parentModel runtime.Model, parent runtime.Agent, withChild runtime.Option) {
	t.Helper()
	parentSrv := runtimetest.NewProviderServer(t, runtimetest.Anthropic, runtimetest.Replies(
		runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("greeter", `{"input":"Ada"}`)}},
		runtimetest.Reply{Text: "Greeted."}))
	childSrv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
		runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Ada"}`)}},
		runtimetest.Reply{Text: childAnswer}))
	childModel := fakeClient(t, runtimetest.OpenAI, childSrv.URL)
	child := runtime.Agent{Name: "greeter", Description: "Greets someone", Model: "OpenAI/gpt-4o-mini",
		Instruction: "Greet with sayHello.", Tools: []runtime.ToolSpecification{runtimetest.HelloSpec()}}
	parent = runtime.Agent{Name: "desk", Model: "Anthropic/claude-sonnet-4-5", Instruction: "Use the greeter.",
		Tools: []runtime.ToolSpecification{runtime.AgentToolSpec(child)}, Agents: []runtime.Agent{child}}
	withChild = runtime.WithModels(func(runtime.Agent) (runtime.Model, error) { return childModel, nil })
	return fakeClient(t, runtimetest.Anthropic, parentSrv.URL), parent, withChild
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// TestTelemetryNestedRedacted (issue 44.1): with content capture on, the
// caller's content redactor rewrites the content a listed agent's spans
// record too — its instruction, its tool's result, its answer — so a key
// a child's tool returns is in no span of the run.
func TestTelemetryNestedRedacted(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	parentModel, parent, withChild := nestedDesk(t, "Hello, Ada! Your key is "+key)
	lib := runtime.NewToolLibrary()
	if err := lib.Register(runtime.Tool{Spec: runtimetest.HelloSpec(), Func: func(context.Context, json.RawMessage) (any, error) {
		return "Hello! (looked up with " + key + ")", nil
	}}); err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	if _, err := runtime.Run(context.Background(), parentModel, parent, lib, "Greet Ada", nil,
		runtime.WithTracerProvider(tp), runtime.WithContentCapture(true),
		runtime.WithContentRedactor(func(s string) string { return strings.ReplaceAll(s, key, "[REDACTED]") }),
		withChild); err != nil {
		t.Fatal(err)
	}
	redacted := 0
	for _, s := range exp.GetSpans() {
		for _, kv := range s.Attributes {
			v := kv.Value.Emit()
			if strings.Contains(v, key) {
				t.Errorf("span %q records the key in %s", s.Name, kv.Key)
			}
			if strings.Contains(v, "[REDACTED]") {
				redacted++
			}
		}
	}
	if redacted == 0 {
		t.Errorf("no span recorded the redacted content: the test does not see the child's content")
	}
}
