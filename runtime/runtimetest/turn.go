package runtimetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
)

// The providers the fake servers speak.
const (
	OpenAI          = "openai"           // Chat Completions
	OpenAIResponses = "openai-responses" // the Responses API
	Anthropic       = "anthropic"        // Messages
	Gemini          = "gemini"           // generateContent
)

// Providers lists every provider a fake server speaks.
func Providers() []string { return []string{OpenAI, OpenAIResponses, Anthropic, Gemini} }

// Turn is one request to a fake provider server, decoded from the
// provider's wire format into the runtime's terms, so that one Policy
// drives the fakes of every provider.
type Turn struct {
	Provider string
	Model    string
	// System is the system instruction (the instruction and any system
	// messages).
	System string
	// Messages are the conversation: user messages, assistant messages
	// (text and tool calls), tool results (RoleTool, with ToolCallID,
	// Name and IsError as far as the provider's format carries them).
	Messages []runtime.Message
	// Tools are the offered tools' names, in order; Params their
	// parameters schemas as sent.
	Tools  []string
	Params map[string]json.RawMessage
	// Legacy: OpenAI's legacy functions were offered.
	Legacy bool
	// Stream: the request asked for a stream.
	Stream bool
	// Output is the JSON Schema the request asked the answer to follow
	// through the provider's structured-output field (response_format,
	// text.format, output_config.format, responseJsonSchema); nil for
	// none. OutputStrict: OpenAI's strict was set.
	Output       json.RawMessage
	OutputStrict bool
	// ToolChoice is the request's tool choice as the provider's wire has
	// it (nil for none).
	ToolChoice json.RawMessage
	Header     http.Header
	Raw        []byte

	chat *ChatRequest // the request as OpenAI's wire format has it
}

// Chat is an OpenAI turn's request in Chat Completions' own terms (roles
// "system" and "function", tool_calls, legacy functions), for tests of the
// wire format; nil for the other providers.
func (t *Turn) Chat() *ChatRequest { return t.chat }

// Last returns the last message (the zero message when there is none).
func (t *Turn) Last() runtime.Message {
	if len(t.Messages) == 0 {
		return runtime.Message{}
	}
	return t.Messages[len(t.Messages)-1]
}

// Policy decides a fake's reply to a turn; n counts requests from 1.
type Policy func(t *Turn, n int) Reply

// Replies returns a Policy that plays replies in order; a request beyond
// them gets a 500.
func Replies(replies ...Reply) Policy {
	return func(t *Turn, n int) Reply {
		if n > len(replies) {
			return Reply{Status: http.StatusInternalServerError, Message: fmt.Sprintf("fake server: request %d is beyond the script's %d replies", n, len(replies))}
		}
		return replies[n-1]
	}
}

// Echo is the fakeopenai program's policy, good for demos and scripts,
// for any provider: after tool results it answers with
// text containing them; when tools are offered it calls the first one with
// arguments built from the user's text (ArgumentsFor); otherwise it echoes
// the user's text. A typed agent's request is answered in kind: a request
// for a structured output with a value of its schema, and a final-answer
// tool (the last tool, named final_answer…) is called once the agent's
// own tools have answered, with arguments built from their results.
func Echo(t *Turn, n int) Reply {
	var results []string
	for i := len(t.Messages) - 1; i >= 0; i-- {
		m := t.Messages[i]
		if m.Role != runtime.RoleTool {
			break
		}
		results = append([]string{m.Content}, results...)
	}
	user := ""
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if m := t.Messages[i]; m.Role == runtime.RoleUser {
			user = m.Content
			break
		}
	}
	final := ""
	if k := len(t.Tools); k > 0 && strings.HasPrefix(t.Tools[k-1], "final_answer") {
		final = t.Tools[k-1]
	}
	if len(results) > 0 {
		text := strings.Join(results, "\n")
		switch {
		case t.Output != nil:
			return Reply{Text: ArgumentsFor(t.Output, text)}
		case final != "":
			return Reply{ToolCalls: []FakeCall{{Name: final, Arguments: ArgumentsFor(t.Params[final], text)}}}
		}
		return Reply{Text: text}
	}
	if len(t.Tools) == 0 {
		if t.Output != nil {
			return Reply{Text: ArgumentsFor(t.Output, user)}
		}
		return Reply{Text: "You said: " + user}
	}
	name := t.Tools[0]
	return Reply{ToolCalls: []FakeCall{{Name: name, Arguments: ArgumentsFor(t.Params[name], user)}}, Legacy: t.Legacy}
}

// Turn returns the request in the runtime's terms.
func (r *ChatRequest) Turn() *Turn {
	t := &Turn{Provider: OpenAI, Model: r.Model, Header: r.Header, Raw: r.Raw, Stream: r.Stream, Params: map[string]json.RawMessage{}, chat: r,
		Output: r.output, OutputStrict: r.outputStrict, ToolChoice: r.ToolChoice}
	for _, e := range r.Tools {
		var te struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		json.Unmarshal(e, &te)
		t.Tools = append(t.Tools, te.Function.Name)
		t.Params[te.Function.Name] = te.Function.Parameters
	}
	for _, e := range r.Functions {
		var fe struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		}
		json.Unmarshal(e, &fe)
		t.Tools = append(t.Tools, fe.Name)
		t.Params[fe.Name] = fe.Parameters
		t.Legacy = true
	}
	var system []string
	for i, m := range r.Messages {
		content := ""
		if m.Content != nil {
			content = *m.Content
		}
		switch m.Role {
		case "system", "developer":
			if i == 0 {
				system = append(system, content)
				continue
			}
			t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleSystem, Content: content})
		case "user":
			t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleUser, Content: content})
		case "assistant":
			msg := runtime.Message{Role: runtime.RoleAssistant, Content: content}
			for _, tc := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
			if fc := m.FunctionCall; fc != nil {
				msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{Name: fc.Name, Arguments: fc.Arguments})
			}
			t.Messages = append(t.Messages, msg)
		case "tool", "function":
			t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleTool, ToolCallID: m.ToolCallID, Name: m.Name, Content: content})
		}
	}
	t.System = strings.Join(system, "\n\n")
	return t
}
