// Package clients makes the provider client a model names: package
// provider's table says which client speaks to a provider, and this
// package holds each client's constructor, so gramc run, gramc test, the
// Temporal worker and a user's program choose a client one way.
//
//	model, err := clients.New("Anthropic/claude-sonnet-4-5", clientopt.WithTimeout(time.Minute))
package clients

import (
	"errors"
	"fmt"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// constructors is each client's NewFor: the row says everything else.
var constructors = map[provider.Client]func(p provider.Info, opts ...clientopt.Option) (runtime.Model, error){
	provider.OpenAI: func(p provider.Info, opts ...clientopt.Option) (runtime.Model, error) {
		return openai.NewFor(p, opts...)
	},
	provider.Anthropic: func(p provider.Info, opts ...clientopt.Option) (runtime.Model, error) {
		return anthropic.NewFor(p, opts...)
	},
	provider.Gemini: func(p provider.Info, opts ...clientopt.Option) (runtime.Model, error) {
		return gemini.NewFor(p, opts...)
	},
}

// Row is the provider table's row for a model (`Provider/model-name`,
// any case, aliases included; no prefix is OpenAI). A provider the table
// does not know is served by an OpenAI-compatible API whose base URL must
// be given (an option, or OPENAI_BASE_URL) and whose key is read from
// OPENAI_API_KEY: OpenAI's row without its address, under the prefix's
// name.
func Row(model string) provider.Info {
	if p, ok := provider.Of(model); ok {
		return p
	}
	p, _ := provider.Lookup("OpenAI")
	p.Name, _ = runtime.SplitModel(model)
	p.Aliases, p.BaseURL, p.Output = nil, "", nil
	p.Telemetry = runtime.ProviderName(model)
	return p
}

// Of is the client that speaks to the provider a model names.
func Of(model string) provider.Client { return Row(model).Client }

// New makes the client for model's provider, configured from its row's
// environment variables and then opts. A client's own option given for
// another client's provider is an error.
func New(model string, opts ...clientopt.Option) (runtime.Model, error) {
	p := Row(model)
	m, err := constructors[p.Client](p, opts...)
	var ce *runtime.ConfigurationError
	if errors.As(err, &ce) && ce.Setting == "base URL" {
		ce.Message = fmt.Sprintf("model %q: %s", model, ce.Message)
	}
	return m, err
}
