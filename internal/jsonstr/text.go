package jsonstr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Text is v as one line of compact JSON for people to read: a default, an
// enum value or an example in a message, a schema description or a hover.
// Strings are written as AppendString writes them (<, > and & literally);
// map keys are sorted. A value JSON cannot express prints with %v.
func Text(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// List is vs as Text, joined by ", ": the values of an enum.
func List(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = Text(v)
	}
	return strings.Join(parts, ", ")
}
