package runtimetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The triage agent of docs/language.md §2.6, its schemas as the checker and the
// openai-strict target make them.
const (
	triageOutput = `{"type":"object","properties":{"priority":{"type":"string","enum":["low","normal","urgent"]},"minutes":{"type":"integer","minimum":0,"maximum":480,"default":30},"summary":{"type":"string"}},"required":["priority","summary"],"additionalProperties":false}`
	// triageAnthropic is the subset Anthropic's structured outputs take:
	// no numeric bounds (the runtime still checks them).
	triageAnthropic = `{"type":"object","properties":{"priority":{"type":"string","enum":["low","normal","urgent"]},"minutes":{"type":"integer","default":30},"summary":{"type":"string"}},"required":["priority","summary"],"additionalProperties":false}`
	triageStrict    = `{"type":"object","properties":{"priority":{"type":"string","enum":["low","normal","urgent"]},"minutes":{"type":["integer","null"],"minimum":0,"maximum":480},"summary":{"type":"string"}},"required":["priority","minutes","summary"],"additionalProperties":false}`
)

var lookupSpec = runtime.ToolSpecification{Name: "lookupCustomer", Description: "Looks a customer up",
	Schema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)}

var lookupLibrary = runtime.NewToolLibrary(runtime.Tool{Spec: lookupSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
	return "gold plan", nil
}})

func typedAgent(model string, tools bool) runtime.Agent {
	a := runtime.Agent{Name: "triage", Model: model, Instruction: "Triage the ticket.",
		Signature: &runtime.Signature{Message: "ticket",
			Input:  json.RawMessage(`{"type":"object","properties":{"ticket":{"type":"string"}},"required":["ticket"],"additionalProperties":false}`),
			Output: json.RawMessage(triageOutput), OutputStrict: json.RawMessage(triageStrict), OutputName: "Triage"}}
	if tools {
		a.Tools = []runtime.ToolSpecification{lookupSpec}
	}
	return a
}

// typedModels are the models each provider's typed runs use, with the mode
// auto must pick with and without tools.
var typedModels = map[string][]struct {
	model              string
	noTools, withTools provider.OutputMode
}{
	runtimetest.OpenAI:          {{"OpenAI/gpt-4o-mini", provider.OutputNative, provider.OutputNative}},
	runtimetest.OpenAIResponses: {{"OpenAI/gpt-4o-mini", provider.OutputNative, provider.OutputNative}},
	runtimetest.Anthropic:       {{"Anthropic/claude-sonnet-4-5", provider.OutputNative, provider.OutputNative}},
	runtimetest.Gemini: {
		{"Gemini/gemini-2.5-flash", provider.OutputNative, provider.OutputTool},
		{"Gemini/gemini-3-pro-preview", provider.OutputNative, provider.OutputNative},
	},
}

// typedPolicy: with tools the model looks the customer up first; then it
// answers a Triage whose priority is not one of the enum's (in text when
// the request asked for a structured output, else by calling the
// final-answer tool), and after the repair turn a valid one. The fake's
// own checks reject any request field its provider does not define.
func typedPolicy(t *testing.T, answers ...string) runtimetest.Policy {
	return func(turn *runtimetest.Turn, n int) runtimetest.Reply {
		last := turn.Last()
		if slices.Contains(turn.Tools, "lookupCustomer") && n == 1 {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{{Name: "lookupCustomer", Arguments: `{"id":"c-7"}`}}}
		}
		i := 0
		for _, m := range turn.Messages {
			if m.Role == runtime.RoleUser && strings.Contains(m.Content, "not a valid Triage") ||
				m.Role == runtime.RoleTool && strings.Contains(m.Content, "invalid final answer") {
				i++
			}
		}
		_ = last
		if i >= len(answers) {
			t.Errorf("request %d: no answer left", n)
			i = len(answers) - 1
		}
		if turn.Output != nil {
			return runtimetest.Reply{Text: answers[i]}
		}
		if slices.Contains(turn.Tools, "final_answer") {
			return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{{Name: "final_answer", Arguments: answers[i]}}}
		}
		t.Errorf("request %d asks for no structured output and offers no final-answer tool", n)
		return runtimetest.Reply{Text: answers[i]}
	}
}

// jsonEqual reports whether raw and want are the same JSON value.
func jsonEqual(raw json.RawMessage, want string) bool {
	var a, b any
	if json.Unmarshal(raw, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestTypedRunOnEveryProvider: a typed run per provider and API (Chat
// streamed and whole, Responses, Anthropic, Gemini 2.5 and 3), with and
// without tools, against the fakes: the requests carry the structured
// output each provider documents (or the final-answer tool where auto must
// use it), an invalid answer costs exactly one repair turn, and the value
// comes back validated with its defaults.
func TestTypedRunOnEveryProvider(t *testing.T) {
	forEach(t, func(h *harness) {
		for _, m := range typedModels[h.provider] {
			for _, tools := range []bool{false, true} {
				name := m.model
				if tools {
					name += "/tools"
				}
				h.t.Run(name, func(t *testing.T) {
					want := m.noTools
					if tools {
						want = m.withTools
					}
					srv := runtimetest.NewProviderServer(t, h.provider, typedPolicy(t,
						`{"priority":"asap","minutes":5,"summary":"down"}`, `{"priority":"urgent","minutes":null,"summary":"down"}`))
					hh := &harness{t: t, provider: h.provider, stream: h.stream}
					model, _ := hh.client(srv, clientConfig{})
					var opts []runtime.Option
					var repairs []string
					opts = append(opts, runtime.WithEvents(func(e runtime.Event) {
						if e.Kind == runtime.EventRepair {
							repairs = append(repairs, e.Text)
						}
					}))
					if !h.stream {
						opts = nil
					}
					var lib *runtime.ToolLibrary
					if tools {
						lib = lookupLibrary
					}
					resp, err := runtime.Run(context.Background(), model, typedAgent(m.model, tools), lib, "The site is down", nil, opts...)
					if err != nil {
						t.Fatal(err)
					}
					if resp.OutputMode != want {
						t.Errorf("mode %s, want %s", resp.OutputMode, want)
					}
					if got := string(resp.Value); got != `{"minutes":30,"priority":"urgent","summary":"down"}` {
						t.Errorf("value %s", got)
					}
					if resp.Repairs != 1 || h.stream && len(repairs) != 1 {
						t.Errorf("%d repair turns (%d events), want exactly 1", resp.Repairs, len(repairs))
					}
					turns := srv.Turns()
					wantTurns := 2
					if tools {
						wantTurns = 3
					}
					if len(turns) != wantTurns {
						t.Fatalf("%d requests, want %d", len(turns), wantTurns)
					}
					for i, turn := range turns {
						switch want {
						case provider.OutputNative:
							wantSchema := triageOutput
							if h.provider == runtimetest.Anthropic {
								wantSchema = triageAnthropic
							}
							if h.provider == runtimetest.OpenAI || h.provider == runtimetest.OpenAIResponses {
								wantSchema = triageStrict
								if !turn.OutputStrict {
									t.Errorf("request %d: OpenAI's format is not strict", i+1)
								}
							}
							if !jsonEqual(turn.Output, wantSchema) {
								t.Errorf("request %d: output schema %s, want %s", i+1, turn.Output, wantSchema)
							}
							if slices.Contains(turn.Tools, "final_answer") {
								t.Errorf("request %d: a final-answer tool in native mode", i+1)
							}
						case provider.OutputTool:
							if turn.Output != nil || !slices.Contains(turn.Tools, "final_answer") {
								t.Errorf("request %d: tool mode sent output %s, tools %v", i+1, turn.Output, turn.Tools)
							}
							if want := toolChoiceRequired[h.provider]; string(turn.ToolChoice) != want {
								t.Errorf("request %d: tool choice %s, want %s", i+1, turn.ToolChoice, want)
							}
						}
					}
				})
			}
		}
	})
}

// toolChoiceRequired is how each provider's wire says "call a tool".
var toolChoiceRequired = map[string]string{
	runtimetest.OpenAI:          `"required"`,
	runtimetest.OpenAIResponses: `"required"`,
	runtimetest.Anthropic:       `{"type":"any"}`,
	runtimetest.Gemini:          `{"functionCallingConfig":{"mode":"ANY"}}`,
}

// TestTypedSpentBudget: with the repair turns spent the run fails with an
// output error carrying the raw answer, on every provider.
func TestTypedSpentBudget(t *testing.T) {
	forEach(t, func(h *harness) {
		m := typedModels[h.provider][0]
		srv := h.server(typedPolicy(h.t, `{"priority":"asap","summary":"a"}`, `{"priority":"soon","summary":"b"}`))
		model, _ := h.client(srv, clientConfig{})
		_, err := runtime.Run(context.Background(), model, typedAgent(m.model, false), nil, "The site is down", nil)
		var oe *runtime.OutputError
		if !errors.As(err, &oe) || oe.Raw != `{"priority":"soon","summary":"b"}` || oe.Repairs != 1 || len(srv.Turns()) != 2 {
			h.t.Fatalf("err %v after %d requests", err, len(srv.Turns()))
		}
	})
}

// TestTypedWrappedOnEveryProvider: a non-object output type travels as
// {"value": ...} and comes back bare, in native and in tool mode.
func TestTypedWrappedOnEveryProvider(t *testing.T) {
	forEach(t, func(h *harness) {
		for _, mode := range []provider.OutputMode{provider.OutputNative, provider.OutputTool} {
			h.t.Run(string(mode), func(t *testing.T) {
				a := typedAgent(typedModels[h.provider][0].model, false)
				a.Signature.Output = json.RawMessage(`{"type":"array","items":{"type":"string","enum":["low","normal","urgent"]}}`)
				a.Signature.OutputStrict = a.Signature.Output
				a.Signature.OutputName = "Priorities"
				a.Signature.OutputMode = mode
				srv := runtimetest.NewProviderServer(t, h.provider, typedPolicy(t, `{"value":["low","urgent"]}`))
				hh := &harness{t: t, provider: h.provider, stream: h.stream}
				model, _ := hh.client(srv, clientConfig{})
				got, resp, err := runtime.RunTyped[[]string](context.Background(), model, a, nil, "Two tickets", nil)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, ",") != "low,urgent" || string(resp.Value) != `["low","urgent"]` || resp.Repairs != 0 {
					t.Errorf("value %v (%s), %d repairs", got, resp.Value, resp.Repairs)
				}
				const wrapped = `{"type":"object","properties":{"value":{"items":{"type":"string","enum":["low","normal","urgent"]},"type":"array"}},"required":["value"],"additionalProperties":false}`
				turn := srv.Turns()[0]
				if mode == provider.OutputNative && !jsonEqual(turn.Output, wrapped) {
					t.Errorf("native schema %s", turn.Output)
				}
				if mode == provider.OutputTool && string(turn.Params["final_answer"]) != wrapped {
					t.Errorf("the final-answer tool's parameters %s", turn.Params["final_answer"])
				}
			})
		}
	})
}

// TestTypedRefusal: OpenAI's message.refusal (whole and streamed)
// and Anthropic's refusal stop are reported as refusals, without a repair
// turn.
func TestTypedRefusal(t *testing.T) {
	forEach(t, func(h *harness) {
		if h.provider == runtimetest.Gemini || h.provider == runtimetest.OpenAIResponses {
			return
		}
		srv := h.server(runtimetest.Replies(runtimetest.Reply{Refusal: "I can't help with that."}))
		model, _ := h.client(srv, clientConfig{})
		_, err := runtime.Run(context.Background(), model, typedAgent(typedModels[h.provider][0].model, false), nil, "Something bad", nil)
		var oe *runtime.OutputError
		if !errors.As(err, &oe) || !oe.Refused || len(srv.Turns()) != 1 {
			h.t.Fatalf("err %v after %d requests", err, len(srv.Turns()))
		}
		if oe.Raw != "I can't help with that." {
			h.t.Errorf("raw %q", oe.Raw)
		}
	})
}

// TestTypedTelemetry: the chat span records the output type
// (gen_ai.output.type: json for a typed agent, text otherwise) and a
// repair turn is an event of the run's span carrying the validation
// error.
func TestTypedTelemetry(t *testing.T) {
	for _, typed := range []bool{false, true} {
		policy := typedPolicy(t, `{"priority":"asap","minutes":5,"summary":"down"}`, `{"priority":"urgent","minutes":null,"summary":"down"}`)
		if !typed {
			policy = runtimetest.Replies(runtimetest.Reply{Text: "Urgent."})
		}
		srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, policy)
		model := fakeClient(t, runtimetest.OpenAI, srv.URL)
		agent := typedAgent("OpenAI/gpt-4o-mini", false)
		want := "json"
		if !typed {
			agent.Signature, want = nil, "text"
		}
		rec := tracetest.NewSpanRecorder()
		if _, err := runtime.Run(context.Background(), model, agent, nil, "The site is down", nil,
			runtime.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))); err != nil {
			t.Fatal(err)
		}
		var spans tracetest.SpanStubs
		for _, s := range rec.Ended() {
			spans = append(spans, tracetest.SpanStubFromReadOnlySpan(s))
		}
		chats := spanNamed(spans, "chat ")
		if len(chats) == 0 {
			t.Fatal("no chat span")
		}
		for _, c := range chats {
			if v, ok := attrOf(c, "gen_ai.output.type"); !ok || v.AsString() != want {
				t.Errorf("typed %v: gen_ai.output.type %q, want %q", typed, v.AsString(), want)
			}
		}
		agentSpan := spanNamed(spans, "invoke_agent ")[0]
		var repairs []string
		for _, e := range agentSpan.Events {
			if e.Name == "gramc.output.repair" {
				for _, kv := range e.Attributes {
					if kv.Key == "gramc.validation.error" {
						repairs = append(repairs, kv.Value.AsString())
					}
				}
			}
		}
		if typed && (len(repairs) != 1 || !strings.Contains(repairs[0], "at '/priority'")) {
			t.Errorf("repair events %q, want one with the validation error", repairs)
		}
		if !typed && len(repairs) != 0 {
			t.Errorf("an untyped run has repair events %q", repairs)
		}
	}
}
