// Package provider is the one table of the model providers gramc knows:
// the name an agent's model is written with ("OpenAI/gpt-4o-mini"), its
// aliases, the environment variables of its key and base URL, its default
// address, which client speaks to it, and its name in telemetry. The
// checker's known providers, gramc run's client choice, the editor's
// completion and the docs all read it (issue 21.3), so they cannot
// disagree. It imports nothing of gramc but toolspec (the agent signature
// whose output modes its rows list): every layer may read it.
//
// Adding a provider: a client package (or the OpenAI-compatible one), a row
// here, a constructor in runtime/clients (TestEveryProviderHasAClient holds the two
// together), a fake in runtimetest, docs/runtime.md's two tables
// (TestDocsListEveryProvider, TestDocsShowOutputSupport) and docs/language.md's
// list (TestProseListsEveryProvider); docs/changing.md counts it. gramc run
// --help's list is built from the table.
package provider

import (
	"os"
	"path"
	"strings"

	"github.com/gramc-dev/gramc/toolspec"
)

// Client names the client package that speaks a provider's API.
type Client string

// The clients.
const (
	OpenAI    Client = "openai"    // runtime/openai: Chat Completions, Responses, and compatible servers
	Anthropic Client = "anthropic" // runtime/anthropic: Messages
	Gemini    Client = "gemini"    // runtime/gemini: generateContent
)

// API names the API a client speaks, as its docs write it ("OpenAI" in
// "an OpenAI-compatible API").
func (c Client) API() string {
	switch c {
	case OpenAI:
		return "OpenAI"
	case Anthropic:
		return "Anthropic"
	case Gemini:
		return "Gemini"
	}
	return string(c)
}

// Info is one provider.
type Info struct {
	// Name is how a model names it: "OpenAI" in "OpenAI/gpt-4o-mini".
	Name string
	// Aliases are other names accepted for it (any case).
	Aliases []string
	// KeyEnv are the environment variables of its API key, the first
	// that is set winning; none for a provider that needs no key.
	KeyEnv []string
	// KeyHeader is the HTTP header that carries the key: "Authorization"
	// sends "Bearer <key>", any other the key itself. "" is
	// DefaultKeyHeader (KeyHeaderName), as OpenAI-compatible servers take
	// it.
	KeyHeader string
	// BaseURLEnv is the variable of its base URL ("" for none), and
	// BaseURL its default address ("" for none: a base URL must be
	// given). A request to BaseURL's host needs a key.
	BaseURLEnv, BaseURL string
	// Client speaks its API. Required (TestEveryRowIsComplete).
	Client Client
	// Telemetry is its gen_ai.provider.name. Required
	// (TestEveryRowIsComplete).
	Telemetry string
	// Output is how its API holds an answer to a JSON Schema, per family
	// of models: the first entry whose pattern matches a model wins
	// (docs/language.md §2.6, outputMode: one table of the providers' capabilities).
	Output []OutputSupport
}

// DefaultKeyHeader is the header of a row that names none: a bearer
// token, as OpenAI's API and the servers compatible with it take the key.
const DefaultKeyHeader = "Authorization"

// KeyHeaderName is the header that carries the row's key: its KeyHeader,
// or DefaultKeyHeader when it names none.
func (p Info) KeyHeaderName() string {
	if p.KeyHeader == "" {
		return DefaultKeyHeader
	}
	return p.KeyHeader
}

// OutputMode is how a typed agent's model is held to its output type
// (docs/language.md §2.6, an agent's outputMode): toolspec's, where the
// agent's signature is.
type OutputMode = toolspec.OutputMode

// The output modes (toolspec's).
const (
	OutputAuto     = toolspec.OutputAuto
	OutputNative   = toolspec.OutputNative
	OutputTool     = toolspec.OutputTool
	OutputPrompted = toolspec.OutputPrompted
)

// AllOutputModes are the modes an agent's outputMode may name, auto first.
var AllOutputModes = []OutputMode{OutputAuto, OutputNative, OutputTool, OutputPrompted}

// OutputSupport is what a provider's API offers a family of its models
// for structured output. Every client speaks function calling, so tool
// mode is always there, and prompted mode needs nothing of the API.
type OutputSupport struct {
	// Models are path.Match patterns of the model names covered
	// ("gemini-2.*"); none covers every model.
	Models []string
	// Native: the API's structured-output request field is honoured.
	Native bool
	// NativeWithTools: it is honoured beside function tools too.
	NativeWithTools bool
	// Why says, for a diagnostic, why a mode is missing ("" when nothing
	// is): a sentence naming the documented limit.
	Why string
}

// matches reports whether the entry covers the model name.
func (o OutputSupport) matches(model string) bool {
	if len(o.Models) == 0 {
		return true
	}
	for _, pattern := range o.Models {
		if ok, _ := path.Match(pattern, model); ok {
			return true
		}
	}
	return false
}

// OutputSupportFor is the entry of the row's Output that covers model:
// its name after the provider prefix ("gemini-2.5-flash"; a prefix naming
// this provider, "Gemini/gemini-2.5-flash", is cut). A row without an
// entry for the model supports no native structured output.
func (p Info) OutputSupportFor(model string) OutputSupport {
	if prefix, name, found := strings.Cut(model, "/"); found {
		if q, ok := Lookup(prefix); ok && q.Name == p.Name {
			model = name
		}
	}
	for _, o := range p.Output {
		if o.matches(model) {
			return o
		}
	}
	return OutputSupport{Why: p.Name + " documents no structured-output field for " + model}
}

// OutputModes are the modes the provider honours for model, with or
// without the agent's function tools, best first: native when the API
// holds the answer to the schema, then tool, then prompted. Never empty,
// never OutputAuto.
func (p Info) OutputModes(model string, withTools bool) []OutputMode {
	o := p.OutputSupportFor(model)
	var modes []OutputMode
	if o.Native && (!withTools || o.NativeWithTools) {
		modes = append(modes, OutputNative)
	}
	return append(modes, OutputTool, OutputPrompted)
}

// AutoOutputMode is the mode auto stands for: the best of OutputModes.
func (p Info) AutoOutputMode(model string, withTools bool) OutputMode {
	return p.OutputModes(model, withTools)[0]
}

// Honours reports whether the provider honours mode for model (auto is
// always honoured: it resolves to a mode that is).
func (p Info) Honours(mode OutputMode, model string, withTools bool) bool {
	if mode == OutputAuto {
		return true
	}
	for _, m := range p.OutputModes(model, withTools) {
		if m == mode {
			return true
		}
	}
	return false
}

// Table lists the providers, in the order the docs show them.
var Table = []Info{
	{Name: "OpenAI", KeyEnv: []string{"OPENAI_API_KEY"}, BaseURLEnv: "OPENAI_BASE_URL", BaseURL: "https://api.openai.com/v1", KeyHeader: "Authorization", Client: OpenAI, Telemetry: "openai",
		// Structured Outputs (response_format / text.format json_schema,
		// strict) came with gpt-4o-2024-08-06; it works beside tools.
		Output: []OutputSupport{
			{Models: []string{"gpt-3.5*", "gpt-4", "gpt-4-*", "gpt-4o-2024-05-13"}, Why: "OpenAI's Structured Outputs (response_format json_schema) need gpt-4o-2024-08-06 or a later model"},
			{Native: true, NativeWithTools: true},
		}},
	{Name: "Anthropic", KeyEnv: []string{"ANTHROPIC_API_KEY"}, BaseURLEnv: "ANTHROPIC_BASE_URL", BaseURL: "https://api.anthropic.com", KeyHeader: "X-Api-Key", Client: Anthropic, Telemetry: "anthropic",
		// output_config.format json_schema, usable with tools; Claude 3.x
		// and the first Claude 4 models predate it.
		Output: []OutputSupport{
			{Models: []string{"claude-2*", "claude-instant*", "claude-3*", "claude-sonnet-4-0", "claude-sonnet-4-2025*", "claude-opus-4-0", "claude-opus-4-2025*"}, Why: "Anthropic's structured outputs (output_config.format) need Claude Sonnet 4.5, Opus 4.1, Haiku 4.5 or a later model"},
			{Native: true, NativeWithTools: true},
		}},
	{Name: "Gemini", Aliases: []string{"Google"}, KeyEnv: []string{"GOOGLE_API_KEY", "GEMINI_API_KEY"}, BaseURLEnv: "GEMINI_BASE_URL", BaseURL: "https://generativelanguage.googleapis.com/v1beta", KeyHeader: "X-Goog-Api-Key", Client: Gemini, Telemetry: "gcp.gemini",
		// responseMimeType application/json with responseJsonSchema:
		// Gemini 2.5 and later; beside function declarations only from
		// Gemini 3 (2.x answers 400 to the combination).
		Output: []OutputSupport{
			{Models: []string{"gemini-1.*", "gemini-2.0*"}, Why: "Gemini's responseJsonSchema needs Gemini 2.5 or a later model"},
			{Models: []string{"gemini-2.*"}, Native: true, Why: "Gemini 2.x models answer 400 to responseJsonSchema beside function declarations; Gemini 3 models accept it"},
			{Native: true, NativeWithTools: true},
		}},
	{Name: "Ollama", BaseURL: "http://localhost:11434/v1", KeyHeader: "Authorization", Client: OpenAI, Telemetry: "ollama",
		// response_format json_schema constrains decoding (Ollama 0.5+),
		// but with it a model emits no tool calls.
		Output: []OutputSupport{
			{Native: true, Why: "Ollama's response_format json_schema constrains the whole answer, so a model given it calls no tools"},
		}},
}

// Lookup finds the provider a model's prefix names (any case, aliases
// included).
func Lookup(name string) (Info, bool) {
	for _, p := range Table {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
		for _, a := range p.Aliases {
			if strings.EqualFold(a, name) {
				return p, true
			}
		}
	}
	return Info{}, false
}

// Names are the providers' names, aliases after them: what a model's
// prefix may be.
func Names() []string {
	var out []string
	for _, p := range Table {
		out = append(out, p.Name)
	}
	for _, p := range Table {
		out = append(out, p.Aliases...)
	}
	return out
}

// Known names the providers for a message, aliases with their provider:
// "OpenAI, Anthropic, Gemini (alias Google), Ollama".
func Known() string {
	var parts []string
	for _, p := range Table {
		s := p.Name
		if len(p.Aliases) > 0 {
			s += " (alias " + strings.Join(p.Aliases, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// KeyVariables are every provider's key variables, in table order: what a
// tool command never gets and what gramc never prints or records.
func KeyVariables() []string {
	var out []string
	for _, p := range Table {
		out = append(out, p.KeyEnv...)
	}
	return out
}

// KeyValues are the values of the key variables set in the environment:
// the secrets gramc redacts from what it prints and never records.
func KeyValues() []string {
	var out []string
	for _, v := range KeyVariables() {
		if key := os.Getenv(v); key != "" {
			out = append(out, key)
		}
	}
	return out
}

// KeySetting is the key variable a missing key is reported under: the
// last of KeyEnv (the one the provider's docs name), "" for none.
func (p Info) KeySetting() string {
	if len(p.KeyEnv) == 0 {
		return ""
	}
	return p.KeyEnv[len(p.KeyEnv)-1]
}

// MissingKey says that the key is not set and how to set it:
// "GEMINI_API_KEY is not set: export GEMINI_API_KEY=<your Gemini API key>
// (or GOOGLE_API_KEY)".
func (p Info) MissingKey() string {
	if len(p.KeyEnv) == 0 {
		return p.Name + " needs no key"
	}
	v := p.KeySetting()
	msg := v + " is not set: export " + v + "=<your " + p.Name + " API key>"
	if others := p.KeyEnv[:len(p.KeyEnv)-1]; len(others) > 0 {
		msg += " (or " + strings.Join(others, ", ") + ")"
	}
	return msg
}

// Of returns the provider of a model written "Provider/model-name", and
// whether its prefix names one; a model without a prefix is OpenAI's.
func Of(model string) (Info, bool) {
	prefix, _, found := strings.Cut(model, "/")
	if !found {
		return Table[0], true
	}
	return Lookup(prefix)
}
