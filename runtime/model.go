package runtime

import "context"

// Model is a chat model that can call tools: runtime/openai implements it
// for OpenAI-compatible servers; runtimetest has a scripted one for tests.
type Model interface {
	// Complete sends one request and returns the assistant's message
	// (text and/or tool calls) and the tokens used. Errors should be
	// *APIError or *ConfigurationError where they apply.
	Complete(ctx context.Context, req *Request) (*Completion, error)
}

// Request is what a Model is asked: the agent's instruction, the
// conversation so far and the tools it may call.
type Request struct {
	// Model is the agent's `Provider/model-name`; a provider strips its
	// own prefix (or overrides it).
	Model       string
	Instruction string
	Messages    []Message
	Tools       []ToolSpecification
	Temperature *float64
	// ToolChoice is "", "auto", "none", "required" or a tool name.
	ToolChoice string
	// Output asks for a structured answer of this format (a typed agent
	// in native mode); nil for none.
	Output *OutputFormat
}

// Completion is a Model's answer.
type Completion struct {
	// Message has Role RoleAssistant.
	Message Message
	Usage   Usage
	// StopReason is why the model stopped, mapped from the provider's
	// own reason ("" when it gave none).
	StopReason StopReason
	// ResponseID and ResponseModel are the provider's id of the answer
	// and the model that gave it, when it says (telemetry records them).
	ResponseID    string
	ResponseModel string
}

// StopReason is why a model stopped answering, the same for every
// provider.
type StopReason string

// The stop reasons. Run decides by the tool calls, not by the reason (a
// server may say "stop" with tool calls, Gemini always does).
const (
	StopEnd       StopReason = "end"        // a complete answer (OpenAI "stop", Anthropic "end_turn", Gemini "STOP")
	StopToolCalls StopReason = "tool_calls" // tool calls (OpenAI "tool_calls", Anthropic "tool_use")
	StopMaxTokens StopReason = "max_tokens" // cut at the token limit (OpenAI "length", Anthropic "max_tokens", Gemini "MAX_TOKENS")
	StopRefusal   StopReason = "refusal"    // refused or filtered (OpenAI "content_filter", Anthropic "refusal", Gemini "SAFETY", ...)
	StopOther     StopReason = "other"      // any other reason the provider gave
)

// ModelFunc adapts a function to the Model interface.
type ModelFunc func(ctx context.Context, req *Request) (*Completion, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, req *Request) (*Completion, error) {
	return f(ctx, req)
}
