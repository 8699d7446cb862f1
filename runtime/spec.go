// Package runtime runs gram agents: it binds tool specifications to
// implementations through a ToolLibrary and executes an agent's
// tool-calling loop against a Model (OpenAI or any compatible server, see
// runtime/openai).
package runtime

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gramc-dev/gramc/toolspec"
)

// ToolSpecification is a tool's declaration as pure data: what the model is
// told about the tool. It is toolspec.Spec, the one type codegen/schema
// produces for a .gram file's tool (LoadAgent) and generated Go code
// embeds; both produce identical values for the same source.
type ToolSpecification = toolspec.Spec

// ToolFunc implements a tool. args is the validated JSON arguments object
// with defaults applied. The result is encoded as JSON for the model (a
// json.RawMessage or []byte is sent as is, a string as the plain text).
type ToolFunc func(ctx context.Context, args json.RawMessage) (any, error)

// ToolResult is a result whose text for the model is not its value: an
// MCP server's content beside its structuredContent (the MCP tools page:
// a client gives the model the content, and keeps the structured content
// for code). Value, when set, is what is checked against the tool's
// return type (ValidateOutput) and kept as the invocation's Value; the
// model is sent Text.
type ToolResult struct {
	Text  string
	Value json.RawMessage
}

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
	MaxIterations int `json:"maxIterations,omitempty"`
	// MaxTokens bounds the tokens, input and output, of a run of the agent,
	// its listed agents' included (budget.go); 0 means no limit.
	MaxTokens  int    `json:"maxTokens,omitempty"`
	ToolChoice string `json:"toolChoice,omitempty"`
	// Signature is a typed agent's input and output (docs/language.md §2.6);
	// nil for an agent that takes a message and answers text.
	Signature *Signature `json:"signature,omitempty"`
	// Agents are the agents it lists (docs/language.md §2.7, "Agents as
	// tools"), each also among Tools as the tool its model sees
	// (AgentToolSpec, or the compiler's): calling that tool runs the
	// listed agent (agenttool.go).
	Agents []Agent `json:"agents,omitempty"`
}

// SplitModel splits an agent's `Provider/model-name` at its first slash;
// a model that names no provider has provider "".
func SplitModel(model string) (provider, name string) {
	if p, n, ok := strings.Cut(model, "/"); ok {
		return p, n
	}
	return "", model
}
