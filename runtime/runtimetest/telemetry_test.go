package runtimetest_test

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

func attrOf(s tracetest.SpanStub, key string) (attribute.Value, bool) {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

func spanNamed(spans tracetest.SpanStubs, prefix string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if strings.HasPrefix(s.Name, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// TestTelemetry (issue 24): for each provider, whole and streamed, a run
// with a tool call records one trace: invoke_agent (INTERNAL) holding a
// chat span (CLIENT) per model request and an execute_tool span
// (INTERNAL) per call, with the GenAI conventions' attributes, and the
// token-usage and duration histograms; a rejected call is an error span
// with the validation failure; content only when asked for.
func TestTelemetry(t *testing.T) {
	providerName := map[string]string{runtimetest.OpenAI: "openai", runtimetest.OpenAIResponses: "openai", runtimetest.Anthropic: "anthropic", runtimetest.Gemini: "gcp.gemini"}
	for _, p := range runtimetest.Providers() {
		for _, stream := range []bool{false, true} {
			name := p + "/whole"
			if stream {
				name = p + "/streamed"
			}
			t.Run(name, func(t *testing.T) {
				srv := runtimetest.NewProviderServer(t, p, runtimetest.Replies(
					runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Ada"}`), call("sayHello", `{"personName":7}`)}},
					runtimetest.Reply{Text: "Hello, Ada!"}))
				model := fakeClient(t, p, srv.URL)
				exp := tracetest.NewInMemoryExporter()
				tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
				reader := sdkmetric.NewManualReader()
				mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
				opts := []runtime.Option{runtime.WithTracerProvider(tp), runtime.WithMeterProvider(mp), runtime.WithProviderName(providerName[p])}
				if stream {
					opts = append(opts, runtime.WithEvents(func(runtime.Event) {}))
				}
				agent := helloAgent
				agent.Description = "Greets and says goodbye"
				resp, err := runtime.Run(context.Background(), model, agent, library(), "Hi, I am Ada", nil, opts...)
				if err != nil {
					t.Fatal(err)
				}
				spans := exp.GetSpans()
				agents := spanNamed(spans, "invoke_agent ")
				chats := spanNamed(spans, "chat ")
				tools := spanNamed(spans, "execute_tool ")
				if len(agents) != 1 || len(chats) != 2 || len(tools) != 2 {
					t.Fatalf("spans: %d invoke_agent, %d chat, %d execute_tool; want 1, 2, 2", len(agents), len(chats), len(tools))
				}
				root := agents[0]
				if root.Name != "invoke_agent hello_goodbye_agent" || root.SpanKind != trace.SpanKindInternal {
					t.Errorf("agent span %q kind %v", root.Name, root.SpanKind)
				}
				for _, s := range append(chats, tools...) {
					if s.Parent.SpanID() != root.SpanContext.SpanID() || s.SpanContext.TraceID() != root.SpanContext.TraceID() {
						t.Errorf("%s is not a child of the agent span in its trace", s.Name)
					}
				}
				for key, want := range map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "hello_goodbye_agent", "gen_ai.agent.description": "Greets and says goodbye", "gen_ai.provider.name": providerName[p]} {
					if v, _ := attrOf(root, key); v.AsString() != want {
						t.Errorf("agent span %s = %q, want %q", key, v.AsString(), want)
					}
				}
				if v, ok := attrOf(root, "gen_ai.usage.input_tokens"); !ok || v.AsInt64() != int64(resp.Usage.PromptTokens) {
					t.Errorf("agent span input tokens %v, want %d", v.AsInt64(), resp.Usage.PromptTokens)
				}
				for _, c := range chats {
					if c.Name != "chat gpt-4o-mini" || c.SpanKind != trace.SpanKindClient {
						t.Errorf("chat span %q kind %v", c.Name, c.SpanKind)
					}
					if v, _ := attrOf(c, "gen_ai.operation.name"); v.AsString() != "chat" {
						t.Errorf("chat operation %q", v.AsString())
					}
					if v, ok := attrOf(c, "gen_ai.response.finish_reasons"); !ok || len(v.AsStringSlice()) != 1 {
						t.Errorf("chat finish reasons %v", v)
					}
					if v, ok := attrOf(c, "gen_ai.response.id"); !ok || v.AsString() == "" {
						t.Errorf("chat span has no gen_ai.response.id")
					}
					if v, ok := attrOf(c, "gen_ai.response.model"); !ok || v.AsString() == "" {
						t.Errorf("chat span has no gen_ai.response.model")
					}
					first := false
					for _, e := range c.Events {
						first = first || e.Name == "gen_ai.first_chunk"
					}
					if first != stream {
						t.Errorf("chat span first-chunk event: %v, streamed %v", first, stream)
					}
					if _, ok := attrOf(c, "gen_ai.input.messages"); ok {
						t.Error("content recorded without WithContentCapture")
					}
				}
				ok, rejected := tools[0], tools[1]
				if ok.Status.Code == codes.Error {
					ok, rejected = rejected, ok
				}
				if v, _ := attrOf(ok, "gen_ai.tool.name"); v.AsString() != "sayHello" {
					t.Errorf("tool name %q", v.AsString())
				}
				if v, _ := attrOf(ok, "gen_ai.tool.call.id"); v.AsString() == "" {
					t.Error("no tool call id")
				}
				if v, _ := attrOf(ok, "gen_ai.tool.type"); v.AsString() != "function" {
					t.Errorf("tool type %q", v.AsString())
				}
				if rejected.Status.Code != codes.Error || len(rejected.Events) == 0 || rejected.Events[0].Name != "gen_ai.tool.arguments_rejected" {
					t.Errorf("rejected call: status %v events %v", rejected.Status, rejected.Events)
				}
				if v, _ := attrOf(rejected, "error.type"); v.AsString() != string(runtime.InvalidArguments) {
					t.Errorf("rejected call error.type %q", v.AsString())
				}

				var rm metricdata.ResourceMetrics
				if err := reader.Collect(context.Background(), &rm); err != nil {
					t.Fatal(err)
				}
				found := map[string]int{}
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						if h, ok := m.Data.(metricdata.Histogram[float64]); ok {
							for _, dp := range h.DataPoints {
								found[m.Name] += int(dp.Count)
							}
						}
					}
				}
				if found["gen_ai.client.operation.duration"] != 2 || found["gen_ai.client.token.usage"] != 4 {
					t.Errorf("metrics %v: want 2 durations and 4 token counts (input and output of 2 requests)", found)
				}
			})
		}
	}
	// Agents as tools: the nested span tree (telemetry_agents_test.go).
	t.Run("agents as tools", testTelemetryNested)
}

// TestTelemetryContent: with WithContentCapture the spans carry the
// messages, the tool definitions as sent, and the tool's arguments and
// result — never an API key.
func TestTelemetryContent(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	model := fakeClient(t, runtimetest.OpenAI, srv.URL)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	if _, err := runtime.Run(context.Background(), model, helloAgent, library(), "Hi, I am Ada", nil,
		runtime.WithTracerProvider(tp), runtime.WithContentCapture(true)); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	chat := spanNamed(spans, "chat ")[0]
	for _, key := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.definitions", "gen_ai.system_instructions"} {
		if v, ok := attrOf(chat, key); !ok || v.AsString() == "" {
			t.Errorf("chat span has no %s", key)
		}
	}
	if v, _ := attrOf(chat, "gen_ai.tool.definitions"); !strings.Contains(v.AsString(), `"name":"sayHello"`) {
		t.Errorf("tool definitions %s", v.AsString())
	}
	tool := spanNamed(spans, "execute_tool ")[0]
	if v, _ := attrOf(tool, "gen_ai.tool.call.result"); v.AsString() != "Hello, Ada!" {
		t.Errorf("tool result %q", v.AsString())
	}
	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.Contains(kv.Value.Emit(), secret) {
				t.Errorf("span %s attribute %s holds the key", s.Name, kv.Key)
			}
		}
	}
}

// BenchmarkRoundTripTelemetry: the round trip with telemetry off (no
// provider: nothing recorded or allocated for it) and on.
func BenchmarkRoundTripTelemetry(b *testing.B) {
	srv := runtimetest.NewProviderServer(b, runtimetest.OpenAI, runtimetest.Echo)
	model, bound := boundHello(b, runtimetest.OpenAI, srv.URL)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	for _, c := range []struct {
		name string
		opts []runtime.Option
	}{{"off", nil}, {"on", []runtime.Option{runtime.WithTracerProvider(tp), runtime.WithMeterProvider(mp)}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bound.Run(context.Background(), model, "Hi, I am Ada", nil, c.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTelemetryRetries: a provider client's retries are events of the
// request's chat span, with the attempt, the wait and the error type.
func TestTelemetryRetries(t *testing.T) {
	for _, p := range runtimetest.Providers() {
		t.Run(p, func(t *testing.T) {
			srv := runtimetest.NewProviderServer(t, p, runtimetest.Replies(
				runtimetest.Reply{Status: 503, Message: "overloaded"},
				runtimetest.Reply{Text: "Hello!"}))
			model := fakeClient(t, p, srv.URL)
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			if _, err := runtime.Run(context.Background(), model, helloAgent, library(), "Hi", nil, runtime.WithTracerProvider(tp)); err != nil {
				t.Fatal(err)
			}
			chat := spanNamed(exp.GetSpans(), "chat ")
			if len(chat) != 1 || len(chat[0].Events) != 1 || chat[0].Events[0].Name != "gen_ai.retry" {
				t.Fatalf("chat spans %+v", chat)
			}
			var attempt int64
			var errType string
			for _, kv := range chat[0].Events[0].Attributes {
				switch kv.Key {
				case "gen_ai.retry.attempt":
					attempt = kv.Value.AsInt64()
				case "error.type":
					errType = kv.Value.AsString()
				}
			}
			if attempt != 1 || errType != "503" {
				t.Errorf("retry event: attempt %d, error.type %q", attempt, errType)
			}
		})
	}
}

// TestTelemetryErrors: a model request that fails ends its chat span and
// the run's invoke_agent span with error status and error.type.
func TestTelemetryErrors(t *testing.T) {
	for _, p := range runtimetest.Providers() {
		t.Run(p, func(t *testing.T) {
			srv := runtimetest.NewProviderServer(t, p, runtimetest.Replies(runtimetest.Reply{Status: 401, Message: "bad key"}))
			model := fakeClient(t, p, srv.URL)
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			if _, err := runtime.Run(context.Background(), model, helloAgent, library(), "Hi", nil, runtime.WithTracerProvider(tp)); err == nil {
				t.Fatal("a 401 succeeded")
			}
			spans := exp.GetSpans()
			for _, prefix := range []string{"chat ", "invoke_agent "} {
				s := spanNamed(spans, prefix)
				if len(s) != 1 || s[0].Status.Code != codes.Error {
					t.Fatalf("%s span: %+v", prefix, s)
				}
				if v, _ := attrOf(s[0], "error.type"); v.AsString() != "401" {
					t.Errorf("%s span error.type %q, want 401", prefix, v.AsString())
				}
			}
		})
	}
}
