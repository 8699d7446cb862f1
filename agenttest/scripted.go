package agenttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/runtime"
)

// Scripted is the model of a test run with Options.Scripted: no provider
// and no cassette. It makes exactly the test's expected calls, one per
// turn, in the order the test lists them, each with the test's args (the
// parameters the test leaves out get their default, or the smallest value
// their schema accepts), and then answers with what the test expects: its
// answerContains texts, or a text answerMatches matches. So the tools'
// implementations, the validation of the arguments, the results and the
// test's assertions run with nothing recorded (as Pydantic AI's TestModel
// does). The model reads nothing the run sends it: a test that passes
// scripted says the test holds together, not that a real model would
// make those calls.
func Scripted(t *check.Test) (runtime.Model, error) {
	answer, err := scriptedAnswer(t)
	if err != nil {
		return nil, err
	}
	m := &scriptedModel{answer: answer, own: map[string]bool{}}
	if a := t.Agent; a != nil && a.Typed() {
		v := placeholder(a.Signature.Result, check.Constraints{})
		if t.HasAnswer {
			v = overlay(v, t.Answer)
		}
		if len(t.AnswerContains) > 0 || t.AnswerMatches != "" {
			// The text answerContains and answerMatches look for, in a
			// string of the value the test does not fix.
			v = withText(v, a.Signature.Result, t.Answer, answer)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // the answer's text is the value's JSON: "<" stays "<"
		if err := enc.Encode(v); err != nil {
			return nil, fmt.Errorf("test %s: the scripted answer: %v", t.Name, err)
		}
		m.value = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		for _, tool := range a.Tools {
			m.own[tool.Name] = true
		}
		for _, l := range a.Agents {
			m.own[l.Name] = true
		}
	}
	for _, c := range t.Calls {
		if c.Tool == nil {
			return nil, fmt.Errorf("test %s: a call names no known tool (gramc check reports why)", t.Name)
		}
		args, err := scriptedArgs(c)
		if err != nil {
			return nil, fmt.Errorf("test %s: the scripted call of %s: %v", t.Name, c.Tool.Name, err)
		}
		m.calls = append(m.calls, runtime.ToolCall{Name: c.Tool.Name, Arguments: string(args)})
	}
	return m, nil
}

// scriptedModel answers turn by turn: the next call, then the answer. A
// typed agent's answer is value, a value of its output type: the test's
// answer over the smallest value of the type; in tool mode it is the call
// of the final-answer tool (the request's one tool not among own, the
// agent's tools and listed agents).
type scriptedModel struct {
	calls  []runtime.ToolCall
	answer string
	value  json.RawMessage
	own    map[string]bool
	turn   int
}

func (m *scriptedModel) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	i := m.turn
	m.turn++
	if i < len(m.calls) {
		call := m.calls[i]
		call.ID = fmt.Sprintf("call_%d", i+1)
		return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{call}},
			StopReason: runtime.StopToolCalls, ResponseModel: "scripted"}, nil
	}
	if m.value != nil {
		for _, tool := range req.Tools {
			if m.own[tool.Name] {
				continue
			}
			call := runtime.ToolCall{ID: fmt.Sprintf("call_%d", i+1), Name: tool.Name, Arguments: string(wrapped(m.value, tool.Schema))}
			return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{call}},
				StopReason: runtime.StopToolCalls, ResponseModel: "scripted"}, nil
		}
		return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, Content: string(m.value)},
			StopReason: runtime.StopEnd, ResponseModel: "scripted"}, nil
	}
	return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, Content: m.answer},
		StopReason: runtime.StopEnd, ResponseModel: "scripted"}, nil
}

// overlay is the test's answer over a placeholder value: the fields an
// answer map gives replace the placeholder's (an answer may list some of a
// record's fields); any other answer is the value itself.
func overlay(placeholder, answer any) any {
	p, ok1 := placeholder.(map[string]any)
	a, ok2 := answer.(map[string]any)
	if !ok1 || !ok2 {
		return answer
	}
	out := make(map[string]any, len(p)+len(a))
	for k, v := range p {
		out[k] = v
	}
	for k, v := range a {
		out[k] = v
	}
	return out
}

// withText puts text in the typed value v of type t: v itself when t is
// a String, else the first String field of a record (one the test's
// answer does not fix, with no enum or pattern, long enough), else the
// first element of an array of strings. A value with no such place is
// returned as it is (the run then says what answerContains misses).
func withText(v any, t *check.Type, fixed any, text string) any {
	if t == nil {
		return v
	}
	fits := func(c check.Constraints) bool {
		return len(c.Enum) == 0 && c.Pattern == "" && (c.MaxLength == nil || int64(len([]rune(text))) <= *c.MaxLength)
	}
	switch t.Kind {
	case check.String:
		return text
	case check.Array:
		if t.Elem != nil && t.Elem.Kind == check.String {
			return []any{text}
		}
	case check.Record:
		rec, ok := v.(map[string]any)
		if !ok || t.Decl == nil {
			return v
		}
		given, _ := fixed.(map[string]any)
		for _, f := range t.Decl.Fields {
			if _, ok := given[f.Name]; ok || f.Type == nil {
				continue
			}
			if f.Type.Kind == check.String && fits(f.Constraints.Value()) || f.Type.Kind == check.Array && f.Type.Elem != nil && f.Type.Elem.Kind == check.String {
				out := make(map[string]any, len(rec)+1)
				for k, x := range rec {
					out[k] = x
				}
				out[f.Name] = withText(nil, f.Type, nil, text)
				return out
			}
		}
	}
	return v
}

// wrapped is a typed answer as the arguments of the final-answer tool
// whose parameters are schema: the value itself when it is an object the
// schema does not wrap, else the value under the schema's one property.
func wrapped(value json.RawMessage, schema json.RawMessage) []byte {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) != 1 || bytes.HasPrefix(bytes.TrimSpace(value), []byte("{")) {
		return value
	}
	for name := range s.Properties {
		out, err := json.Marshal(map[string]json.RawMessage{name: value})
		if err == nil {
			return out
		}
	}
	return value
}

// scriptedArgs are an expected call's arguments: the test's, and for each
// required parameter the test leaves out its default or the smallest
// value its schema accepts.
func scriptedArgs(c *check.ExpectedCall) ([]byte, error) {
	args := map[string]any{}
	for _, p := range c.Tool.Params {
		if _, ok := c.Args[p.Name]; ok || !p.Required() {
			continue
		}
		args[p.Name] = placeholder(p.Type, p.Constraints.Value())
	}
	for k, v := range c.Args {
		args[k] = v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

// maxPlaceholder bounds the length of a placeholder string or array (a
// minLength or minItems is the test author's, but bounded all the same).
const maxPlaceholder = 1 << 12

// placeholder is the smallest value of type t the constraints c accept,
// as far as it is easy to know: the first enum value, the minimum, a
// string of the minimum length, an array of the minimum size, a record of
// its required fields.
func placeholder(t *check.Type, c check.Constraints) any {
	if len(c.Enum) > 0 {
		return c.Enum[0]
	}
	if t == nil {
		return map[string]any{}
	}
	switch t.Kind {
	case check.String:
		if c.Pattern != "" {
			if s, ok := matchingText(c.Pattern); ok {
				return s
			}
		}
		n := int64(0)
		if c.MinLength != nil {
			n = min(*c.MinLength, maxPlaceholder)
		}
		return strings.Repeat("x", int(n))
	case check.Integer, check.Number:
		if c.Minimum != nil {
			return *c.Minimum
		}
		if c.ExclusiveMinimum != nil {
			if f, err := strconv.ParseFloat(string(*c.ExclusiveMinimum), 64); err == nil {
				return json.Number(strconv.FormatFloat(math.Floor(f)+1, 'f', -1, 64))
			}
		}
		if c.Maximum != nil && strings.HasPrefix(string(*c.Maximum), "-") {
			return *c.Maximum
		}
		return json.Number("0")
	case check.Boolean:
		return false
	case check.Array:
		n := int64(0)
		if c.MinItems != nil {
			n = min(*c.MinItems, maxPlaceholder)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = placeholder(t.Elem, check.Constraints{})
		}
		return out
	case check.EnumKind:
		if t.Enum != nil && len(t.Enum.Values) > 0 {
			return t.Enum.Values[0]
		}
	case check.Record:
		rec := map[string]any{}
		if t.Decl != nil {
			for _, f := range t.Decl.Fields {
				if f.Required() {
					rec[f.Name] = placeholder(f.Type, f.Constraints.Value())
				}
			}
		}
		return rec
	}
	return map[string]any{}
}

// scriptedAnswer is the answer the scripted model gives: the
// answerContains texts joined by spaces, or a text answerMatches matches
// (both, when one text does both).
func scriptedAnswer(t *check.Test) (string, error) {
	contains := strings.Join(t.AnswerContains, " ")
	if t.AnswerMatches == "" {
		if contains == "" {
			return "done", nil
		}
		return contains, nil
	}
	re, err := regexp.Compile(t.AnswerMatches)
	if err != nil {
		return "", fmt.Errorf("answerMatches: %v", err)
	}
	var candidates []string
	if contains != "" {
		candidates = append(candidates, contains)
	}
	if s, ok := matchingText(t.AnswerMatches); ok {
		candidates = append(candidates, s, s+" "+contains, contains+" "+s)
	}
	for _, s := range candidates {
		if !re.MatchString(s) {
			continue
		}
		ok := true
		for _, want := range t.AnswerContains {
			ok = ok && strings.Contains(s, want)
		}
		if ok {
			return s, nil
		}
	}
	return "", fmt.Errorf("test %s: the scripted model finds no answer that matches %s%s: give answerContains a text that does", t.Name, jsonstr.Text(t.AnswerMatches), containsNote(t.AnswerContains))
}

func containsNote(contains []string) string {
	if len(contains) == 0 {
		return ""
	}
	vs := make([]any, len(contains))
	for i, c := range contains {
		vs[i] = c
	}
	return " and contains " + jsonstr.List(vs)
}

// matchingText is a short text the regular expression expr matches: the
// first alternative of each choice, no repetition it can do without.
func matchingText(expr string) (string, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !writeMatch(&b, re.Simplify(), 0) {
		return "", false
	}
	return b.String(), true
}

// maxRegexpDepth bounds the recursion over a test's regular expression.
const maxRegexpDepth = 100

func writeMatch(b *strings.Builder, re *syntax.Regexp, depth int) bool {
	if depth > maxRegexpDepth || b.Len() > 1<<16 {
		return false
	}
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true // the whole text is checked against the expression afterwards
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
		return true
	case syntax.OpCharClass:
		if len(re.Rune) < 2 {
			return false
		}
		// The first printable rune of the class.
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && r-re.Rune[i] < 128; r++ {
				if unicode.IsPrint(r) && r != ' ' {
					b.WriteRune(r)
					return true
				}
			}
		}
		b.WriteRune(re.Rune[0])
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte('x')
		return true
	case syntax.OpCapture:
		return writeMatch(b, re.Sub[0], depth+1)
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpPlus:
		return writeMatch(b, re.Sub[0], depth+1)
	case syntax.OpRepeat:
		for range re.Min {
			if !writeMatch(b, re.Sub[0], depth+1) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !writeMatch(b, s, depth+1) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return len(re.Sub) > 0 && writeMatch(b, re.Sub[0], depth+1)
	}
	return false
}

// calledTools are the names of the tools a test calls, sorted.
func calledTools(t *check.Test) []string {
	seen := map[string]bool{}
	var names []string
	for _, c := range t.Calls {
		if c.Tool != nil && !seen[c.Tool.Name] {
			seen[c.Tool.Name] = true
			names = append(names, c.Tool.Name)
		}
	}
	sort.Strings(names)
	return names
}

// unbound is the implementation of a tool a test with bound results does
// not call and nothing implements.
func unbound(test, tool string) runtime.ToolFunc {
	return func(context.Context, json.RawMessage) (any, error) {
		return nil, fmt.Errorf("tool %s has no implementation (test %s does not expect a call of it)", tool, test)
	}
}

// bindHint says how to bind tool name: hint with NAME replaced, or the
// Go way.
func bindHint(hint, name string) string {
	if hint == "" {
		return fmt.Sprintf("bind it in agenttest.Options.Tools[%q]", name)
	}
	return strings.ReplaceAll(hint, "NAME", name)
}
