package check

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/syntax"
)

// labelCall labels a test's expected calls: (::Call {tool: "x", ...}).
const labelCall = "Call"

var (
	testProps = propertyNames(OnTest)
	callProps = propertyNames(OnCall)
)

var testHints = map[string]string{
	"expect":  "A test's expected tool calls are its elements: [t:Test {...} | (::Call {tool: \"getWeather\", args: {city: \"Paris\"}})].",
	"answer":  "Say what the answer must hold with answerContains (text) or answerMatches (a regular expression).",
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
	c.unknownProps(sp.Record, "test", testProps, testHints)
	if q := props.get("description"); q != nil {
		t.Description, _ = c.proseProp(q, "test")
	}
	c.testAgent(sp, props, t)
	if q := props.get("input"); q == nil {
		c.errorf(diag.CodeInvalidTest, sp.Identifier, "test %s has no input", t.Name).WithDetail(`Add the user's message the agent runs on: input: "What is the weather in Paris?".`)
	} else if s, ok := c.proseProp(q, "test"); ok {
		if strings.TrimSpace(s) == "" {
			c.errorf(diag.CodeInvalidTest, q.Value, "test %s has an empty input", t.Name).WithDetail("Write the user's message the agent runs on.")
		}
		t.Input = s
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
	c.unknownProps(n.Record, "call", callProps, nil)
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
	params := map[string]*Param{}
	var names []string
	for _, p := range tool.Params {
		params[p.Name] = p
		names = append(names, p.Name)
	}
	out := make(map[string]any, len(m.Entries))
	for i := range m.Entries {
		e := &m.Entries[i]
		k := keyName(&e.Key)
		p, ok := params[k]
		if !ok {
			d := c.errorf(diag.CodeInvalidTestCall, e.Key, "tool %s has no parameter %s", tool.Name, k).WithDetail(fmt.Sprintf("The parameters of %s are: %s.", tool.Name, strings.Join(names, ", ")))
			if len(names) == 0 {
				d.Detail = tool.Name + " has no parameters."
			}
			if s := c.suggest(k, names); s != "" {
				d.Summary += suggest.DidYouMean(s)
				d.Suggestion = s
			}
			continue
		}
		if v, ok := c.testValue(e.Value, p.Type, diag.CodeInvalidTestCall, "argument "+k+" of "+tool.Name); ok {
			out[k] = v
		}
	}
	return out
}
