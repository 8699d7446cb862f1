package check

import (
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

// TestCheckSources: the files of a package are checked in sorted order,
// each resolving the others' declarations, and a file with a syntax error
// is reported while the others are still checked.
func TestCheckSources(t *testing.T) {
	pkg, ds := loadSources(map[string][]byte{
		"b.gram": []byte("[agent:Agent {instruction: \"Help\", model: \"OpenAI/gpt-4o-mini\"} | greet]\n"),
		"a.gram": []byte("[greet:Tool {description: \"Greets\"} | (name::String)==>(::String)]\n"),
	})
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	if len(pkg.Files) != 2 || pkg.Files[0].Name != "a.gram" || pkg.Files[1].Name != "b.gram" {
		t.Fatalf("files not in sorted order: %v", pkg.Files)
	}
	if len(pkg.Agents) != 1 || len(pkg.Agents[0].Tools) != 1 || pkg.Agents[0].Tools[0] != pkg.Tools[0] {
		t.Fatalf("the agent in b.gram does not resolve the tool in a.gram")
	}

	// A file with a syntax error is reported; the other is still checked.
	_, ds = loadSources(map[string][]byte{
		"bad.gram":  []byte("[oops:Tool {description: \"x\"} |\n"),
		"good.gram": []byte("[t:Tool {description: \"d\"} | (x::Strng)==>(::String)]\n"),
	})
	var syntaxErr, typeErr bool
	for _, d := range ds {
		syntaxErr = syntaxErr || (d.Range.File == "bad.gram" && d.Code == diag.CodeSyntax)
		typeErr = typeErr || (d.Range.File == "good.gram" && d.Code == diag.CodeUnknownType)
	}
	if !syntaxErr || !typeErr {
		t.Fatalf("want a syntax error in bad.gram and unknown-type in good.gram, got %v", ds)
	}
}

// TestLegacyParamNameFixChecksClean: applying legacy-param-name's
// suggestion (it replaces the node) gives code that checks without any
// diagnostic, with the node's other properties kept (issue 11.2).
func TestLegacyParamNameFixChecksClean(t *testing.T) {
	src := `[greet:Tool {description: "Greets"} |
  (::String {paramName: "who", description: "Who to greet"})==>(::String)
]
[wave:Tool {description: "Waves"} |
  (::String {paramName: "who", default: "you"})==>(::String)
]
`
	_, ds := loadSource("legacy.gram", []byte(src))
	fixed := src
	n := 0
	for i := len(ds) - 1; i >= 0; i-- { // from the end, so offsets stay valid
		d := ds[i]
		if d.Code != diag.CodeLegacyParamName {
			t.Fatalf("unexpected %s", d.Error())
		}
		fixed = fixed[:d.Range.Start.Offset] + d.Suggestion + fixed[d.Range.End.Offset:]
		n++
	}
	if n != 2 {
		t.Fatalf("%d legacy-param-name warnings, want 2", n)
	}
	pkg, ds := loadSource("fixed.gram", []byte(fixed))
	if len(ds) != 0 {
		t.Fatalf("the fixed source does not check clean:\n%s\n%v", fixed, ds)
	}
	if p := pkg.Tools[0].Params[0]; p.Name != "who" || p.Description != "Who to greet" {
		t.Errorf("fixed parameter: %+v", p)
	}
	if p := pkg.Tools[1].Params[0]; p.Name != "who" || !p.HasDefault {
		t.Errorf("fixed parameter: %+v", p)
	}
}
