package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/toolspec"
)

type typedArgs struct {
	Name  string   `json:"name"`
	Count int64    `json:"count"`
	Tags  []string `json:"tags,omitempty"`
}

func TestTypedToolDecodesAndEncodes(t *testing.T) {
	spec := ToolSpecification{Name: "greet", Description: "Greets", Schema: json.RawMessage(`{"type":"object"}`)}
	var got typedArgs
	tool := TypedTool(spec, func(ctx context.Context, a typedArgs) (string, error) {
		got = a
		return "hello " + a.Name, nil
	})
	if tool.Spec.Name != "greet" {
		t.Fatalf("spec not kept: %+v", tool.Spec)
	}
	for _, tc := range []struct {
		in   string
		want typedArgs
	}{
		{`{"name":"Ada","count":3}`, typedArgs{Name: "Ada", Count: 3}},
		{`{}`, typedArgs{}}, // defaults are the runtime's (TestTypedToolThroughCall)
		{``, typedArgs{}},   // no arguments at all
		{`{"name":"Ada","count":2.0}`, typedArgs{Name: "Ada", Count: 2}}, // JSON Schema integer 2.0
	} {
		got = typedArgs{}
		res, err := tool.Func(context.Background(), json.RawMessage(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got.Name != tc.want.Name || got.Count != tc.want.Count {
			t.Errorf("%s: decoded %+v, want %+v", tc.in, got, tc.want)
		}
		if res != "hello "+tc.want.Name {
			t.Errorf("%s: result %v (a string result is plain text)", tc.in, res)
		}
	}
	if _, err := tool.Func(context.Background(), json.RawMessage(`{"count":2.5}`)); err == nil || !strings.Contains(err.Error(), "tool greet: decoding arguments") {
		t.Errorf("2.5 into an int64: err = %v", err)
	}
}

func TestTypedToolResults(t *testing.T) {
	spec := ToolSpecification{Name: "list"}
	nilSlice := TypedTool(spec, func(context.Context, struct{}) ([]string, error) { return nil, nil })
	if res, err := nilSlice.Func(context.Background(), nil); err != nil || string(res.(json.RawMessage)) != "[]" {
		t.Errorf("nil slice = %v, %v; want []", res, err)
	}
	nilMap := TypedTool(spec, func(context.Context, struct{}) (map[string]any, error) { return nil, nil })
	if res, err := nilMap.Func(context.Background(), nil); err != nil || string(res.(json.RawMessage)) != "{}" {
		t.Errorf("nil map = %v, %v; want {}", res, err)
	}
	record := TypedTool(spec, func(context.Context, struct{}) (typedArgs, error) { return typedArgs{Name: "x", Count: 1}, nil })
	if res, err := record.Func(context.Background(), nil); err != nil || string(res.(json.RawMessage)) != `{"name":"x","count":1}` {
		t.Errorf("record = %s, %v", res, err)
	}
	boom := errors.New("boom")
	failing := TypedTool(spec, func(context.Context, struct{}) (string, error) { return "", boom })
	if _, err := failing.Func(context.Background(), nil); !errors.Is(err, boom) {
		t.Errorf("tool error = %v, want boom", err)
	}
}

// TestTypedToolThroughCall: defaults are applied once, by the runtime, from
// the schema (a strict tool's standard schema included), before the typed
// function sees the arguments.
func TestTypedToolThroughCall(t *testing.T) {
	std := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"world"},"count":{"type":"integer","default":2}},"additionalProperties":false}`)
	strict := json.RawMessage(`{"type":"object","properties":{"name":{"type":["string","null"]},"count":{"type":["integer","null"]}},"required":["name","count"],"additionalProperties":false}`)
	for _, spec := range []ToolSpecification{
		{Name: "greet", Description: "Greets", Schema: std},
		{Name: "greet", Description: "Greets", Schema: strict, Strict: true, TargetSchemas: map[string]json.RawMessage{toolspec.StandardTarget: std}},
	} {
		var got typedArgs
		tool := TypedTool(spec, func(ctx context.Context, a typedArgs) (string, error) { got = a; return "ok", nil })
		b, err := Bind(Agent{Name: "a", Tools: []ToolSpecification{spec}}, NewToolLibrary(tool))
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []string{`{}`, `{"name":null,"count":null}`} {
			got = typedArgs{}
			if inv := b.Call(context.Background(), ToolCall{ID: "1", Name: "greet", Arguments: in}); inv.Err != nil {
				t.Fatalf("strict=%v %s: %v", spec.Strict, in, inv.Err)
			}
			if got.Name != "world" || got.Count != 2 {
				t.Errorf("strict=%v %s: decoded %+v, want the defaults", spec.Strict, in, got)
			}
		}
	}
}
