package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
	"github.com/gramc-dev/gramc/runtime/internal/sse"
)

// The Responses API (ResponsesMode): the conversation goes as `input`
// items — messages, `function_call` items and their
// `function_call_output` items — with the instruction as `instructions`
// and `store: false`, so every request carries the whole conversation and
// nothing is kept on OpenAI's side. Tools are the entries `gramc schema
// --target openai-responses` prints.

type responsesRequest struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions,omitempty"`
	Input        []json.RawMessage `json:"input"`
	Tools        []json.RawMessage `json:"tools,omitempty"`
	ToolChoice   any               `json:"tool_choice,omitempty"`
	Temperature  *float64          `json:"temperature,omitempty"`
	Stream       bool              `json:"stream,omitempty"`
	Store        bool              `json:"store"`
	// Text asks for Structured Outputs (a typed agent in native mode).
	Text *responsesText `json:"text,omitempty"`
}

// responsesText is the Responses API's text configuration.
type responsesText struct {
	Format *jsonSchema `json:"format"`
}

func (c *Client) encodeResponsesRequest(req *runtime.Request, stream bool) ([]byte, error) {
	rr := responsesRequest{Model: c.api.ModelName(req.Model), Instructions: req.Instruction, Temperature: req.Temperature, Stream: stream}
	item := func(parts ...string) json.RawMessage {
		var b []byte
		b = append(b, '{')
		for i := 0; i < len(parts); i += 2 {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.AppendString(b, parts[i])
			b = append(b, ':')
			b = jsonstr.AppendString(b, parts[i+1])
		}
		return append(b, '}')
	}
	for _, m := range req.Messages {
		switch m.Role {
		case runtime.RoleUser, runtime.RoleSystem:
			rr.Input = append(rr.Input, item("type", "message", "role", string(m.Role), "content", m.Content))
		case runtime.RoleAssistant:
			if m.Content != "" {
				rr.Input = append(rr.Input, item("type", "message", "role", "assistant", "content", m.Content))
			}
			for _, tc := range m.ToolCalls {
				args := tc.Arguments
				if strings.TrimSpace(args) == "" {
					args = "{}"
				}
				rr.Input = append(rr.Input, item("type", "function_call", "call_id", tc.ID, "name", tc.Name, "arguments", args))
			}
		case runtime.RoleTool:
			rr.Input = append(rr.Input, item("type", "function_call_output", "call_id", m.ToolCallID, "output", m.Content))
		default:
			return nil, fmt.Errorf("message with unknown role %q", m.Role)
		}
	}
	var err error
	if rr.Tools, err = apihttp.ToolEntries(req.Tools, ResponsesToolEntry); err != nil {
		return nil, err
	}
	if len(req.Tools) > 0 && req.ToolChoice != "" {
		switch req.ToolChoice {
		case "auto", "none", "required":
			rr.ToolChoice = req.ToolChoice
		default:
			rr.ToolChoice = map[string]string{"type": "function", "name": req.ToolChoice}
		}
	}
	if req.Output != nil {
		f := structuredFormat(req.Output)
		f.Type = "json_schema"
		rr.Text = &responsesText{Format: f}
	}
	return apihttp.Marshal(rr)
}

// responsesItem is an output item (only what gramc reads).
type responsesItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Role      string `json:"role"`
	Content   []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

type responsesResponse struct {
	ID                string          `json:"id"`
	Model             string          `json:"model"`
	Object            string          `json:"object"`
	Status            string          `json:"status"`
	Output            []responsesItem `json:"output"`
	Error             json.RawMessage `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Usage *wireUsage `json:"usage"`
}

// responses sends req to /responses, streamed when emit is not nil.
func (c *Client) responses(ctx context.Context, req *runtime.Request, emit func(runtime.Event)) (*runtime.Completion, error) {
	stream := emit != nil
	body, err := c.encodeResponsesRequest(req, stream)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	if !stream {
		return c.api.HTTP.Complete(ctx, c.endpoint("/responses"), nil, body, c.decodeResponses)
	}
	return c.api.HTTP.Stream(ctx, c.endpoint("/responses"), nil, body, c.decodeResponses, c.decodeResponsesStream, emit)
}

func (c *Client) decodeResponses(data []byte) (*runtime.Completion, error) {
	var rr responsesResponse
	if err := json.Unmarshal(data, &rr); err != nil {
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: "malformed response: " + err.Error(), Err: err}
	}
	return c.responsesCompletion(&rr, data)
}

// responsesCompletion turns a response object into a completion; a
// failed response is its error.
func (c *Client) responsesCompletion(rr *responsesResponse, data []byte) (*runtime.Completion, error) {
	if rr.Status == "failed" || (rr.Object != "response" && len(rr.Error) > 0 && string(rr.Error) != "null") {
		var eb struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		}
		json.Unmarshal(rr.Error, &eb)
		if eb.Message == "" {
			if e, ok := c.api.HTTP.BodyError(http.StatusOK, data); ok {
				return nil, e
			}
			eb.Message = "the response failed"
		}
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: c.api.HTTP.RedactString(eb.Message), Code: eb.Code}
	}
	if rr.Object != "response" {
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: fmt.Sprintf("malformed response: object %q, want \"response\"", rr.Object)}
	}
	msg := runtime.Message{Role: runtime.RoleAssistant}
	var text, refusal strings.Builder
	for _, it := range rr.Output {
		switch it.Type {
		case "message":
			for _, p := range it.Content {
				text.WriteString(p.Text)
				refusal.WriteString(p.Refusal)
			}
		case "function_call":
			args := it.Arguments
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: it.CallID, Name: it.Name, Arguments: args})
		}
		// reasoning and other items are not part of the answer gramc keeps.
	}
	msg.Content = text.String()
	refused := msg.Content == "" && refusal.Len() > 0 && len(msg.ToolCalls) == 0
	if refused {
		msg.Content = refusal.String()
	}
	comp := &runtime.Completion{Message: msg, ResponseID: rr.ID, ResponseModel: rr.Model}
	switch {
	case rr.Status == "incomplete" && rr.IncompleteDetails != nil:
		comp.StopReason = stopReasons.Of(rr.IncompleteDetails.Reason)
	case len(msg.ToolCalls) > 0:
		comp.StopReason = runtime.StopToolCalls
	case refused:
		comp.StopReason = runtime.StopRefusal
	default:
		comp.StopReason = stopReasons.Of(rr.Status)
	}
	if rr.Usage != nil {
		comp.Usage = rr.Usage.usage()
	}
	return comp, nil
}

// responsesEvent is one event of a Responses stream.
type responsesEvent struct {
	Type        string             `json:"type"`
	OutputIndex int                `json:"output_index"`
	Item        *responsesItem     `json:"item"`
	Delta       string             `json:"delta"`
	Arguments   *string            `json:"arguments"`
	Response    *responsesResponse `json:"response"`
	Message     string             `json:"message"`
	Code        string             `json:"code"`
}

// decodeResponsesStream reads a Responses stream to response.completed
// (or .incomplete): text and argument deltas as they come, the finished
// response's output as the answer.
func (c *Client) decodeResponsesStream(ctx context.Context, body io.Reader, emit func(runtime.Event)) (*runtime.Completion, error) {
	dec := sse.NewDecoder(body, apihttp.StreamLimits)
	items := map[int]*responsesItem{}
	calls := map[int]int{} // output index -> call position
	for n := 1; ; n++ {
		ev, err := dec.Next()
		if err == io.EOF {
			return nil, c.api.HTTP.Incomplete("no response.completed")
		}
		if err != nil {
			return nil, c.streamError(ctx, err)
		}
		c.api.HTTP.DebugData("event "+ev.Type, ev.Data)
		var re responsesEvent
		if err := json.Unmarshal(ev.Data, &re); err != nil {
			return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK,
				Message: "malformed stream event " + strconv.Itoa(n) + ": " + err.Error(), Err: err}
		}
		switch re.Type {
		case "error":
			msg := re.Message
			if msg == "" {
				msg = "an error event"
			}
			e := &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: "error in the stream: " + c.api.HTTP.RedactString(msg), Code: re.Code}
			if eb, ok := c.api.HTTP.BodyError(0, ev.Data); ok {
				e.Message, e.Type = "error in the stream: "+eb.Message, eb.Type
			}
			return nil, e
		case "response.output_item.added", "response.output_item.done":
			if re.Item == nil {
				return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: "malformed stream: " + re.Type + " without an item"}
			}
			prev := items[re.OutputIndex]
			it := *re.Item
			if prev != nil && it.Type == "function_call" && it.Arguments == "" {
				it.Arguments = prev.Arguments
			}
			items[re.OutputIndex] = &it
			if prev == nil && it.Type == "function_call" {
				calls[re.OutputIndex] = len(calls)
				if emit != nil {
					emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: calls[re.OutputIndex], Call: runtime.ToolCall{ID: it.CallID, Name: it.Name}})
				}
			}
		case "response.output_text.delta", "response.refusal.delta":
			if re.Delta != "" && emit != nil {
				emit(runtime.Event{Kind: runtime.EventText, Text: re.Delta})
			}
			it := items[re.OutputIndex]
			if it == nil {
				it = &responsesItem{Type: "message"}
				items[re.OutputIndex] = it
			}
			if len(it.Content) == 0 {
				it.Content = append(it.Content, struct {
					Type    string `json:"type"`
					Text    string `json:"text"`
					Refusal string `json:"refusal"`
				}{Type: "output_text"})
			}
			if re.Type == "response.refusal.delta" {
				it.Content[0].Refusal += re.Delta
			} else {
				it.Content[0].Text += re.Delta
			}
		case "response.function_call_arguments.delta":
			if it := items[re.OutputIndex]; it != nil {
				it.Arguments += re.Delta
			}
		case "response.function_call_arguments.done":
			if it := items[re.OutputIndex]; it != nil && re.Arguments != nil {
				it.Arguments = *re.Arguments
			}
		case "response.completed", "response.incomplete", "response.failed":
			rr := re.Response
			if rr == nil {
				return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: "malformed stream: " + re.Type + " without a response"}
			}
			if len(rr.Output) == 0 {
				// A server that leaves the output out of the last event:
				// what the stream built.
				idx := make([]int, 0, len(items))
				for i := range items {
					idx = append(idx, i)
				}
				sort.Ints(idx)
				for _, i := range idx {
					rr.Output = append(rr.Output, *items[i])
				}
			}
			return c.responsesCompletion(rr, ev.Data)
		}
	}
}
