package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// FuzzTypedAnswer: whatever a typed agent's model answers (huge, deep,
// wrong types, prose, half JSON), in every output mode, a run ends with a
// value of the output type (valid, defaults applied) or a precise
// *runtime.OutputError carrying the raw answer: never a panic, a hang or
// another error. The lenient decoder is fuzzed alone too.
func FuzzTypedAnswer(f *testing.F) {
	for _, s := range []string{
		`{"city":"Paris"}`, `{"city":"Paris","days":20}`, "```json\n{\"city\":\"Oslo\"}\n```", `Sure: {"city":"Rome"} ok`,
		``, `null`, `[]`, `{"city":`, `{"value":{"city":"x"}}`, `"{\"city\":\"Oslo\"}"`, `{"city":"x","days":1e400}`,
		`{"city":"x","at":{"lat":91}}`, `{"city":"x"} trailing`, strings.Repeat("[", 10000), strings.Repeat(`{"a":`, 200),
		`{"city":"` + strings.Repeat("é", 5000) + `"}`, "\x00\xff{", `{"city":"x","n":` + strings.Repeat("9", 1000) + `}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	modes := []provider.OutputMode{provider.OutputNative, provider.OutputTool, provider.OutputPrompted}
	f.Fuzz(func(t *testing.T, data []byte, m uint8) {
		mode := modes[int(m)%len(modes)]
		zero := 0
		agent := runtime.Agent{Name: "fuzz", Model: "OpenAI/gpt-4o-mini", Instruction: "x",
			Signature: &runtime.Signature{Output: json.RawMessage(argsSchema), OutputName: "Weather", OutputMode: mode, OutputRetries: &zero}}
		step := runtimetest.Say(string(data))
		if mode == provider.OutputTool {
			step = runtimetest.CallTools(runtime.ToolCall{ID: "c1", Name: "final_answer", Arguments: string(data)})
		}
		resp, err := runtime.Run(context.Background(), runtimetest.NewScriptedModel(step), agent, nil, "weather?", nil)
		if err != nil {
			var oe *runtime.OutputError
			var api *runtime.APIError
			switch {
			case errors.As(err, &oe):
				if oe.Raw != string(data) || oe.Message == "" || !strings.Contains(err.Error(), "the answer is not a Weather") {
					t.Fatalf("imprecise output error %#v", oe)
				}
			case errors.As(err, &api) && strings.Contains(api.Message, "empty answer") && strings.TrimSpace(string(data)) == "" || len(data) == 0:
			default:
				t.Fatalf("run failed: %v", err)
			}
			return
		}
		var v map[string]any
		if err := json.Unmarshal(resp.Value, &v); err != nil || v["city"] == nil || v["days"] == nil || v["unit"] == nil {
			t.Fatalf("value %s (%v): defaults missing or not an object", resp.Value, err)
		}
		if resp.Content != string(resp.Value) {
			t.Fatal("the content is not the value's text")
		}
		if mode != provider.OutputPrompted && resp.Lenient != "" {
			t.Fatalf("leniency %q outside prompted mode", resp.Lenient)
		}
		// The lenient decoder alone agrees it holds a value.
		if _, _, err := runtime.DecodeAnswer(string(data), true); err != nil && mode != provider.OutputTool {
			t.Fatalf("the run accepted what the decoder refuses: %v", err)
		}
	})
}
