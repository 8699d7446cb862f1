package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
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
