// Package runtime runs gram agents: it binds tool specifications to
// implementations through a ToolLibrary and executes an agent's
// tool-calling loop against a Model (OpenAI or any compatible server, see
// runtime/openai).
package runtime

import (
	"context"
	"encoding/json"
	"strings"
)

// ToolSpecification is a tool's declaration as pure data: what the model is
// told about the tool. It comes from a .gram file at run time (LoadAgent) or
// from generated Go code; both produce identical values for the same source.
type ToolSpecification struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"` // a display name (MCP hosts show it)
	Description string `json:"description"`
	// Signature is the gram text of the tool's signature.
	Signature string `json:"signature,omitempty"`
	// Schema is the JSON Schema of the arguments object, exactly the
	// `parameters` that `gramc schema --target openai` prints (compact).
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
	// 3.0 subset). A provider client sends its own entry, or else Schema
	// (Gemini as parametersJsonSchema). Bind does not compare them: they
	// follow from Schema.
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
func (s ToolSpecification) StandardSchema() json.RawMessage {
	if std := s.TargetSchemas[StandardTarget]; s.Strict && len(std) > 0 {
		return std
	}
	return s.Schema
}

// ToolFunc implements a tool. args is the validated JSON arguments object
// with defaults applied. The result is encoded as JSON for the model (a
// json.RawMessage or []byte is sent as is, a string as the plain text).
type ToolFunc func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is a specification bound to an implementation.
type Tool struct {
	Spec ToolSpecification
	Func ToolFunc
}

// Agent is an agent's declaration: what it is told and which tools it may
// call.
type Agent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Model is `Provider/model-name`, e.g. "OpenAI/gpt-4o-mini".
	Model       string              `json:"model"`
	Instruction string              `json:"instruction"`
	Tools       []ToolSpecification `json:"tools,omitempty"`
	// Temperature is nil for the provider's default.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxIterations bounds the tool-calling loop; 0 means DefaultMaxIterations.
	MaxIterations int    `json:"maxIterations,omitempty"`
	ToolChoice    string `json:"toolChoice,omitempty"`
}

// DefaultMaxIterations is the loop bound when an agent does not set one.
const DefaultMaxIterations = 10

// SplitModel splits an agent's `Provider/model-name` at its first slash;
// a model that names no provider has provider "".
func SplitModel(model string) (provider, name string) {
	if p, n, ok := strings.Cut(model, "/"); ok {
		return p, n
	}
	return "", model
}
