package schema

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
)

func TestEncoderRefusesUnknownKeywords(t *testing.T) {
	if _, err := marshal(&jsonschema.Schema{AllOf: []*jsonschema.Schema{{Type: "string"}}}); err == nil {
		t.Error("allOf was silently dropped")
	}
	if _, err := marshal(&jsonschema.Schema{Type: "string", Extras: map[string]any{"x-custom": 1}}); err == nil {
		t.Error("an unknown extra was silently dropped")
	}
	if _, err := marshal(object{{"n", json.Number("1.2.3")}}); err == nil {
		t.Error("an invalid number was written")
	}
	got, err := marshal(object{{"b", map[string]any{"z": 1, "a": []any{true, nil, "x"}}}})
	if err != nil || string(got) != `{"b":{"a":[true,null,"x"],"z":1}}` {
		t.Errorf("got %s, %v", got, err)
	}
}
