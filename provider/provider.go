// Package provider is the one table of the model providers gramc knows:
// the name an agent's model is written with ("OpenAI/gpt-4o-mini"), its
// aliases, the environment variables of its key and base URL, its default
// address, which client speaks to it, and its name in telemetry. The
// checker's known providers, gramc run's client choice, the editor's
// completion and the docs all read it (issue 21.3), so they cannot
// disagree. It imports nothing of gramc: every layer may read it.
//
// Adding a provider: a client package (or the OpenAI-compatible one), a row
// here, a constructor in runtime/clients (TestEveryProviderHasAClient holds the two
// together), a fake in runtimetest, and docs/runtime.md's table
// (TestDocsListEveryProvider).
package provider

import (
	"os"
	"strings"
)

// Client names the client package that speaks a provider's API.
type Client string

// The clients.
const (
	OpenAI    Client = "openai"    // runtime/openai: Chat Completions, Responses, and compatible servers
	Anthropic Client = "anthropic" // runtime/anthropic: Messages
	Gemini    Client = "gemini"    // runtime/gemini: generateContent
)

// Info is one provider.
type Info struct {
	// Name is how a model names it: "OpenAI" in "OpenAI/gpt-4o-mini".
	Name string
	// Aliases are other names accepted for it (any case).
	Aliases []string
	// KeyEnv are the environment variables of its API key, the first
	// that is set winning; none for a provider that needs no key.
	KeyEnv []string
	// BaseURLEnv is the variable of its base URL ("" for none), and
	// BaseURL its default address.
	BaseURLEnv, BaseURL string
	// Client speaks its API.
	Client Client
	// Telemetry is its gen_ai.provider.name.
	Telemetry string
}

// Table lists the providers, in the order the docs show them.
var Table = []Info{
	{Name: "OpenAI", KeyEnv: []string{"OPENAI_API_KEY"}, BaseURLEnv: "OPENAI_BASE_URL", BaseURL: "https://api.openai.com/v1", Client: OpenAI, Telemetry: "openai"},
	{Name: "Anthropic", KeyEnv: []string{"ANTHROPIC_API_KEY"}, BaseURLEnv: "ANTHROPIC_BASE_URL", BaseURL: "https://api.anthropic.com", Client: Anthropic, Telemetry: "anthropic"},
	{Name: "Gemini", Aliases: []string{"Google"}, KeyEnv: []string{"GOOGLE_API_KEY", "GEMINI_API_KEY"}, BaseURLEnv: "GEMINI_BASE_URL", BaseURL: "https://generativelanguage.googleapis.com/v1beta", Client: Gemini, Telemetry: "gcp.gemini"},
	{Name: "Ollama", BaseURL: "http://localhost:11434/v1", Client: OpenAI, Telemetry: "ollama"},
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

// Of returns the provider of a model written "Provider/model-name", and
// whether its prefix names one; a model without a prefix is OpenAI's.
func Of(model string) (Info, bool) {
	prefix, _, found := strings.Cut(model, "/")
	if !found {
		return Table[0], true
	}
	return Lookup(prefix)
}
