package agenttest

import (
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Agents as tools in a :Test (docs/language.md §2.5): a listed agent is
// mocked like a tool, (::Call {tool: "triage", returns: {...}}), in a
// test whose results are mocked; otherwise it runs, on its own model,
// through the test's cassette.

// mockListed is agent as test t runs it: with mocked results its listed
// agents are tools like the others (their specifications stay among its
// tools, and the mocks answer them); otherwise agent itself.
func mockListed(agent runtime.Agent, t *check.Test) runtime.Agent {
	if t.Results == check.MockResults {
		agent.Agents = nil
	}
	return agent
}

// listedModels is the run option that gives each listed agent its
// model's client, made with copts (the cassette's HTTP client among
// them), so the nested exchanges are recorded and replayed in order;
// extra (Options.ClientOptions: a base URL) only for a listed agent on
// the same client as agent's.
func listedModels(agent runtime.Agent, copts, extra []clientopt.Option) (runtime.Option, error) {
	return runtime.WithModelPerAgent(runtime.ListedAgents(agent), func(c runtime.Agent) (runtime.Model, error) {
		o := copts[:len(copts):len(copts)]
		if clients.Of(c.Model) == clients.Of(agent.Model) {
			o = append(o, extra...)
		}
		return clients.New(c.Model, o...)
	})
}
