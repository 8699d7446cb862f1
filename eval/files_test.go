package eval

import (
	"strings"
	"testing"
)

// TestParseFiles: a variant file and a prices file are one JSON value
// with no unknown field, bounded in size, with their values checked.
func TestParseFiles(t *testing.T) {
	big := `{"model": "` + strings.Repeat("x", MaxVariantFileBytes) + `"}`
	for _, c := range []struct{ name, data, err string }{
		{"variant", `{"model": "OpenAI/gpt-4.1", "temperature": 0.5}`, ""},
		{"variant", `{"modle": "OpenAI/gpt-4.1"}`, `not a variant (a JSON object with tools, model, instruction, temperature): json: unknown field "modle"`},
		{"variant", `{"model": "a"} {"model": "b"}`, "more than one JSON value"},
		{"variant", `{"temperature": 3}`, "temperature 3: want a number from 0 to 2"},
		{"variant", big, "a variant file is limited to 1048576"},
		{"prices", `{"OpenAI/gpt-4.1": {"input": 2, "output": 8}}`, ""},
		{"prices", `{"OpenAI/gpt-4.1": {"input": 2, "output": 8}} {}`, "more than one JSON value"},
		{"prices", `{"OpenAI/gpt-4.1": {"in": 2}}`, `not prices ({"Provider/model": {"input": USD, "output": USD}}, per million tokens): json: unknown field "in"`},
		{"prices", `{"OpenAI/gpt-4.1": {"input": -1, "output": 8}}`, "the price of OpenAI/gpt-4.1: want numbers of USD per million tokens, 0 or more"},
		{"prices", big, "a prices file is limited to 1048576"},
	} {
		var err error
		if c.name == "variant" {
			_, err = ParseVariantFile([]byte(c.data))
		} else {
			_, err = ParsePrices([]byte(c.data))
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %.60s: %v", c.name, c.data, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %.60s: got %v, want %q", c.name, c.data, err, c.err)
		}
	}
}
