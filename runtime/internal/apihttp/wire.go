package apihttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/runtime"
)

// Marshal is v as every client sends JSON: compact, without HTML
// escaping (so a tools entry stays byte-identical to the one `gramc
// schema` prints) and without the encoder's final newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// StopReasons is a provider's table of the reasons its API documents for
// ending an answer, by the runtime's reason each stands for.
type StopReasons map[runtime.StopReason][]string

// Of maps the provider's reason r: "" for none, StopOther for one the
// table does not name.
func (s StopReasons) Of(r string) runtime.StopReason {
	if r == "" {
		return ""
	}
	for reason, words := range s {
		if slices.Contains(words, r) {
			return reason
		}
	}
	return runtime.StopOther
}

// ArgumentsObject is a call's arguments text as the JSON object
// Anthropic's tool_use.input and Gemini's functionCall.args must be: the
// text compacted when it is an object (or a JSON string holding one, a
// double-encoded object, as runtime.Run accepts), else {} (a model's
// malformed arguments were answered with an error the model can read).
func ArgumentsObject(args string) json.RawMessage {
	raw := bytes.TrimSpace([]byte(args))
	// Compact checks the text is JSON as it goes: one pass, no decoding.
	if len(raw) > 0 && raw[0] == '{' {
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			return b.Bytes()
		}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != args {
		return ArgumentsObject(s)
	}
	return json.RawMessage(`{}`)
}

// ToolEntries is the request's tools, each as entry encodes it for the
// provider's API (openai.ToolEntry, anthropic.ToolEntry,
// gemini.FunctionDeclaration, ...); the first error stops it.
func ToolEntries(tools []runtime.ToolSpecification, entry func(runtime.ToolSpecification) (json.RawMessage, error)) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, spec := range tools {
		e, err := entry(spec)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// OpenToolEntry writes what every provider's function entry starts with,
// {"name":…,"description":…, then the schema as key's value, compacted
// (it must be a JSON object; an empty one is left out), and leaves the
// object open for the provider's own members and its closing brace.
func OpenToolEntry(b *bytes.Buffer, spec runtime.ToolSpecification, key string, schema []byte) error {
	b.WriteString(`{"name":`)
	b.Write(jsonstr.AppendString(b.AvailableBuffer(), spec.Name))
	b.WriteString(`,"description":`)
	b.Write(jsonstr.AppendString(b.AvailableBuffer(), spec.Description))
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil
	}
	b.WriteString(`,`)
	b.Write(jsonstr.AppendString(b.AvailableBuffer(), key))
	b.WriteString(`:`)
	start := b.Len()
	if err := json.Compact(b, schema); err != nil {
		return fmt.Errorf("tool %s: schema is not valid JSON: %w", spec.Name, err)
	}
	if b.Bytes()[start] != '{' {
		return fmt.Errorf("tool %s: schema is not a JSON object", spec.Name)
	}
	return nil
}
