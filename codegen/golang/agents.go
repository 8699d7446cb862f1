package golang

import (
	"fmt"
	"sort"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
)

// Agents as tools (LANGUAGE.md §2.5) in generated Go: an agent that
// lists agents carries each as the tool its model sees (the listed
// agent's <Base>ToolSpec) and as a runtime.Agent (New<Base>()), so
// runtime.Bind runs the listed agent itself: no glue to write.

// listedModel is an agent another agent lists: the Go names of its
// function and of its tool specification.
type listedModel struct {
	FuncName, SpecName string
}

// listedBy reports, for each agent of the package, whether another
// agent lists it.
func listedBy(pkg *check.Package) map[*check.Agent]bool {
	out := map[*check.Agent]bool{}
	for _, a := range pkg.Agents {
		for _, b := range a.Agents {
			out[b] = true
		}
	}
	return out
}

// agentToolSpec is a listed agent's tool specification as its callers'
// models see it (check.Agent.AsTool through schema.Spec, as gramfile's).
func agentToolSpec(a *check.Agent) (*specModel, error) {
	spec, err := schema.Spec(a.AsTool(), schema.OpenAI)
	if err != nil {
		return nil, fmt.Errorf("golang: agent %s as a tool: %w", a.Name, err)
	}
	sm := &specModel{Name: quote(spec.Name), Description: quote(spec.Description), Signature: quote(spec.Signature), Schema: quote(string(spec.Schema))}
	if len(spec.OutputSchema) > 0 {
		sm.OutputSchema = quote(string(spec.OutputSchema))
	}
	for _, target := range sortedTargets(spec.TargetSchemas) {
		sm.TargetSchemas = append(sm.TargetSchemas, targetSchemaModel{Target: quote(target), Const: exportedName(target), Schema: quote(string(spec.TargetSchemas[target]))})
	}
	return sm, nil
}

// agentExtras fills am with a's specification as a tool when another
// agent lists it, and the agents it lists.
func (b *builder) agentExtras(a *check.Agent, am *agentModel, listed map[*check.Agent]bool) error {
	if listed[a] {
		spec, err := agentToolSpec(a)
		if err != nil {
			return err
		}
		am.ToolSpec, am.ToolSpecName = spec, b.agentGo[a]+"ToolSpec"
	}
	for _, c := range a.Agents {
		base, ok := b.agentGo[c]
		if !ok {
			return fmt.Errorf("golang: agent %s lists agent %s, which is not in the package", a.Name, c.Name)
		}
		am.Listed = append(am.Listed, listedModel{FuncName: "New" + base, SpecName: base + "ToolSpec"})
	}
	return nil
}

func sortedTargets[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
