package gramfile

import (
	"fmt"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/runtime"
)

// listedAgents converts the agents a lists (§2.5, "Agents as tools"):
// each is an Agent of its own, and among a's tools the tool its model
// sees, the listed agent's signature named and described as the agent
// (check.Agent.AsTool), with the schemas gramc schema prints for it.
// A nesting past runtime.MaxAgentNesting (a package with errors, a
// cycle) is an error, not a recursion without end.
func listedAgents(a *check.Agent, out *runtime.Agent, depth int) error {
	if len(a.Agents) > 0 && depth >= runtime.MaxAgentNesting {
		return fmt.Errorf("agents nest more than %d levels deep below %s", runtime.MaxAgentNesting, a.Name)
	}
	for _, b := range a.Agents {
		spec, err := schema.Spec(b.AsTool(), schema.OpenAI)
		if err != nil {
			return err
		}
		child, err := agentFromCheck(b, depth+1)
		if err != nil {
			return err
		}
		out.Tools = append(out.Tools, spec)
		out.Agents = append(out.Agents, child)
	}
	return nil
}
