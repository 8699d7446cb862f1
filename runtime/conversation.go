package runtime

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gramc-dev/gramc/provider"
)

// Role is who wrote a message.
type Role string

// The roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	// RoleSystem is an extra system message inside a conversation (the
	// agent's instruction is always sent first and is not stored).
	RoleSystem Role = "system"
)

// ToolCall is a model's request to call a tool.
type ToolCall struct {
	// ID links the call to its result; providers that do not send one (the
	// legacy function_call form) get a generated ID.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the arguments text as the model produced it: normally
	// the JSON text of an object. Run also accepts a JSON string holding
	// that text (double-encoded). It is a string, not a json.RawMessage,
	// so that a model's malformed arguments still round-trip through a
	// stored conversation.
	Arguments string `json:"arguments"`
	// ThoughtSignature is Gemini's opaque signature of the model's
	// thinking for this call, echoed back unchanged with the call (Gemini
	// requires it); other providers ignore it.
	ThoughtSignature string `json:"thoughtSignature,omitempty"`
	// Generated says the ID is gramc's, not the provider's (the provider
	// sent none, or one already used): a provider whose IDs are optional
	// (Gemini) is not sent it back.
	Generated bool `json:"generated,omitempty"`
}

// Message is one entry of a conversation: a user message, an assistant
// message (text and/or tool calls) or a tool result.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the assistant's tool calls, in the order the model
	// gave them.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and Name identify the call a tool result answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	Name       string `json:"name,omitempty"`
	// IsError marks a tool result that reports a failure (Anthropic's
	// is_error, Gemini's {"error": ...} response).
	IsError bool `json:"isError,omitempty"`
	// ThoughtSignature is Gemini's signature of an assistant text part,
	// echoed back unchanged.
	ThoughtSignature string `json:"thoughtSignature,omitempty"`
}

// Conversation is the history of an exchange with an agent, without the
// agent's instruction (which is sent with every request). It is plain JSON
// so a caller can store it and resume it later with Run.
type Conversation struct {
	Messages []Message `json:"messages"`
}

// Append adds messages to the end of the conversation.
func (c *Conversation) Append(msgs ...Message) { c.Messages = append(c.Messages, msgs...) }

// Clone returns a deep copy of the conversation (nil for nil).
func (c *Conversation) Clone() *Conversation {
	if c == nil {
		return nil
	}
	out := &Conversation{Messages: make([]Message, len(c.Messages))}
	for i, m := range c.Messages {
		if m.ToolCalls != nil {
			m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
		}
		out.Messages[i] = m
	}
	return out
}

// Usage counts the tokens an exchange used, as the provider reported them.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// Add adds u2 to u.
func (u *Usage) Add(u2 Usage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.TotalTokens += u2.TotalTokens
}

// Invocation records one tool call made during a run.
type Invocation struct {
	// CallID is the model's ID for the call.
	CallID string `json:"callId"`
	Tool   string `json:"tool"`
	// Args are the validated arguments with defaults applied, or, when
	// they could not be validated, the arguments text as the model sent it
	// (as a JSON string).
	Args json.RawMessage `json:"args"`
	// Result is the tool result as sent to the model; empty when Err is
	// set.
	Result string `json:"result,omitempty"`
	// Value is the result's value when the tool gave it apart from the
	// text the model was sent (a ToolResult: an MCP server's
	// structuredContent), checked against the return type; else nil.
	Value json.RawMessage `json:"value,omitempty"`
	// Err is why the call failed (a *ToolCallError); the model was sent
	// its message as the tool result.
	Err      error         `json:"-"`
	Duration time.Duration `json:"duration"`
	// Agent is the nested run when the tool is a listed agent (docs/language.md
	// §2.7): its Response, whose Invocations hold its own calls, so a
	// run's invocations are a tree. Nil for a tool, and for a listed
	// agent that was not run.
	Agent *Response `json:"agent,omitempty"`
}

// MarshalJSON encodes the invocation with its error's message as "error"
// and, for a *ToolCallError, its kind as "errorKind".
func (inv Invocation) MarshalJSON() ([]byte, error) {
	type plain Invocation
	out := struct {
		plain
		Error     string            `json:"error,omitempty"`
		ErrorKind ToolCallErrorKind `json:"errorKind,omitempty"`
	}{plain: plain(inv)}
	if inv.Err != nil {
		out.Error = inv.Err.Error()
		var tce *ToolCallError
		if errors.As(inv.Err, &tce) {
			out.ErrorKind = tce.Kind
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what MarshalJSON encodes; an "error" becomes a
// *ToolCallError with its tool, kind and message (the tool's own error
// value is not kept), so a Response survives a trip through JSON — a
// durable engine's history, a file.
func (inv *Invocation) UnmarshalJSON(data []byte) error {
	type plain Invocation
	var in struct {
		plain
		Error     string            `json:"error"`
		ErrorKind ToolCallErrorKind `json:"errorKind"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	*inv = Invocation(in.plain)
	if in.Error != "" {
		inv.Err = &ToolCallError{Tool: inv.Tool, Kind: in.ErrorKind, Message: in.Error}
	}
	return nil
}

// Response is the outcome of Run.
type Response struct {
	// Content is the model's final text answer; a typed agent's is its
	// Value's JSON text.
	Content string
	// Value is a typed agent's result (docs/language.md §2.6): a value of its
	// output type, validated, defaults applied, unwrapped; nil for an
	// agent that answers text.
	Value json.RawMessage `json:",omitempty"`
	// OutputMode is how a typed agent's answer was held to its type.
	OutputMode provider.OutputMode `json:",omitempty"`
	// Repairs counts the repair turns: answers sent back because they
	// were not a value of the output type.
	Repairs int `json:",omitempty"`
	// Lenient says how a prompted answer's value was found when it was
	// not the whole text ("the value was found in a fenced code block").
	Lenient string `json:",omitempty"`
	// Invocations are every tool call of the run, in call order.
	Invocations []Invocation
	// Conversation is the whole history including this run's messages;
	// pass it to the next Run to continue.
	Conversation *Conversation
	// Usage is the tokens this agent's own requests used; Total adds its
	// listed agents'.
	Usage Usage
	// Total is what the whole run spent: this agent's requests, tool calls
	// and tokens and those of every agent it ran as a tool, at any depth
	// (the run's budget, budget.go, is drawn against it).
	Total Spend
	// Iterations is the number of model requests made.
	Iterations int
	// StopReason is why the model's last answer ended: StopMaxTokens
	// when Content was cut at the token limit.
	StopReason StopReason
}
