package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/load"
)

// LoadAgent reads the .gram file or package directory at path through the
// same front end as gramc (package load) and returns the agent called name
// with its tool specifications. An empty name selects the only agent.
// Problems in the sources are a *ConfigurationError wrapping the
// diagnostics (a diag.ErrorList).
func LoadAgent(path, name string) (Agent, error) {
	return LoadAgentFiles([]string{path}, name)
}

// LoadAgentFiles is LoadAgent for several paths (package load patterns).
func LoadAgentFiles(paths []string, name string) (Agent, error) {
	pkgs, diags, err := load.Packages(paths, nil)
	if err != nil {
		return Agent{}, &ConfigurationError{Setting: "agent", Message: "cannot load " + strings.Join(paths, " "), Err: err}
	}
	if diags.HasErrors() {
		diags.Sort()
		return Agent{}, &ConfigurationError{Setting: "agent", Message: "the gram files have errors", Err: diag.ErrorList(diags.Errors())}
	}
	a, err := FindAgent(pkgs, name)
	if err != nil {
		return Agent{}, err
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
		return nil, &ConfigurationError{Setting: "agent", Message: "no agent is declared in the gram files"}
	case name == "" && len(all) == 1:
		return all[0], nil
	case name == "":
		return nil, &ConfigurationError{Setting: "agent", Message: "several agents are declared (" + strings.Join(names, ", ") + "): name one"}
	}
	msg := fmt.Sprintf("no agent named %q", name)
	if s := diag.Suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += "; the agents are " + strings.Join(names, ", ")
	}
	return nil, &ConfigurationError{Setting: "agent", Message: msg}
}

// AgentFromCheck converts a checked agent, with its tools' specifications
// from SpecFromTool.
func AgentFromCheck(a *check.Agent) (Agent, error) {
	out := Agent{
		Name:          a.Name,
		Description:   a.Description,
		Model:         a.Model,
		Instruction:   a.Instruction,
		Temperature:   a.Temperature,
		MaxIterations: a.MaxIterations,
		ToolChoice:    a.ToolChoice,
	}
	for _, t := range a.Tools {
		spec, err := SpecFromTool(t)
		if err != nil {
			return Agent{}, &ConfigurationError{Setting: "agent", Message: "agent " + a.Name, Err: err}
		}
		out.Tools = append(out.Tools, spec)
	}
	return out, nil
}

// SpecFromTool returns a checked tool's specification. Its schemas are
// schema.Parameters and schema.Output, byte-identical to what `gramc
// schema` prints and to what generated Go code embeds.
func SpecFromTool(t *check.Tool) (ToolSpecification, error) {
	params, err := schema.Parameters(t)
	if err != nil {
		return ToolSpecification{}, err
	}
	out, err := schema.Output(t)
	if err != nil {
		return ToolSpecification{}, err
	}
	return ToolSpecification{
		Name:         t.Name,
		Description:  t.Description,
		Signature:    t.Signature,
		Schema:       params,
		OutputSchema: out,
		Strict:       t.Strict != nil && *t.Strict,
	}, nil
}
