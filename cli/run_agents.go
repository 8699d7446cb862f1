package cli

import (
	"strings"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Agents as tools in gramc run (LANGUAGE.md §2.5): the agents an agent
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
	return clientPerModel(runtime.ListedAgents(agent), func(c runtime.Agent) (runtime.Model, error) {
		co := opts
		co.model = ""
		if clients.Of(c.Model) != clients.Of(top) {
			co.baseURL, co.responses, co.legacy = "", false, false
		}
		return runModel(e, c, co, extra...)
	})
}

// clientPerModel is the run option that gives each agent the client of
// its model: newModel makes one per model among agents, before anything
// is sent; an agent on another model is a configuration error. gramc
// run's listed agents and gramc mcp's served agents get theirs here
// (agenttest's listedModels does the same for a test's cassette).
func clientPerModel(agents []runtime.Agent, newModel func(runtime.Agent) (runtime.Model, error)) (runtime.Option, error) {
	byModel := map[string]runtime.Model{}
	for _, a := range agents {
		if _, ok := byModel[a.Model]; ok {
			continue
		}
		m, err := newModel(a)
		if err != nil {
			return nil, err
		}
		byModel[a.Model] = m
	}
	return runtime.WithModels(func(a runtime.Agent) (runtime.Model, error) {
		m, ok := byModel[a.Model]
		if !ok {
			return nil, &runtime.ConfigurationError{Setting: "model", Message: "no client for agent " + a.Name + "'s model " + a.Model}
		}
		return m, nil
	}), nil
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
