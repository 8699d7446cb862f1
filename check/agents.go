package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/syntax"
	"github.com/gramc-dev/gramc/toolspec"
)

// implicitSignature is the signature of an agent without one (docs/language.md §2.6):
// the user's message in, the answer's text out.
const implicitSignature = "(input::String)==>(::String)"

// agentSignature lowers an agent's signature element (docs/language.md §2.6), the first
// element that is a path or a node; without one the agent has the
// implicit (input::String)==>(::String).
func (c *checker) agentSignature(sp *ast.SubjectPattern, a *Agent) {
	sig := &Tool{Name: a.Name, Description: a.Description, Range: a.NameRange, NameRange: a.NameRange}
	a.Signature = sig
	var first ast.Pattern
	for i, e := range sp.Elements {
		switch unwrap(e).(type) {
		case *ast.RelationshipPattern, *ast.NodePattern:
		default:
			continue
		}
		if first != nil {
			d := c.errorf(diag.CodeDuplicateSignature, e, "agent %s has a second signature", a.Name).WithDetail("An agent has at most one signature, its first element by convention: the parameters it takes and the type it answers with, e.g. (ticket::String)==>(::Triage). Remove one of them.")
			d.Related = []diag.Related{{Range: c.rng(first), Message: "first signature here"}}
			// The quick fix removes this one (a guess: the other may be
			// the one to go).
			d.Fix = []diag.Edit{{Range: c.elementCut(sp, i)}}
			continue
		}
		first = e
		a.HasSignature = true
		sig.Range = c.rng(e)
		c.lowerSignature(unwrap(e), sig, "agent")
	}
	if first == nil {
		in := &Param{Name: "input", Type: &Type{Kind: String, Range: a.NameRange}, Range: a.NameRange, NameRange: a.NameRange}
		sig.Params = []*Param{in}
		sig.Result = &Type{Kind: String, Range: a.NameRange}
		sig.Signature = implicitSignature
	}
}

// outputProps reads an agent's outputMode and outputRetries.
func (c *checker) outputProps(props propSet, a *Agent) {
	a.OutputMode, a.OutputRetries = provider.OutputAuto, toolspec.DefaultOutputRetries
	if q := props.get("outputMode"); q != nil {
		modes := joinWords(quoteAll(outputModes), "or")
		switch v := q.Value.(type) {
		case *ast.Symbol:
			c.unquoted(v, "agent outputMode")
		default:
			s, ok := stringValue(q.Value)
			switch {
			case !ok:
				c.errorf(diag.CodeInvalidOutputMode, q.Value, "outputMode must be %s, not %s", modes, describeValue(q.Value)).WithDetail("Write outputMode as one of the strings " + modes + ".")
			case contains(outputModes, s):
				a.OutputMode = OutputMode(s)
			default:
				d := c.errorf(diag.CodeInvalidOutputMode, q.Value, "outputMode %q is not %s", s, modes).WithDetail(outputModeDetail)
				c.suggestQuoted(d, s, outputModes)
			}
		}
	}
	if q := props.get("outputRetries"); q != nil {
		if i, ok := wholeNumber(q.Value); !ok || i < 0 || i > math.MaxInt32 {
			c.errorf(diag.CodeInvalidOutputRetries, q.Value, "outputRetries must be a non-negative integer, not %s", canonicalValue(q.Value)).WithDetail("outputRetries is how many times an answer that is not a value of the output type is sent back to the model with the validation error: 0 for none, the default is 1.")
		} else {
			a.OutputRetries = int(i)
		}
	}
}

const outputModeDetail = `outputMode says how the model is held to the output type: "auto" (the default) takes the best mode the provider and model support with the agent's tools; "native" uses the provider's structured output, "tool" a final-answer tool, "prompted" the schema in the instructions.`

// outputModes are the values of outputMode, auto first.
var outputModes = func() []string {
	out := make([]string, len(provider.AllOutputModes))
	for i, m := range provider.AllOutputModes {
		out[i] = string(m)
	}
	return out
}()

// outputCapability reports an explicit outputMode that the provider
// cannot honour for the agent's model with its tools (provider.Info's
// Output), with the mode auto would take instead: an error found here,
// not as an HTTP 400 at run time.
func (c *checker) outputCapability(props propSet, a *Agent) {
	if a.Signature != nil && a.Signature.Result != nil && !a.Typed() {
		// An agent answering text has no output type to hold it to.
		for _, k := range []string{"outputMode", "outputRetries"} {
			if q := props.get(k); q != nil {
				c.warnf(diag.CodeUntypedOutputSetting, q.Key, "%s has no effect: agent %s answers text", k, a.Name).WithDetail(fmt.Sprintf("%s applies to a typed agent, whose return type is not String: give %s a signature such as (ticket::String)==>(::Triage), or remove %s.", k, a.Name, k))
			}
		}
		return
	}
	q := props.get("outputMode")
	if q == nil || a.OutputMode == provider.OutputAuto || !a.Typed() || a.Provider == "" {
		return
	}
	p, ok := provider.Lookup(a.Provider)
	if !ok {
		return
	}
	withTools := len(a.Tools)+len(a.Agents) > 0
	if p.Honours(a.OutputMode, a.ModelName, withTools) {
		return
	}
	works := p.AutoOutputMode(a.ModelName, withTools)
	with := ""
	if withTools {
		with = " with tools"
	}
	why := p.OutputSupportFor(a.ModelName).Why
	if why == "" {
		why = p.Name + " does not offer it for " + a.ModelName
	}
	d := c.errorf(diag.CodeUnsupportedOutputMode, q.Value, "outputMode %q is not available for %s%s; %q would work", a.OutputMode, a.Model, with, works).WithDetail(fmt.Sprintf("%s. Write outputMode: %q, or leave outputMode out: auto takes %q for this model.", strings.TrimSuffix(why, "."), works, works))
	d.Suggestion = string(works)
	d.Fix = []diag.Edit{{Range: d.Range, NewText: syntax.Quote(string(works), '"')}}
}

// quoteAll quotes each of xs as a gram string.
func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = syntax.Quote(x, '"')
	}
	return out
}

// agentRef is a reference from an agent to an agent it lists.
type agentRef struct {
	to  *Agent
	at  ast.Range
	cut ast.Range // the text whose removal removes the reference
}

// elementCut is the range whose removal removes sp's element i, with
// the comma and space that join it to the others (or the | before a lone
// element), leaving valid gram.
func (c *checker) elementCut(sp *ast.SubjectPattern, i int) ast.Range {
	els := sp.Elements
	switch {
	case i > 0:
		return ast.Range{File: c.file, Start: c.rng(els[i-1]).End, End: c.rng(els[i]).End}
	case len(els) > 1:
		return ast.Range{File: c.file, Start: c.rng(els[0]).Start, End: c.rng(els[1]).Start}
	}
	// The lone element: from the end of the subject, with the |.
	var last ast.Node = sp.Identifier
	if len(sp.Labels) > 0 {
		last = &sp.Labels[len(sp.Labels)-1]
	}
	if sp.Record != nil {
		last = sp.Record
	}
	if isNil(last) {
		return ast.Range{}
	}
	return ast.Range{File: c.file, Start: c.rng(last).End, End: c.rng(els[0]).End}
}

// listAgent lists agent b, referred to at n, among a's elements: to a's
// model, b is a tool named and described as b.
func (c *checker) listAgent(a, b *Agent, n ast.Node, cut ast.Range) {
	a.Agents = append(a.Agents, b)
	r := c.rng(n)
	if c.agentRefs == nil {
		c.agentRefs = map[*Agent][]agentRef{}
	}
	c.agentRefs[a] = append(c.agentRefs[a], agentRef{b, r, cut})
	if !validToolName(b.Name) {
		d := c.errorf(diag.CodeInvalidToolName, n, "agent %s cannot be a tool of %s: %s is not a valid function name", syntax.QuoteName(b.Name), a.Name, syntax.QuoteName(b.Name)).WithDetail("A listed agent is a tool named like the agent, and LLM providers accept function names of 1 to 64 letters, digits, underscores and hyphens; rename the agent, e.g. research_agent.")
		d.Related = []diag.Related{{Range: b.NameRange, Message: "agent " + syntax.QuoteName(b.Name) + " declared here"}}
	}
	if strings.TrimSpace(b.Description) == "" {
		d := c.errorf(diag.CodeMissingDescription, n, "agent %s has no description, and %s lists it as a tool", b.Name, a.Name).WithDetail(fmt.Sprintf(`To %s's model, %s is a tool, and the model chooses tools by their description; give %s one: [%s:Agent {description: "What it does", ...}].`, a.Name, b.Name, b.Name, syntax.QuoteName(b.Name)))
		d.Related = []diag.Related{{Range: b.NameRange, Message: "agent " + b.Name + " declared here"}}
	}
}

// agentGraph reports the cycles of agents listing agents, each at the
// reference that closes it, and the nestings deeper than
// MaxAgentNesting, at the reference that goes past the limit. The
// agents are walked depth first in declaration order, so each cycle is
// reported once, named from the agent it was entered at.
func (c *checker) agentGraph() {
	if len(c.agentRefs) == 0 {
		return
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make(map[*Agent]int, len(c.agentSrc))
	height := make(map[*Agent]int, len(c.agentSrc)) // levels below and including the agent
	deepest := map[*Agent]*Agent{}                  // the listed agent through which the height is reached
	var path []*Agent
	at := map[*Agent]int{} // an agent on path -> its index in path
	// An explicit stack: a long chain of agents must not recurse.
	type frame struct {
		a    *Agent
		next int // the next of a's references to follow
	}
	for _, root := range c.agentSrc {
		if state[root.agent] != unseen {
			continue
		}
		stack := []frame{{a: root.agent}}
		state[root.agent] = onPath
		path = append(path[:0], root.agent)
		at[root.agent] = 0
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			refs := c.agentRefs[f.a]
			if f.next < len(refs) {
				r := refs[f.next]
				f.next++
				switch state[r.to] {
				case unseen:
					state[r.to] = onPath
					at[r.to] = len(path)
					path = append(path, r.to)
					stack = append(stack, frame{a: r.to})
				case onPath:
					c.agentCycle(path[at[r.to]:], r)
				}
				continue
			}
			// Every reference followed: the height is known.
			h := 1
			for _, r := range refs {
				if state[r.to] == done && height[r.to]+1 > h {
					h = height[r.to] + 1
					deepest[f.a] = r.to
				}
			}
			for _, r := range refs {
				if state[r.to] == done && height[r.to] == MaxAgentNesting {
					c.agentNesting(f.a, r, deepest)
				}
			}
			height[f.a] = h
			state[f.a] = done
			stack = stack[:len(stack)-1]
			path = path[:len(path)-1]
		}
	}
}

// maxCycleNames is how many agents a cycle's message names at most.
const maxCycleNames = 12

// agentCycle reports the cycle closed by r: path runs from r.to to the
// agent whose reference r is. Its cost is bounded by maxCycleNames, not
// the cycle's length: a long chain with many references back to its
// start would otherwise cost the chain's length per reference.
func (c *checker) agentCycle(path []*Agent, r agentRef) {
	n := len(path) + 1 // the agents named: path, then r.to again
	name := func(i int) string {
		if i == len(path) {
			return r.to.Name
		}
		return path[i].Name
	}
	var names []string
	if n > maxCycleNames {
		// A long circle is named by its ends.
		k := maxCycleNames / 2
		for i := 0; i < k; i++ {
			names = append(names, name(i))
		}
		names = append(names, fmt.Sprintf("… (%s)", english.Plural(n-2*k, "more agent")))
		for i := n - k; i < n; i++ {
			names = append(names, name(i))
		}
	} else {
		for i := 0; i < n; i++ {
			names = append(names, name(i))
		}
	}
	cycle := strings.Join(names, " → ")
	from := path[len(path)-1]
	detail := fmt.Sprintf("Agents listing each other in a circle would call each other without end: %s. Remove %s from %s, or break the circle elsewhere.", cycle, r.to.Name, from.Name)
	if len(names) == 2 {
		detail = fmt.Sprintf("An agent listing itself would call itself without end; remove %s from its own elements.", r.to.Name)
	}
	d := c.report(diag.Error, diag.CodeAgentCycle, r.at, "cycle of agents: "+cycle, detail)
	d.Related = []diag.Related{{Range: r.to.NameRange, Message: "agent " + r.to.Name + " declared here"}}
	if r.cut.File != "" {
		// The quick fix: remove the reference that closes the circle
		// (a guess: another one may be the one to go).
		d.Fix = []diag.Edit{{Range: r.cut}}
	}
}

// agentNesting reports a's reference r to an agent whose nesting is at
// the limit already.
func (c *checker) agentNesting(a *Agent, r agentRef, deepest map[*Agent]*Agent) {
	chain := []string{a.Name}
	for b := r.to; b != nil; b = deepest[b] {
		chain = append(chain, b.Name)
	}
	d := c.report(diag.Error, diag.CodeAgentNesting, r.at,
		fmt.Sprintf("agents nest %d levels deep here, past the limit of %d: %s", len(chain), MaxAgentNesting, strings.Join(chain, " → ")),
		fmt.Sprintf("A run of %s would run %s nested inside one another, and gramc allows at most %d levels of agents listing agents. List a deeper agent's tools directly, or flatten the chain.", a.Name, english.Plural(len(chain), "agent"), MaxAgentNesting))
	d.Related = []diag.Related{{Range: r.to.NameRange, Message: "agent " + r.to.Name + " declared here"}}
}
