// Package openai is a runtime.Model for the OpenAI Chat Completions API
// and the servers that speak it (Ollama, vLLM, llama.cpp, ...), written
// over net/http.
//
// It sends tools as `tools` and reads `tool_calls` (or, in FunctionsMode,
// the legacy `functions`/`function_call` form), retries connection errors
// and 408, 409, 429 and 5xx responses with exponential backoff and jitter
// (honouring Retry-After), and never lets the API key into an error or a
// debug dump.
package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
)

// info is OpenAI's row of the provider table: its variables, address
// and key header.
var info, _ = provider.Lookup("OpenAI")

// Mode selects how tools are sent.
type Mode int

const (
	// ToolsMode sends `tools` and reads `tool_calls` (the default).
	ToolsMode Mode = iota
	// FunctionsMode sends the legacy `functions` and reads `function_call`
	// (one call per response).
	FunctionsMode
	// ResponsesMode talks to the Responses API (/responses): the
	// conversation as input items, tool calls as `function_call` items
	// answered by `function_call_output` items.
	ResponsesMode
)

// Client is a runtime.Model (and a runtime.StreamingModel) that talks
// to a Chat Completions endpoint, or to the Responses API in
// ResponsesMode. It is configured one way, with the options of New
// (WithBaseURL, WithModel, ...), and is safe for concurrent use.
type Client struct {
	api  clientopt.Settings // the key, retries, timeouts, base URL, model
	mode Mode
}

// Option configures New: any of package clientopt's options, or this
// client's own (below).
type Option = clientopt.Option

// WithMode selects tools or legacy functions.
func WithMode(m Mode) Option { return clientopt.Own(func(c *Client) { c.mode = m }) }

// BaseURL returns the API root the client sends requests to.
func (c *Client) BaseURL() string { return c.api.BaseURL }

// New returns a client for OpenAI's own row of the provider table
// (OPENAI_API_KEY, OPENAI_BASE_URL), then opts. Without an API key it is
// a *runtime.ConfigurationError when the base URL is OpenAI's own (a
// local compatible server needs none).
func New(opts ...Option) (*Client, error) { return NewFor(info, opts...) }

// NewFor returns a client for a provider that speaks OpenAI's API (a row
// of the provider table whose Client is provider.OpenAI: Ollama, or one
// a program adds), configured from the row's variables, then opts.
func NewFor(p provider.Info, opts ...Option) (*Client, error) {
	return clientopt.NewClient(p, opts, func(c *Client) *clientopt.Settings { return &c.api })
}

// Complete implements runtime.Model.
func (c *Client) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	if c.mode == ResponsesMode {
		return c.responses(ctx, req, nil)
	}
	body, err := c.encodeRequest(req, false)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	return c.api.HTTP.Complete(ctx, c.endpoint("/chat/completions"), nil, body, c.decodeResponse)
}

// Stream implements runtime.StreamingModel: the request asks for
// `stream: true` (with usage), and the answer is reported as it arrives.
func (c *Client) Stream(ctx context.Context, req *runtime.Request, emit func(runtime.Event)) (*runtime.Completion, error) {
	if c.mode == ResponsesMode {
		if emit == nil {
			emit = func(runtime.Event) {}
		}
		return c.responses(ctx, req, emit)
	}
	body, err := c.encodeRequest(req, true)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	return c.api.HTTP.Stream(ctx, c.endpoint("/chat/completions"), nil, body, c.decodeResponse, c.decodeStream, emit)
}

func (c *Client) endpoint(path string) string {
	return strings.TrimRight(c.api.BaseURL, "/") + path
}

// EncodeRequest returns the JSON request body Complete sends for req.
func (c *Client) EncodeRequest(req *runtime.Request) ([]byte, error) {
	if c.mode == ResponsesMode {
		return c.encodeResponsesRequest(req, false)
	}
	return c.encodeRequest(req, false)
}

func (c *Client) encodeRequest(req *runtime.Request, stream bool) ([]byte, error) {
	cr := chatRequest{Model: c.api.ModelName(req.Model), Temperature: req.Temperature}
	if stream {
		cr.Stream = true
		cr.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	cr.Messages = make([]wireMessage, 0, len(req.Messages)+1)
	if req.Instruction != "" {
		cr.Messages = append(cr.Messages, wireMessage{Role: "system", Content: ptr(req.Instruction)})
	}
	legacy := c.mode == FunctionsMode
	// The legacy form has one call per assistant message, each followed by
	// its result: a stored turn with several calls is sent as call, result,
	// call, result. Results are paired with calls by position among the
	// tool messages that follow the turn (an ID picks among them first), so
	// pairing never depends on the IDs being unique.
	var answer map[int]int // tool message index -> call position, legacy only
	var resultFor map[[2]int]int
	if legacy {
		answer, resultFor = pairLegacyResults(req.Messages)
	}
	for i, m := range req.Messages {
		switch m.Role {
		case runtime.RoleUser:
			cr.Messages = append(cr.Messages, wireMessage{Role: "user", Content: ptr(m.Content)})
		case runtime.RoleSystem:
			cr.Messages = append(cr.Messages, wireMessage{Role: "system", Content: ptr(m.Content)})
		case runtime.RoleAssistant:
			wm := wireMessage{Role: "assistant"}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				wm.Content = ptr(m.Content)
			}
			if legacy {
				if len(m.ToolCalls) == 0 {
					cr.Messages = append(cr.Messages, wm)
				}
				for ci, tc := range m.ToolCalls {
					w := wm
					if ci > 0 {
						w.Content = nil
					}
					w.FunctionCall = &wireFunctionArg{Name: tc.Name, Arguments: tc.Arguments}
					cr.Messages = append(cr.Messages, w)
					if ri, ok := resultFor[[2]int{i, ci}]; ok {
						cr.Messages = append(cr.Messages, wireMessage{Role: "function", Name: tc.Name, Content: ptr(req.Messages[ri].Content)})
					}
				}
				continue
			}
			for _, tc := range m.ToolCalls {
				wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: tc.ID, Type: "function",
					Function: wireFunctionArg{Name: tc.Name, Arguments: tc.Arguments}})
			}
			cr.Messages = append(cr.Messages, wm)
		case runtime.RoleTool:
			if legacy {
				if _, paired := answer[i]; !paired {
					cr.Messages = append(cr.Messages, wireMessage{Role: "function", Name: m.Name, Content: ptr(m.Content)})
				}
			} else {
				cr.Messages = append(cr.Messages, wireMessage{Role: "tool", ToolCallID: m.ToolCallID, Content: ptr(m.Content)})
			}
		default:
			return nil, fmt.Errorf("message with unknown role %q", m.Role)
		}
	}
	var err error
	if legacy {
		cr.Functions, err = apihttp.ToolEntries(req.Tools, FunctionEntry)
	} else {
		cr.Tools, err = apihttp.ToolEntries(req.Tools, ToolEntry)
	}
	if err != nil {
		return nil, err
	}
	if len(req.Tools) > 0 && req.ToolChoice != "" {
		switch req.ToolChoice {
		case "auto", "none", "required":
			if legacy {
				if req.ToolChoice != "required" {
					cr.FunctionCall = req.ToolChoice
				}
			} else {
				cr.ToolChoice = req.ToolChoice
			}
		default:
			if legacy {
				cr.FunctionCall = map[string]string{"name": req.ToolChoice}
			} else {
				cr.ToolChoice = namedChoice{Type: "function", Function: struct {
					Name string `json:"name"`
				}{req.ToolChoice}}
			}
		}
	}
	if req.Output != nil {
		cr.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: structuredFormat(req.Output)}
	}
	return apihttp.Marshal(cr)
}

func ptr(s string) *string { return &s }

// namedChoice is a tool_choice forcing one function.
type namedChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

func (c *Client) decodeResponse(data []byte) (*runtime.Completion, error) {
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK,
			Message: "malformed response: " + err.Error(), Err: err}
	}
	if len(cr.Choices) == 0 {
		var eb errorBody
		if json.Unmarshal(data, &eb) == nil && eb.Error != nil && eb.Error.Message != "" {
			// Some servers report errors with status 200.
			return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: c.api.HTTP.RedactString(eb.Error.Message), Type: eb.Error.Type}
		}
		return nil, runtime.EmptyAnswer("openai", "")
	}
	ch := cr.Choices[0]
	msg := runtime.Message{Role: runtime.RoleAssistant}
	refused := false
	if ch.Message.Content != nil && *ch.Message.Content != "" {
		msg.Content = *ch.Message.Content
	} else if ch.Message.Refusal != nil {
		// A refusal is the answer's text, and reported as one.
		msg.Content, refused = *ch.Message.Refusal, true
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue // other tool kinds are not gram tools
		}
		msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name,
			Arguments: argumentsText(tc.Function.Arguments)})
	}
	if fc := ch.Message.FunctionCall; fc != nil && len(msg.ToolCalls) == 0 {
		msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{Name: fc.Name, Arguments: argumentsText(fc.Arguments)})
	}
	comp := &runtime.Completion{Message: msg, StopReason: stopReasons.Of(ch.FinishReason), ResponseID: cr.ID, ResponseModel: cr.Model}
	if refused && len(msg.ToolCalls) == 0 {
		comp.StopReason = runtime.StopRefusal
	}
	if cr.Usage != nil {
		comp.Usage = cr.Usage.usage()
	}
	return comp, nil
}

// pairLegacyResults pairs each assistant turn's calls with the tool
// messages that follow it: for each call, the first unpaired result with
// its ID, else the first unpaired result. It returns, for each paired tool
// message, the call position it answers, and for each (assistant message,
// call) the index of its result.
func pairLegacyResults(msgs []runtime.Message) (answer map[int]int, resultFor map[[2]int]int) {
	answer, resultFor = map[int]int{}, map[[2]int]int{}
	for i, m := range msgs {
		if m.Role != runtime.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == runtime.RoleTool {
			end++
		}
		for ci, tc := range m.ToolCalls {
			pick := -1
			for j := i + 1; j < end; j++ {
				if _, used := answer[j]; !used && msgs[j].ToolCallID == tc.ID && tc.ID != "" {
					pick = j
					break
				}
			}
			for j := i + 1; pick < 0 && j < end; j++ {
				if _, used := answer[j]; !used {
					pick = j
				}
			}
			if pick >= 0 {
				answer[pick] = ci
				resultFor[[2]int{i, ci}] = pick
			}
		}
	}
	return answer, resultFor
}

// stopReasons are Chat Completions' finish_reason values and the
// Responses API's status and incomplete reasons.
var stopReasons = apihttp.StopReasons{
	runtime.StopEnd:       {"stop", "completed"},
	runtime.StopToolCalls: {"tool_calls", "function_call"},
	runtime.StopMaxTokens: {"length", "max_output_tokens"},
	runtime.StopRefusal:   {"content_filter"},
}
