package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

// AgentTool is an agent listed by another as one of its tools, for a
// caller that builds its library by hand (docs/language.md §2.7, "Agents as
// tools"): spec is the tool the listing agent's model sees, and a call
// runs listed, bound from lib, on model — exactly as Bind runs a listed
// agent (ServeAgent, agenttool.go): a fresh conversation, its typed
// result (as JSON) or its answer's text the tool's result, its error the
// tool's error. A listing agent whose Agents hold listed needs no
// AgentTool: Bind runs it itself.
func AgentTool(spec ToolSpecification, listed Agent, model Model, lib *ToolLibrary, opts ...Option) Tool {
	return Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		b, err := Bind(listed, lib)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", listed.Name, err)
		}
		o := append(opts[:len(opts):len(opts)], WithModels(func(Agent) (Model, error) { return model, nil }))
		return ServeAgent(b, o...)(ctx, args)
	}}
}
