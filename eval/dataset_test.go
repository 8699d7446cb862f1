package eval

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const datasetPkg = `
[Ticket:Type | (id::String), (tags::Array {elementType: String})]
[triage:Tool {description: "Triages a ticket"} | (ticket::Ticket)==>(::Array {elementType: Ticket})]
[helper:Agent {instruction: "Greet", model: "OpenAI/gpt-4o-mini"} | sayHello, triage]
[sayHello:Tool {description: "Greets"} | (personName::String {default: "world"})==>(::String)]
`

// TestDataset: every line's case becomes a :Test, checked as one; bad
// lines are each reported at FILE:LINE, all of them at once.
func TestDataset(t *testing.T) {
	pkg := loadPackage(t, datasetPkg)
	var b strings.Builder
	for i := range 200 {
		switch i {
		case 41:
			b.WriteString(`{"agent": "helper", "input": "x", "calls": [{"tool": "sayHello", "args": {"personName": 3}, "returns": "Hi"}]}` + "\n")
		case 150:
			b.WriteString(`{"agent": "helper", "input": "x", "answerContain": "oops"}` + "\n")
		default:
			fmt.Fprintf(&b, `{"agent": "helper", "input": "Hello, I am \"P%d\"\n", "answerContains": ["Hi", "P%d"], "calls": [{"tool": "sayHello", "args": {"personName": "P%d"}, "returns": "Hi, P%d"}]}`+"\n", i, i, i, i)
		}
	}
	_, err := ReadDataset("cases.jsonl", strings.NewReader(b.String()), pkg)
	var de *DatasetError
	if !errors.As(err, &de) || len(de.Problems) != 2 {
		t.Fatalf("want two problems, got %v", err)
	}
	if !strings.HasPrefix(de.Problems[0], "cases.jsonl:42: ") || !strings.Contains(de.Problems[0], "personName") {
		t.Errorf("line 42: %s", de.Problems[0])
	}
	if !strings.HasPrefix(de.Problems[1], "cases.jsonl:151: ") || !strings.Contains(de.Problems[1], `unknown field "answerContain"; did you mean answerContains?`) {
		t.Errorf("line 151: %s", de.Problems[1])
	}

	good := strings.NewReader(`{"agent": "helper", "input": "T-1 is about billing", "answerContains": "billing", "calls": [{"tool": "triage", "args": {"ticket": {"id": "T-1", "tags": ["billing"]}}, "returns": [{"id": "T-1", "tags": ["billing", "urgent` + "`" + `"]}]}]}

{"name": "greetsAda", "agent": "helper", "input": "Hello, I am Ada", "callOrder": "anyOrder"}
`)
	tests, err := ReadDataset("cases.jsonl", good, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 2 || tests[0].Name != "cases.jsonl:1" || tests[1].Name != "greetsAda" || !tests[1].AnyOrder {
		t.Fatalf("tests: %v", tests)
	}
	if got := tests[0].Calls[0].Args["ticket"]; fmt.Sprint(got) != "map[id:T-1 tags:[billing]]" {
		t.Errorf("the JSON argument: %v", got)
	}
	if tests[0].Range.Start.Line != 1 || tests[1].Range.Start.Line != 3 {
		t.Errorf("lines %d, %d", tests[0].Range.Start.Line, tests[1].Range.Start.Line)
	}
}
