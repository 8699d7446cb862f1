package jsonvalue

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkRead reads a 12 MB tools/list snapshot (what gramc diff and
// gramc import read): 10,000 tools, each an object schema of a few
// properties.
func BenchmarkRead(b *testing.B) {
	tools := make([]any, 10000)
	for i := range tools {
		tools[i] = map[string]any{
			"name":        fmt.Sprintf("tool%d", i),
			"description": fmt.Sprintf("Updates thing %d with the fields given; the others stay as they are.", i),
			"inputSchema": map[string]any{
				"type": "object", "additionalProperties": false, "required": []any{"name", "id"},
				"properties": map[string]any{
					"id":    map[string]any{"type": "integer", "minimum": 1, "description": "The thing's id"},
					"name":  map[string]any{"type": "string", "minLength": 1, "maxLength": 200, "description": "The thing's name"},
					"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": 10},
					"score": map[string]any{"type": "number", "minimum": 0, "maximum": 1.5},
					"state": map[string]any{"type": "string", "enum": []any{"active", "archived", "deleted"}, "default": "active"},
					"dry":   map[string]any{"type": []any{"boolean", "null"}, "default": nil},
				},
			},
		}
	}
	data, err := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}
