package runtime

import (
	"fmt"
	"net/http"
	"strings"
)

// ValidationError reports input that Run cannot send, such as an empty
// message.
type ValidationError struct {
	Field   string // what was invalid, e.g. "input"
	Message string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid %s: %s", e.Field, e.Message)
}

// ConfigurationError reports a setup problem: a missing API key, an
// unknown provider, an agent that cannot be loaded, a nil model.
type ConfigurationError struct {
	// Setting names what to fix, e.g. "OPENAI_API_KEY".
	Setting string
	Message string
	Err     error
}

func (e *ConfigurationError) Error() string {
	msg := e.Message
	if e.Err != nil {
		if msg == "" {
			msg = e.Err.Error()
		} else {
			msg += ": " + e.Err.Error()
		}
	}
	return msg
}

func (e *ConfigurationError) Unwrap() error { return e.Err }

// APIError reports a failed request to a model provider: a network error
// (StatusCode 0), an HTTP error status or a malformed response.
type APIError struct {
	Provider   string // e.g. "openai"
	StatusCode int    // 0 for a connection error
	// Message is the provider's error message (or a description of the
	// failure); it never contains the API key.
	Message string
	Type    string // the provider's error type, if any
	Code    string // the provider's error code, if any
	// Retryable reports whether trying again later may succeed.
	Retryable bool
	// Attempts is how many requests were made.
	Attempts int
	Err      error
}

func (e *APIError) Error() string {
	var b strings.Builder
	if e.Provider != "" {
		b.WriteString(e.Provider)
		b.WriteString(": ")
	}
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, "HTTP %d: ", e.StatusCode)
	}
	b.WriteString(e.Message)
	if e.Err != nil && e.Message == "" {
		b.WriteString(e.Err.Error())
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

func (e *APIError) Unwrap() error { return e.Err }

// EmptyAnswer is the error of a model's answer that holds nothing: no
// text and no tool calls (a 200 with no choices, no candidates, no
// content blocks, or a stream that ends without any). Every path of every
// provider reports it with these words; stop is the reason the provider
// gave ("" for none).
func EmptyAnswer(provider string, stop StopReason) *APIError {
	msg := "empty answer: the model sent no text and no tool calls"
	if stop != "" {
		msg += " (stop reason: " + string(stop) + ")"
	}
	return &APIError{Provider: provider, StatusCode: http.StatusOK, Message: msg}
}

// ToolBindingError reports an agent tool that a library cannot provide: it
// is missing, has no implementation, or its specification differs from the
// agent's.
type ToolBindingError struct {
	Agent string
	Tool  string
	// Difference says what is wrong, e.g. `not in the library (did you
	// mean "sayHello"?)` or `schema differs at /properties/name/type:
	// agent "string", library "integer"`.
	Difference string
}

func (e *ToolBindingError) Error() string {
	if e.Agent != "" {
		return fmt.Sprintf("agent %s: tool %s: %s", e.Agent, e.Tool, e.Difference)
	}
	return fmt.Sprintf("tool %s: %s", e.Tool, e.Difference)
}

// IterationLimitError reports a run that reached its iteration limit while
// the model still asked for tools. Response holds everything up to then.
type IterationLimitError struct {
	Limit    int
	Response *Response
}

func (e *IterationLimitError) Error() string {
	return fmt.Sprintf("iteration limit reached: the model still called tools after %d requests", e.Limit)
}

// ToolCallErrorKind classifies a failed tool call.
type ToolCallErrorKind string

// The kinds of failed tool calls.
const (
	UnknownTool      ToolCallErrorKind = "unknown tool"
	InvalidArguments ToolCallErrorKind = "invalid arguments"
	ToolFailed       ToolCallErrorKind = "tool error"
	ToolPanicked     ToolCallErrorKind = "tool panic"
	ToolTimedOut     ToolCallErrorKind = "tool timeout"
	BadResult        ToolCallErrorKind = "bad result"
	TooManyCalls     ToolCallErrorKind = "too many calls"
)

// ToolCallError is why a tool call failed. Its message is what the model
// is sent as the tool result, so it can correct itself.
type ToolCallError struct {
	Tool    string
	Kind    ToolCallErrorKind
	Message string
	Err     error // the tool's own error, if any
}

func (e *ToolCallError) Error() string { return e.Message }

func (e *ToolCallError) Unwrap() error { return e.Err }
