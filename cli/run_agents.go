package cli

import (
	"strings"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Agents as tools in gramc run (docs/language.md §2.7): the agents an agent
// lists run on their own providers, with their tools bound from the one
// library the run builds (runtime.LibraryTools).

// listedModels makes, before anything is sent, a client for each model
// the agents agent lists (and theirs) run on, with the run's client
// options (timeouts, retries, --debug, --no-stream, a cassette) — so a
// missing key is a usage error up front, and a cassette records every
// exchange of the nested runs in order. --model is the top agent's
// alone; --base-url, --responses and --functions apply to a listed agent
// on the same client as the top agent's model.
func listedModels(e *env, agent runtime.Agent, opts runOptions, extra ...clientopt.Option) (runtime.Option, error) {
	top := agent.Model
	if strings.Contains(opts.model, "/") {
		top = opts.model
	}
	return runtime.WithModelPerAgent(runtime.Subagents(agent), func(c runtime.Agent) (runtime.Model, error) {
		co := opts
		co.model = ""
		if clients.Of(c.Model) != clients.Of(top) {
			co.baseURL, co.responses, co.legacy = "", false, false
		}
		return runModel(e, c, co, extra...)
	})
}

// nestedTrace is the start of a trace line for a listed agent's tool
// call or result: indented by its depth, its agents named ("" for the
// run's own), so the nesting shows on standard error:
//
//	→ triage {"ticket":"ACME"}
//	  triage: → lookupCustomer {"id":"acme"}
//	  triage: ← lookupCustomer {"plan":"gold"}
//	← triage {"priority":"urgent",...}
func nestedTrace(path []string) string {
	if len(path) == 0 {
		return ""
	}
	names := make([]string, len(path))
	for i, n := range path {
		names[i] = termsafe.Line(n, 100)
	}
	return strings.Repeat("  ", len(path)) + strings.Join(names, " › ") + ": "
}
