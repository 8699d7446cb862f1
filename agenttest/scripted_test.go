package agenttest

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
)

// TestScripted (issue 36.1): with Options.Scripted a test runs with no
// provider and no cassette; the scripted model makes the expected calls
// (the parameters left out get the smallest values their schema accepts)
// and answers with what the test expects.
func TestScripted(t *testing.T) {
	tests := loadTests(t, t.TempDir(), `
[measure:Tool {description: "Measures"} |
  (what::String {minLength: 3})==>(times::Integer {minimum: 2})==>(code::String {pattern: "^[A-Z]{2}-[0-9]+$"})==>(::String)
]
[measurer:Agent {instruction: "Measure", model: "OpenAI/gpt-4o-mini"} | measure]
[measures:Test {agent: "measurer", input: "go", results: "bound", answerMatches: "^Done: [0-9]+ items?$", answerContains: "Done"} |
  (::Call {tool: "measure", args: {times: 4}})
]
[greets:Test {agent: "openai", input: "Hi, I am Ada", answerContains: ["Ada", "Hi"]} |
  (::Call {tool: "sayHello", args: {personName: "Ada"}, returns: "Hi, Ada!"})
]
[unbound:Test {agent: "measurer", input: "go", results: "bound"} |
  (::Call {tool: "measure", args: {times: 4}})
]
`)
	var got json.RawMessage
	o := Options{Scripted: true, Tools: map[string]runtime.ToolFunc{"measure": func(_ context.Context, args json.RawMessage) (any, error) {
		got = args
		return "ok", nil
	}}}
	r := Run(context.Background(), tests["measures"], o)
	if !r.Passed() {
		t.Fatalf("measures failed: %v", r.Failures)
	}
	if string(got) != `{"code":"AA-0","times":4,"what":"xxx"}` {
		t.Errorf("the scripted call's arguments are %s", got)
	}
	if r.Answer != "Done: 0 item" {
		t.Errorf("answer %q", r.Answer)
	}
	r = Run(context.Background(), tests["greets"], Options{Scripted: true})
	if !r.Passed() || r.Answer != "Ada Hi" || len(r.Calls) != 1 || r.Calls[0].Result != "Hi, Ada!" {
		t.Errorf("greets: %+v", r)
	}
	// From Go, a missing implementation is bound the Go way.
	r = Run(context.Background(), tests["unbound"], Options{Scripted: true})
	if r.Passed() || !strings.Contains(r.Failures[0].Message, `tool measure has no implementation: bind it in agenttest.Options.Tools["measure"]`) {
		t.Errorf("unbound: %v", r.Failures)
	}
}

// FuzzMatchingText: any expression a test may hold gives a text, or none,
// in bounded time and size; a text given for an expression without word
// boundaries matches it.
func FuzzMatchingText(f *testing.F) {
	for _, s := range []string{"^Hi there, Ada!$", "(a|b)+c{2,3}", `\bword\b`, "[^a-z]", "x{1000}{1000}", "(?i)HELLO", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		s, ok := matchingText(expr)
		if len(s) > 1<<17 {
			t.Fatalf("%q: a text of %d bytes", expr, len(s))
		}
		if ok && !strings.Contains(expr, `\b`) && !strings.Contains(expr, `\B`) && !strings.Contains(expr, "[^") && !strings.Contains(expr, `\W`) && !strings.Contains(expr, `\S`) && !strings.Contains(expr, `\D`) && !re.MatchString(s) {
			t.Logf("%q: %q does not match (the test's answer is checked against it afterwards)", expr, s)
		}
	})
}
