package runtimetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
)

// The Anthropic Messages API's rules, as its documentation states them
// (docs.anthropic.com: Messages, Tool use, Streaming, Errors, Versions).
var (
	anthropicToolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicToolIDRE   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
)

// AnthropicVersion is the anthropic-version header the fake requires.
const AnthropicVersion = "2023-06-01"

type anthropicRequest struct {
	Model         string             `json:"model"`
	MaxTokens     *int               `json:"max_tokens"`
	Messages      []anthropicMessage `json:"messages"`
	System        json.RawMessage    `json:"system,omitempty"`
	Tools         []json.RawMessage  `json:"tools,omitempty"`
	ToolChoice    json.RawMessage    `json:"tool_choice,omitempty"`
	Temperature   *float64           `json:"temperature,omitempty"`
	Stream        bool               `json:"stream,omitempty"`
	StopSequences []string           `json:"stop_sequences,omitempty"`
	TopP          *float64           `json:"top_p,omitempty"`
	TopK          *int               `json:"top_k,omitempty"`
	Metadata      json.RawMessage    `json:"metadata,omitempty"`
	OutputConfig  json.RawMessage    `json:"output_config,omitempty"`
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   *bool           `json:"is_error,omitempty"`
	// CacheControl is accepted on any block.
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

type anthropicDialect struct{}

func (anthropicDialect) key(r *http.Request) string { return r.Header.Get("X-Api-Key") }

// decode is parallel to geminiDialect's and responsesDialect's: the same
// first checks (path, key header, JSON body), each in its API's words.
func (anthropicDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		return nil, fmt.Errorf("unexpected %s %s (want POST .../v1/messages)", r.Method, r.URL.Path)
	}
	if v := r.Header.Get("Anthropic-Version"); v != AnthropicVersion {
		return nil, fmt.Errorf("anthropic-version header %q, want %q", v, AnthropicVersion)
	}
	if r.Header.Get("X-Api-Key") == "" {
		return nil, fmt.Errorf("no x-api-key header")
	}
	if r.Header.Get("Authorization") != "" {
		return nil, fmt.Errorf("an Authorization header: Anthropic takes the key in x-api-key")
	}
	var req anthropicRequest
	if err := decodeBody(r, body, &req, "body"); err != nil {
		return nil, err
	}
	if req.Model == "" {
		return nil, fmt.Errorf("model: Field required")
	}
	if req.MaxTokens == nil {
		return nil, fmt.Errorf("max_tokens: Field required")
	}
	if *req.MaxTokens < 1 {
		return nil, fmt.Errorf("max_tokens: must be at least 1")
	}
	if req.Temperature != nil && (*req.Temperature < 0 || *req.Temperature > 1) {
		return nil, fmt.Errorf("temperature: must be between 0 and 1")
	}
	t := &Turn{Model: req.Model, Stream: req.Stream, Params: map[string]json.RawMessage{}}
	// system: a string or text blocks.
	if len(req.System) > 0 {
		var s string
		if json.Unmarshal(req.System, &s) == nil {
			t.System = s
		} else {
			var blocks []anthropicBlock
			if err := json.Unmarshal(req.System, &blocks); err != nil {
				return nil, fmt.Errorf("system: want a string or text blocks")
			}
			for _, b := range blocks {
				if b.Type != "text" || b.Text == nil {
					return nil, fmt.Errorf("system: blocks must be text blocks")
				}
				t.System += *b.Text
			}
		}
	}
	for i, raw := range req.Tools {
		var tool struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"input_schema"`
			CacheControl json.RawMessage `json:"cache_control,omitempty"`
		}
		if err := strictDecode(raw, &tool); err != nil {
			return nil, fmt.Errorf("tools.%d: %w", i, err)
		}
		if !anthropicToolNameRE.MatchString(tool.Name) {
			return nil, fmt.Errorf("tools.%d.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		}
		if _, dup := t.Params[tool.Name]; dup {
			return nil, fmt.Errorf("tools: Tool names must be unique (%s)", tool.Name)
		}
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(tool.InputSchema, &schema) != nil || schema.Type != "object" {
			return nil, fmt.Errorf("tools.%d.input_schema: type must be \"object\"", i)
		}
		t.Tools = append(t.Tools, tool.Name)
		t.Params[tool.Name] = tool.InputSchema
	}
	if len(req.OutputConfig) > 0 {
		var err error
		if t.Output, err = checkAnthropicOutputConfig(req.OutputConfig); err != nil {
			return nil, err
		}
	}
	t.ToolChoice = req.ToolChoice
	if len(req.ToolChoice) > 0 {
		var tc struct {
			Type                   string `json:"type"`
			Name                   string `json:"name,omitempty"`
			DisableParallelToolUse *bool  `json:"disable_parallel_tool_use,omitempty"`
		}
		if err := strictDecode(req.ToolChoice, &tc); err != nil {
			return nil, fmt.Errorf("tool_choice: %w", err)
		}
		switch tc.Type {
		case "auto", "any", "none":
		case "tool":
			if _, ok := t.Params[tc.Name]; !ok {
				return nil, fmt.Errorf("tool_choice.name: %q is not a tool of the request", tc.Name)
			}
		default:
			return nil, fmt.Errorf("tool_choice.type: %q is not auto, any, tool or none", tc.Type)
		}
	}
	if len(req.Messages) == 0 {
		return nil, fmt.Errorf("messages: at least one message is required")
	}
	seen := map[string]bool{}
	var pending []string // tool_use ids of the last assistant message
	pendingSet := map[string]bool{}
	for i, m := range req.Messages {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return nil, fmt.Errorf("messages.%d.role: roles must alternate between \"user\" and \"assistant\", starting with \"user\" (got %q)", i, m.Role)
		}
		blocks, err := anthropicContent(m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages.%d.content: %w", i, err)
		}
		answered := map[string]bool{}
		var text []string
		for j, b := range blocks {
			at := fmt.Sprintf("messages.%d.content.%d", i, j)
			switch b.Type {
			case "text":
				if b.Text == nil || *b.Text == "" {
					return nil, fmt.Errorf("%s: text content blocks must be non-empty", at)
				}
				if len(pending) > len(answered) && m.Role == "user" {
					return nil, fmt.Errorf("%s: tool_result blocks must come first in the user message after tool_use, before any text", at)
				}
				text = append(text, *b.Text)
			case "tool_use":
				if m.Role != "assistant" {
					return nil, fmt.Errorf("%s: tool_use blocks belong to assistant messages", at)
				}
				if !anthropicToolIDRE.MatchString(b.ID) {
					return nil, fmt.Errorf("%s.id: String should match pattern '^[a-zA-Z0-9_-]+$' (got %q)", at, b.ID)
				}
				if seen[b.ID] {
					return nil, fmt.Errorf("%s.id: tool_use ids must be unique (%s)", at, b.ID)
				}
				seen[b.ID] = true
				if !isObject(b.Input) {
					return nil, fmt.Errorf("%s.input: Input should be a valid dictionary", at)
				}
			case "tool_result":
				if m.Role != "user" {
					return nil, fmt.Errorf("%s: tool_result blocks belong to user messages", at)
				}
				if !pendingSet[b.ToolUseID] || answered[b.ToolUseID] {
					return nil, fmt.Errorf("%s: unexpected tool_use_id %q in tool_result blocks: each tool_result block must have a corresponding tool_use block in the previous message", at, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
				content, err := anthropicResultText(b.Content)
				if err != nil {
					return nil, fmt.Errorf("%s.content: %w", at, err)
				}
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleTool, ToolCallID: b.ToolUseID, Content: content, IsError: b.IsError != nil && *b.IsError})
			default:
				return nil, fmt.Errorf("%s.type: unexpected block type %q", at, b.Type)
			}
		}
		if m.Role == "user" {
			if len(answered) != len(pending) {
				return nil, fmt.Errorf("messages.%d: tool_use ids were found without tool_result blocks immediately after: %v", i, missing(pending, answered))
			}
			pending = nil
			clear(pendingSet)
			if len(text) > 0 {
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleUser, Content: strings.Join(text, "\n")})
			}
			continue
		}
		msg := runtime.Message{Role: runtime.RoleAssistant, Content: strings.Join(text, "")}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				pending = append(pending, b.ID)
				pendingSet[b.ID] = true
				msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: b.ID, Name: b.Name, Arguments: compact(b.Input)})
			}
		}
		t.Messages = append(t.Messages, msg)
	}
	if req.Messages[len(req.Messages)-1].Role != "user" {
		return nil, fmt.Errorf("messages: the last message must be the user's (gramc never prefills the answer)")
	}
	return t, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func missing(ids []string, answered map[string]bool) []string {
	var out []string
	for _, id := range ids {
		if !answered[id] {
			out = append(out, id)
		}
	}
	return out
}

// anthropicContent is a message's content: a non-empty string (one text
// block) or a non-empty array of blocks.
func anthropicContent(raw json.RawMessage) ([]anthropicBlock, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil, fmt.Errorf("a string content must be non-empty")
		}
		return []anthropicBlock{{Type: "text", Text: &s}}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, fmt.Errorf("want a string or an array of content blocks")
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("the content array must be non-empty")
	}
	out := make([]anthropicBlock, len(raws))
	for i, r := range raws {
		if err := strictDecode(r, &out[i]); err != nil {
			return nil, fmt.Errorf("%d: %w", i, err)
		}
	}
	return out, nil
}

// anthropicResultText is a tool_result's content: a string or text
// blocks.
func anthropicResultText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("want a string or content blocks")
	}
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type != "text" || bl.Text == nil {
			return "", fmt.Errorf("tool_result content blocks must be text here")
		}
		b.WriteString(*bl.Text)
	}
	return b.String(), nil
}

func (anthropicDialect) writeError(w http.ResponseWriter, status int, msg string) {
	typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
		404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}[status]
	if typ == "" {
		typ = "api_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_fake")
	w.WriteHeader(status)
	w.Write(mustJSON(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_fake"}))
}

func (anthropicDialect) write(f *Fake, w http.ResponseWriter, t *Turn, reply Reply, n int) {
	type block = map[string]any
	var content []block
	if reply.Refusal != "" && reply.Text == "" {
		// Anthropic's refusal is the answer's text with stop_reason
		// "refusal".
		reply.Text = reply.Refusal
	}
	if reply.Text != "" {
		content = append(content, block{"type": "text", "text": reply.Text})
	}
	ids := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		ids[i] = c.ID
		if ids[i] == "" {
			ids[i] = fmt.Sprintf("toolu_fake%d_%d", n, i+1)
		}
		content = append(content, block{"type": "tool_use", "id": ids[i], "name": c.Name, "input": f.callArgs(c)})
	}
	stop := "end_turn"
	if len(reply.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if reply.Refusal != "" {
		stop = "refusal"
	}
	if content == nil {
		content = []block{}
	}
	input := len(t.Raw) / 4
	if !t.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Write(mustJSON(map[string]any{"id": fmt.Sprintf("msg_fake%d", n), "type": "message", "role": "assistant",
			"model": t.Model, "content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": input, "output_tokens": 10}}))
		return
	}
	ev := func(typ string, data map[string]any) sseEvent {
		data["type"] = typ
		return sseEvent{typ: typ, data: mustJSON(data)}
	}
	events := []sseEvent{ev("message_start", map[string]any{"message": map[string]any{"id": fmt.Sprintf("msg_fake%d", n), "type": "message",
		"role": "assistant", "model": t.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": input, "output_tokens": 1}}})}
	index := 0
	if reply.Text != "" {
		events = append(events, ev("content_block_start", map[string]any{"index": index, "content_block": block{"type": "text", "text": ""}}),
			ev("ping", map[string]any{}))
		for _, p := range pieces(reply.Text, 3) {
			events = append(events, ev("content_block_delta", map[string]any{"index": index, "delta": block{"type": "text_delta", "text": p}}))
		}
		events = append(events, ev("content_block_stop", map[string]any{"index": index}))
		index++
	}
	for i, c := range reply.ToolCalls {
		events = append(events, ev("content_block_start", map[string]any{"index": index,
			"content_block": block{"type": "tool_use", "id": ids[i], "name": c.Name, "input": block{}}}),
			ev("content_block_delta", map[string]any{"index": index, "delta": block{"type": "input_json_delta", "partial_json": ""}}))
		for _, p := range pieces(string(f.callArgs(c)), 3) {
			events = append(events, ev("content_block_delta", map[string]any{"index": index, "delta": block{"type": "input_json_delta", "partial_json": p}}))
		}
		events = append(events, ev("content_block_stop", map[string]any{"index": index}))
		index++
	}
	events = append(events,
		ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}}),
		ev("message_stop", map[string]any{}))
	writeSSE(w, events)
}
