package golang

// TEMPORARY shim until codegen/schema lands with Parameters and Output;
// replaced by calls to schema.Parameters / schema.Output.

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/check"
)

func schemaParameters(t *check.Tool) (json.RawMessage, error) {
	props := map[string]any{}
	for _, p := range t.Params {
		props[p.Name] = map[string]any{"description": p.Description}
	}
	return json.Marshal(map[string]any{"type": "object", "properties": props})
}

func schemaOutput(t *check.Tool) (json.RawMessage, error) {
	if t.Result == nil {
		return nil, nil
	}
	return json.Marshal(map[string]any{"type": t.Result.Kind.String()})
}
