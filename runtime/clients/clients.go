// Package clients makes the provider client a model names: package
// provider's table says which client speaks to a provider, and this
// package holds each client's constructor, so gramc run, gramc test, the
// Temporal worker and a user's program choose a client one way.
//
//	model, err := clients.New("Anthropic/claude-sonnet-4-5", clientopt.WithTimeout(time.Minute))
package clients

import (
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// constructors is each client's New. The OpenAI client is given the
// whole model, so that a provider it serves through a compatible API
// (Ollama, or one the table does not know) finds its base URL.
var constructors = map[provider.Client]func(model string, opts ...clientopt.Option) (runtime.Model, error){
	provider.OpenAI: func(model string, opts ...clientopt.Option) (runtime.Model, error) {
		return openai.NewForModel(model, opts...)
	},
	provider.Anthropic: func(_ string, opts ...clientopt.Option) (runtime.Model, error) {
		return anthropic.New(opts...)
	},
	provider.Gemini: func(_ string, opts ...clientopt.Option) (runtime.Model, error) {
		return gemini.New(opts...)
	},
}

// Of is the client that speaks to the provider a model names
// (`Provider/model-name`, any case, aliases included); a model without a
// provider, or with one the table does not know, is served by an
// OpenAI-compatible API.
func Of(model string) provider.Client {
	if p, ok := provider.Of(model); ok {
		return p.Client
	}
	return provider.OpenAI
}

// New makes the client for model's provider, configured from its
// environment variables and then opts. A client's own option given for
// another client's provider is an error.
func New(model string, opts ...clientopt.Option) (runtime.Model, error) {
	return constructors[Of(model)](model, opts...)
}
