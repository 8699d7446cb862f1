package toolspec

import (
	"bytes"
	"encoding/json"
)

// MaxAgentNesting is how deep agents may list agents (docs/language.md §2.7,
// "Agents as tools"): an agent that lists none is one level, one that
// lists such an agent two, and so on. It is written once, here, below
// both its readers: the checker reports a deeper declaration
// (agent-nesting) and the runtime refuses to bind or run one, so a
// generated agent or one built by hand is held to the same limit.
const MaxAgentNesting = 5

// DefaultOutputRetries is how often a typed agent's answer that is not a
// value of its output type is sent back when the agent does not say
// (outputRetries, docs/language.md §2.6).
const DefaultOutputRetries = 1

// OutputMode is how a typed agent's model is held to its output type
// (docs/language.md §2.6, an agent's outputMode). Package provider's
// table says which modes each provider offers.
type OutputMode string

// The output modes.
const (
	// OutputAuto takes the best mode the provider and model support
	// together with the agent's tools.
	OutputAuto OutputMode = "auto"
	// OutputNative uses the provider's structured-output request field.
	OutputNative OutputMode = "native"
	// OutputTool gives the model a final-answer tool whose parameters are
	// the output type; the run ends when it is called.
	OutputTool OutputMode = "tool"
	// OutputPrompted puts the schema in the instructions and decodes the
	// answer leniently.
	OutputPrompted OutputMode = "prompted"
)

// Signature is a typed agent's signature as data (docs/language.md §2.6):
// what it takes and what it answers with. codegen/schema makes it from a
// .gram agent, once; the runtime's .gram loader (gramfile) and generated
// Go code carry it; the runtime runs it (runtime.Signature). An agent
// without one takes a message and answers text, as
// (input::String)==>(::String).
type Signature struct {
	// Input is the JSON Schema of the agent's arguments object (the
	// standard form, defaults as data); nil for one String parameter
	// without constraints.
	Input json.RawMessage `json:"input,omitempty"`
	// Message names the one String parameter whose value is the user's
	// message; "" when the message is the arguments as one JSON object.
	Message string `json:"message,omitempty"`
	// Output is the JSON Schema of the output type (the standard form,
	// defaults as data); nil when the agent answers text.
	Output json.RawMessage `json:"output,omitempty"`
	// OutputStrict is Output in OpenAI's strict subset (the openai-strict
	// target's transform), sent where a provider is asked for strict
	// adherence; nil when the type cannot be said there.
	OutputStrict json.RawMessage `json:"outputStrict,omitempty"`
	// OutputName is the output type's name ("Triage"), the name of the
	// structured-output format.
	OutputName string `json:"outputName,omitempty"`
	// OutputMode is the agent's outputMode; "" is auto.
	OutputMode OutputMode `json:"outputMode,omitempty"`
	// OutputRetries is the agent's outputRetries; nil is
	// DefaultOutputRetries.
	OutputRetries *int `json:"outputRetries,omitempty"`
}

// Typed reports whether the agent's answer is a typed value (its output
// type is not String).
func (s *Signature) Typed() bool { return s != nil && len(bytes.TrimSpace(s.Output)) > 0 }

// Retries is the number of repair turns allowed.
func (s *Signature) Retries() int {
	if s == nil || s.OutputRetries == nil || *s.OutputRetries < 0 {
		return DefaultOutputRetries
	}
	return *s.OutputRetries
}
