// Package gramfile loads agents from .gram files at run time, through
// gramc's own front end (package load, check) and schema emitter: what a
// program needs when it reads agent declarations instead of compiling
// them into Go with gramc gen. It lives beside the runtime core, not in
// it, so that a program built from generated code links the runtime
// alone, never the compiler.
package gramfile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
)

// LoadAgent reads the .gram file or package directory at path through the
// same front end as gramc (package load) and returns the agent called name
// with its tool specifications. An empty name selects the only agent.
// Problems in the sources are a *ConfigurationError wrapping the
// diagnostics (a diag.ErrorList).
func LoadAgent(path, name string) (runtime.Agent, error) {
	pkgs, diags, err := load.Packages([]string{path}, nil)
	if err != nil {
		return runtime.Agent{}, &runtime.ConfigurationError{Setting: "agent", Message: "cannot load " + path, Err: err}
	}
	if diags.HasErrors() {
		diags.Sort()
		return runtime.Agent{}, &runtime.ConfigurationError{Setting: "agent", Message: "the gram files have errors", Err: diag.ErrorList(diags.Errors())}
	}
	a, err := FindAgent(pkgs, name)
	if err != nil {
		return runtime.Agent{}, err
	}
	return AgentFromCheck(a)
}

// FindAgent picks the agent called name from checked packages; an empty
// name picks the only one. Not finding it is a *ConfigurationError with a
// "did you mean" or the list of agents.
func FindAgent(pkgs []*check.Package, name string) (*check.Agent, error) {
	var all []*check.Agent
	var names []string
	for _, p := range pkgs {
		for _, a := range p.Agents {
			if a.Name == name {
				return a, nil
			}
			all = append(all, a)
			names = append(names, a.Name)
		}
	}
	sort.Strings(names)
	switch {
	case len(all) == 0:
		return nil, &runtime.ConfigurationError{Setting: "agent", Message: "no agent is declared in the gram files"}
	case name == "" && len(all) == 1:
		return all[0], nil
	case name == "":
		return nil, &runtime.ConfigurationError{Setting: "agent", Message: "several agents are declared (" + strings.Join(names, ", ") + "): name one"}
	}
	msg := fmt.Sprintf("no agent named %s", suggest.Show(name)) + suggest.Hint(name, names, "agents")
	return nil, &runtime.ConfigurationError{Setting: "agent", Message: msg}
}

// AgentFromCheck converts a checked agent, with its tools' specifications
// from schema.Spec for the OpenAI target, whose schemas are byte-identical
// to what `gramc schema` prints and to what generated Go code embeds.
func AgentFromCheck(a *check.Agent) (runtime.Agent, error) {
	out := runtime.Agent{
		Name:          a.Name,
		Description:   a.Description,
		Model:         a.Model,
		Instruction:   a.Instruction,
		Temperature:   a.Temperature,
		MaxIterations: a.MaxIterations,
		MaxTokens:     a.MaxTokens,
		ToolChoice:    a.ToolChoice,
	}
	for _, t := range a.Tools {
		spec, err := schema.Spec(t, schema.OpenAI)
		if err != nil {
			return runtime.Agent{}, &runtime.ConfigurationError{Setting: "agent", Message: "agent " + a.Name, Err: err}
		}
		out.Tools = append(out.Tools, spec)
	}
	// A listed agent is a tool of this one (its signature as a tool), and
	// the agent itself, to run when the tool is called.
	for _, listed := range a.Agents {
		spec, err := schema.Spec(listed.AsTool(), schema.OpenAI)
		if err != nil {
			return runtime.Agent{}, &runtime.ConfigurationError{Setting: "agent", Message: "agent " + a.Name + ": listed agent " + listed.Name, Err: err}
		}
		ra, err := AgentFromCheck(listed)
		if err != nil {
			return runtime.Agent{}, err
		}
		out.Tools = append(out.Tools, spec)
		out.Agents = append(out.Agents, ra)
	}
	if a.HasSignature {
		sig, err := schema.Signature(a)
		if err != nil {
			return runtime.Agent{}, &runtime.ConfigurationError{Setting: "agent", Message: "agent " + a.Name + ": its signature", Err: err}
		}
		out.Signature = sig
	}
	return out, nil
}
