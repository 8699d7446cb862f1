package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/toolspec"
)

// Signature is a typed agent's signature (docs/language.md §2.6): what it
// takes and what it answers with. It is toolspec.Signature, the one type
// codegen/schema makes and generated Go code embeds.
type Signature = toolspec.Signature

// maxAnswerBytes bounds the text of a typed agent's answer that is
// decoded: a longer answer is an invalid one (its repair turn says so).
const maxAnswerBytes = 1 << 20

// maxAnswerDepth bounds the nesting of a typed answer's JSON value.
const maxAnswerDepth = 64

// outputMode is the mode s's output is held to for model: the agent's
// outputMode, or for auto the best its provider's row offers together
// with the agent's tools (provider.Info.AutoOutputMode). A provider the
// table does not know gets the final-answer tool.
func outputMode(s *Signature, model string, withTools bool) provider.OutputMode {
	if s.OutputMode != "" && s.OutputMode != provider.OutputAuto {
		return s.OutputMode
	}
	p, ok := provider.Of(model)
	if !ok {
		return provider.OutputTool
	}
	_, name := SplitModel(model)
	return p.AutoOutputMode(name, withTools)
}

// OutputFormat is the structured output a request asks for (native mode):
// each client sends it in its provider's field (OpenAI's response_format
// or text.format, Anthropic's output_config.format, Gemini's
// responseJsonSchema).
type OutputFormat struct {
	// Name is the format's name, [A-Za-z0-9_-]{1,64} ("Triage").
	Name string `json:"name"`
	// Schema is the JSON Schema of the answer as it travels: an object
	// (a non-object output type is wrapped as {"value": ...}).
	Schema json.RawMessage `json:"schema"`
	// Strict is Schema in OpenAI's strict subset; nil when there is none
	// (OpenAI is then sent Schema without strict).
	Strict json.RawMessage `json:"strict,omitempty"`
}

// OutputError is a typed run that ended without a value of its output
// type: the model's last answer (Raw, untrusted text) was not one after
// every repair turn, or the model refused.
type OutputError struct {
	// Type is the output type's name.
	Type string
	// Raw is the model's last answer as it sent it (the final-answer
	// tool's arguments in tool mode).
	Raw string
	// Message says how Raw differs from the type (or the refusal).
	Message string
	// Repairs is the number of repair turns made.
	Repairs int
	// Refused: the model refused to answer (OpenAI's message.refusal,
	// a refusal stop reason); no repair turn is made for a refusal.
	Refused bool
	// Response is the run up to then.
	Response *Response
}

func (e *OutputError) Error() string {
	if e.Refused {
		return fmt.Sprintf("the model refused to answer with a %s: %s", e.Type, e.Message)
	}
	turns := "no repair turn"
	switch e.Repairs {
	case 0:
	case 1:
		turns = "1 repair turn"
	default:
		turns = fmt.Sprintf("%d repair turns", e.Repairs)
	}
	return fmt.Sprintf("the answer is not a %s after %s: %s", e.Type, turns, e.Message)
}

// wrapKey is the property a non-object output travels in.
const wrapKey = "value"

// finalAnswerTool is the final-answer tool's name, made unique against
// the agent's tools.
const finalAnswerTool = "final_answer"

// outputCheck is a Loop's hold on a typed agent's answer.
type outputCheck struct {
	sig     *Signature
	mode    provider.OutputMode
	typ     string       // the output type's name, for messages
	as      *argSchema   // the bare output type, standard form
	wrapped bool         // a non-object type, sent as {"value": ...}
	format  OutputFormat // the wire format (native, and the tool's schema)
	tool    string       // the final-answer tool's name (tool mode)
	retries int
}

// newOutputCheck compiles a typed agent's output contract; nil for an
// untyped agent.
func newOutputCheck(agent Agent) (*outputCheck, error) {
	sig := agent.Signature
	if !sig.Typed() {
		return nil, nil
	}
	// A strict form sent, the model says null for an optional property it
	// leaves out: that null is taken as absent (and gets the default).
	as, err := compileSchema(sig.Output, len(sig.OutputStrict) > 0)
	if err != nil {
		return nil, &ConfigurationError{Setting: "output", Message: fmt.Sprintf("agent %s: the output schema: %v", agent.Name, err)}
	}
	typ := sig.OutputName
	if typ == "" {
		typ = "output"
	}
	oc := &outputCheck{sig: sig, typ: typ, as: as, retries: sig.Retries(),
		mode: outputMode(sig, agent.Model, len(agent.Tools) > 0)}
	oc.wrapped = !objectRoot(as.doc)
	oc.format = OutputFormat{Name: formatName(typ), Schema: sig.Output, Strict: sig.OutputStrict}
	if oc.wrapped {
		oc.format.Schema = wrapSchema(sig.Output)
		if len(sig.OutputStrict) > 0 {
			oc.format.Strict = wrapSchema(sig.OutputStrict)
		}
		if oc.format.Schema == nil {
			return nil, &ConfigurationError{Setting: "output", Message: fmt.Sprintf("agent %s: the output schema is not a JSON object", agent.Name)}
		}
	}
	if oc.mode == provider.OutputTool {
		oc.tool = finalAnswerTool
		for taken(agent.Tools, oc.tool) {
			oc.tool += "_"
		}
	}
	return oc, nil
}

func taken(tools []ToolSpecification, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// formatName makes a format name OpenAI accepts ([A-Za-z0-9_-]{1,64}).
func formatName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
		if b.Len() == 64 {
			break
		}
	}
	if b.Len() == 0 {
		return "output"
	}
	return b.String()
}

// objectRoot reports whether a schema's root is an object type (through
// a $ref into its own $defs).
func objectRoot(doc any) bool {
	m, _ := doc.(map[string]any)
	for range 8 {
		if m == nil {
			return false
		}
		if t, ok := m["type"].(string); ok {
			return t == "object"
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			_, props := m["properties"]
			return props
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			return false
		}
		defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
		m, _ = defs[name].(map[string]any)
	}
	return false
}

// wrapSchema is {"type":"object","properties":{"value": schema},...}, the
// schema's $defs moved to the wrapper's root so its references still
// resolve; nil when schema is not a JSON object.
func wrapSchema(schema json.RawMessage) json.RawMessage {
	var inner map[string]json.RawMessage
	if json.Unmarshal(schema, &inner) != nil || inner == nil {
		return nil
	}
	defs := inner["$defs"]
	delete(inner, "$defs")
	delete(inner, "$schema")
	innerText, _ := json.Marshal(inner)
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{"` + wrapKey + `":`)
	b.Write(innerText)
	b.WriteString(`},"required":["` + wrapKey + `"],"additionalProperties":false`)
	if len(defs) > 0 {
		b.WriteString(`,"$defs":`)
		b.Write(defs)
	}
	b.WriteString("}")
	return b.Bytes()
}

// finalToolSpec is tool mode's final-answer tool: its parameters are the
// output type (wrapped when not an object).
func (oc *outputCheck) finalToolSpec() ToolSpecification {
	return ToolSpecification{Name: oc.tool,
		Description: "Give your final answer, a " + oc.typ + ", as this tool's arguments. Call it once, when you have the answer; the run ends with it.",
		Schema:      oc.format.Schema}
}

// promptedInstruction is what prompted mode adds to the instruction.
func (oc *outputCheck) promptedInstruction() string {
	return "\n\nAnswer with a JSON value of this JSON Schema and nothing else (no prose, no code fence):\n" + string(oc.sig.Output)
}

// Answer is a typed answer checked: the value (bare, defaults applied), or
// why it is not one.
type answer struct {
	value   json.RawMessage
	lenient string // how a prompted answer was found, "" when it was the whole text
	err     error  // the message for the model's repair turn
}

// check decodes and validates an answer's text: strictly, except in
// prompted mode (lenient); unwrapped when the type travels wrapped (not in
// prompted mode, which asks for the bare value).
func (oc *outputCheck) check(text string, lenient bool) answer {
	v, how, err := DecodeAnswer(text, lenient)
	if err != nil {
		return answer{err: err}
	}
	if oc.wrapped && oc.mode != provider.OutputPrompted {
		obj, ok := v.(map[string]any)
		inner, present := obj[wrapKey]
		if !ok || !present || len(obj) != 1 {
			return answer{err: fmt.Errorf(`the answer must be an object {"%s": ...} holding the value`, wrapKey)}
		}
		v = inner
	}
	value, err := oc.validate(v)
	return answer{value: value, lenient: how, err: err}
}

// validate applies the output type's defaults to v and validates it with
// the validator of tool arguments.
func (oc *outputCheck) validate(v any) (json.RawMessage, error) {
	v = oc.as.applyDefaults(oc.as.doc, v, 0)
	if err := oc.as.compiled.Validate(v); err != nil {
		return nil, errors.New(validationMessage(err))
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("the value cannot be encoded: %v", err)
	}
	return out, nil
}

// DecodeAnswer decodes a typed agent's answer text into a JSON value
// (numbers as json.Number). Strictly, the whole text (spaces aside) must
// be one JSON value. Leniently (prompted mode), a value is also found in
// a fenced code block or inside prose, and how it was found is returned.
// The text is bounded by maxAnswerBytes, the nesting by maxAnswerDepth,
// each number by limits.MaxNumberLength; every failure is an error fit for the
// model's repair turn.
func DecodeAnswer(text string, lenient bool) (v any, how string, err error) {
	if len(text) > maxAnswerBytes {
		return nil, "", fmt.Errorf("the answer has %d bytes; answers are limited to %d", len(text), maxAnswerBytes)
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, "", errors.New("the answer is empty; it must be a JSON value")
	}
	v, err = decodeBounded(t)
	if err == nil || !lenient {
		if err != nil {
			err = fmt.Errorf("the answer is not a JSON value: %v", err)
		}
		return v, "", err
	}
	if inner, ok := fenced(t); ok {
		if v, ferr := decodeBounded(inner); ferr == nil {
			return v, "the value was found in a fenced code block", nil
		}
	}
	if v, ok := firstValue(t); ok {
		return v, "the value was found inside prose", nil
	}
	return nil, "", fmt.Errorf("the answer holds no JSON value: %v", err)
}

// decodeBounded decodes exactly one JSON value and checks its bounds
// (encoding/json itself stops at 10000 levels, and the text is bounded).
func decodeBounded(text string) (any, error) {
	v, err := decodeJSON([]byte(text))
	if err != nil {
		return nil, err
	}
	return v, checkBounds(v)
}

// checkBounds reports a value nested deeper than maxAnswerDepth or with a
// number longer than limits.MaxNumberLength.
func checkBounds(v any) error {
	if depthOf(v, 0) > maxAnswerDepth {
		return fmt.Errorf("the value nests deeper than %d levels", maxAnswerDepth)
	}
	return checkNumbers(v, "")
}

func depthOf(v any, d int) int {
	if d > maxAnswerDepth {
		return d
	}
	max := d
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if n := depthOf(e, d+1); n > max {
				max = n
			}
		}
	case []any:
		for _, e := range x {
			if n := depthOf(e, d+1); n > max {
				max = n
			}
		}
	}
	return max
}

// fenced returns the content of the first ``` fence in text.
func fenced(text string) (string, bool) {
	_, rest, ok := strings.Cut(text, "```")
	if !ok {
		return "", false
	}
	// The fence's info string ("json") ends its first line.
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{[\"") {
		rest = rest[nl+1:]
	}
	inner, _, ok := strings.Cut(rest, "```")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(inner), true
}

// firstValue finds the first object or array in prose that decodes whole:
// from each '{' or '[' in turn, one value is read and the rest ignored.
// At most 64 starts are tried, so hostile text costs a bounded number of
// decodes.
func firstValue(text string) (any, bool) {
	tries := 0
	for i := 0; i < len(text) && tries < 64; i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		tries++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			if err := checkBounds(v); err != nil {
				return nil, false
			}
			return v, true
		}
	}
	return nil, false
}

// AgentMessage is the user message a run of agent sends for input
// (docs/language.md §2.6): an agent without a signature, or whose input is one
// String parameter, sends input itself (checked against that parameter's
// constraints); any other takes input as the JSON object of its
// arguments, validated with the validator of tool arguments and sent with
// its defaults applied. A bad input is a *ValidationError naming the
// parameter, before anything is sent.
func AgentMessage(agent Agent, input string) (string, error) {
	sig := agent.Signature
	if sig == nil || len(bytes.TrimSpace(sig.Input)) == 0 {
		return input, nil
	}
	as, err := compileArgSchema(sig.Input)
	if err != nil {
		return "", &ConfigurationError{Setting: "input", Message: fmt.Sprintf("agent %s: the input schema: %v", agent.Name, err)}
	}
	if sig.Message != "" {
		args, _ := json.Marshal(map[string]string{sig.Message: input})
		if _, err := as.prepareArgs(string(args)); err != nil {
			return "", &ValidationError{Field: "input", Message: fmt.Sprintf("agent %s: %s", agent.Name, parameterMessage(err))}
		}
		return input, nil
	}
	if len(input) > maxAnswerBytes {
		return "", &ValidationError{Field: "input", Message: fmt.Sprintf("agent %s: the input has %d bytes; inputs are limited to %d", agent.Name, len(input), maxAnswerBytes)}
	}
	args, err := as.prepareArgs(input)
	if err != nil {
		return "", &ValidationError{Field: "input", Message: fmt.Sprintf("agent %s takes its arguments as a JSON object: %s", agent.Name, parameterMessage(err))}
	}
	return string(args), nil
}

// parameterMessage names the parameter of a validation message: "at
// '/minutes': ..." becomes "parameter minutes: ...".
func parameterMessage(err error) string {
	msg := err.Error()
	var parts []string
	for _, p := range strings.Split(msg, "; ") {
		if rest, ok := strings.CutPrefix(p, "at '/"); ok {
			if name, tail, ok := strings.Cut(rest, "': "); ok && name != "" {
				p = "parameter " + strings.ReplaceAll(name, "/", ".") + ": " + tail
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}
