package runtimetest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
)

// The Gemini API's rules, as its documentation states them
// (ai.google.dev/api: generateContent, Content, FunctionDeclaration,
// Schema, FunctionCallingConfig; the function calling and thought
// signatures guides).
var (
	geminiPathRE     = regexp.MustCompile(`/models/([^/:]+):(generateContent|streamGenerateContent)$`)
	geminiFuncNameRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$`)
	// geminiSchemaKeys are the fields of Gemini's Schema object.
	geminiSchemaKeys = map[string]bool{"type": true, "format": true, "title": true, "description": true, "nullable": true,
		"enum": true, "maxItems": true, "minItems": true, "properties": true, "required": true, "minProperties": true,
		"maxProperties": true, "minLength": true, "maxLength": true, "pattern": true, "example": true, "anyOf": true,
		"propertyOrdering": true, "default": true, "items": true, "minimum": true, "maximum": true}
	geminiTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true}
)

type geminiRequest struct {
	Contents          []geminiContent   `json:"contents"`
	SystemInstruction *geminiContent    `json:"systemInstruction,omitempty"`
	Tools             []json.RawMessage `json:"tools,omitempty"`
	ToolConfig        json.RawMessage   `json:"toolConfig,omitempty"`
	GenerationConfig  json.RawMessage   `json:"generationConfig,omitempty"`
	SafetySettings    json.RawMessage   `json:"safetySettings,omitempty"`
	CachedContent     string            `json:"cachedContent,omitempty"`
}

type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         *string `json:"text,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args,omitempty"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
	InlineData       json.RawMessage `json:"inlineData,omitempty"`
	Thought          bool            `json:"thought,omitempty"`
	ThoughtSignature string          `json:"thoughtSignature,omitempty"`
}

type geminiDialect struct{}

func (geminiDialect) key(r *http.Request) string { return r.Header.Get("X-Goog-Api-Key") }

// decode is parallel to anthropicDialect's and responsesDialect's: the
// same first checks (path, key header, JSON body), each in its API's words.
func (geminiDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	m := geminiPathRE.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		return nil, fmt.Errorf("unexpected %s %s (want POST .../models/MODEL:generateContent or :streamGenerateContent)", r.Method, r.URL.Path)
	}
	t := &Turn{Model: m[1], Stream: m[2] == "streamGenerateContent", Params: map[string]json.RawMessage{}}
	if t.Stream && r.URL.Query().Get("alt") != "sse" {
		return nil, fmt.Errorf("streamGenerateContent without alt=sse answers with a JSON array, not server-sent events")
	}
	if r.URL.Query().Has("key") {
		return nil, fmt.Errorf("the API key in the URL (?key=): send it in x-goog-api-key, so it stays out of logs")
	}
	if r.Header.Get("X-Goog-Api-Key") == "" {
		return nil, fmt.Errorf("no x-goog-api-key header")
	}
	var req geminiRequest
	if err := decodeBody(r, body, &req, "Invalid JSON payload received"); err != nil {
		return nil, err
	}
	if req.SystemInstruction != nil {
		for _, p := range req.SystemInstruction.Parts {
			if p.Text == nil {
				return nil, fmt.Errorf("systemInstruction: only text parts")
			}
			t.System += *p.Text
		}
	}
	for i, raw := range req.Tools {
		var tool struct {
			FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
		}
		if err := strictDecode(raw, &tool); err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		for j, rd := range tool.FunctionDeclarations {
			var d struct {
				Name                 string          `json:"name"`
				Description          string          `json:"description"`
				Parameters           json.RawMessage `json:"parameters,omitempty"`
				ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
				Response             json.RawMessage `json:"response,omitempty"`
			}
			at := fmt.Sprintf("tools[%d].function_declarations[%d]", i, j)
			if err := strictDecode(rd, &d); err != nil {
				return nil, fmt.Errorf("%s: %w", at, err)
			}
			if !geminiFuncNameRE.MatchString(d.Name) {
				return nil, fmt.Errorf("%s.name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64", at)
			}
			if _, dup := t.Params[d.Name]; dup {
				return nil, fmt.Errorf("%s.name: duplicate function name %s", at, d.Name)
			}
			switch {
			case len(d.Parameters) > 0 && len(d.ParametersJSONSchema) > 0:
				return nil, fmt.Errorf("%s: parameters and parametersJsonSchema are mutually exclusive", at)
			case len(d.Parameters) > 0:
				if err := checkGeminiSchema(d.Parameters, at+".parameters"); err != nil {
					return nil, err
				}
				var s struct {
					Type       string                     `json:"type"`
					Properties map[string]json.RawMessage `json:"properties"`
				}
				json.Unmarshal(d.Parameters, &s)
				if !strings.EqualFold(s.Type, "object") || len(s.Properties) == 0 {
					return nil, fmt.Errorf("%s.parameters.properties: should be non-empty for OBJECT type", at)
				}
				t.Params[d.Name] = d.Parameters
			case len(d.ParametersJSONSchema) > 0:
				if !isObject(d.ParametersJSONSchema) {
					return nil, fmt.Errorf("%s.parametersJsonSchema: want a JSON Schema object", at)
				}
				t.Params[d.Name] = d.ParametersJSONSchema
			default:
				t.Params[d.Name] = nil
			}
			t.Tools = append(t.Tools, d.Name)
		}
	}
	if len(req.ToolConfig) > 0 {
		var tc struct {
			FunctionCallingConfig struct {
				Mode                 string   `json:"mode"`
				AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
			} `json:"functionCallingConfig"`
		}
		if err := strictDecode(req.ToolConfig, &tc); err != nil {
			return nil, fmt.Errorf("toolConfig: %w", err)
		}
		fc := tc.FunctionCallingConfig
		switch fc.Mode {
		case "AUTO", "NONE", "VALIDATED":
			if len(fc.AllowedFunctionNames) > 0 {
				return nil, fmt.Errorf("toolConfig: allowedFunctionNames may only be set with mode ANY")
			}
		case "ANY":
			for _, n := range fc.AllowedFunctionNames {
				if _, ok := t.Params[n]; !ok {
					return nil, fmt.Errorf("toolConfig: allowedFunctionNames names %q, which is not declared", n)
				}
			}
		default:
			return nil, fmt.Errorf("toolConfig.functionCallingConfig.mode: %q is not AUTO, ANY, NONE or VALIDATED", fc.Mode)
		}
	}
	t.ToolChoice = req.ToolConfig
	if len(req.GenerationConfig) > 0 {
		var err error
		if t.Output, err = checkGeminiGenerationConfig(req.GenerationConfig, t.Model, len(t.Tools) > 0); err != nil {
			return nil, err
		}
	}
	if len(req.Contents) == 0 {
		return nil, fmt.Errorf("contents is not specified")
	}
	// The last model turn's calls: their names and ids ("" when the call
	// had none).
	type call struct{ name, id string }
	var pending []call
	for i, c := range req.Contents {
		if c.Role != "user" && c.Role != "model" {
			return nil, fmt.Errorf("contents[%d].role: %q is not user or model", i, c.Role)
		}
		if i > 0 && req.Contents[i-1].Role == c.Role {
			return nil, fmt.Errorf("contents[%d]: Please ensure that multiturn requests alternate between user and model", i)
		}
		if len(c.Parts) == 0 {
			return nil, fmt.Errorf("contents[%d].parts: must not be empty", i)
		}
		var responses []string
		var text []string
		msg := runtime.Message{Role: runtime.RoleAssistant}
		for j, p := range c.Parts {
			at := fmt.Sprintf("contents[%d].parts[%d]", i, j)
			n := 0
			for _, set := range []bool{p.Text != nil, p.FunctionCall != nil, p.FunctionResponse != nil, len(p.InlineData) > 0} {
				if set {
					n++
				}
			}
			if n != 1 {
				return nil, fmt.Errorf("%s: a part holds exactly one of text, functionCall, functionResponse, inlineData (it holds %d)", at, n)
			}
			if p.ThoughtSignature != "" && !f.issuedSignature(p.ThoughtSignature) {
				return nil, fmt.Errorf("%s.thoughtSignature: %q is not a signature this server issued (signatures must be echoed back unchanged)", at, p.ThoughtSignature)
			}
			switch {
			case p.Text != nil:
				if c.Role == "user" && len(responses) < len(pending) {
					return nil, fmt.Errorf("%s: the function responses must come before other parts of the turn", at)
				}
				text = append(text, *p.Text)
				if c.Role == "model" && p.ThoughtSignature != "" {
					msg.ThoughtSignature = p.ThoughtSignature
				}
			case p.FunctionCall != nil:
				if c.Role != "model" {
					return nil, fmt.Errorf("%s: functionCall parts belong to model turns", at)
				}
				args := p.FunctionCall.Args
				if len(args) == 0 {
					args = json.RawMessage(`{}`)
				}
				if !isObject(args) {
					return nil, fmt.Errorf("%s.functionCall.args: want an object", at)
				}
				if signed, ok := f.signedCall(p.FunctionCall.Name, args, p.ThoughtSignature); signed && !ok {
					return nil, fmt.Errorf("%s: Function call is missing a thought_signature: the call %s was issued with one, echo it back unchanged (got %q)", at, p.FunctionCall.Name, p.ThoughtSignature)
				}
				msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name, Arguments: compact(args), ThoughtSignature: p.ThoughtSignature})
			case p.FunctionResponse != nil:
				fr := p.FunctionResponse
				if c.Role != "user" {
					return nil, fmt.Errorf("%s: functionResponse parts belong to user turns", at)
				}
				k := len(responses)
				if k >= len(pending) || pending[k].name != fr.Name {
					return nil, fmt.Errorf("%s: functionResponse %q does not answer the next function call of the previous turn (%v)", at, fr.Name, pending)
				}
				// "If populated, the client to execute the function_call
				// and return the response with the matching id."
				if id := pending[k].id; id != "" && fr.ID != id {
					return nil, fmt.Errorf("%s.functionResponse.id: %q does not match the id %q of the function call it answers", at, fr.ID, id)
				}
				if !isObject(fr.Response) {
					return nil, fmt.Errorf("%s.functionResponse.response: must be an object (got %s)", at, fr.Response)
				}
				responses = append(responses, fr.Name)
				var resp map[string]json.RawMessage
				json.Unmarshal(fr.Response, &resp)
				tm := runtime.Message{Role: runtime.RoleTool, ToolCallID: fr.ID, Name: fr.Name}
				switch {
				case resp["error"] != nil:
					tm.Content, tm.IsError = jsonText(resp["error"]), true
				case resp["output"] != nil:
					tm.Content = jsonText(resp["output"])
				default:
					tm.Content = compact(fr.Response)
				}
				t.Messages = append(t.Messages, tm)
			}
		}
		if c.Role == "user" {
			if len(responses) != len(pending) {
				return nil, fmt.Errorf("contents[%d]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn", i)
			}
			pending = nil
			if len(text) > 0 {
				t.Messages = append(t.Messages, runtime.Message{Role: runtime.RoleUser, Content: strings.Join(text, "\n")})
			}
			continue
		}
		if len(pending) > 0 {
			return nil, fmt.Errorf("contents[%d]: the function calls of contents[%d] were not answered", i, i-1)
		}
		msg.Content = strings.Join(text, "")
		for _, tc := range msg.ToolCalls {
			pending = append(pending, call{tc.Name, tc.ID})
		}
		t.Messages = append(t.Messages, msg)
	}
	if last := req.Contents[len(req.Contents)-1]; last.Role != "user" {
		return nil, fmt.Errorf("contents: the last turn must be the user's")
	}
	return t, nil
}

// jsonText is a JSON value as text: a string's contents, else the JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return compact(raw)
}

// checkGeminiSchema checks a parameters schema against Gemini's Schema
// object: its fields only (no $ref, $defs or additionalProperties), types
// it knows.
func checkGeminiSchema(raw json.RawMessage, at string) error {
	var s map[string]json.RawMessage
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("%s: want a Schema object", at)
	}
	for k, v := range s {
		if !geminiSchemaKeys[k] {
			return fmt.Errorf("%s: Unknown name %q: Cannot find field", at, k)
		}
		switch k {
		case "type":
			var typ string
			if json.Unmarshal(v, &typ) != nil || !geminiTypes[strings.ToLower(typ)] {
				return fmt.Errorf("%s.type: invalid type %s", at, v)
			}
		case "properties":
			var props map[string]json.RawMessage
			if err := json.Unmarshal(v, &props); err != nil {
				return fmt.Errorf("%s.properties: want an object", at)
			}
			for name, p := range props {
				if err := checkGeminiSchema(p, at+".properties."+name); err != nil {
					return err
				}
			}
		case "items":
			if err := checkGeminiSchema(v, at+".items"); err != nil {
				return err
			}
		case "anyOf":
			var list []json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				return fmt.Errorf("%s.anyOf: want an array", at)
			}
			for i, p := range list {
				if err := checkGeminiSchema(p, fmt.Sprintf("%s.anyOf[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// issuedSignature reports whether the fake issued sig.
func (f *Fake) issuedSignature(sig string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, sigs := range f.signatures {
		if sigs[sig] {
			return true
		}
	}
	return false
}

// signedCall reports whether the fake issued calls of name with args with
// signatures, and whether sig is one of them (identical calls cannot be
// told apart, so any of their signatures will do).
func (f *Fake) signedCall(name string, args json.RawMessage, sig string) (signed, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sigs := f.signatures[name+"\x00"+compact(args)]
	return len(sigs) > 0, sigs[sig]
}

func (f *Fake) issue(name string, args json.RawMessage, sig string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.signatures == nil {
		f.signatures = map[string]map[string]bool{}
	}
	k := name + "\x00" + compact(args)
	if f.signatures[k] == nil {
		f.signatures[k] = map[string]bool{}
	}
	f.signatures[k][sig] = true
}

func (geminiDialect) writeError(w http.ResponseWriter, status int, msg string) {
	st := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
		429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}[status]
	if st == "" {
		st = "UNKNOWN"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": st}}))
}

func (geminiDialect) write(f *Fake, w http.ResponseWriter, t *Turn, reply Reply, n int) {
	type obj = map[string]any
	prompt := len(t.Raw) / 4
	usage := obj{"promptTokenCount": prompt, "candidatesTokenCount": 10, "totalTokenCount": prompt + 10}
	var calls []obj
	for i, c := range reply.ToolCalls {
		args := f.callArgs(c)
		fc := obj{"name": c.Name, "args": args}
		if c.ID != "" {
			fc["id"] = c.ID // as Gemini does for some models and APIs
		}
		part := obj{"functionCall": fc}
		// Like Gemini 3, the first call of a step carries the signature.
		if i == 0 {
			sig := c.ThoughtSignature
			if sig == "" {
				sig = base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("fake signature %d", n)))
			}
			f.issue(c.Name, args, sig)
			part["thoughtSignature"] = sig
		}
		calls = append(calls, part)
	}
	candidate := func(parts []obj, finish string) obj {
		c := obj{"content": obj{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			c["finishReason"] = finish
		}
		return c
	}
	if !t.Stream {
		var parts []obj
		if reply.Text != "" {
			parts = append(parts, obj{"text": reply.Text})
		}
		parts = append(parts, calls...)
		w.Header().Set("Content-Type", "application/json")
		w.Write(mustJSON(obj{"candidates": []obj{candidate(parts, "STOP")}, "usageMetadata": usage,
			"modelVersion": t.Model, "responseId": fmt.Sprintf("fake%d", n)}))
		return
	}
	var events []sseEvent
	chunk := func(parts []obj, finish string) {
		events = append(events, sseEvent{data: mustJSON(obj{"candidates": []obj{candidate(parts, finish)},
			"usageMetadata": usage, "modelVersion": t.Model, "responseId": fmt.Sprintf("fake%d", n)})})
	}
	for _, p := range pieces(reply.Text, 3) {
		chunk([]obj{{"text": p}}, "")
	}
	if len(calls) > 0 {
		chunk(calls, "") // function calls arrive whole
	}
	// The last chunk: finishReason STOP (with tool calls too) and an
	// empty text part, as Gemini sends.
	chunk([]obj{{"text": ""}}, "STOP")
	writeSSE(w, events)
}
