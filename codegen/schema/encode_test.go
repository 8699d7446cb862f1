package schema

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
)

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "-12", "1.5", "1e9", "1E+9", "2.5e-3", "", "-", "01", "1.", ".5", "1e", "+1", "0x1F", "NaN", "1_000"} {
		if got, want := validNumber(s), json.Valid([]byte(s)); got != want {
			t.Errorf("validNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

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
