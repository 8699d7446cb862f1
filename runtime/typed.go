package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// decodeArgs decodes validated arguments into v. JSON Schema counts
// 2.0 as an integer but encoding/json does not decode it into an int64, so
// on failure integral numbers are rewritten without a fraction and decoding
// is retried.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if dec.Decode(&tree) != nil {
		return err
	}
	fixed, ferr := json.Marshal(integral(tree))
	if ferr != nil || json.Unmarshal(fixed, v) != nil {
		return err
	}
	return nil
}

func integral(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = integral(e)
		}
	case []any:
		for i, e := range v {
			v[i] = integral(e)
		}
	case json.Number:
		if f, err := v.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
	}
	return v
}

// TypedTool binds a typed function to spec; generated code (gramc gen) uses
// it for every tool. Run (and BoundAgent.Call) validates the model's
// arguments against spec's standard schema and applies its defaults, a
// strict tool's included, before Func runs; TypedTool decodes them into A
// and encodes fn's result for the model (a string as plain text, anything
// else as JSON, a nil slice as [] and a nil map as {}). Defaults are data
// of the schema, applied in one place: Func called directly gets the
// arguments as given.
func TypedTool[A, R any](spec ToolSpecification, fn func(context.Context, A) (R, error)) Tool {
	return Tool{
		Spec: spec,
		Func: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args A
			if err := decodeArgs(raw, &args); err != nil {
				return nil, fmt.Errorf("tool %s: decoding arguments: %w", spec.Name, err)
			}
			result, err := fn(ctx, args)
			if err != nil {
				return nil, err
			}
			return encodeTypedResult(result)
		},
	}
}

// encodeTypedResult encodes a tool's result for the model: a String result
// as plain text, anything else as JSON (a nil slice as [], a nil map as {}).
func encodeTypedResult(v any) (any, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Slice:
		if rv.IsNil() {
			return json.RawMessage("[]"), nil
		}
	case reflect.Map:
		if rv.IsNil() {
			return json.RawMessage("{}"), nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding result: %w", err)
	}
	return json.RawMessage(data), nil
}

// RunTyped runs a typed agent (docs/language.md §2.6) as Run does and decodes
// its result, Response.Value, into T. An agent that answers text is a
// *ConfigurationError: its result is Response.Content.
func RunTyped[T any](ctx context.Context, model Model, agent Agent, lib *ToolLibrary, input string, conv *Conversation, opts ...Option) (T, *Response, error) {
	var v T
	if !agent.Signature.Typed() {
		return v, nil, &ConfigurationError{Setting: "output", Message: fmt.Sprintf("agent %s answers text, not a typed value: use Run", agent.Name)}
	}
	resp, err := Run(ctx, model, agent, lib, input, conv, opts...)
	if err != nil {
		return v, resp, err
	}
	if err := decodeArgs(resp.Value, &v); err != nil {
		return v, resp, fmt.Errorf("agent %s: decoding its %s into %T: %w", agent.Name, agent.Signature.OutputName, v, err)
	}
	return v, resp, nil
}
