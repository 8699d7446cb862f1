package gramfile

import (
	"fmt"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/runtime"
)

// signatureOf is a checked agent's signature (LANGUAGE.md §2.5) as the
// runtime holds it; nil for an agent without a signature element, which
// takes a message and answers text.
func signatureOf(a *check.Agent) (*runtime.Signature, error) {
	if !a.HasSignature || a.Signature == nil {
		return nil, nil
	}
	in, err := schema.Parameters(a.Signature)
	if err != nil {
		return nil, err
	}
	sig := &runtime.Signature{Input: in, OutputMode: a.OutputMode}
	retries := a.OutputRetries
	sig.OutputRetries = &retries
	if a.MessageInput() {
		sig.Message = a.Signature.Params[0].Name
	}
	if a.Typed() {
		if sig.Output, err = schema.Output(a.Signature); err != nil {
			return nil, err
		}
		sig.OutputName = a.Signature.Result.Name()
	}
	return sig, nil
}

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
