package agenttest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTypedAnswerArray (issue 49): an answer's array field written as
// json`...` is held to the typed value: equal passes, a different array
// fails naming the field; answerContains reads the value's strings as
// written ("<" is not "\u003c").
func TestTypedAnswerArray(t *testing.T) {
	tests := loadTests(t, t.TempDir(), `
[Ticket:Type | (summary::String), (tags::Array {elementType: String})]
[triage:Agent {instruction: "Tag it.", model: "OpenAI/gpt-4o-mini"} | (ticket::String)==>(::Ticket)]
[tagged:Test {agent: "triage", input: {ticket: "x"}, answer: {tags: json`+"`"+`["billing", "refund"]`+"`"+`}, answerContains: "a <b>"}]
`)
	tt := tests["tagged"]
	for _, c := range []struct {
		value string
		fail  string // "" when the test passes
	}{
		{`{"summary": "a <b>", "tags": ["billing", "refund"]}`, ""},
		{`{"summary": "a <b>", "tags": ["billing"]}`, `the answer's tags is ["billing"], want ["billing","refund"]`},
		{`{"summary": "a b", "tags": ["billing", "refund"]}`, `the answer does not contain "a <b>"`},
	} {
		r := &Result{Test: tt, Value: json.RawMessage(c.value)}
		r.checkAnswer()
		var got []string
		for _, f := range r.Failures {
			got = append(got, f.Message)
		}
		switch {
		case c.fail == "" && len(got) > 0:
			t.Errorf("%s: %v", c.value, got)
		case c.fail != "" && (len(got) != 1 || !strings.Contains(got[0], c.fail)):
			t.Errorf("%s: failures %q, want one containing %q", c.value, got, c.fail)
		}
	}
}
