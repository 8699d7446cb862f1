package importer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/syntax"
)

// TestHostileDocuments: documents built to hurt give a clear error that
// names the limit, or warnings, in bounded work.
func TestHostileDocuments(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("openapi: 3.0.0\npaths: {}\ncomponents:\n  schemas:\n    L0: &l0 {type: object, properties: {a: {type: string}}}\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&bomb, "    L%d: &l%d {type: object, properties: {a: *l%d, b: *l%d}}\n", i, i, i-1, i-1)
	}
	var allOf strings.Builder
	allOf.WriteString(`{"$defs":{`)
	for i := range 60 {
		fmt.Fprintf(&allOf, `"A%d":{"allOf":[{"$ref":"#/$defs/A%d"},{"$ref":"#/$defs/A%d"}]},`, i, i+1, i+1)
	}
	allOf.WriteString(`"A60":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}},"type":"object","properties":{"r":{"$ref":"#/$defs/A0"}},"additionalProperties":false}`)
	var chain strings.Builder
	chain.WriteString(`{"$defs":{`)
	for i := range 1100 {
		fmt.Fprintf(&chain, `"D%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/D%d"}},"additionalProperties":false},`, i, i+1)
	}
	chain.WriteString(`"D1100":{"type":"string","enum":["x"]}}}`)
	// An MCP tool of n string parameters.
	wide := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"tools":[{"name":"wide","description":"W","inputSchema":{"type":"object","additionalProperties":false,"properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
		}
		b.WriteString(`}}}]}`)
		return b.String()
	}
	for _, tc := range []struct {
		name, doc string
		err       string    // the error's message, or
		warns     diag.Code // a warning's code
	}{
		{"deep JSON", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "nested deeper than 1000 levels (importer's limit)", ""},
		{"deep YAML", strings.Repeat("- ", 2000) + "x\n", "nested deeper than 1000 levels (importer's limit)", ""},
		{"a chain of references", chain.String(), "schemas nested deeper than 1000 levels (importer's limit)", ""},
		{"alias bomb", bomb.String(), "", diag.CodeImportOpenObject},
		{"allOf diamonds", allOf.String(), "", ""},
		{"alias in its anchor", "a: &a [*a]\n", "", ""},
		{"cyclic refs", `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"additionalProperties":false}`, "", diag.CodeImportRecursiveAlias},
		{"array of itself", `{"$defs":{"L":{"type":"array","items":{"$ref":"#/$defs/L"}}},"type":"object","properties":{"x":{"$ref":"#/$defs/L"}},"additionalProperties":false}`, "", diag.CodeImportRecursiveAlias},
		{"huge numbers", `{"type":"object","additionalProperties":false,"properties":{"n":{"type":"number","minimum":1e999999999}}}`, "", diag.CodeImportInvalidValue},
		{"wrong types", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":5}}}}]}`, `"type" is a type name or an array of them, not a number`, ""},
		{"required not an array", `{"type":"object","properties":{"x":{}},"required":"x"}`, `"required" is an array of names, not a string`, ""},
		{"too large", "{" + strings.Repeat(" ", importer.MaxSourceBytes) + "}", "larger than 67108864 bytes (importer.MaxSourceBytes)", ""},
		// A gram signature chains at most syntax.MaxNesting parameters.
		{"as many parameters as a signature holds", wide(syntax.MaxNesting), "", ""},
		{"more parameters than a signature holds", wide(syntax.MaxNesting + 1), `tool "wide" has 1001 parameters; a gram tool's signature chains at most 1000 (syntax.MaxNesting)`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := importer.Import([]importer.Source{{Name: "doc", Data: []byte(tc.doc)}})
			switch {
			case tc.err != "":
				var ie *importer.Error
				if !errors.As(err, &ie) || !strings.Contains(ie.Msg, tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
			case tc.name == "alias in its anchor":
				if err == nil {
					t.Fatal("no error")
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				found := tc.warns == ""
				for _, w := range res.Warnings {
					found = found || w.Code == tc.warns
				}
				if !found {
					t.Errorf("warnings %v, want %s", res.Warnings, tc.warns)
				}
			}
		})
	}
}

// TestLongNameWarning (issue 44, Low): a tool name of a mebibyte is
// renamed, and its warning names it in a bounded length, not whole.
func TestLongNameWarning(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	doc := `{"tools":[{"name":"` + long + `","description":"D","inputSchema":{"type":"object","additionalProperties":false,"properties":{"` + long + `":{"type":"string"}}}}]}`
	res, err := importer.Import([]importer.Source{{Name: "doc", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	renamed := 0
	for _, w := range res.Warnings {
		if w.Code != diag.CodeImportRenamed {
			continue
		}
		renamed++
		if len(w.Summary) > 600 || !strings.Contains(w.Summary, "1048576 bytes") {
			t.Errorf("a warning of %d bytes: %.200s", len(w.Summary), w.Summary)
		}
	}
	if renamed == 0 {
		t.Errorf("no rename of the tool: %v", res.Warnings)
	}
}
