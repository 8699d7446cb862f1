package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// gramc mcp --agents (issue 34.4): beside the tools, every agent of the
// packages (or the one --agent names) is served as an MCP tool named and
// described as the agent, its input the inputSchema and its output the
// outputSchema (the mcp target's, as an agent listing it sees it).
// Calling it runs the agent — its own instruction, model and tools, the
// keys from the server's environment — and its typed result is the
// call's structuredContent and, as JSON, its text. Every limit of gramc
// mcp applies to the call: the message size, the --tool-timeout of a
// call (here the whole run of the agent, and each of its tool calls),
// the HTTP rules.

// defaultAgentRuns is how many agent runs gramc mcp --agents runs at once
// per server (--agent-concurrency), however many calls its clients send
// (a JSON-RPC batch of 500 calls is 500 runs, each making model
// requests): the rest wait their turn, each within its caller's context.
const defaultAgentRuns = 4

// mcpAgents returns the served agents' tool specifications, checking up
// front everything a call will need (each agent's tools bound, a client
// and key for each model, names that clash with the served tools), and
// the implementations to serve them with, made with the server's run
// options (its telemetry) once they are known.
func mcpAgents(e *env, opts mcpOptions, pkgs []*check.Package, commands map[string]string, runner *toolcmd.Runner, served map[string]bool) ([]runtime.ToolSpecification, func(...runtime.Option) []runtime.Tool, error) {
	none := func(...runtime.Option) []runtime.Tool { return nil }
	if !opts.agents {
		return nil, none, nil
	}
	agents, err := servedAgents(opts, pkgs)
	if err != nil {
		return nil, nil, usageErrorf("%v", err)
	}
	if len(agents) == 0 {
		return nil, nil, usageErrorf("--agents: no agent is declared in the gram files")
	}
	type servedAgent struct {
		bound  *runtime.BoundAgent
		models runtime.Option
	}
	var specs []runtime.ToolSpecification
	var all []servedAgent
	for _, ca := range agents {
		if served[ca.Name] {
			return nil, nil, usageErrorf("agent %s has the name of a tool served beside it: serve one package, or one agent with --agent", ca.Name)
		}
		served[ca.Name] = true
		spec, err := schema.Spec(ca.AsTool(), schema.MCP)
		if err != nil {
			return nil, nil, &exitError{code: ExitProblem, err: err}
		}
		agent, err := gramfile.AgentFromCheck(ca)
		if err != nil {
			return nil, nil, &exitError{code: ExitProblem, err: err}
		}
		lib := runtime.NewToolLibrary()
		var unbound []string
		for _, s := range runtime.LibraryTools(agent) {
			switch {
			case commands[s.Name] != "":
				lib.Replace(runtime.Tool{Spec: s, Func: runner.Tool(commands[s.Name])})
			case e.builtinTool(s.Name) != nil:
				lib.Replace(runtime.Tool{Spec: s, Func: e.builtinTool(s.Name)})
			default:
				unbound = append(unbound, s.Name)
			}
		}
		if len(unbound) > 0 {
			sort.Strings(unbound)
			return nil, nil, usageErrorf("agent %s: no implementation for tool %s: bind each with --tool NAME=COMMAND", ca.Name, strings.Join(unbound, ", "))
		}
		bound, err := runtime.Bind(agent, lib)
		if err != nil {
			return nil, nil, &exitError{code: ExitUsage, err: err}
		}
		models, err := mcpAgentModels(e, agent)
		if err != nil {
			return nil, nil, err
		}
		specs = append(specs, spec)
		all = append(all, servedAgent{bound, models})
	}
	turns := make(chan struct{}, opts.agentRuns) // one server's agent runs at once
	impls := func(runOpts ...runtime.Option) []runtime.Tool {
		out := make([]runtime.Tool, len(all))
		for i, a := range all {
			o := append(append([]runtime.Option{a.models}, opts.budget.options()...), runOpts...)
			out[i] = runtime.Tool{Spec: specs[i], Func: oneAtATurn(turns, runtime.ServeAgent(a.bound, o...))}
		}
		return out
	}
	return specs, impls, nil
}

// mcpAgentToolNames are the names of the tools the served agents run
// (their own and their listed agents'), which --tool may bind; none
// without --agents. An agent that cannot be found or converted adds
// none here: mcpAgents reports it.
func mcpAgentToolNames(opts mcpOptions, pkgs []*check.Package) []string {
	if !opts.agents {
		return nil
	}
	agents, _ := servedAgents(opts, pkgs)
	var names []string
	for _, ca := range agents {
		agent, err := gramfile.AgentFromCheck(ca)
		if err != nil {
			continue
		}
		for _, s := range runtime.LibraryTools(agent) {
			names = append(names, s.Name)
		}
	}
	return names
}

// servedAgents are the agents --agents serves: the --agent, else every
// agent of the packages.
func servedAgents(opts mcpOptions, pkgs []*check.Package) ([]*check.Agent, error) {
	if opts.agent != "" {
		a, err := gramfile.FindAgent(pkgs, opts.agent)
		if err != nil {
			return nil, err
		}
		return []*check.Agent{a}, nil
	}
	var agents []*check.Agent
	for _, p := range pkgs {
		agents = append(agents, p.Agents...)
	}
	return agents, nil
}

// mcpAgentModels makes the clients an agent served over MCP runs on (its
// own model's, and its listed agents'), with keys and addresses from the
// server's environment, whole answers (no one watches a stream) and gramc
// run's default timeouts and retries; a missing key is a usage error
// before the server starts.
func mcpAgentModels(e *env, agent runtime.Agent) (runtime.Option, error) {
	o := runOptions{noStream: true, requestTimeout: 60 * time.Second, streamTimeout: 10 * time.Minute, maxRetryWait: 60 * time.Second}
	return runtime.WithModelPerAgent(append([]runtime.Agent{agent}, runtime.Subagents(agent)...), func(a runtime.Agent) (runtime.Model, error) {
		return runModel(e, a, o)
	})
}

// oneAtATurn is f run only while it holds a place in turns: a call waits
// for one, or ends with its context's error.
func oneAtATurn(turns chan struct{}, f runtime.ToolFunc) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		select {
		case turns <- struct{}{}:
		case <-ctx.Done():
			return nil, fmt.Errorf("not run: %w while waiting for one of the server's %d agent runs (--agent-concurrency)", ctx.Err(), cap(turns))
		}
		defer func() { <-turns }()
		return f(ctx, args)
	}
}
