package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

// AgentTool is an agent listed by another as one of its tools
// (LANGUAGE.md §2.5, "Agents as tools"): spec is the tool the listing
// agent's model sees (named and described as the listed agent, its
// parameters the listed agent's input), and a call runs listed with model
// and lib in a fresh conversation. Its typed result (as JSON) or its
// answer's text is the tool's result; its error is the tool's error, which
// the listing agent's model is told.
func AgentTool(spec ToolSpecification, listed Agent, model Model, lib *ToolLibrary, opts ...Option) Tool {
	return Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		message, err := agentToolMessage(listed, args)
		if err != nil {
			return nil, err
		}
		resp, err := Run(ctx, model, listed, lib, message, nil, opts...)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", listed.Name, err)
		}
		if resp.Value != nil {
			return resp.Value, nil
		}
		return resp.Content, nil
	}}
}

// agentToolMessage is the message a call of a listed agent sends: its one
// String argument (the implicit signature's is named input), or the
// arguments as one JSON object.
func agentToolMessage(listed Agent, args json.RawMessage) (string, error) {
	name := "input"
	if sig := listed.Signature; sig != nil {
		if sig.Message == "" {
			return string(args), nil
		}
		name = sig.Message
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return "", fmt.Errorf("agent %s: the arguments are not an object: %w", listed.Name, err)
	}
	s, ok := m[name].(string)
	if !ok {
		return "", fmt.Errorf("agent %s: argument %s is not a string", listed.Name, name)
	}
	return s, nil
}
