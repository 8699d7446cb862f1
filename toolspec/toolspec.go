// Package toolspec declares a tool's specification as plain data, the one
// type the compiler's schema emitter (codegen/schema) produces and the
// runtime (runtime.ToolSpecification, an alias) consumes. It imports
// nothing from gramc, so generated code and the runtime can use it without
// linking the compiler, and the compiler can produce it without linking
// the runtime.
package toolspec

import "encoding/json"

// Spec is a tool's declaration as pure data: what the model is told about
// the tool. It comes from a .gram file at run time (gramfile) or
// from generated Go code; both take it from codegen/schema.Spec, so they
// produce identical values for the same source.
type Spec struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"` // a display name (MCP hosts show it)
	Description string `json:"description"`
	// Signature is the gram text of the tool's signature.
	Signature string `json:"signature,omitempty"`
	// Schema is the JSON Schema of the arguments object, exactly the
	// `parameters` that `gramc schema --target openai` prints (compact),
	// or the target's own for a spec made for another target (gramc mcp
	// serves the mcp target's inputSchema).
	Schema json.RawMessage `json:"schema"`
	// OutputSchema is the JSON Schema of the result (may be nil).
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Strict asks the provider for strict schema adherence.
	Strict bool `json:"strict,omitempty"`
	// Deprecated marks a tool kept for old callers.
	Deprecated bool `json:"deprecated,omitempty"`
	// TargetSchemas holds the arguments schema as other `gramc schema`
	// targets print it, where it differs from Schema, keyed by target
	// name: "anthropic" (the standard schema of a strict tool, whose
	// Schema is OpenAI's strict subset) and "gemini" (Gemini's OpenAPI
	// 3.0 subset; absent when the tool has no parameters or cannot be
	// expressed there). A provider client sends its own entry, or else
	// Schema (Gemini as parametersJsonSchema), so what it sends is what
	// `gramc schema` prints. Nil when there is none.
	TargetSchemas map[string]json.RawMessage `json:"targetSchemas,omitempty"`
}

// StandardTarget is the TargetSchemas key of a strict tool's standard
// JSON Schema (the schema `gramc schema --target anthropic` prints), which
// keeps what OpenAI's strict subset cannot say: defaults, optional
// properties.
const StandardTarget = "anthropic"

// StandardSchema is the arguments schema with every default and
// constraint as data: Schema, or for a strict tool whose Schema is
// OpenAI's strict subset, its standard form. The runtime validates a
// call's arguments against it and takes their defaults from it.
func (s Spec) StandardSchema() json.RawMessage {
	if std := s.TargetSchemas[StandardTarget]; s.Strict && len(std) > 0 {
		return std
	}
	return s.Schema
}
