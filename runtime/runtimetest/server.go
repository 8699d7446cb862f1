package runtimetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// ChatRequest is a Chat Completions request as the fake server decoded it.
type ChatRequest struct {
	Model        string            `json:"model"`
	Messages     []WireMessage     `json:"messages"`
	Tools        []json.RawMessage `json:"tools,omitempty"`
	ToolChoice   json.RawMessage   `json:"tool_choice,omitempty"`
	Functions    []json.RawMessage `json:"functions,omitempty"`
	FunctionCall json.RawMessage   `json:"function_call,omitempty"`
	Temperature  *float64          `json:"temperature,omitempty"`
	Stream       bool              `json:"stream,omitempty"`
	// StreamOptions is stream_options ({"include_usage": true}).
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
	// ResponseFormat is response_format (text, json_object or
	// json_schema).
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
	// Raw is the request body; Header its HTTP header.
	Raw    []byte      `json:"-"`
	Header http.Header `json:"-"`

	output       json.RawMessage // response_format's json_schema.schema
	outputStrict bool
}

// WireMessage is one message of a ChatRequest.
type WireMessage struct {
	Role         string         `json:"role"`
	Content      *string        `json:"content"`
	Name         string         `json:"name,omitempty"`
	ToolCallID   string         `json:"tool_call_id,omitempty"`
	ToolCalls    []WireToolCall `json:"tool_calls,omitempty"`
	FunctionCall *WireFunction  `json:"function_call,omitempty"`
}

// WireToolCall is a tool call in a message.
type WireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function WireFunction `json:"function"`
}

// WireFunction is a function name and its arguments text.
type WireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolNames returns the names of the offered tools (or legacy functions).
func (r *ChatRequest) ToolNames() []string {
	var names []string
	for _, t := range r.Tools {
		var e struct {
			Function struct{ Name string } `json:"function"`
		}
		json.Unmarshal(t, &e)
		names = append(names, e.Function.Name)
	}
	for _, f := range r.Functions {
		var e struct{ Name string }
		json.Unmarshal(f, &e)
		names = append(names, e.Name)
	}
	return names
}

// Last returns the last message (the zero message when there is none).
func (r *ChatRequest) Last() WireMessage {
	if len(r.Messages) == 0 {
		return WireMessage{}
	}
	return r.Messages[len(r.Messages)-1]
}

// FakeCall is a tool call in a Reply.
type FakeCall struct {
	ID   string // "" for a generated one
	Name string
	// Arguments is the arguments' JSON text.
	Arguments string
	// AsObject sends the arguments as a JSON object instead of a string,
	// as some OpenAI-compatible servers do.
	AsObject bool
	// ThoughtSignature is the signature the Gemini fake sends with the
	// call ("" for a generated one).
	ThoughtSignature string
}

// Reply is the fake server's answer to one request.
type Reply struct {
	// Text is the assistant's content.
	Text string
	// Refusal answers with a refusal (OpenAI's message.refusal, streamed
	// as refusal deltas; Anthropic's stop_reason "refusal" with the text).
	Refusal   string
	ToolCalls []FakeCall
	// Legacy answers the first call as a `function_call`.
	Legacy bool
	// Status and Body, when set, replace the answer: an error status with
	// an OpenAI error body made of Message, or a raw Body (malformed JSON).
	Status  int
	Message string
	Body    string
	Header  map[string]string
	// SSE, when set, is sent as is as a text/event-stream body (fixtures
	// of what real servers stream).
	SSE string
	// Write, when set, writes the whole answer (streams that never end,
	// or hold a 100 MB event).
	Write func(w http.ResponseWriter, r *http.Request)
	// Hang blocks until the client gives up (the request's context ends).
	Hang bool
	// Delay waits before answering.
	Delay time.Duration
}

// TextReply answers with text.
func TextReply(text string) Reply { return Reply{Text: text} }

// ToolCallsReply asks for tool calls.
func ToolCallsReply(calls ...FakeCall) Reply { return Reply{ToolCalls: calls} }

// ErrorReply answers with an HTTP error status and an OpenAI error body.
func ErrorReply(status int, message string) Reply { return Reply{Status: status, Message: message} }

// chatServer is the Chat Completions side of Fake (Provider OpenAI). Every request is checked against
// OpenAI's published request schema and the conversation rules (each tool
// call answered by a tool message right after it); every successful
// response is checked against the response schema. Problems go to
// Problem and the request gets a 400.
type chatServer struct {
	Handler func(req *ChatRequest, n int) Reply
	// APIKey, when set, is required as the bearer token (else 401).
	APIKey string
	// Problem receives every malformed request or response.
	Problem func(error)
	// NoSchema skips the checks against OpenAI's published schema (when
	// the schema file is not available); the conversation rules still
	// apply.
	NoSchema bool

	mu sync.Mutex
	n  int // requests so far
}

func (s *chatServer) problem(err error) {
	if s.Problem != nil {
		s.Problem(err)
	}
}

// ServeHTTP implements http.Handler.
func (s *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		s.problem(fmt.Errorf("fake openai: unexpected %s %s", r.Method, r.URL.Path))
		writeError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Unknown request URL: %s %s", r.Method, r.URL.Path))
		return
	}
	if s.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.APIKey {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		// Like OpenAI, the message quotes the key it got: the client must
		// redact it.
		writeError(w, http.StatusUnauthorized, "invalid_request_error", fmt.Sprintf("Incorrect API key provided: %s.", got))
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.problem(fmt.Errorf("fake openai: Content-Type %q, want application/json", ct))
	}
	var body bytes.Buffer
	if _, err := body.ReadFrom(r.Body); err != nil {
		s.problem(fmt.Errorf("fake openai: reading the request: %w", err))
		return
	}
	req := &ChatRequest{Raw: body.Bytes(), Header: r.Header.Clone()}
	if err := checkRequest(body.Bytes(), req, !s.NoSchema); err != nil {
		s.problem(fmt.Errorf("fake openai: malformed request: %w\n%s", err, body.Bytes()))
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()

	reply := s.Handler(req, n)
	if reply.serveCanned(w, r, func(status int, msg string) { writeError(w, status, errorType(status), msg) }) {
		return
	}
	if req.Stream {
		writeEvents(w, BuildStream(req, reply, n))
		return
	}
	out := BuildResponse(req, reply, n)
	if !anyObjectArgs(reply) && !s.NoSchema {
		if err := ValidateResponse(out); err != nil {
			s.problem(fmt.Errorf("fake openai: the fake's own response is not a valid CreateChatCompletionResponse: %w", err))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

func anyObjectArgs(r Reply) bool {
	for _, c := range r.ToolCalls {
		if c.AsObject {
			return true
		}
	}
	return false
}

// serveCanned does what a Reply says before, or instead of, the fake's
// own answer: it hangs or waits, sets the headers, and sends a Write, SSE
// or Body answer as it is, or an error status through writeError (each
// fake's own error body). It reports whether the exchange is over; when
// it is not, the fake builds its answer from the reply.
func (reply Reply) serveCanned(w http.ResponseWriter, r *http.Request, writeError func(status int, msg string)) bool {
	if reply.Hang {
		<-r.Context().Done()
		return true
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return true
		}
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	switch {
	case reply.Write != nil:
		reply.Write(w, r)
	case reply.SSE != "":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(orStatus(reply.Status))
		w.Write([]byte(reply.SSE))
	case reply.Body != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(orStatus(reply.Status))
		w.Write([]byte(reply.Body))
	case reply.Status != 0 && reply.Status != http.StatusOK:
		writeError(reply.Status, reply.Message)
	default:
		return false
	}
	return true
}

func orStatus(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

func errorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": nil}})
}

// CheckRequest validates a request body against OpenAI's schema and the
// conversation rules, decoding it into req.
func CheckRequest(body []byte, req *ChatRequest) error { return checkRequest(body, req, true) }

func checkRequest(body []byte, req *ChatRequest, schema bool) error {
	if schema {
		if err := ValidateRequest(body); err != nil {
			return err
		}
	}
	// Decoded strictly: a field the fake does not model is refused, so a
	// request carries exactly the fields a test has seen documented.
	if err := strictDecode(body, req); err != nil {
		return err
	}
	if len(req.ResponseFormat) > 0 {
		var err error
		if req.output, req.outputStrict, err = checkChatResponseFormat(req.ResponseFormat); err != nil {
			return err
		}
	}
	pending := map[string]bool{} // tool call IDs awaiting results
	var order []string
	for i, m := range req.Messages {
		switch m.Role {
		case "tool":
			if !pending[m.ToolCallID] {
				return fmt.Errorf("messages[%d]: tool message answers %q, which is not an unanswered tool call of the preceding assistant message", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
			continue
		case "function":
			if m.Name == "" {
				return fmt.Errorf("messages[%d]: function message without a name", i)
			}
			continue
		}
		if len(pending) > 0 {
			return fmt.Errorf("messages[%d]: tool calls %v were not answered before this %s message", i, order, m.Role)
		}
		order = order[:0]
		if m.Role == "assistant" {
			for _, tc := range m.ToolCalls {
				if tc.ID == "" || pending[tc.ID] {
					return fmt.Errorf("messages[%d]: tool call with an empty or repeated id %q", i, tc.ID)
				}
				pending[tc.ID] = true
				order = append(order, tc.ID)
			}
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("the conversation ends with unanswered tool calls %v", order)
	}
	if len(req.Tools) > 0 && len(req.Functions) > 0 {
		return fmt.Errorf("both tools and functions sent")
	}
	if req.StreamOptions != nil && !req.Stream {
		return fmt.Errorf("stream_options is set without stream: true (\"Only set this when you set stream: true\")")
	}
	return nil
}

// writeEvents sends events as server-sent events, flushing each, and
// ends the stream with data: [DONE].
func writeEvents(w http.ResponseWriter, events [][]byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f, _ := w.(http.Flusher)
	for _, ev := range events {
		w.Write([]byte("data: "))
		w.Write(ev)
		w.Write([]byte("\n\n"))
		if f != nil {
			f.Flush()
		}
	}
	w.Write([]byte("data: [DONE]\n\n"))
}

// pieces cuts s into up to n pieces of about equal size (on rune
// boundaries), as a model streams text and arguments.
func pieces(s string, n int) []string {
	if s == "" {
		return nil
	}
	var out []string
	size := max(1, len(s)/n)
	for len(s) > 0 {
		cut := min(size, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// BuildStream makes the chat.completion.chunk events streaming reply
// would send: a role chunk, the text in pieces, each tool call's ID and
// name and then its arguments in pieces (by index), a finish chunk and,
// when the request asked for it, a usage chunk with no choices.
func BuildStream(req *ChatRequest, reply Reply, n int) [][]byte {
	id := fmt.Sprintf("chatcmpl-fake%d", n)
	usage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	chunk := func(delta map[string]any, finish any) []byte {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000 + n, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
		if usage {
			c["usage"] = nil
		}
		out, _ := json.Marshal(c)
		return out
	}
	events := [][]byte{chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, p := range pieces(reply.Text, 3) {
		events = append(events, chunk(map[string]any{"content": p}, nil))
	}
	for _, p := range pieces(reply.Refusal, 3) {
		events = append(events, chunk(map[string]any{"refusal": p}, nil))
	}
	finish := "stop"
	switch {
	case len(reply.ToolCalls) > 0 && reply.Legacy:
		c := reply.ToolCalls[0]
		events = append(events, chunk(map[string]any{"function_call": map[string]any{"name": c.Name, "arguments": ""}}, nil))
		for _, p := range pieces(c.Arguments, 3) {
			events = append(events, chunk(map[string]any{"function_call": map[string]any{"arguments": p}}, nil))
		}
		finish = "function_call"
	case len(reply.ToolCalls) > 0:
		for i, c := range reply.ToolCalls {
			cid := c.ID
			if cid == "" {
				cid = fmt.Sprintf("call_%d_%d", n, i+1)
			}
			events = append(events, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": cid, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil))
			var frags []any
			if c.AsObject {
				frags = []any{json.RawMessage(c.Arguments)}
			} else {
				for _, p := range pieces(c.Arguments, 3) {
					frags = append(frags, p)
				}
			}
			for _, f := range frags {
				events = append(events, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": f}}}}, nil))
			}
		}
		finish = "tool_calls"
	}
	events = append(events, chunk(map[string]any{}, finish))
	if usage {
		prompt := len(req.Raw) / 4
		u, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000 + n, "model": req.Model,
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": 10, "total_tokens": prompt + 10}})
		events = append(events, u)
	}
	return events
}

// BuildResponse makes a CreateChatCompletionResponse for reply.
func BuildResponse(req *ChatRequest, reply Reply, n int) []byte {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	finish := "stop"
	if reply.Refusal != "" {
		msg["refusal"] = reply.Refusal
	} else if reply.Text != "" || len(reply.ToolCalls) == 0 {
		msg["content"] = reply.Text
	}
	if len(reply.ToolCalls) > 0 {
		if reply.Legacy {
			c := reply.ToolCalls[0]
			msg["function_call"] = map[string]any{"name": c.Name, "arguments": args(c)}
			finish = "function_call"
		} else {
			var calls []any
			for i, c := range reply.ToolCalls {
				id := c.ID
				if id == "" {
					id = fmt.Sprintf("call_%d_%d", n, i+1)
				}
				calls = append(calls, map[string]any{"id": id, "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": args(c)}})
			}
			msg["tool_calls"] = calls
			finish = "tool_calls"
		}
	}
	prompt := len(req.Raw) / 4
	resp := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake%d", n),
		"object":  "chat.completion",
		"created": 1700000000 + n,
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": prompt, "completion_tokens": 10, "total_tokens": prompt + 10},
	}
	out, _ := json.Marshal(resp)
	return out
}

func args(c FakeCall) any {
	if c.AsObject {
		return json.RawMessage(c.Arguments)
	}
	return c.Arguments
}
