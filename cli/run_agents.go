package cli

import (
	"strings"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Agents as tools in gramc run (LANGUAGE.md §2.5): the agents an agent
// lists run on their own providers, with their tools bound from the one
// library the run builds.

// libraryTools are the tools gramc run binds for agent: its own and
// those of every agent it lists (and theirs), each once, in listed
// order; a listed agent is no library tool, the runtime runs it.
func libraryTools(agent runtime.Agent) []runtime.ToolSpecification {
	var out []runtime.ToolSpecification
	seen := map[string]bool{}
	var walk func(a runtime.Agent, depth int)
	walk = func(a runtime.Agent, depth int) {
		listed := map[string]bool{}
		for _, c := range a.Agents {
			listed[c.Name] = true
		}
		for _, s := range a.Tools {
			if !listed[s.Name] && !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		}
		if depth < runtime.MaxAgentNesting {
			for _, c := range a.Agents {
				walk(c, depth+1)
			}
		}
	}
	walk(agent, 1)
	return out
}

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
	byModel := map[string]runtime.Model{}
	var walk func(a runtime.Agent, depth int) error
	walk = func(a runtime.Agent, depth int) error {
		for _, c := range a.Agents {
			if _, ok := byModel[c.Model]; !ok {
				co := opts
				co.model = ""
				if clients.Of(c.Model) != clients.Of(top) {
					co.baseURL, co.responses, co.legacy = "", false, false
				}
				m, err := runModel(e, c, co, extra...)
				if err != nil {
					return err
				}
				byModel[c.Model] = m
			}
			if depth < runtime.MaxAgentNesting {
				if err := walk(c, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(agent, 1); err != nil {
		return nil, err
	}
	return runtime.WithModels(func(a runtime.Agent) (runtime.Model, error) {
		m, ok := byModel[a.Model]
		if !ok {
			return nil, &runtime.ConfigurationError{Setting: "model", Message: "no client for agent " + a.Name + "'s model " + a.Model}
		}
		return m, nil
	}), nil
}
