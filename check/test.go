package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/syntax"
)

// labelCall labels a test's expected calls: (::Call {tool: "x", ...}).
const labelCall = "Call"

var testHints = map[string]string{
	"expect":  "A test's expected tool calls are its elements: [t:Test {...} | (::Call {tool: \"getWeather\", args: {city: \"Paris\"}})].",
	"answers": "Say what the answer must hold with answer (the typed result), answerContains (text) or answerMatches (a regular expression).",
	"mock":    "Mocked results are the returns property of each expected call: (::Call {tool: \"x\", returns: \"...\"}).",
	"message": "The user's message is the test's input property.",
	"prompt":  "The user's message is the test's input property.",
}

// resultSources are the values of a test's `results` property, callOrders
// of its `calls` property (the default first).
var (
	resultSources = []string{string(MockResults), string(BoundResults), string(CassetteResults)}
	callOrders    = []string{"inOrder", "anyOrder"}
)

// ResultSources returns the values a test's `results` property may take.
func ResultSources() []string { return append([]string(nil), resultSources...) }

// CallOrders returns the values a test's `calls` property may take.
func CallOrders() []string { return append([]string(nil), callOrders...) }

// lowerTest lowers a `:Test` declaration. It runs after the agents are
// lowered, so the agent's tools are known.
func (c *checker) lowerTest(sp *ast.SubjectPattern, t *Test) {
	props := c.props(sp.Record)
	c.unknownProps(sp.Record, "test", propertyNames[OnTest], testHints)
	if q := props.get("description"); q != nil {
		t.Description, _ = c.proseProp(q, "test")
	}
	c.testAgent(sp, props, t)
	if q := props.get("input"); q == nil {
		c.errorf(diag.CodeInvalidTest, sp.Identifier, "test %s has no input", t.Name).WithDetail(`Add the user's message the agent runs on: input: "What is the weather in Paris?".`)
	} else if m, ok := q.Value.(*ast.Map); ok {
		t.Arguments = c.testArguments(m, t)
	} else if s, ok := c.proseProp(q, "test"); ok {
		if strings.TrimSpace(s) == "" {
			c.errorf(diag.CodeInvalidTest, q.Value, "test %s has an empty input", t.Name).WithDetail("Write the user's message the agent runs on.")
		} else if a := t.Agent; a != nil && !a.MessageInput() && !isJSONObject(s) {
			c.errorf(diag.CodeInvalidTest, q.Value, "agent %s takes arguments, not a message: give test %s's input as a map", a.Name, t.Name).WithDetail(fmt.Sprintf("The input of %s is %s; write input: {%s} (or the arguments as one JSON object in a string).", a.Name, a.Signature.Signature, argsExample(a.Signature.Params)))
		}
		t.Input = s
	}
	if q := props.get("answer"); q != nil {
		t.Answer, t.HasAnswer = c.testAnswer(q.Value, t)
	}
	if q := props.get("answerContains"); q != nil {
		t.AnswerContains = c.containsList(q)
	}
	if q := props.get("answerMatches"); q != nil {
		if s, ok := c.stringProp(q, "test"); ok {
			if _, err := regexp.Compile(s); err != nil {
				c.errorf(diag.CodeInvalidMatcher, q.Value, "answerMatches is not a regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: ")).WithDetail("answerMatches is an RE2 regular expression (Go's syntax): (?i) for case-insensitive, \\. for a dot.")
			} else {
				t.AnswerMatches = s
			}
		}
	}
	if q := props.get("calls"); q != nil {
		if s, ok := c.stringProp(q, "test"); ok {
			switch s {
			case callOrders[0]:
			case callOrders[1]:
				t.AnyOrder = true
			default:
				c.choiceError(diag.CodeInvalidTest, q, s, "calls", callOrders)
			}
		}
	}
	t.Results = MockResults
	if q := props.get("results"); q != nil {
		if s, ok := c.stringProp(q, "test"); ok {
			if contains(resultSources, s) {
				t.Results = ToolResults(s)
			} else {
				c.choiceError(diag.CodeInvalidTest, q, s, "results", resultSources)
			}
		}
	}
	if q := props.get("cassette"); q != nil {
		if s, ok := c.stringProp(q, "test"); ok {
			if strings.TrimSpace(s) == "" || strings.ContainsRune(s, 0) {
				c.errorf(diag.CodeInvalidTest, q.Value, "cassette must name a file").WithDetail("Give the cassette's path relative to this file, e.g. cassette: \"testdata/weather.cassette\"; leave it out for testdata/" + t.Name + ".cassette.")
			} else {
				t.Cassette = s
			}
		}
	}
	if q := props.get("ignoreRequests"); q != nil {
		t.IgnoreRequests = c.ignoreRequests(q)
	}
	for _, e := range sp.Elements {
		if call := c.expectedCall(e, t); call != nil {
			t.Calls = append(t.Calls, call)
		}
	}
}

// testAgent reads `agent: "name"`.
func (c *checker) testAgent(sp *ast.SubjectPattern, props propSet, t *Test) {
	q := props.get("agent")
	if q == nil {
		c.errorf(diag.CodeInvalidTest, sp.Identifier, "test %s names no agent", t.Name).WithDetail(`Say which agent runs: agent: "helper".`)
		return
	}
	name, ok := c.stringProp(q, "test")
	if !ok {
		return
	}
	var names []string
	for _, a := range c.pkg.Agents {
		if a.Name == name {
			t.Agent = a
			return
		}
		names = append(names, a.Name)
	}
	d := c.errorf(diag.CodeUnknownAgent, q.Value, "unknown agent %q", name).WithDetail("Declare it in any file of the package with [name:Agent {...} | ...].")
	if prev, ok := c.names[name]; ok {
		d.Detail = name + " is declared as " + withArticle(strings.ToLower(prev.kind)) + ", not an agent."
		d.Related = []diag.Related{{Range: prev.rng, Message: "declared here"}}
	}
	c.suggestQuoted(d, name, names)
}

// containsList reads answerContains: a string or an array of strings.
func (c *checker) containsList(q *ast.Property) []string {
	var vals []ast.Value
	if arr, ok := q.Value.(*ast.Array); ok {
		vals = arr.Elements
	} else {
		vals = []ast.Value{q.Value}
	}
	var out []string
	for _, v := range vals {
		s, ok := stringValue(v)
		if !ok {
			if sym, isSym := v.(*ast.Symbol); isSym {
				c.unquoted(sym, "answerContains")
				continue
			}
			c.errorf(diag.CodeInvalidMatcher, v, "answerContains must be a string or an array of strings, not %s", describeValue(v)).WithDetail(`Write the text the answer must contain: answerContains: "Paris", or several: answerContains: ["Paris", "sunny"].`)
			continue
		}
		if s == "" {
			c.errorf(diag.CodeInvalidMatcher, v, "answerContains is empty, which every answer contains").WithDetail("Write the text the answer must contain, or remove the property.")
			continue
		}
		out = append(out, s)
	}
	return out
}

// choiceError reports a string property outside its choices.
func (c *checker) choiceError(code diag.Code, q *ast.Property, s, key string, choices []string) {
	quoted := make([]string, len(choices))
	for i, ch := range choices {
		quoted[i] = syntax.Quote(ch, '"')
	}
	d := c.errorf(code, q.Value, "%s %q is not %s", key, s, joinWords(quoted, "or")).WithDetail(fmt.Sprintf("Write %s: %s.", key, joinWords(quoted, "or")))
	c.suggestQuoted(d, s, choices)
}

// expectedCall lowers one element of a test: a (::Call {...}) node.
func (c *checker) expectedCall(e ast.Pattern, t *Test) *ExpectedCall {
	n, ok := unwrap(e).(*ast.NodePattern)
	if !ok || !hasLabel(n.Labels, labelCall) {
		what := "a :Call node"
		if ok {
			what = "labelled :Call"
		}
		c.errorf(diag.CodeInvalidTest, e, "test element is not %s", what).WithDetail(`A test's elements are the tool calls it expects: (::Call {tool: "getWeather", args: {city: "Paris"}, returns: "sunny"}).`)
		return nil
	}
	props := c.props(n.Record)
	c.unknownProps(n.Record, "call", propertyNames[OnCall], nil)
	call := &ExpectedCall{Range: c.rng(n)}
	q := props.get("tool")
	if q == nil {
		c.errorf(diag.CodeInvalidTestCall, n, "the call names no tool").WithDetail(`Say which tool is called: (::Call {tool: "getWeather"}).`)
		return nil
	}
	name, ok := c.stringProp(q, "call")
	if !ok {
		return nil
	}
	site, declared := c.names[name]
	if declared && site.agent != nil && t.Agent != nil {
		// A listed agent is mocked like any tool (docs/language.md §2.5).
		if !agentListsAgent(t.Agent, site.agent) {
			d := c.errorf(diag.CodeInvalidTestCall, q.Value, "agent %s does not list agent %s", t.Agent.Name, name).WithDetail("The model can call only the agent's tools and the agents it lists; list " + name + " in " + t.Agent.Name + ", or expect another call.")
			d.Related = []diag.Related{{Range: t.Agent.NameRange, Message: "the agent"}}
			return nil
		}
		return c.callOf(n, props, call, site.agent.Signature, t)
	}
	if !declared || site.tool == nil {
		d := c.errorf(diag.CodeUnknownTool, q.Value, "unknown tool %q", name).WithDetail("A test expects calls of its agent's tools.")
		var names []string
		if t.Agent != nil {
			for _, tool := range t.Agent.Tools {
				names = append(names, tool.Name)
			}
		} else {
			names = c.toolNames()
		}
		c.suggestQuoted(d, name, names)
		return nil
	}
	tool := site.tool.tool
	if t.Agent != nil && !agentHasTool(t.Agent, tool) {
		d := c.errorf(diag.CodeInvalidTestCall, q.Value, "agent %s has no tool %s", t.Agent.Name, name).WithDetail("The model can call only the agent's tools; add " + name + " to the agent, or expect another call.")
		d.Related = []diag.Related{{Range: t.Agent.NameRange, Message: "the agent"}}
		return nil
	}
	return c.callOf(n, props, call, tool, t)
}

// callOf reads an expected call's args and returns, of tool.
func (c *checker) callOf(n *ast.NodePattern, props propSet, call *ExpectedCall, tool *Tool, t *Test) *ExpectedCall {
	call.Tool = tool
	if q := props.get("args"); q != nil {
		call.Args = c.callArgs(q, tool)
	}
	if q := props.get("returns"); q != nil && tool != nil && tool.Result != nil {
		if v, ok := c.testValue(q.Value, tool.Result, diag.CodeInvalidMockResult, "the result of "+tool.Name); ok {
			call.Returns, call.HasReturns = v, true
		}
	} else if q == nil && t.Results == MockResults {
		c.errorf(diag.CodeInvalidMockResult, n, "the call of %s has no returns, and test %s mocks every tool's result", tool.Name, t.Name).WithDetail(`Give the result the tool returns in this test: returns: ...; or run the tools themselves with results: "bound".`)
	}
	return call
}

func agentListsAgent(a, b *Agent) bool {
	for _, x := range a.Agents {
		if x == b {
			return true
		}
	}
	return false
}

func agentHasTool(a *Agent, t *Tool) bool {
	for _, x := range a.Tools {
		if x == t || x.Name == t.Name {
			return true
		}
	}
	return false
}

// callArgs reads an expected call's `args: {name: value, ...}`, each
// value checked against its parameter's type.
func (c *checker) callArgs(q *ast.Property, tool *Tool) map[string]any {
	m, ok := q.Value.(*ast.Map)
	if !ok {
		c.errorf(diag.CodeInvalidTestCall, q.Value, "args must be a map, not %s", describeValue(q.Value)).WithDetail(`Write the arguments the call must have as a map: args: {city: "Paris"}.`)
		return nil
	}
	params, names := byName(tool.Params)
	out := make(map[string]any, len(m.Entries))
	for k, e := range keyed(m) {
		p, ok := params[k]
		if !ok {
			d := c.errorf(diag.CodeInvalidTestCall, e.Key, "tool %s has no parameter %s", tool.Name, k).WithDetail(fmt.Sprintf("The parameters of %s are: %s.", tool.Name, strings.Join(names, ", ")))
			if len(names) == 0 {
				d.Detail = tool.Name + " has no parameters."
			}
			c.suggestName(d, k, names)
			continue
		}
		if v, ok := c.testValue(e.Value, p.Type, diag.CodeInvalidTestCall, "argument "+k+" of "+tool.Name); ok {
			out[k] = v
		}
	}
	return out
}

// isJSONObject reports whether s is one JSON object.
func isJSONObject(s string) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}

// argsExample is a map of params with a placeholder each, for messages:
// `ticket: "...", limit: 1`.
func argsExample(params []*Param) string {
	parts := make([]string, 0, len(params))
	for _, p := range params {
		v := `"..."`
		if p.Type != nil {
			switch p.Type.Kind {
			case Integer, Number:
				v = "1"
			case Boolean:
				v = "true"
			}
		}
		parts = append(parts, syntax.QuoteName(p.Name)+": "+v)
	}
	return strings.Join(parts, ", ")
}

// testArguments reads a test's input given as a map: the arguments of
// its agent, each checked against its parameter, the required ones all
// given (docs/language.md §2.5).
func (c *checker) testArguments(m *ast.Map, t *Test) map[string]any {
	a := t.Agent
	if a == nil || a.Signature == nil {
		v, _ := c.jsonValue(m, "input of test "+t.Name)
		out, _ := v.(map[string]any)
		return out
	}
	params := a.Signature.Params
	byParam, names := byName(params)
	out := make(map[string]any, len(m.Entries))
	for k, e := range keyed(m) {
		p, ok := byParam[k]
		if !ok {
			d := c.errorf(diag.CodeInvalidTest, e.Key, "agent %s has no parameter %s", a.Name, k).WithDetail(fmt.Sprintf("The input of %s is %s: its parameters are %s.", a.Name, a.Signature.Signature, strings.Join(names, ", ")))
			c.suggestName(d, k, names)
			continue
		}
		what := "argument " + k + " of " + a.Name
		if v, ok := c.conform(e.Value, p.Type, diag.CodeInvalidTest, what); ok {
			if c.satisfies(e.Value, v, p.Type, p.Constraints, nil, diag.CodeInvalidTest, what) {
				out[k] = v
			}
		}
	}
	var missing []string
	for _, p := range params {
		if _, given := out[p.Name]; !given && p.Required() && !hasKey(m, p.Name) {
			missing = append(missing, p.Name)
		}
	}
	if len(missing) > 0 {
		c.errorf(diag.CodeInvalidTest, m, "the input of test %s lacks %s of agent %s: %s", t.Name, english.Plural(len(missing), "required argument"), a.Name, strings.Join(missing, ", ")).WithDetail(fmt.Sprintf("The input of %s is %s; give every parameter without a default or optional: true.", a.Name, a.Signature.Signature))
	}
	return out
}

// byName indexes ps by name (a later one of the same name wins) and lists
// their names in order: a map written against them looks its keys up in
// the one and suggests a name from the other.
func byName(ps []*Param) (map[string]*Param, []string) {
	index := make(map[string]*Param, len(ps))
	names := make([]string, len(ps))
	for i, p := range ps {
		index[p.Name] = p
		names[i] = p.Name
	}
	return index, names
}

func hasKey(m *ast.Map, k string) bool {
	for i := range m.Entries {
		if keyName(&m.Entries[i].Key) == k {
			return true
		}
	}
	return false
}

// testAnswer reads a test's answer, checked against its agent's output
// type: a scalar (or array) the result must equal, or a map of fields the
// result must have, each equal (docs/language.md §2.5).
func (c *checker) testAnswer(v ast.Value, t *Test) (any, bool) {
	a := t.Agent
	what := "the answer of test " + t.Name
	if a == nil || a.Signature == nil || a.Signature.Result == nil {
		return c.jsonValue(v, what)
	}
	out := a.Signature.Result
	m, isMap := v.(*ast.Map)
	if !isMap || out.Kind != Record || out.Decl == nil {
		if isMap && out.Kind != Object {
			c.errorf(diag.CodeInvalidTestAnswer, v, "%s is a map, but agent %s answers %s", what, a.Name, articleType(out)).WithDetail(fmt.Sprintf("The answer is a value of the agent's output type, %s; a map is for a record.", out.Name()))
			return nil, false
		}
		return c.testValue(v, out, diag.CodeInvalidTestAnswer, what)
	}
	c.ensureLowered(out.Decl)
	fields, names := byName(out.Decl.Fields)
	res := make(map[string]any, len(m.Entries))
	good := true
	for k, e := range keyed(m) {
		f, ok := fields[k]
		if !ok {
			d := c.errorf(diag.CodeInvalidTestAnswer, e.Key, "%s has no field %s", out.Decl.Name, k).WithDetail(fmt.Sprintf("The answer's keys are fields of %s, the output type of %s: %s.", out.Decl.Name, a.Name, strings.Join(names, ", ")))
			c.suggestName(d, k, names)
			good = false
			continue
		}
		x, ok := c.testValue(e.Value, f.Type, diag.CodeInvalidTestAnswer, "field "+k+" of "+what)
		if !ok {
			good = false
			continue
		}
		res[k] = x
	}
	return res, good
}
