package runtimetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
)

// The OpenAI Responses API's rules, as its reference states them
// (platform.openai.com/docs/api-reference/responses: create, input items,
// function tools, streaming events).
var responsesToolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

type responsesRequest struct {
	Model              string            `json:"model"`
	Input              json.RawMessage   `json:"input"`
	Instructions       *string           `json:"instructions,omitempty"`
	Tools              []json.RawMessage `json:"tools,omitempty"`
	ToolChoice         json.RawMessage   `json:"tool_choice,omitempty"`
	Temperature        *float64          `json:"temperature,omitempty"`
	Stream             bool              `json:"stream,omitempty"`
	Store              *bool             `json:"store,omitempty"`
	ParallelToolCalls  *bool             `json:"parallel_tool_calls,omitempty"`
	MaxOutputTokens    *int              `json:"max_output_tokens,omitempty"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Metadata           json.RawMessage   `json:"metadata,omitempty"`
	Text               json.RawMessage   `json:"text,omitempty"`
	Reasoning          json.RawMessage   `json:"reasoning,omitempty"`
	TopP               *float64          `json:"top_p,omitempty"`
	Truncation         string            `json:"truncation,omitempty"`
	User               string            `json:"user,omitempty"`
	Include            []string          `json:"include,omitempty"`
}

type responsesInputItem struct {
	Type      string          `json:"type,omitempty"`
	Role      string          `json:"role,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments *string         `json:"arguments,omitempty"`
	Output    *string         `json:"output,omitempty"`
	Status    string          `json:"status,omitempty"`
}

type responsesDialect struct{}

func (responsesDialect) key(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// decode is parallel to anthropicDialect's and geminiDialect's: the same
// first checks (path, key header, JSON body), each in its API's words.
func (responsesDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		return nil, fmt.Errorf("unexpected %s %s (want POST .../responses)", r.Method, r.URL.Path)
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return nil, fmt.Errorf("no Authorization: Bearer header")
	}
	var req responsesRequest
	if err := decodeBody(r, body, &req, "body"); err != nil {
		return nil, err
	}
	if req.Model == "" {
		return nil, fmt.Errorf("Missing required parameter: 'model'")
	}
	if req.Temperature != nil && (*req.Temperature < 0 || *req.Temperature > 2) {
		return nil, fmt.Errorf("temperature: must be between 0 and 2")
	}
	t := &Turn{Model: req.Model, Stream: req.Stream, Params: map[string]json.RawMessage{}}
	if req.Instructions != nil {
		t.System = *req.Instructions
	}
	for i, raw := range req.Tools {
		// A function tool; parallel in shape to output.go's
		// openAIJSONSchema, another object of OpenAI's reference.
		var tool struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      *bool           `json:"strict"`
		}
		if err := strictDecode(raw, &tool); err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		if tool.Type != "function" {
			return nil, fmt.Errorf("tools[%d].type: %q (gram tools are functions)", i, tool.Type)
		}
		if !responsesToolNameRE.MatchString(tool.Name) {
			return nil, fmt.Errorf("tools[%d].name: Invalid 'tools[%d].name': string does not match pattern '^[a-zA-Z0-9_-]+$'", i, i)
		}
		if !isObject(tool.Parameters) {
			return nil, fmt.Errorf("tools[%d].parameters: want a JSON Schema object", i)
		}
		// strict defaults to true here (unlike Chat Completions): a tool
		// meant to be non-strict must say so.
		if tool.Strict == nil {
			return nil, fmt.Errorf("tools[%d].strict is missing: the Responses API takes that as strict: true", i)
		}
		if *tool.Strict {
			if err := checkStrictSchema(tool.Parameters, fmt.Sprintf("tools[%d].parameters", i)); err != nil {
				return nil, err
			}
		}
		t.Tools = append(t.Tools, tool.Name)
		t.Params[tool.Name] = tool.Parameters
	}
	if len(req.Text) > 0 {
		var err error
		if t.Output, t.OutputStrict, err = checkResponsesText(req.Text); err != nil {
			return nil, err
		}
	}
	t.ToolChoice = req.ToolChoice
	if len(req.ToolChoice) > 0 {
		var s string
		if json.Unmarshal(req.ToolChoice, &s) == nil {
			if s != "auto" && s != "none" && s != "required" {
				return nil, fmt.Errorf("tool_choice: %q is not auto, none or required", s)
			}
		} else {
			var tc struct {
				Type string `json:"type"`
				Name string `json:"name"`
			}
			if err := strictDecode(req.ToolChoice, &tc); err != nil || tc.Type != "function" {
				return nil, fmt.Errorf("tool_choice: want a mode or {\"type\":\"function\",\"name\":...}")
			}
			if _, ok := t.Params[tc.Name]; !ok {
				return nil, fmt.Errorf("tool_choice.name: %q is not a tool of the request", tc.Name)
			}
		}
	}
	var items []responsesInputItem
	var s string
	if json.Unmarshal(req.Input, &s) == nil {
		items = []responsesInputItem{{Type: "message", Role: "user", Content: req.Input}}
	} else if err := json.Unmarshal(req.Input, &items); err != nil {
		return nil, fmt.Errorf("input: want a string or an array of items")
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("input: must not be empty")
	}
	calls := map[string]bool{} // call_id -> answered
	var order []string         // call ids in order
	for i, raw := range items {
		at := fmt.Sprintf("input[%d]", i)
		typ := raw.Type
		if typ == "" && raw.Role != "" {
			typ = "message"
		}
		switch typ {
		case "message":
			if raw.Arguments != nil || raw.Output != nil || raw.CallID != "" {
				return nil, fmt.Errorf("%s: a message item has role and content only", at)
			}
			text, err := responsesText(raw.Content)
			if err != nil {
				return nil, fmt.Errorf("%s.content: %w", at, err)
			}
			switch raw.Role {
			case "user":
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleUser, Content: text})
			case "assistant":
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleAssistant, Content: text})
			case "system", "developer":
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleSystem, Content: text})
			default:
				return nil, fmt.Errorf("%s.role: %q is not user, assistant, system or developer", at, raw.Role)
			}
		case "function_call":
			if raw.CallID == "" || raw.Name == "" || raw.Arguments == nil {
				return nil, fmt.Errorf("%s: a function_call item needs call_id, name and arguments", at)
			}
			if _, dup := calls[raw.CallID]; dup {
				return nil, fmt.Errorf("%s.call_id: %q is used twice", at, raw.CallID)
			}
			calls[raw.CallID] = false
			order = append(order, raw.CallID)
			tc := runtime.ToolCall{ID: raw.CallID, Name: raw.Name, Arguments: *raw.Arguments}
			if n := len(t.Messages); n > 0 && t.Messages[n-1].Role == runtime.RoleAssistant {
				t.Messages[n-1].ToolCalls = append(t.Messages[n-1].ToolCalls, tc)
			} else {
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{tc}})
			}
		case "function_call_output":
			if raw.Output == nil {
				return nil, fmt.Errorf("%s: a function_call_output item needs output", at)
			}
			answered, ok := calls[raw.CallID]
			if !ok {
				return nil, fmt.Errorf("%s: No tool call found for function call output with call_id %s", at, raw.CallID)
			}
			if answered {
				return nil, fmt.Errorf("%s: call_id %s is answered twice", at, raw.CallID)
			}
			calls[raw.CallID] = true
			t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleTool, ToolCallID: raw.CallID, Content: *raw.Output})
		default:
			return nil, fmt.Errorf("%s.type: unexpected item type %q", at, typ)
		}
	}
	if req.PreviousResponseID == "" {
		for _, id := range order {
			if !calls[id] {
				return nil, fmt.Errorf("No tool output found for function call %s", id)
			}
		}
	}
	return t, nil
}

// responsesText is a message item's content: a string, or input_text /
// output_text parts.
func responsesText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("want a string or content parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type != "input_text" && p.Type != "output_text" {
			return "", fmt.Errorf("part type %q", p.Type)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// checkStrictSchema checks OpenAI's strict-mode rules: every object lists
// all its properties as required and sets additionalProperties to false.
func checkStrictSchema(raw json.RawMessage, at string) error {
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var props map[string]json.RawMessage
	if p, ok := s["properties"]; ok {
		json.Unmarshal(p, &props)
		var req []string
		json.Unmarshal(s["required"], &req)
		for name := range props {
			if !contains(req, name) {
				return fmt.Errorf("%s: Invalid schema for function: In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing '%s'", at, name)
			}
		}
		if string(s["additionalProperties"]) != "false" {
			return fmt.Errorf("%s: Invalid schema for function: 'additionalProperties' is required to be supplied and to be false", at)
		}
	}
	for name, p := range props {
		if err := checkStrictSchema(p, at+".properties."+name); err != nil {
			return err
		}
	}
	for _, k := range []string{"items", "$defs"} {
		if v, ok := s[k]; ok {
			if k == "$defs" {
				var defs map[string]json.RawMessage
				json.Unmarshal(v, &defs)
				for name, d := range defs {
					if err := checkStrictSchema(d, at+".$defs."+name); err != nil {
						return err
					}
				}
			} else if err := checkStrictSchema(v, at+".items"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (responsesDialect) writeError(w http.ResponseWriter, status int, msg string) {
	writeError(w, status, errorType(status), msg)
}

func (responsesDialect) write(f *Fake, w http.ResponseWriter, t *Turn, reply Reply, n int) {
	type obj = map[string]any
	var output []obj
	msgID := fmt.Sprintf("msg_fake%d", n)
	if reply.Text != "" {
		output = append(output, obj{"type": "message", "id": msgID, "status": "completed", "role": "assistant",
			"content": []obj{{"type": "output_text", "text": reply.Text, "annotations": []any{}}}})
	}
	callIDs := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		callIDs[i] = c.ID
		if callIDs[i] == "" {
			callIDs[i] = fmt.Sprintf("call_fake%d_%d", n, i+1)
		}
		output = append(output, obj{"type": "function_call", "id": fmt.Sprintf("fc_fake%d_%d", n, i+1), "call_id": callIDs[i],
			"name": c.Name, "arguments": string(f.callArgs(c)), "status": "completed"})
	}
	if output == nil {
		output = []obj{}
	}
	prompt := len(t.Raw) / 4
	response := func(status string, out []obj) obj {
		r := obj{"id": fmt.Sprintf("resp_fake%d", n), "object": "response", "created_at": 1700000000 + n, "status": status,
			"model": t.Model, "output": out, "error": nil, "incomplete_details": nil, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{}}
		if status == "completed" {
			r["usage"] = obj{"input_tokens": prompt, "output_tokens": 10, "total_tokens": prompt + 10}
		}
		return r
	}
	if !t.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Write(mustJSON(response("completed", output)))
		return
	}
	seq := 0
	var events []sseEvent
	ev := func(typ string, data obj) {
		data["type"] = typ
		data["sequence_number"] = seq
		seq++
		events = append(events, sseEvent{typ: typ, data: mustJSON(data)})
	}
	ev("response.created", obj{"response": response("in_progress", []obj{})})
	ev("response.in_progress", obj{"response": response("in_progress", []obj{})})
	index := 0
	if reply.Text != "" {
		ev("response.output_item.added", obj{"output_index": index, "item": obj{"type": "message", "id": msgID, "status": "in_progress", "role": "assistant", "content": []obj{}}})
		ev("response.content_part.added", obj{"output_index": index, "item_id": msgID, "content_index": 0, "part": obj{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, p := range pieces(reply.Text, 3) {
			ev("response.output_text.delta", obj{"output_index": index, "item_id": msgID, "content_index": 0, "delta": p})
		}
		ev("response.output_text.done", obj{"output_index": index, "item_id": msgID, "content_index": 0, "text": reply.Text})
		ev("response.content_part.done", obj{"output_index": index, "item_id": msgID, "content_index": 0, "part": output[0]["content"].([]obj)[0]})
		ev("response.output_item.done", obj{"output_index": index, "item": output[0]})
		index++
	}
	for i, c := range reply.ToolCalls {
		item := output[index]
		fcID := item["id"]
		ev("response.output_item.added", obj{"output_index": index, "item": obj{"type": "function_call", "id": fcID, "call_id": callIDs[i],
			"name": c.Name, "arguments": "", "status": "in_progress"}})
		args := string(f.callArgs(c))
		for _, p := range pieces(args, 3) {
			ev("response.function_call_arguments.delta", obj{"output_index": index, "item_id": fcID, "delta": p})
		}
		ev("response.function_call_arguments.done", obj{"output_index": index, "item_id": fcID, "arguments": args})
		ev("response.output_item.done", obj{"output_index": index, "item": item})
		index++
	}
	ev("response.completed", obj{"response": response("completed", output)})
	writeSSE(w, events)
}
