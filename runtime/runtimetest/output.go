package runtimetest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The structured-output fields of each provider's request, as their
// published request types have them (OpenAI's CreateChatCompletionRequest
// and ResponseTextParam, Anthropic's OutputConfig, Gemini's
// GenerationConfig), decoded strictly: a field they do not define is a
// 400, as the providers answer it.

// formatNameRE is OpenAI's rule for a json_schema format's name.
var formatNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// openAIJSONSchema is OpenAI's ResponseFormatJSONSchema.json_schema (and,
// with Type, the Responses API's TextResponseFormatJsonSchema). Parallel
// in shape to responses.go's function tool, another object of OpenAI's
// reference.
type openAIJSONSchema struct {
	Type        string          `json:"type,omitempty"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Strict      *bool           `json:"strict,omitempty"`
}

// chatResponseFormat is Chat Completions' response_format: text,
// json_object or json_schema.
type chatResponseFormat struct {
	Type       string            `json:"type"`
	JSONSchema *openAIJSONSchema `json:"json_schema,omitempty"`
}

// responsesTextParam is the Responses API's text parameter.
type responsesTextParam struct {
	Format *struct {
		Type        string          `json:"type"`
		Name        string          `json:"name,omitempty"`
		Description string          `json:"description,omitempty"`
		Schema      json.RawMessage `json:"schema,omitempty"`
		Strict      *bool           `json:"strict,omitempty"`
	} `json:"format,omitempty"`
	Verbosity string `json:"verbosity,omitempty"`
}

// anthropicOutputConfig is the Messages API's output_config.
type anthropicOutputConfig struct {
	Format *struct {
		Type   string          `json:"type"`
		Schema json.RawMessage `json:"schema"`
	} `json:"format,omitempty"`
	Effort string `json:"effort,omitempty"`
}

// geminiGenerationConfig is generateContent's generationConfig.
type geminiGenerationConfig struct {
	Temperature        *float64        `json:"temperature,omitempty"`
	TopP               *float64        `json:"topP,omitempty"`
	TopK               *int            `json:"topK,omitempty"`
	CandidateCount     *int            `json:"candidateCount,omitempty"`
	MaxOutputTokens    *int            `json:"maxOutputTokens,omitempty"`
	StopSequences      []string        `json:"stopSequences,omitempty"`
	ResponseMimeType   string          `json:"responseMimeType,omitempty"`
	ResponseSchema     json.RawMessage `json:"responseSchema,omitempty"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema,omitempty"`
	Seed               *int            `json:"seed,omitempty"`
	ThinkingConfig     json.RawMessage `json:"thinkingConfig,omitempty"`
}

// checkChatResponseFormat checks response_format and returns the schema
// asked for (nil for text) and whether strict was set.
func checkChatResponseFormat(raw json.RawMessage) (json.RawMessage, bool, error) {
	var rf chatResponseFormat
	if err := strictDecode(raw, &rf); err != nil {
		return nil, false, fmt.Errorf("response_format: %w", err)
	}
	switch rf.Type {
	case "text", "json_object":
		if rf.JSONSchema != nil {
			return nil, false, fmt.Errorf("response_format.json_schema: only with type json_schema")
		}
		return nil, false, nil
	case "json_schema":
	default:
		return nil, false, fmt.Errorf("response_format.type: %q is not text, json_object or json_schema", rf.Type)
	}
	if rf.JSONSchema == nil {
		return nil, false, fmt.Errorf("response_format.json_schema: Field required")
	}
	if rf.JSONSchema.Type != "" {
		return nil, false, fmt.Errorf("response_format.json_schema.type: Unrecognized request argument")
	}
	return checkOpenAIFormat("response_format.json_schema", rf.JSONSchema.Name, rf.JSONSchema.Schema, rf.JSONSchema.Strict)
}

// checkResponsesText checks the Responses API's text parameter.
func checkResponsesText(raw json.RawMessage) (json.RawMessage, bool, error) {
	var tp responsesTextParam
	if err := strictDecode(raw, &tp); err != nil {
		return nil, false, fmt.Errorf("text: %w", err)
	}
	if tp.Format == nil {
		return nil, false, nil
	}
	switch tp.Format.Type {
	case "text", "json_object":
		return nil, false, nil
	case "json_schema":
		return checkOpenAIFormat("text.format", tp.Format.Name, tp.Format.Schema, tp.Format.Strict)
	}
	return nil, false, fmt.Errorf("text.format.type: %q is not text, json_object or json_schema", tp.Format.Type)
}

// checkOpenAIFormat checks a json_schema format: its name, an object
// schema at the root, and with strict the rules of Structured Outputs
// (every object closed, every property required).
func checkOpenAIFormat(at, name string, schema json.RawMessage, strict *bool) (json.RawMessage, bool, error) {
	if !formatNameRE.MatchString(name) {
		return nil, false, fmt.Errorf("%s.name: %q must match ^[a-zA-Z0-9_-]{1,64}$", at, name)
	}
	var root map[string]any
	if json.Unmarshal(schema, &root) != nil || root == nil {
		return nil, false, fmt.Errorf("%s.schema: must be a JSON object", at)
	}
	if root["type"] != "object" {
		return nil, false, fmt.Errorf("%s.schema: the root must be an object, not %v", at, root["type"])
	}
	isStrict := strict != nil && *strict
	if isStrict {
		if err := checkStrictSchema(schema, at+".schema"); err != nil {
			return nil, false, err
		}
	}
	return schema, isStrict, nil
}

// checkAnthropicOutputConfig checks output_config.
func checkAnthropicOutputConfig(raw json.RawMessage) (json.RawMessage, error) {
	var oc anthropicOutputConfig
	if err := strictDecode(raw, &oc); err != nil {
		return nil, fmt.Errorf("output_config: %w", err)
	}
	if oc.Format == nil {
		return nil, nil
	}
	if oc.Format.Type != "json_schema" {
		return nil, fmt.Errorf("output_config.format.type: Input should be 'json_schema'")
	}
	var root map[string]any
	if json.Unmarshal(oc.Format.Schema, &root) != nil || root == nil {
		return nil, fmt.Errorf("output_config.format.schema: Field required (a JSON Schema object)")
	}
	if root["type"] != "object" {
		return nil, fmt.Errorf("output_config.format.schema: the root must be an object")
	}
	if err := anthropicSchemaSubset(root); err != nil {
		return nil, fmt.Errorf("output_config.format.schema: %w", err)
	}
	return oc.Format.Schema, nil
}

// anthropicSchemaSubset holds the keywords Anthropic's structured outputs
// refuse: numeric, string-length and most array and object bounds; every
// object must be closed.
func anthropicSchemaSubset(s map[string]any) error {
	typ, _ := s["type"].(string)
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties"} {
		if _, ok := s[k]; ok {
			return fmt.Errorf("For '%s' type, property '%s' is not supported", typ, k)
		}
	}
	if n, ok := s["minItems"].(float64); ok && n > 1 {
		return fmt.Errorf("For 'array' type, 'minItems' values other than 0 or 1 are not supported")
	}
	if _, props := s["properties"]; (props || typ == "object") && s["additionalProperties"] != false {
		return fmt.Errorf("For 'object' type, 'additionalProperties' must be explicitly set to false")
	}
	for _, key := range []string{"properties", "$defs", "definitions"} {
		if m, ok := s[key].(map[string]any); ok {
			for _, sub := range m {
				if sm, ok := sub.(map[string]any); ok {
					if err := anthropicSchemaSubset(sm); err != nil {
						return err
					}
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		if err := anthropicSchemaSubset(items); err != nil {
			return err
		}
	}
	for _, key := range []string{"anyOf", "allOf"} {
		if list, ok := s[key].([]any); ok {
			for _, sub := range list {
				if sm, ok := sub.(map[string]any); ok {
					if err := anthropicSchemaSubset(sm); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// checkGeminiGenerationConfig checks generationConfig, and returns the
// response schema asked for. Gemini 2.x models answer 400 to a response
// schema beside function declarations (Gemini 3 accepts it).
func checkGeminiGenerationConfig(raw json.RawMessage, model string, functions bool) (json.RawMessage, error) {
	var gc geminiGenerationConfig
	if err := strictDecode(raw, &gc); err != nil {
		return nil, fmt.Errorf("generationConfig: %w", err)
	}
	if gc.Temperature != nil && (*gc.Temperature < 0 || *gc.Temperature > 2) {
		return nil, fmt.Errorf("generationConfig.temperature: must be between 0 and 2")
	}
	if len(gc.ResponseSchema) > 0 && len(gc.ResponseJSONSchema) > 0 {
		return nil, fmt.Errorf("generationConfig: responseSchema and responseJsonSchema are mutually exclusive")
	}
	schema := gc.ResponseJSONSchema
	if len(schema) == 0 {
		schema = gc.ResponseSchema
	}
	if len(schema) == 0 {
		return nil, nil
	}
	if gc.ResponseMimeType != "application/json" {
		return nil, fmt.Errorf("generationConfig: a response schema needs responseMimeType \"application/json\", got %q", gc.ResponseMimeType)
	}
	if !isObject(schema) {
		return nil, fmt.Errorf("generationConfig.responseJsonSchema: must be a JSON Schema object")
	}
	name := strings.TrimPrefix(model, "models/")
	if functions && (strings.HasPrefix(name, "gemini-2.") || strings.HasPrefix(name, "gemini-1.")) {
		return nil, fmt.Errorf("Function calling with a response mime type: 'application/json' is unsupported")
	}
	return schema, nil
}
