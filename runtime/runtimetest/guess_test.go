package runtimetest

import (
	"encoding/json"
	"testing"
)

// TestArgumentsGuessed (issue 49): the fake's arguments come from the
// message as a model reading it would give them, and its values keep the
// bounds, lengths and item counts the schema states.
func TestArgumentsGuessed(t *testing.T) {
	for _, c := range []struct{ params, text, want string }{
		{`{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}`, "ada@example.com: the site is down", `{"email":"ada@example.com"}`},
		{`{"type":"object","properties":{"to":{"type":"string","format":"email"}},"required":["to"]}`, "write to bob.smith@mail.example.org please", `{"to":"bob.smith@mail.example.org"}`},
		{`{"type":"object","properties":{"page":{"type":"string","format":"uri"}},"required":["page"]}`, "Summarise https://example.com/a?b=1 for me", `{"page":"https://example.com/a?b=1"}`},
		{`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city","days"]}`, "Rain in Paris for 3 days?", `{"city":"Paris","days":3}`},
		{`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city","days"]}`, "Rain in Oslo for 40 days?", `{"city":"Oslo","days":1}`},
		{`{"type":"object","properties":{"score":{"type":"integer","minimum":2,"maximum":5},"ratio":{"type":"number","exclusiveMinimum":0.5,"maximum":2},"code":{"type":"string","minLength":4,"maxLength":6},"tags":{"type":"array","items":{"type":"string"},"minItems":2}},"required":["score","ratio","code","tags"]}`, "ok", `{"score":2,"ratio":1,"code":"okxx","tags":["ok","ok2"]}`},
		{`{"type":"object","properties":{"n":{"type":"number","exclusiveMaximum":0}},"required":["n"]}`, "none", `{"n":-0.5}`},
		{`{"type":"object","properties":{"at":{"$ref":"#/$defs/P"}},"required":["at"],"$defs":{"P":{"type":"object","properties":{"lat":{"type":"number","minimum":-90,"maximum":90}},"required":["lat"]}}}`, "x", `{"at":{"lat":1}}`},
	} {
		if got := ArgumentsFor(json.RawMessage(c.params), c.text); got != c.want {
			t.Errorf("ArgumentsFor(%s, %q) = %s, want %s", c.params, c.text, got, c.want)
		}
	}
}
