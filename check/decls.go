package check

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/syntax"
)

var toolHints = map[string]string{
	"parameters": "A tool's parameters are the nodes of its signature: [t:Tool {description: \"...\"} | (city::String)==>(::String)].",
	"returns":    "A tool's return type is the last node of its signature: ==>(::String).",
	"name":       "The tool's name is the pattern's identifier: [getWeather:Tool {...} | ...].",
}

var agentHints = map[string]string{
	"tools":  "An agent's tools are its elements, after the |: [a:Agent {...} | getWeather, getForecast].",
	"prompt": "The system prompt of an agent is its instruction property.",
	"system": "The system prompt of an agent is its instruction property.",
}

// lowerEnum lowers an `:Enum` declaration.
func (c *checker) lowerEnum(sp *ast.SubjectPattern) {
	en := c.enums[sp.Identifier.Name]
	props := c.props(sp.Record)
	c.unknownProps(sp.Record, "enum", propertyNames[OnEnum], nil)
	if q := props.get("description"); q != nil {
		en.Description, _ = c.proseProp(q, "enum")
	}
	if len(sp.Elements) > 0 {
		c.errorf(diag.CodeInvalidEnum, sp.Elements[0], "an enum has no elements").WithDetail(`List the values in the values property: [Unit:Enum {values: ["celsius", "fahrenheit"]}].`)
	}
	en.ValueKind = String
	q := props.get("values")
	if q == nil {
		c.errorf(diag.CodeInvalidEnum, sp.Identifier, "enum %s has no values", en.Name).WithDetail(`Add the allowed values: [` + syntax.QuoteName(en.Name) + `:Enum {values: ["a", "b"]}].`)
		return
	}
	arr, ok := q.Value.(*ast.Array)
	if !ok {
		c.errorf(diag.CodeInvalidEnum, q.Value, "values must be an array, not %s", describeValue(q.Value)).WithDetail(`Write the values as an array: values: ["a", "b"].`)
		return
	}
	seen := map[string]ast.Value{}
	var first ast.Value
	for _, e := range arr.Elements {
		var v any
		var kind Kind
		switch x := e.(type) {
		case *ast.String, *ast.TaggedString:
			s, _ := stringValue(x)
			v, kind = s, String
		case *ast.Number:
			j, err := numberValue(x)
			if c.numberLimit(x, "enum value", err) {
				continue
			}
			if err != nil || x.Kind == ast.Decimal || !isIntegral(j) {
				c.errorf(diag.CodeInvalidEnum, e, "enum value %s is not a string or an integer", x.Raw()).WithDetail("Enum values are strings or integers.")
				continue
			}
			v, kind = j, Integer
		case *ast.Symbol:
			c.unquoted(x, "enum value")
			continue
		default:
			c.errorf(diag.CodeInvalidEnum, e, "enum value %s is not a string or an integer", canonicalValue(e)).WithDetail("Enum values are strings or integers.")
			continue
		}
		if first == nil {
			first = e
			en.ValueKind = kind
		} else if kind != en.ValueKind {
			d := c.errorf(diag.CodeInvalidEnum, e, "enum %s mixes strings and integers", en.Name).WithDetail("An enum's values are all strings or all integers.")
			d.Related = []diag.Related{{Range: c.rng(first), Message: "first value"}}
			continue
		}
		if c.firstListing(seen, e, v, "Each value must appear once; remove the repetition.") {
			en.Values = append(en.Values, v)
		}
	}
}

// lowerTypeDecl lowers a `:Type` declaration's fields (once).
func (c *checker) lowerTypeDecl(sp *ast.SubjectPattern, td *TypeDecl) {
	if td == nil || c.lowered[td] != 0 {
		return
	}
	c.lowered[td] = 1
	defer func() { c.lowered[td] = 2 }()
	props := c.props(sp.Record)
	c.unknownProps(sp.Record, "type", propertyNames[OnType], map[string]string{"fields": paramHints["fields"]})
	if q := props.get("description"); q != nil {
		td.Description, _ = c.proseProp(q, "type")
	}
	seen := map[string]*Param{}
	for _, e := range sp.Elements {
		switch n := unwrap(e).(type) {
		case *ast.NodePattern:
			if f := c.lowerParam(n, roleField); c.firstOfName(seen, f, n, "field", "record", td.Name) {
				td.Fields = append(td.Fields, f)
			}
		case *ast.RelationshipPattern:
			c.errorf(diag.CodeInvalidField, n, "a record field is a node, not a path").WithDetail("A record's fields are separate nodes, separated by commas: [Point:Type | (x::Number), (y::Number)]. Arrows belong to tool signatures.")
		case *ast.PatternReference:
			c.errorf(diag.CodeInvalidField, n, "a record field needs a type: %s is a bare identifier", n.Identifier.Name).WithDetail(fmt.Sprintf("Write a field as a node with a name and a type: (%s::String).", syntax.QuoteName(n.Identifier.Name)))
		default:
			c.errorf(diag.CodeInvalidField, e, "a record field is a node").WithDetail("Write a field as a node with a name and a type: (name::String).")
		}
	}
}

// toolKey is the canonical text of a whole tool pattern, compared when
// the same tool name is declared more than once.
func toolKey(sp *ast.SubjectPattern) string {
	var b strings.Builder
	anon := ast.Subject{Labels: sp.Labels, Record: sp.Record}
	writeSubject(&b, &anon, true)
	b.WriteString(" | ")
	for _, e := range sp.Elements {
		nodes, _ := pathNodes(unwrap(e))
		b.WriteString(signatureText(nodes))
		b.WriteString(", ")
	}
	return b.String()
}

// enterTool enters one lowered tool declaration, top-level or inline in an
// agent, into the package: the package-wide rules on its name.
func (c *checker) enterTool(sp *ast.SubjectPattern, inline bool, t *Tool) {
	name := sp.Identifier.Name
	prev, taken := c.names[name]
	if !taken {
		if len(c.sites) == cap(c.sites) {
			// c.names points into c.sites: a full slice is followed by
			// a new one, never grown (moved). All at once, but in
			// chunks in a lean check, which holds no tree of the
			// tools entered.
			n := len(c.toolSrc)
			if c.lean {
				n = min(n, siteChunk)
			}
			c.sites = make([]toolSite, 0, n)
		}
		keep, model := sp, t
		if c.lean {
			if !c.repeated[name] {
				keep = nil // no other declaration compares with it
			}
			if len(c.testSrc) == 0 && !c.listed[name] {
				// Only tests read a tool once it is entered, and
				// agents its name.
				model = leanTool
			}
		}
		c.sites = append(c.sites, toolSite{tool: model, sp: keep, inline: inline, rng: t.NameRange})
		site := &c.sites[len(c.sites)-1]
		if !inline {
			site.topLevel = &site.rng
		}
		c.names[name] = declSite{kind: labelTool, rng: t.NameRange, tool: site}
		c.nTools++
		if c.lean {
			return // Diagnose's package holds no declarations
		}
		if c.pkg.Tools == nil {
			c.pkg.Tools = make([]*Tool, 0, len(c.toolSrc))
		}
		c.pkg.Tools = append(c.pkg.Tools, t)
		return
	}
	site := prev.tool
	if site == nil {
		d := c.errorf(diag.CodeDuplicateDecl, sp.Identifier, "%s is already declared as %s", name, withArticle(strings.ToLower(prev.kind))).WithDetail("Names of tools, agents, types and enums share one namespace per package; rename one of them.")
		d.Related = []diag.Related{{Range: prev.rng, Message: "first declared here"}}
		return
	}
	if !inline && site.topLevel != nil {
		d := c.errorf(diag.CodeDuplicateDecl, sp.Identifier, "tool %s is declared twice", name).WithDetail("Declare a tool once at top level; agents can refer to it by name.")
		d.Related = []diag.Related{{Range: *site.topLevel, Message: "first declared here"}}
		return
	}
	if !inline {
		r := t.NameRange
		site.topLevel = &r
	}
	// Canonical texts are computed only for repeated names.
	if site.key == "" {
		site.key = toolKey(site.sp)
	}
	if toolKey(sp) != site.key {
		d := c.errorf(diag.CodeToolConflict, sp.Identifier, "tool %s differs from its other declaration", name).WithDetail("An inline tool may repeat a tool declared elsewhere, but only identically (same description, properties and signature). Make them identical, or give this one another name.")
		d.Related = []diag.Related{{Range: site.rng, Message: "other declaration here"}}
	}
}

// siteChunk is how many tool sites a lean check allocates at a time.
const siteChunk = 1024

// leanTool stands for every tool no agent lists in a lean check
// (Diagnose) of a package without tests: once a tool is entered, only a
// test reads its model, and an agent its name.
var leanTool = &Tool{}

// letGoOfTrees is a lean check's (Diagnose's) end of pass 1: the files'
// patterns are collected, so the files let go of them (each declaration's
// tree is released once it is checked), and the tools declared more than
// once and the names agents list are known.
func (c *checker) letGoOfTrees() {
	for _, f := range c.pkg.Files {
		f.Header, f.Patterns = nil, nil
	}
	for _, a := range c.agentSrc {
		for _, e := range a.sp.Elements {
			var id *ast.Identifier
			switch n := unwrap(e).(type) {
			case *ast.PatternReference:
				id = n.Identifier
			case *ast.SubjectPattern:
				id = n.Identifier
			}
			if id != nil {
				if c.listed == nil {
					c.listed = map[string]bool{}
				}
				c.listed[id.Name] = true
			}
		}
	}
	seen := make(map[string]bool, len(c.toolSrc))
	for _, t := range c.toolSrc {
		name := t.sp.Identifier.Name
		if seen[name] {
			if c.repeated == nil {
				c.repeated = map[string]bool{}
			}
			c.repeated[name] = true
		}
		seen[name] = true
	}
}

// strip lets go of what a lean check (Diagnose) does not read again of
// a lowered tool: all but what enters it into the package and lets
// agents list it, unless a test reads its parameters and result. Safe on
// lowerAhead's goroutines: it writes only t.
func (c *checker) strip(t *Tool) {
	if t == nil || len(c.testSrc) > 0 {
		return
	}
	*t = Tool{Name: t.Name, Range: t.Range, NameRange: t.NameRange}
}

// lowerTool lowers the parts of a tool declaration.
func (c *checker) lowerTool(sp *ast.SubjectPattern) *Tool {
	t := &Tool{Name: sp.Identifier.Name, Range: c.rng(sp), NameRange: c.rng(sp.Identifier)}
	if !validToolName(t.Name) {
		c.errorf(diag.CodeInvalidToolName, sp.Identifier, "tool name %s is not a valid function name", syntax.QuoteName(t.Name)).WithDetail("LLM providers accept function names of 1 to 64 letters, digits, underscores and hyphens; rename the tool, e.g. get_weather.")
	}
	props := c.props(sp.Record)
	c.unknownProps(sp.Record, "tool", propertyNames[OnTool], toolHints)
	if q := props.get("description"); q == nil {
		c.errorf(diag.CodeMissingDescription, sp.Identifier, "tool %s has no description", t.Name).WithDetail(fmt.Sprintf(`The model chooses tools by their description; add one: [%s:Tool {description: "What it does"} | ...].`, syntax.QuoteName(t.Name)))
	} else if s, ok := c.proseProp(q, "tool"); ok {
		if strings.TrimSpace(s) == "" {
			c.errorf(diag.CodeMissingDescription, q.Value, "tool %s has an empty description", t.Name).WithDetail("The model chooses tools by their description; say what the tool does.")
		}
		t.Description = s
	}
	if q := props.get("title"); q != nil {
		t.Title, _ = c.proseProp(q, "tool")
	}
	if q := props.get("strict"); q != nil {
		if b, ok := c.boolProp(q, "tool"); ok {
			t.Strict = &b
		}
	}
	if q := props.get("deprecated"); q != nil {
		t.Deprecated, _ = c.boolProp(q, "tool")
	}
	if len(sp.Elements) == 0 {
		c.errorf(diag.CodeMissingSignature, sp.Identifier, "tool %s has no signature", t.Name).WithDetail(fmt.Sprintf(`Add the signature after a |: [%s:Tool {description: "..."} | (name::String)==>(::String)]. A tool without parameters is ()==>(::String).`, syntax.QuoteName(t.Name)))
		return t
	}
	if len(sp.Elements) > 1 {
		c.errorf(diag.CodeExtraElement, sp.Elements[1], "tool %s has more than one element", t.Name).WithDetail("A tool has exactly one element, its signature: parameters joined by ==> and ending with the return type, e.g. (a::String)==>(b::Integer)==>(::String).")
	}
	c.lowerSignature(unwrap(sp.Elements[0]), t, "tool")
	return t
}

// lowerSignature lowers a signature, a tool's (owner "tool") or an
// agent's ("agent"), into t's Signature, Params, Result and
// ResultDescription.
func (c *checker) lowerSignature(sig ast.Pattern, t *Tool, owner string) {
	// The checker's buffers: the nodes do not outlive this call.
	nodes, arrows := appendPath(sig, c.nodeBuf[:0], c.arrowBuf[:0])
	if len(nodes) == 0 {
		nodes = nil // not a path (or a nil pattern in a partial tree)
	} else {
		c.nodeBuf, c.arrowBuf = nodes, arrows
	}
	if nodes == nil {
		detail := "A signature is a path of nodes joined by ==>, ending with the return type: (city::String)==>(::String)."
		what := "a subject pattern"
		if ref, ok := sig.(*ast.PatternReference); ok {
			what = "the bare identifier " + ref.Identifier.Name
		}
		c.errorf(diag.CodeInvalidSignature, sig, "the signature of %s must be a path of nodes, not %s", t.Name, what).WithDetail(detail)
		return
	}
	for _, a := range arrows {
		if a == nil {
			continue
		}
		if a.Kind != ast.RightArrow {
			c.errorf(diag.CodeArrowDirection, a, "a signature uses right arrows only, not %s", arrowName(a.Kind)).WithDetail("Parameters are read left to right: join them with ==> (or --> / ~~>). Left, undirected and two-way arrows have no meaning in a signature.")
		}
		if a.Subject != nil {
			c.warnf(diag.CodeArrowSubject, a, "arrow subject is ignored").WithDetail("gramc ignores what is written inside a signature's arrows; write ==>.")
		}
	}
	t.Signature = signatureText(nodes)
	params := nodes[:len(nodes)-1]
	if len(params) == 1 && params[0].Subject.IsEmpty() {
		params = nil // ()==>(::T): no parameters
	}
	seen := map[string]*Param{}
	for _, n := range params {
		if p := c.lowerParam(n, roleParam); c.firstOfName(seen, p, n, "parameter", owner, t.Name) {
			t.Params = append(t.Params, p)
		}
	}
	res := nodes[len(nodes)-1]
	if res.Identifier != nil && len(res.Labels) > 0 {
		// (Without a label, missing-type says what to write.) A named last node is almost always a parameter whose return
		// type was forgotten: (name::String) alone would silently lose
		// the parameter.
		fix := nodeText(res) + "==>(::String)"
		d := c.errorf(diag.CodeNamedReturn, res.Identifier, "the last node of %s's signature is its return type, but it is named %s", t.Name, res.Identifier.Name).WithDetail(fmt.Sprintf("The last node of a signature is the return type, which has no name. If %s is a parameter, add the return type after it: %s. If it is the return type, drop the name: (::%s).",
			res.Identifier.Name, fix, labelText(res)))
		d.Suggestion = fix
		// The suggestion is the whole node's text: it replaces the node,
		// not the name the diagnostic points at.
		d.Fix = []diag.Edit{{Range: c.rng(res), NewText: fix}}
	}
	rprops := c.props(res.Record)
	t.Result = c.nodeType(res, rprops, "return type")
	rp := &Param{Type: t.Result}
	c.lowerProps(rp, rprops, roleResult, "return type")
	c.unknownProps(res.Record, "return type", propertyNames[OnParam], nil)
	t.ResultDescription = rp.Description
}

// lowerAgentHead lowers an `:Agent` declaration's properties and its
// signature: what an agent listing it reads, so every agent's head is
// lowered before any agent's elements (lowerAgentElements).
func (c *checker) lowerAgentHead(sp *ast.SubjectPattern, a *Agent) {
	props := c.props(sp.Record)
	c.unknownProps(sp.Record, "agent", propertyNames[OnAgent], agentHints)
	if q := props.get("description"); q != nil {
		a.Description, _ = c.proseProp(q, "agent")
	}
	if q := props.get("instruction"); q == nil {
		c.errorf(diag.CodeMissingInstruction, sp.Identifier, "agent %s has no instruction", a.Name).WithDetail("Add the system prompt: instruction: ```\n  You are a helpful assistant...\n  ```.")
	} else if s, ok := c.proseProp(q, "agent"); ok {
		if strings.TrimSpace(s) == "" {
			c.errorf(diag.CodeMissingInstruction, q.Value, "agent %s has an empty instruction", a.Name).WithDetail("Write the system prompt the model follows.")
		}
		a.Instruction = s
	}
	c.agentModel(sp, props, a)
	if q := props.get("temperature"); q != nil {
		n, ok := q.Value.(*ast.Number)
		var v json.Number
		var err error
		if ok {
			v, err = numberValue(n)
		}
		f, ferr := v.Float64()
		if !ok || err != nil || ferr != nil || f < 0 || f > 2 || math.IsNaN(f) {
			c.errorf(diag.CodeInvalidTemperature, q.Value, "temperature must be a number from 0 to 2, not %s", canonicalValue(q.Value)).WithDetail("temperature is a number from 0 (deterministic) to 2 (most random), e.g. temperature: 0.2.")
		} else {
			a.Temperature = &f
		}
	}
	if q := props.get("maxIterations"); q != nil {
		if i, ok := wholeNumber(q.Value); !ok || i < 1 || i > math.MaxInt32 {
			c.errorf(diag.CodeInvalidMaxIterations, q.Value, "maxIterations must be a positive integer, not %s", canonicalValue(q.Value)).WithDetail("maxIterations is how many model round trips a run may take: a positive integer (the runtime default is 10).")
		} else {
			a.MaxIterations = int(i)
		}
	}
	if q := props.get("maxTokens"); q != nil {
		if i, ok := wholeNumber(q.Value); !ok || i < 1 || i > math.MaxInt32 {
			c.errorf(diag.CodeInvalidMaxTokens, q.Value, "maxTokens must be a positive integer, not %s", canonicalValue(q.Value)).WithDetail("maxTokens is the budget of tokens, input and output, of a run of the agent, its listed agents' included: a positive integer, or leave it out for no limit.")
		} else {
			a.MaxTokens = int(i)
		}
	}
	c.outputProps(props, a)
	c.agentSignature(sp, a)
}

// wholeNumber is v as an int64 when it is an integer literal (not a
// decimal or a measurement) that fits one.
func wholeNumber(v ast.Value) (int64, bool) {
	n, ok := v.(*ast.Number)
	if !ok || n.Kind == ast.Decimal || n.Kind == ast.Measurement {
		return 0, false
	}
	num, err := numberValue(n)
	if err != nil {
		return 0, false
	}
	i, err := num.Int64()
	return i, err == nil
}

// lowerAgentElements lowers an agent's elements, the tools and agents it
// lists, and its toolChoice, which names one of them.
func (c *checker) lowerAgentElements(sp *ast.SubjectPattern, a *Agent) {
	// (Duplicates were reported with the head.)
	props := propSet{}
	if sp.Record != nil {
		props.ps = sp.Record.Properties
	}
	// A tool's site remembers where this agent listed it; other names
	// (agents, and names not entered as tools) go in a map.
	type listing struct {
		at    ast.Node
		agent bool // a listed agent, not an inline tool of its name
	}
	var listed map[string]listing
	var cut ast.Range // what removes the element being listed (a listed agent's)
	add := func(name string, n ast.Node, site *toolSite, agent *Agent) {
		var prev listing
		if site != nil {
			if site.listedBy == a {
				prev.at = site.listedAt
			} else {
				site.listedBy, site.listedAt = a, n
			}
		} else {
			if listed == nil {
				listed = map[string]listing{}
			}
			if prev = listed[name]; prev.at == nil {
				listed[name] = listing{n, agent != nil}
			}
		}
		if prev.at != nil {
			if prev.agent != (agent != nil) {
				// An inline tool named like a listed agent (also a
				// duplicate-declaration): the model would see two tools
				// of one name.
				at, other := n, prev.at
				if prev.agent {
					at, other = prev.at, n
				}
				d := c.errorf(diag.CodeAgentNameClash, at, "agent %s has the name of a tool of agent %s", name, a.Name).WithDetail(fmt.Sprintf("A listed agent is a tool named like the agent, and the model of %s would see two tools named %s; rename the tool or the agent.", a.Name, name))
				d.Related = []diag.Related{{Range: c.rng(other), Message: "the tool " + name}}
				return
			}
			what := "tool"
			if agent != nil {
				what = "agent"
			}
			d := c.errorf(diag.CodeDuplicateAgentTool, n, "%s %s is listed twice in agent %s", what, name, a.Name).WithDetail("List each " + what + " once.")
			d.Related = []diag.Related{{Range: c.rng(prev.at), Message: "first listed here"}}
			return
		}
		switch {
		case site != nil:
			if a.Tools == nil {
				a.Tools = make([]*Tool, 0, len(sp.Elements))
			}
			a.Tools = append(a.Tools, site.tool)
		case agent != nil:
			c.listAgent(a, agent, n, cut)
		}
	}
	for i, e := range sp.Elements {
		switch n := unwrap(e).(type) {
		case *ast.PatternReference:
			name := n.Identifier.Name
			prev, ok := c.names[name]
			if ok && prev.tool != nil {
				add(name, n, prev.tool, nil)
				continue
			}
			if ok && prev.agent != nil {
				cut = c.elementCut(sp, i)
				add(name, n, nil, prev.agent)
				continue
			}
			if ok {
				d := c.errorf(diag.CodeNotATool, n, "%s is not a tool", name).WithDetail("An agent's elements are tools and agents; " + name + " is declared as " + withArticle(strings.ToLower(prev.kind)) + ".")
				d.Related = []diag.Related{{Range: prev.rng, Message: "declared here"}}
				continue
			}
			d := c.errorf(diag.CodeUnknownTool, n, "unknown tool %s", name).WithDetail("Declare it in any file of the package with [name:Tool {description: \"...\"} | ...], or list it inline in the agent.")
			c.suggestName(d, name, c.toolNames())
			if r, ok := c.ignored[name]; ok {
				// [name:Tol ...]: declared, but under a label gramc ignores.
				d.Detail = "A pattern named " + name + " exists, but without the label :Tool it is not a tool declaration; label it [" + name + ":Tool {description: \"...\"} | ...]."
				d.Related = append(d.Related, diag.Related{Range: r, Message: name + " is here, without :Tool"})
			}
		case *ast.SubjectPattern:
			kinds := kindOf(n.Labels)
			switch {
			case len(kinds) == 1 && kinds[0].Name == labelTool && n.Identifier != nil:
				name := n.Identifier.Name
				add(name, n.Identifier, c.names[name].tool, nil)
			case len(kinds) == 1 && kinds[0].Name == labelTool:
				c.errorf(diag.CodeMissingName, n, "Tool declaration has no name").WithDetail("Name it right after the opening bracket: [myTool:Tool ...].")
			case len(kinds) > 1:
				c.errorf(diag.CodeMalformedDecl, kinds[1], "declaration has both :%s and :%s", kinds[0].Name, kinds[1].Name).WithDetail(twoKindsDetail)
			case len(kinds) == 1:
				detail := fmt.Sprintf("Declare :%s patterns at the top level of a file; an agent's elements are tools.", kinds[0].Name)
				if kinds[0].Name == labelAgent {
					detail = "Declare the agent at the top level of a file and list it by name: [helper:Agent {...} | researcher]."
				}
				c.errorf(diag.CodeInvalidAgentElement, n, "an agent cannot contain a :%s declaration", kinds[0].Name).WithDetail(detail)
			default:
				c.errorf(diag.CodeInvalidAgentElement, n, "agent element is not a tool").WithDetail("An inline tool needs the :Tool label: [name:Tool {description: \"...\"} | ...].")
			}
		case *ast.RelationshipPattern, *ast.NodePattern:
			// The signature: lowered with the head.
		default:
			c.errorf(diag.CodeInvalidAgentElement, e, "agent element is not a tool").WithDetail("An agent's elements are its signature, tool and agent names, and inline [name:Tool ...] patterns.")
		}
	}
	c.outputCapability(props, a)
	if q := props.get("toolChoice"); q != nil {
		if s, ok := c.stringProp(q, "agent"); ok {
			choices := []string{"auto", "none", "required"}
			var names []string
			for _, t := range a.Tools {
				names = append(names, t.Name)
			}
			for _, b := range a.Agents {
				names = append(names, b.Name)
			}
			if contains(choices, s) || contains(names, s) {
				a.ToolChoice = s
			} else {
				d := c.errorf(diag.CodeInvalidToolChoice, q.Value, "toolChoice %q is not auto, none, required or a tool of agent %s", s, a.Name).WithDetail("toolChoice is \"auto\", \"none\", \"required\" or the name of one of the agent's tools.")
				c.suggestQuoted(d, s, append(choices, names...))
			}
		}
	}
}

// agentModel reads `model: "Provider/model-name"`.
func (c *checker) agentModel(sp *ast.SubjectPattern, props propSet, a *Agent) {
	q := props.get("model")
	if q == nil {
		c.errorf(diag.CodeInvalidModel, sp.Identifier, "agent %s has no model", a.Name).WithDetail(`Say which model runs the agent: model: "OpenAI/gpt-4o-mini". Known providers: ` + knownProviders() + ".")
		return
	}
	s, ok := c.stringProp(q, "agent")
	if !ok {
		return
	}
	provider, model, found := strings.Cut(s, "/")
	if !found || strings.TrimSpace(provider) == "" || strings.TrimSpace(model) == "" {
		c.errorf(diag.CodeInvalidModel, q.Value, "model %q is not Provider/model-name", s).WithDetail(`Write the model as "Provider/model-name", e.g. "OpenAI/gpt-4o-mini". Known providers: ` + knownProviders() + ".")
		return
	}
	if !contains(providers, provider) {
		d := c.errorf(diag.CodeUnknownProvider, q.Value, "unknown model provider %q", provider).WithDetail("Known providers: " + knownProviders() + ".")
		sg := ""
		for _, p := range providers {
			if strings.EqualFold(p, provider) {
				sg = p
			}
		}
		if sg == "" {
			sg = c.suggest(provider, providers)
		}
		if sg != "" {
			d.Summary += suggest.DidYouMeanQuoted(sg)
			d.Suggestion = sg
			d.Detail += fmt.Sprintf(" Write model: %q.", sg+"/"+model)
			d.Fix = []diag.Edit{{Range: d.Range, NewText: syntax.Quote(sg+"/"+model, '"')}}
		}
		return
	}
	a.Model, a.Provider, a.ModelName = s, provider, model
}

// toolNames returns the sorted names of the package's tools.
func (c *checker) toolNames() []string {
	if c.toolList == nil {
		c.toolList = make([]string, 0, c.nTools)
		for n, site := range c.names {
			if site.tool != nil {
				c.toolList = append(c.toolList, n)
			}
		}
		sortStrings(c.toolList)
	}
	return c.toolList
}

func arrowName(k ast.ArrowKind) string {
	switch k {
	case ast.LeftArrow:
		return "a left arrow"
	case ast.UndirectedArrow:
		return "an undirected arrow"
	case ast.BidirectionalArrow:
		return "a bidirectional arrow"
	}
	return "a right arrow"
}

// firstOfName reports whether p (a kind, "field" or "parameter", of the
// owner, a "record" or "tool" named ownerName, written as n) is the first of
// its name in seen, and records it; a second one is reported as a
// duplicate pointing at the first. Unnamed ones are always kept.
func (c *checker) firstOfName(seen map[string]*Param, p *Param, n ast.Node, kind, owner, ownerName string) bool {
	if p.Name == "" {
		return true
	}
	if prev, dup := seen[p.Name]; dup {
		d := c.errorf(diag.CodeDuplicateField, n, "%s %s is declared twice in %s", kind, p.Name, ownerName).WithDetail("Each " + kind + " of a " + owner + " has a distinct name; rename or remove one.")
		d.Related = []diag.Related{{Range: prev.NameRange, Message: "first declared here"}}
		return false
	}
	seen[p.Name] = p
	return true
}
