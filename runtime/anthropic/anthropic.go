// Package anthropic is a runtime.Model (and runtime.StreamingModel) for
// Anthropic's Messages API, written over net/http.
//
// Requests carry the key in x-api-key and the anthropic-version header,
// the required max_tokens, and the tools exactly as `gramc schema --target
// anthropic` prints them ({"name","description","input_schema"}). A
// model's tool_use blocks become the run's tool calls; their results go
// back as tool_result blocks, all of them first in one user message, with
// is_error set for failures. Stop reasons are mapped to
// runtime.StopReason. Streaming reads the SSE events (text_delta,
// input_json_delta, ...). Retries, Retry-After, errors and redaction are
// those of every gramc provider client.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
)

// APIVersion is the anthropic-version header sent with every request.
const APIVersion = "2023-06-01"

// DefaultMaxTokens is max_tokens when WithMaxTokens does not set it (the
// API requires one).
const DefaultMaxTokens = 4096

// info is Anthropic's row of the provider table: its variables, address
// (requests go to <base>/v1/messages) and key header.
var info, _ = provider.Lookup("Anthropic")

// Client is a runtime.Model for the Messages API. It is configured one
// way, with the options of New, and is safe for concurrent use.
type Client struct {
	api       clientopt.Settings // the key, retries, timeouts, base URL, model
	maxTokens int

	// The last output schema and its subset form (outputSchema).
	outMu         sync.Mutex
	outIn, outOut json.RawMessage
}

// Option configures New: any of package clientopt's options, or this
// client's own (below).
type Option = clientopt.Option

// WithMaxTokens sets max_tokens (default DefaultMaxTokens).
func WithMaxTokens(n int) Option { return clientopt.Own(func(c *Client) { c.maxTokens = n }) }

// New returns a client for Anthropic's row of the provider table
// (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), then opts. Without a key it is
// a *runtime.ConfigurationError when the base URL is Anthropic's own.
func New(opts ...Option) (*Client, error) { return NewFor(info, opts...) }

// NewFor returns a client for a provider that speaks the Messages API,
// configured from its row of the provider table, then opts.
func NewFor(p provider.Info, opts ...Option) (*Client, error) {
	c, err := clientopt.NewClient(p, opts, func(c *Client) *clientopt.Settings { return &c.api })
	if err == nil && c.maxTokens <= 0 {
		c.maxTokens = DefaultMaxTokens
	}
	return c, err
}

// BaseURL returns the API root the client sends requests to.
func (c *Client) BaseURL() string { return c.api.BaseURL }

func (c *Client) endpoint() string {
	base := strings.TrimRight(c.api.BaseURL, "/")
	// A base URL given with its /v1 (as OpenAI's are) works too.
	base = strings.TrimSuffix(base, "/v1")
	return base + "/v1/messages"
}

var versionHeader = http.Header{"Anthropic-Version": {APIVersion}}

// Complete implements runtime.Model.
func (c *Client) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	body, err := c.encodeRequest(req, false)
	if err != nil {
		return nil, err
	}
	return c.api.HTTP.Complete(ctx, c.endpoint(), versionHeader, body, c.decodeResponse)
}

// Stream implements runtime.StreamingModel.
func (c *Client) Stream(ctx context.Context, req *runtime.Request, emit func(runtime.Event)) (*runtime.Completion, error) {
	body, err := c.encodeRequest(req, true)
	if err != nil {
		return nil, err
	}
	return c.api.HTTP.Stream(ctx, c.endpoint(), versionHeader, body, c.decodeResponse, c.decodeStream, emit)
}

// EncodeRequest returns the JSON request body Complete sends for req.
func (c *Client) EncodeRequest(req *runtime.Request) ([]byte, error) {
	return c.encodeRequest(req, false)
}

// ToolEntry returns the Messages API `tools` entry for spec, compact:
// {"name","description","input_schema"} in that order, byte-identical to
// the entry `gramc schema --target anthropic` prints for the same tool.
func ToolEntry(spec runtime.ToolSpecification) (json.RawMessage, error) {
	schema := spec.TargetSchemas["anthropic"]
	if len(schema) == 0 {
		schema = spec.Schema
	}
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 {
		schema = []byte(`{"type":"object","properties":{}}`)
	}
	var b bytes.Buffer
	if err := apihttp.OpenToolEntry(&b, spec, "input_schema", schema); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Wire types of the Messages API (only what gramc sends and reads).

type messagesRequest struct {
	Model       string            `json:"model"`
	MaxTokens   int               `json:"max_tokens"`
	System      string            `json:"system,omitempty"`
	Messages    []wireMessage     `json:"messages"`
	Tools       []json.RawMessage `json:"tools,omitempty"`
	ToolChoice  *toolChoice       `json:"tool_choice,omitempty"`
	Temperature *float64          `json:"temperature,omitempty"`
	Stream      bool              `json:"stream,omitempty"`
	// OutputConfig asks for structured outputs (a typed agent in native
	// mode): output_config.format of type json_schema.
	OutputConfig *outputConfig `json:"output_config,omitempty"`
}

type outputConfig struct {
	Format outputFormat `json:"format"`
}

type outputFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

type toolChoice struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

type wireMessage struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type wireUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

func (u wireUsage) usage() runtime.Usage {
	in := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
	return runtime.Usage{PromptTokens: in, CompletionTokens: u.OutputTokens, TotalTokens: in + u.OutputTokens}
}

type messagesResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string     `json:"stop_reason"`
	Usage      *wireUsage `json:"usage"`
}

func (c *Client) encodeRequest(req *runtime.Request, stream bool) ([]byte, error) {
	mr := messagesRequest{Model: c.api.ModelName(req.Model), MaxTokens: c.maxTokens, Stream: stream}
	if t := req.Temperature; t != nil {
		if *t < 0 || *t > 1 {
			return nil, &runtime.ConfigurationError{Setting: "temperature",
				Message: fmt.Sprintf("temperature %v is outside Anthropic's range 0 to 1", *t)}
		}
		mr.Temperature = t
	}
	system := []string{}
	if req.Instruction != "" {
		system = append(system, req.Instruction)
	}
	mr.Messages, system = encodeMessages(req.Messages, system)
	mr.System = strings.Join(system, "\n\n")
	var err error
	if mr.Tools, err = apihttp.ToolEntries(req.Tools, ToolEntry); err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice {
		case "":
		case "auto", "none":
			mr.ToolChoice = &toolChoice{Type: req.ToolChoice}
		case "required":
			mr.ToolChoice = &toolChoice{Type: "any"}
		default:
			mr.ToolChoice = &toolChoice{Type: "tool", Name: req.ToolChoice}
		}
	}
	if req.Output != nil {
		schema, err := c.outputSchema(req.Output.Schema)
		if err != nil {
			return nil, &runtime.ConfigurationError{Setting: "output", Message: "cannot encode the request", Err: err}
		}
		mr.OutputConfig = &outputConfig{Format: outputFormat{Type: "json_schema", Schema: schema}}
	}
	body, err := apihttp.Marshal(mr)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	return body, nil
}

// encodeMessages turns a provider-neutral conversation into Messages API
// turns: roles alternate (neighbouring turns of one role merge), an
// assistant's tool calls become tool_use blocks, and the results that
// follow become tool_result blocks, all of them first in the next user
// message (a call without a recorded result gets an error result, a
// result without its call becomes text). Extra system messages join the
// system prompt. Parallel to gemini.go's encodeContents (the same walk
// over Gemini's parts); kept apart because each pairs results with calls
// by its own document's rules (here tool_use ids rewritten to Anthropic's
// pattern and one result per id).
func encodeMessages(msgs []runtime.Message, system []string) ([]wireMessage, []string) {
	var out []wireMessage
	add := func(role string, blocks ...block) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			return
		}
		out = append(out, wireMessage{Role: role, Content: blocks})
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case runtime.RoleSystem:
			if m.Content != "" {
				system = append(system, m.Content)
			}
		case runtime.RoleUser:
			if m.Content != "" {
				add("user", block{Type: "text", Text: m.Content})
			}
		case runtime.RoleTool:
			// A result whose call is not right before it.
			add("user", block{Type: "text", Text: fmt.Sprintf("(result of tool %s) %s", m.Name, nonEmpty(m.Content))})
		case runtime.RoleAssistant:
			var blocks []block
			if m.Content != "" {
				blocks = append(blocks, block{Type: "text", Text: m.Content})
			}
			ids := make([]string, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				ids[j] = toolUseID(tc.ID, i, j)
				blocks = append(blocks, block{Type: "tool_use", ID: ids[j], Name: tc.Name, Input: apihttp.ArgumentsObject(tc.Arguments)})
			}
			if len(blocks) == 0 {
				continue // an empty answer: nothing to send
			}
			add("assistant", blocks...)
			if len(m.ToolCalls) == 0 {
				continue
			}
			// The results: every call answered, in call order, first.
			results := map[string]runtime.Message{}
			// The wire ID of each call ID (the first call with it), so
			// that matching n results is linear, not n² (issue 20.6).
			wireID := make(map[string]string, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				if _, seen := wireID[tc.ID]; !seen {
					wireID[tc.ID] = ids[j]
				}
			}
			var orphans []block
			for i+1 < len(msgs) && msgs[i+1].Role == runtime.RoleTool {
				i++
				r := msgs[i]
				id := wireID[r.ToolCallID]
				if _, dup := results[id]; id == "" || dup {
					orphans = append(orphans, block{Type: "text", Text: fmt.Sprintf("(result of tool %s) %s", r.Name, nonEmpty(r.Content))})
					continue
				}
				results[id] = r
			}
			var rb []block
			for j, tc := range m.ToolCalls {
				r, ok := results[ids[j]]
				if !ok {
					r = runtime.Message{Content: "error: no result was recorded for this call of " + tc.Name, IsError: true}
				}
				rb = append(rb, block{Type: "tool_result", ToolUseID: ids[j], Content: r.Content, IsError: r.IsError})
			}
			out = append(out, wireMessage{Role: "user", Content: append(rb, orphans...)})
		}
	}
	return out, system
}

func nonEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// toolUseID makes a call ID fit Anthropic's pattern ^[a-zA-Z0-9_-]+$ (a
// conversation resumed from another provider may hold any ID); the same
// ID always maps to the same result.
func toolUseID(id string, msg, call int) string {
	if id == "" {
		return fmt.Sprintf("toolu_gramc_%d_%d", msg, call)
	}
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (c *Client) decodeResponse(data []byte) (*runtime.Completion, error) {
	var mr messagesResponse
	if err := json.Unmarshal(data, &mr); err != nil {
		return nil, &runtime.APIError{Provider: "anthropic", StatusCode: http.StatusOK, Message: "malformed response: " + err.Error(), Err: err}
	}
	if mr.Type == "error" {
		if e, ok := c.api.HTTP.BodyError(http.StatusOK, data); ok {
			return nil, e
		}
	}
	if mr.Type != "message" || mr.Role != "assistant" {
		return nil, &runtime.APIError{Provider: "anthropic", StatusCode: http.StatusOK,
			Message: fmt.Sprintf("malformed response: type %q, role %q (want an assistant message)", mr.Type, mr.Role)}
	}
	msg := runtime.Message{Role: runtime.RoleAssistant}
	var text strings.Builder
	for _, b := range mr.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := "{}"
			if len(bytes.TrimSpace(b.Input)) > 0 {
				args = string(b.Input)
			}
			msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	msg.Content = text.String()
	comp := &runtime.Completion{Message: msg, StopReason: stopReasons.Of(mr.StopReason), ResponseID: mr.ID, ResponseModel: mr.Model}
	if mr.Usage != nil {
		comp.Usage = mr.Usage.usage()
	}
	return comp, nil
}

// stopReasons are the Messages API's stop_reason values.
var stopReasons = apihttp.StopReasons{
	runtime.StopEnd:       {"end_turn", "stop_sequence"},
	runtime.StopToolCalls: {"tool_use"},
	runtime.StopMaxTokens: {"max_tokens", "model_context_window_exceeded"},
	runtime.StopRefusal:   {"refusal"},
}

// unsupportedOutputKeywords are the JSON Schema keywords Anthropic's
// structured outputs answer 400 to ("For 'integer' type, property
// 'minimum' is not supported"): its constrained decoding compiles a
// narrower subset. They are left out of output_config.format.schema; the
// runtime still validates the answer against the whole type.
var unsupportedOutputKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties"}

// outputSchema is outputSchemaOf, remembering the last schema: a run
// sends the same one with every request.
func (c *Client) outputSchema(schema json.RawMessage) (json.RawMessage, error) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.outIn != nil && bytes.Equal(c.outIn, schema) {
		return c.outOut, nil
	}
	out, err := outputSchemaOf(schema)
	if err == nil {
		c.outIn, c.outOut = append(json.RawMessage(nil), schema...), out
	}
	return out, err
}

// outputSchemaOf is a typed agent's output schema in the subset Anthropic's
// structured outputs accept: the unsupported keywords removed at every
// level (minItems above 1 too), every object closed.
func outputSchemaOf(schema json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("the output schema: %w", err)
	}
	var walk func(v any, isSchema bool)
	walk = func(v any, isSchema bool) {
		switch x := v.(type) {
		case map[string]any:
			if isSchema {
				for _, k := range unsupportedOutputKeywords {
					delete(x, k)
				}
				if n, ok := x["minItems"].(json.Number); ok && n.String() != "0" && n.String() != "1" {
					delete(x, "minItems")
				}
				if _, ok := x["properties"]; ok || x["type"] == "object" {
					x["additionalProperties"] = false
				}
				for k, e := range x {
					switch k {
					case "properties", "$defs", "definitions":
						if m, ok := e.(map[string]any); ok {
							for _, sub := range m {
								walk(sub, true)
							}
						}
					case "items", "not", "additionalProperties":
						walk(e, true)
					case "anyOf", "allOf", "oneOf", "prefixItems":
						if list, ok := e.([]any); ok {
							for _, sub := range list {
								walk(sub, true)
							}
						}
					}
				}
			}
		}
	}
	walk(doc, true)
	return apihttp.Marshal(doc)
}
