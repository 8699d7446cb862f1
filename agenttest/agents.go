package agenttest

import (
	"fmt"
	"sync"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
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
// opts.ClientOptions (a base URL) only for a listed agent on the same
// client as agent's; streaming unless opts.NoStream.
func listedModels(agent runtime.Agent, copts []clientopt.Option, opts Options) (runtime.Option, error) {
	return runtime.WithModelPerAgent(runtime.Subagents(agent), func(c runtime.Agent) (runtime.Model, error) {
		o := copts[:len(copts):len(copts)]
		if clients.Of(c.Model) == clients.Of(agent.Model) {
			o = append(o, opts.ClientOptions...)
		}
		return newModel(c.Model, opts, o...)
	})
}

// Cache keeps what every run of a test builds alike, for the many runs
// of an eval: each agent as the runtime takes it (gramfile.AgentFromCheck
// builds its schemas) and, for live runs, each model's client. Every run
// that shares a Cache must have the same ClientOptions and NoStream.
// Safe for concurrent use; a nil *Cache builds every time.
type Cache struct {
	mu     sync.Mutex
	agents map[*check.Agent]builtAgent
	models map[string]builtModel
}

type builtAgent struct {
	agent runtime.Agent
	err   error
}

type builtModel struct {
	model runtime.Model
	err   error
}

// agent is a's runtime agent; the caller may change the copy it gets,
// not what its slices hold.
func (c *Cache) agent(a *check.Agent) (runtime.Agent, error) {
	if c == nil {
		return gramfile.AgentFromCheck(a)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.agents[a]
	if !ok {
		b.agent, b.err = gramfile.AgentFromCheck(a)
		if c.agents == nil {
			c.agents = map[*check.Agent]builtAgent{}
		}
		c.agents[a] = b
	}
	return b.agent, b.err
}

// liveModel is model's client for a live run, made once: with o's client
// options when withOptions (the tested agent's, and a listed agent's on
// the same client, as listedModels gives them).
func (c *Cache) liveModel(model string, o Options, withOptions bool) (runtime.Model, error) {
	var copts []clientopt.Option
	if withOptions {
		copts = o.ClientOptions
	}
	if c == nil {
		return newModel(model, o, copts...)
	}
	key := fmt.Sprintf("%t %s", withOptions, model)
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.models[key]
	if !ok {
		b.model, b.err = newModel(model, o, copts...)
		if c.models == nil {
			c.models = map[string]builtModel{}
		}
		c.models[key] = b
	}
	return b.model, b.err
}
