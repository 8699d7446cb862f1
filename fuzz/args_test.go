package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// argsSchema has what gram schemas have: $defs records and enums, defaults
// at the top and nested, ranges, lengths, arrays of records.
const argsSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1,"maxLength":40},"days":{"type":"integer","minimum":1,"maximum":14,"default":3},"unit":{"$ref":"#/$defs/Unit","default":"celsius"},"at":{"$ref":"#/$defs/Point"},"stops":{"type":"array","items":{"$ref":"#/$defs/Point"},"maxItems":5},"note":{"type":["string","null"]}},"required":["city"],"additionalProperties":false,"$defs":{"Unit":{"type":"string","enum":["celsius","fahrenheit"]},"Point":{"type":"object","properties":{"lat":{"type":"number","minimum":-90,"maximum":90},"lon":{"type":"number","default":0}},"required":["lat"],"additionalProperties":false}}}`

// FuzzArgs: whatever argument bytes a model sends, a run never panics or
// fails: the tool gets a valid arguments object (with defaults) or the
// model gets a precise invalid-arguments message.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{
		`{"city":"Paris"}`, `{"city":"Paris","days":20}`, `"{\"city\":\"Oslo\"}"`, ``, `null`, `[]`, `{"city":`,
		`{"city":"x","at":{"lat":91}}`, `{"city":"x","stops":[{"lat":1},{"lat":"n"}]}`, `{"city":"x","unit":null,"days":null}`,
		`{"city":"x","note":null}`, `{"city":"\u0000\ud800"}`, `{"city":"x","days":1e400}`, `{"city":"x"} trailing`,
		`"\"nested\""`, `{"city":"x","at":{"lat":0,"lon":"1"}}`, strings.Repeat("[", 10000),
	} {
		f.Add([]byte(s))
	}
	spec := runtime.ToolSpecification{Name: "getWeather", Description: "Weather", Schema: json.RawMessage(argsSchema)}
	agent := runtime.Agent{Name: "fuzz", Model: "OpenAI/x", Tools: []runtime.ToolSpecification{spec}}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got json.RawMessage
		lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
			got = args
			return "ok", nil
		}})
		model := runtimetest.NewScriptedModel(
			runtimetest.CallTools(runtime.ToolCall{ID: "c1", Name: "getWeather", Arguments: string(data)}),
			runtimetest.Say("done"))
		resp, err := runtime.Run(context.Background(), model, agent, lib, "weather?", nil)
		if err != nil {
			t.Fatalf("run failed: %v", err)
		}
		if len(resp.Invocations) != 1 {
			t.Fatalf("%d invocations", len(resp.Invocations))
		}
		inv := resp.Invocations[0]
		if inv.Err != nil {
			var tce *runtime.ToolCallError
			if !errors.As(inv.Err, &tce) || tce.Kind != runtime.InvalidArguments ||
				!strings.HasPrefix(tce.Message, "invalid arguments for tool getWeather: ") || len(tce.Message) < 45 {
				t.Fatalf("imprecise error %#v", inv.Err)
			}
			if got != nil {
				t.Fatal("the tool ran on invalid arguments")
			}
			if !json.Valid(inv.Args) {
				t.Fatalf("invocation args are not JSON: %q", inv.Args)
			}
			return
		}
		// Valid: the tool saw an object with every default filled in.
		var args map[string]any
		if err := json.Unmarshal(got, &args); err != nil {
			t.Fatalf("tool got %q: %v", got, err)
		}
		if args["city"] == nil || args["days"] == nil || args["unit"] == nil {
			t.Fatalf("defaults missing: %s", got)
		}
		if string(got) != string(inv.Args) || inv.Result != "ok" {
			t.Fatalf("invocation %+v, tool got %s", inv, got)
		}
		// The conversation still encodes (for storing and resuming).
		if _, err := json.Marshal(resp.Conversation); err != nil {
			t.Fatalf("conversation does not encode: %v", err)
		}
	})
}

// FuzzServerResponse: whatever a server answers, the OpenAI client returns
// a completion or an *runtime.APIError, and a run ends with an answer or an
// error, never a panic.
func FuzzServerResponse(f *testing.F) {
	for _, s := range []string{
		`{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi","refusal":null},"finish_reason":"stop","logprobs":null}]}`,
		`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"getWeather","arguments":"{\"city\":\"x\"}"}}]}}]}`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"getWeather","arguments":{"city":"x"}}}]}}]}`,
		`{"choices":[{"message":{"function_call":{"name":"getWeather","arguments":"{}"}}}]}`,
		`{"choices":[]}`, `{"error":{"message":"nope"}}`, `{`, `null`, `[]`, ``,
		`{"choices":[{"message":{"content":null,"tool_calls":null}}],"usage":{"total_tokens":-1}}`,
	} {
		f.Add([]byte(s))
	}
	spec := runtime.ToolSpecification{Name: "getWeather", Description: "Weather", Schema: json.RawMessage(argsSchema)}
	agent := runtime.Agent{Name: "fuzz", Model: "OpenAI/x", Tools: []runtime.ToolSpecification{spec}, MaxIterations: 2}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }})
	var body atomic.Value
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body.Load().([]byte))
	}))
	f.Cleanup(hs.Close)
	model, err := openai.New(clientopt.WithBaseURL(hs.URL), clientopt.WithAPIKey("sk-fuzz"), clientopt.WithMaxRetries(-1))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		body.Store(data)
		resp, err := runtime.Run(context.Background(), model, agent, lib, "weather?", nil)
		if err != nil {
			var ae *runtime.APIError
			var ie *runtime.IterationLimitError
			if !errors.As(err, &ae) && !errors.As(err, &ie) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			if strings.Contains(err.Error(), "sk-fuzz") {
				t.Fatal("the key leaked into an error")
			}
			return
		}
		if _, err := json.Marshal(resp.Conversation); err != nil {
			t.Fatalf("conversation does not encode: %v", err)
		}
	})
}
