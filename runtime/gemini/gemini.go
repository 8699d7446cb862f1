// Package gemini is a runtime.Model (and runtime.StreamingModel) for the
// Gemini API's generateContent and streamGenerateContent?alt=sse, written
// over net/http.
//
// Requests carry the key in x-goog-api-key (GOOGLE_API_KEY or
// GEMINI_API_KEY), and the tools as function declarations exactly as
// `gramc schema --target gemini` prints them. Function calls are read
// from the answer's parts (the finish reason is STOP either way); each
// call's thoughtSignature is kept in the conversation and echoed back
// unchanged; a tool's result goes back as a functionResponse whose
// response is always an object: {"output": result} or {"error":
// message}. Retries, Retry-After (and Gemini's RetryInfo), errors and
// redaction are those of every gramc provider client.
package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
)

// Client is a runtime.Model for the Gemini API. It is configured one way,
// with the options of New, and is safe for concurrent use.
type Client struct {
	api clientopt.Settings // the key, retries, timeouts, base URL, model
}

// Option configures New: any of package clientopt's options, or this
// client's own (below).
type Option = clientopt.Option

// info is Gemini's row of the provider table: its key variables, in
// order of precedence (as Google's SDKs read them), base-URL variable,
// address (requests go to <base>/models/<model>:generateContent) and key
// header.
var info, _ = provider.Lookup("Gemini")

// New returns a client for Gemini's row of the provider table
// (GOOGLE_API_KEY or GEMINI_API_KEY, GEMINI_BASE_URL), then opts. Without
// a key it is a *runtime.ConfigurationError when the base URL is Google's
// own.
func New(opts ...Option) (*Client, error) { return NewFor(info, opts...) }

// NewFor returns a client for a provider that speaks the Gemini API,
// configured from its row of the provider table, then opts.
func NewFor(p provider.Info, opts ...Option) (*Client, error) {
	return clientopt.NewClient(p, opts, func(c *Client) *clientopt.Settings { return &c.api })
}

// BaseURL returns the API root the client sends requests to.
func (c *Client) BaseURL() string { return c.api.BaseURL }

func (c *Client) endpoint(model string, stream bool) string {
	model = strings.TrimPrefix(model, "models/")
	u := strings.TrimRight(c.api.BaseURL, "/") + "/models/" + url.PathEscape(model)
	if stream {
		return u + ":streamGenerateContent?alt=sse"
	}
	return u + ":generateContent"
}

// Complete implements runtime.Model.
func (c *Client) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	body, err := c.EncodeRequest(req)
	if err != nil {
		return nil, err
	}
	return c.api.HTTP.Complete(ctx, c.endpoint(c.api.ModelName(req.Model), false), nil, body, c.decodeResponse)
}

func (c *Client) decodeResponse(data []byte) (*runtime.Completion, error) {
	var gr generateResponse
	if err := json.Unmarshal(data, &gr); err != nil {
		return nil, &runtime.APIError{Provider: "gemini", StatusCode: http.StatusOK, Message: "malformed response: " + err.Error(), Err: err}
	}
	if gr.Error != nil {
		if e, ok := c.api.HTTP.BodyError(http.StatusOK, data); ok {
			return nil, e
		}
	}
	var acc answer
	if err := acc.add(context.Background(), &gr, nil); err != nil {
		return nil, err
	}
	return acc.completion()
}

// Stream implements runtime.StreamingModel.
func (c *Client) Stream(ctx context.Context, req *runtime.Request, emit func(runtime.Event)) (*runtime.Completion, error) {
	body, err := c.EncodeRequest(req)
	if err != nil {
		return nil, err
	}
	return c.api.HTTP.Stream(ctx, c.endpoint(c.api.ModelName(req.Model), true), nil, body, c.decodeResponse, c.decodeStream, emit)
}

// FunctionDeclaration returns the functionDeclarations entry for spec,
// compact: {"name","description","parameters"} in that order,
// byte-identical to the entry `gramc schema --target gemini` prints (no
// parameters for a tool without any). A spec without Gemini's schema
// (one not made by gramc) sends its JSON Schema as parametersJsonSchema.
func FunctionDeclaration(spec runtime.ToolSpecification) (json.RawMessage, error) {
	schema, key := spec.TargetSchemas["gemini"], "parameters"
	if len(bytes.TrimSpace(schema)) == 0 {
		schema, key = spec.Schema, "parametersJsonSchema"
		if !hasProperties(schema) {
			schema = nil // the gemini target omits parameters then
		}
	}
	var b bytes.Buffer
	if err := apihttp.OpenToolEntry(&b, spec, key, schema); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func hasProperties(schema json.RawMessage) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	return json.Unmarshal(schema, &s) == nil && len(s.Properties) > 0
}

// Wire types of the Gemini API (only what gramc sends and reads).

type generateRequest struct {
	Contents          []content         `json:"contents"`
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Tools             []toolEntry       `json:"tools,omitempty"`
	ToolConfig        *toolConfig       `json:"toolConfig,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
}

type toolEntry struct {
	FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
}

type toolConfig struct {
	FunctionCallingConfig struct {
		Mode                 string   `json:"mode"`
		AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
	} `json:"functionCallingConfig"`
}

type generationConfig struct {
	Temperature *float64 `json:"temperature,omitempty"`
	// ResponseMimeType "application/json" with ResponseJSONSchema asks
	// for structured output (a typed agent in native mode).
	ResponseMimeType   string          `json:"responseMimeType,omitempty"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema,omitempty"`
}

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

type part struct {
	Text             *string           `json:"text,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

type functionResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// callID is the id a call and its response carry back to Gemini: the one
// Gemini gave the call ("return the response with the matching id"), none
// when it gave none (gramc's generated IDs are not Gemini's).
func callID(tc runtime.ToolCall) string {
	if tc.Generated {
		return ""
	}
	return tc.ID
}

type generateResponse struct {
	ResponseID   string `json:"responseId"`
	ModelVersion string `json:"modelVersion"`
	Candidates   []struct {
		Content      *content `json:"content"`
		FinishReason string   `json:"finishReason"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
		ThoughtsTokenCount   int `json:"thoughtsTokenCount"`
		TotalTokenCount      int `json:"totalTokenCount"`
	} `json:"usageMetadata"`
	Error json.RawMessage `json:"error"`
}

// EncodeRequest returns the JSON request body sent for req.
func (c *Client) EncodeRequest(req *runtime.Request) ([]byte, error) {
	gr := generateRequest{Contents: encodeContents(req.Messages)}
	var system []string
	if req.Instruction != "" {
		system = append(system, req.Instruction)
	}
	for _, m := range req.Messages {
		if m.Role == runtime.RoleSystem && m.Content != "" {
			system = append(system, m.Content)
		}
	}
	if len(system) > 0 {
		s := strings.Join(system, "\n\n")
		gr.SystemInstruction = &content{Parts: []part{{Text: &s}}}
	}
	if len(req.Tools) > 0 {
		decls, err := apihttp.ToolEntries(req.Tools, FunctionDeclaration)
		if err != nil {
			return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
		}
		gr.Tools = []toolEntry{{FunctionDeclarations: decls}}
		if req.ToolChoice != "" {
			tc := &toolConfig{}
			switch req.ToolChoice {
			case "auto":
				tc.FunctionCallingConfig.Mode = "AUTO"
			case "none":
				tc.FunctionCallingConfig.Mode = "NONE"
			case "required":
				tc.FunctionCallingConfig.Mode = "ANY"
			default:
				tc.FunctionCallingConfig.Mode = "ANY"
				tc.FunctionCallingConfig.AllowedFunctionNames = []string{req.ToolChoice}
			}
			gr.ToolConfig = tc
		}
	}
	if req.Temperature != nil || req.Output != nil {
		gr.GenerationConfig = &generationConfig{Temperature: req.Temperature}
	}
	if req.Output != nil {
		gr.GenerationConfig.ResponseMimeType = "application/json"
		gr.GenerationConfig.ResponseJSONSchema = req.Output.Schema
	}
	body, err := apihttp.Marshal(gr)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	return body, nil
}

// encodeContents turns a provider-neutral conversation into Gemini
// contents: roles user and model alternate (neighbours of one role
// merge); an assistant's calls are functionCall parts with their thought
// signatures; the results that follow are functionResponse parts, one per
// call in call order (a call without a recorded result gets an error
// response, a result without its call becomes text). Parallel to
// anthropic.go's encodeMessages (the same walk over the Messages API's
// blocks); kept apart because each pairs results with calls by its own
// document's rules (here Gemini's own ids, thought signatures echoed).
func encodeContents(msgs []runtime.Message) []content {
	var out []content
	add := func(role string, parts ...part) {
		if len(parts) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			return
		}
		out = append(out, content{Role: role, Parts: parts})
	}
	text := func(s string) part { return part{Text: &s} }
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case runtime.RoleUser:
			if m.Content != "" {
				add("user", text(m.Content))
			}
		case runtime.RoleTool:
			add("user", text(fmt.Sprintf("(result of tool %s) %s", m.Name, m.Content)))
		case runtime.RoleAssistant:
			var parts []part
			if m.Content != "" {
				p := text(m.Content)
				p.ThoughtSignature = m.ThoughtSignature
				parts = append(parts, p)
			}
			for _, tc := range m.ToolCalls {
				parts = append(parts, part{FunctionCall: &functionCall{ID: callID(tc), Name: tc.Name, Args: apihttp.ArgumentsObject(tc.Arguments)}, ThoughtSignature: tc.ThoughtSignature})
			}
			if len(parts) == 0 {
				continue
			}
			add("model", parts...)
			if len(m.ToolCalls) == 0 {
				continue
			}
			results := make([]*runtime.Message, len(m.ToolCalls))
			// The calls of each ID, in order: a result answers the first
			// one not yet answered, in constant time (issue 20.6: the scan
			// made n results cost n²).
			waiting := make(map[string][]int, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				waiting[tc.ID] = append(waiting[tc.ID], j)
			}
			var orphans []part
			for i+1 < len(msgs) && msgs[i+1].Role == runtime.RoleTool {
				i++
				r := msgs[i]
				placed := false
				if js := waiting[r.ToolCallID]; len(js) > 0 {
					results[js[0]], placed = &r, true
					waiting[r.ToolCallID] = js[1:]
				}
				if !placed {
					orphans = append(orphans, text(fmt.Sprintf("(result of tool %s) %s", r.Name, r.Content)))
				}
			}
			var rp []part
			for j, tc := range m.ToolCalls {
				r := results[j]
				if r == nil {
					r = &runtime.Message{Content: "error: no result was recorded for this call of " + tc.Name, IsError: true}
				}
				rp = append(rp, part{FunctionResponse: &functionResponse{ID: callID(tc), Name: tc.Name, Response: responseObject(r)}})
			}
			out = append(out, content{Role: "user", Parts: append(rp, orphans...)})
		}
	}
	return out
}

// responseObject is a tool result as functionResponse.response, always a
// JSON object, with the keys Gemini documents: {"output": result} (the
// result's JSON value, or its text as a string) or {"error": message}.
func responseObject(r *runtime.Message) json.RawMessage {
	key := "output"
	if r.IsError {
		key = "error"
	}
	var b bytes.Buffer
	b.WriteString(`{"` + key + `":`)
	// Compact checks the result is JSON as it goes (one pass); text that
	// is not JSON goes as a string instead of what Compact wrote.
	v := bytes.TrimSpace([]byte(r.Content))
	mark := b.Len()
	if r.IsError || len(v) == 0 || json.Compact(&b, v) != nil {
		b.Truncate(mark)
		b.Write(jsonstr.AppendString(b.AvailableBuffer(), r.Content))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// answer accumulates a response's parts (one response, or a stream's
// chunks).
type answer struct {
	id, model string
	text      strings.Builder
	signature string
	calls     []runtime.ToolCall
	finish    string
	usage     runtime.Usage
	blocked   string
}

// add takes one response (or stream chunk), reporting what it adds. One
// chunk may hold any number of parts: ctx is checked as they are taken, so
// a cancelled run stops within the chunk (issue 20.6).
func (a *answer) add(ctx context.Context, gr *generateResponse, emit func(runtime.Event)) error {
	if gr.UsageMetadata != nil {
		u := gr.UsageMetadata
		a.usage = runtime.Usage{PromptTokens: u.PromptTokenCount, CompletionTokens: u.CandidatesTokenCount + u.ThoughtsTokenCount, TotalTokens: u.TotalTokenCount}
	}
	if a.id == "" {
		a.id, a.model = gr.ResponseID, gr.ModelVersion
	}
	if gr.PromptFeedback != nil && gr.PromptFeedback.BlockReason != "" {
		a.blocked = gr.PromptFeedback.BlockReason
	}
	if len(gr.Candidates) == 0 {
		return nil
	}
	cand := gr.Candidates[0]
	if cand.FinishReason != "" {
		a.finish = cand.FinishReason
	}
	if cand.Content == nil {
		return nil
	}
	for i, p := range cand.Content.Parts {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch {
		case p.FunctionCall != nil:
			args := "{}"
			if s := bytes.TrimSpace(p.FunctionCall.Args); len(s) > 0 && string(s) != "null" {
				args = string(s)
			}
			if emit != nil {
				emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: len(a.calls), Call: runtime.ToolCall{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name}})
			}
			a.calls = append(a.calls, runtime.ToolCall{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name, Arguments: args, ThoughtSignature: p.ThoughtSignature})
		case p.Thought:
			// A thought summary is not the answer.
		case p.Text != nil:
			if *p.Text != "" {
				a.text.WriteString(*p.Text)
				if emit != nil {
					emit(runtime.Event{Kind: runtime.EventText, Text: *p.Text})
				}
			}
			if p.ThoughtSignature != "" && a.signature == "" {
				a.signature = p.ThoughtSignature
			}
		}
	}
	return nil
}

func (a *answer) completion() (*runtime.Completion, error) {
	if a.blocked != "" && a.text.Len() == 0 && len(a.calls) == 0 {
		return nil, &runtime.APIError{Provider: "gemini", StatusCode: http.StatusOK, Message: "the prompt was blocked: " + a.blocked}
	}
	if a.finish == "MALFORMED_FUNCTION_CALL" && len(a.calls) == 0 {
		return nil, &runtime.APIError{Provider: "gemini", StatusCode: http.StatusOK, Message: "the model produced a malformed function call (finishReason MALFORMED_FUNCTION_CALL)", Code: a.finish}
	}
	msg := runtime.Message{Role: runtime.RoleAssistant, Content: a.text.String(), ToolCalls: a.calls, ThoughtSignature: a.signature}
	comp := &runtime.Completion{Message: msg, Usage: a.usage, StopReason: stopReasons.Of(a.finish), ResponseID: a.id, ResponseModel: a.model}
	if len(a.calls) > 0 && comp.StopReason == runtime.StopEnd {
		comp.StopReason = runtime.StopToolCalls
	}
	return comp, nil
}

// stopReasons are generateContent's finishReason values (a call is told
// by its parts, not by a reason of its own).
var stopReasons = apihttp.StopReasons{
	"":                    {"FINISH_REASON_UNSPECIFIED"},
	runtime.StopEnd:       {"STOP"},
	runtime.StopMaxTokens: {"MAX_TOKENS"},
	runtime.StopRefusal:   {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "LANGUAGE"},
}
