package agenttest

import (
	"sync"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// Agents as tools in a :Test (LANGUAGE.md §2.6): a listed agent is
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
// opts.ClientOptions (a base URL) only for a listed agent on the same
// client as agent's; streaming unless opts.NoStream.
func listedModels(agent runtime.Agent, copts []clientopt.Option, opts Options) (runtime.Option, error) {
	return runtime.WithModelPerAgent(runtime.ListedAgents(agent), func(c runtime.Agent) (runtime.Model, error) {
		o := copts[:len(copts):len(copts)]
		if clients.Of(c.Model) == clients.Of(agent.Model) {
			o = append(o, opts.ClientOptions...)
		}
		return newModel(c.Model, opts, o...)
	})
}

// Agents keeps agents as the runtime takes them (gramfile.AgentFromCheck
// builds their schemas), each built once: an eval runs a test many
// times. Safe for concurrent use; a nil *Agents builds every time.
type Agents struct {
	mu sync.Mutex
	m  map[*check.Agent]builtAgent
}

type builtAgent struct {
	agent runtime.Agent
	err   error
}

// of is a's runtime agent; the caller may change the copy it gets, not
// what its slices hold.
func (c *Agents) of(a *check.Agent) (runtime.Agent, error) {
	if c == nil {
		return gramfile.AgentFromCheck(a)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[a]
	if !ok {
		b.agent, b.err = gramfile.AgentFromCheck(a)
		if c.m == nil {
			c.m = map[*check.Agent]builtAgent{}
		}
		c.m[a] = b
	}
	return b.agent, b.err
}
