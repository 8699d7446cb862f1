package openai

import (
	"bytes"
	"encoding/json"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
)

// ToolEntry returns the Chat Completions `tools` entry for spec, compact:
// {"type":"function","function":{"name","description","parameters","strict"}}
// in exactly that key order, byte-identical to the entry `gramc schema
// --target openai` prints for the same tool.
func ToolEntry(spec runtime.ToolSpecification) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"function","function":`)
	if err := writeFunction(&b, spec, true); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ResponsesToolEntry returns the Responses API `tools` entry for spec,
// compact: {"type":"function","name","description","parameters","strict"}
// in that order, byte-identical to `gramc schema --target
// openai-responses`. strict is always sent: the Responses API takes a
// missing strict as true.
func ResponsesToolEntry(spec runtime.ToolSpecification) (json.RawMessage, error) {
	var fn bytes.Buffer
	if err := writeFunction(&fn, spec, true); err != nil {
		return nil, err
	}
	// The function's members, {"name",...}, at the entry's top level.
	return append([]byte(`{"type":"function",`), fn.Bytes()[1:]...), nil
}

// FunctionEntry returns the legacy `functions` entry for spec:
// {"name","description","parameters"}.
func FunctionEntry(spec runtime.ToolSpecification) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := writeFunction(&b, spec, false); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeFunction(b *bytes.Buffer, spec runtime.ToolSpecification, strict bool) error {
	params := bytes.TrimSpace(spec.Schema)
	if len(params) == 0 {
		params = []byte(`{"type":"object","properties":{}}`)
	}
	if err := apihttp.OpenToolEntry(b, spec, "parameters", params); err != nil {
		return err
	}
	if strict {
		if spec.Strict {
			b.WriteString(`,"strict":true`)
		} else {
			b.WriteString(`,"strict":false`)
		}
	}
	b.WriteByte('}')
	return nil
}

// Wire types of the Chat Completions API (only what gramc sends and reads).

type chatRequest struct {
	Model        string            `json:"model"`
	Messages     []wireMessage     `json:"messages"`
	Tools        []json.RawMessage `json:"tools,omitempty"`
	ToolChoice   any               `json:"tool_choice,omitempty"`
	Functions    []json.RawMessage `json:"functions,omitempty"`
	FunctionCall any               `json:"function_call,omitempty"`
	Temperature  *float64          `json:"temperature,omitempty"`
	// Stream asks for server-sent events; StreamOptions for the usage
	// chunk at the end.
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	// ResponseFormat asks for Structured Outputs (a typed agent in native
	// mode).
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

// responseFormat is Chat Completions' response_format of type
// json_schema.
type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema"`
}

// jsonSchema is a structured-output format: Chat Completions' json_schema
// object, and (with its type beside it) the Responses API's text.format.
type jsonSchema struct {
	Type   string          `json:"type,omitempty"` // "json_schema" in text.format only
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// structuredFormat is the json_schema object of a request's output
// format: OpenAI's strict form when there is one, with strict set.
func structuredFormat(o *runtime.OutputFormat) *jsonSchema {
	if len(o.Strict) > 0 {
		return &jsonSchema{Name: o.Name, Schema: o.Strict, Strict: true}
	}
	return &jsonSchema{Name: o.Name, Schema: o.Schema}
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role string `json:"role"`
	// Content is a pointer so an assistant message with tool calls sends
	// "content": null, as the API documents.
	Content      *string          `json:"content"`
	Name         string           `json:"name,omitempty"`
	ToolCalls    []wireToolCall   `json:"tool_calls,omitempty"`
	ToolCallID   string           `json:"tool_call_id,omitempty"`
	FunctionCall *wireFunctionArg `json:"function_call,omitempty"`
}

type wireToolCall struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function wireFunctionArg `json:"function"`
}

type wireFunctionArg struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatResponse struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int    `json:"index"`
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			FunctionCall *struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function_call"`
		} `json:"message"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// The Responses API's names.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

func (u *wireUsage) usage() runtime.Usage {
	out := runtime.Usage{PromptTokens: u.PromptTokens + u.InputTokens,
		CompletionTokens: u.CompletionTokens + u.OutputTokens, TotalTokens: u.TotalTokens}
	if out.TotalTokens == 0 {
		out.TotalTokens = out.PromptTokens + out.CompletionTokens
	}
	return out
}

type errorBody struct {
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// argumentsText turns the wire `arguments` into text: normally a JSON
// string holding the arguments' JSON text; some servers (Ollama) send the
// object itself.
func argumentsText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s
		}
	}
	return string(raw)
}
