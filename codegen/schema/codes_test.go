package schema

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

// codeExamples are the documented example inputs of the lint codes
// (docs/schema.md); each must produce its code for the target, at the
// line given.
var codeExamples = []struct {
	code   diag.Code
	target Target
	line   int
	src    string
}{
	{diag.CodeTargetInvalidName, Gemini, 1, "[`9lives`:Tool {description: \"Counts lives\"} | ()==>(::Integer)]"},
	{diag.CodeTargetInvalidPropertyName, Gemini, 2, "[upload:Tool {description: \"Uploads\"} |\n  (`content-type`::String)==>(::Boolean)]"},
	{diag.CodeTargetRecursiveType, Gemini, 1, "[Comment:Type | (text::String), (replies::Array {elementType: Comment, optional: true})]\n[post:Tool {description: \"Posts\"} | (root::Comment)==>(::Boolean)]"},
	{diag.CodeTargetStrictFreeFormObject, OpenAIStrict, 2, "[store:Tool {description: \"Stores\"} |\n  (data::Object)==>(::Boolean)]"},
	{diag.CodeTargetStrictLimit, OpenAIStrict, 1, "[pick:Tool {description: \"Picks\"} | (choice::Integer {enum: [" + enumList(1001) + "]})==>(::Boolean)]"},
	{diag.CodeTargetKeywordInDescription, OpenAIStrict, 2, "[greet:Tool {description: \"Greets\"} |\n  (name::String {minLength: 1})==>(::String)]"},
	{diag.CodeTargetDefaultInDescription, OpenAIStrict, 2, "[greet:Tool {description: \"Greets\"} |\n  (name::String {default: \"world\"})==>(::String)]"},
	{diag.CodeTargetSchemaTooLarge, Gemini, 0, doubling(16)},
	{diag.CodeTargetEnumInDescription, Gemini, 1, "[Level:Enum {values: [1, 2, 3]}]\n[log:Tool {description: \"Logs\"} | (level::Level)==>(::Boolean)]"},
}

func enumList(n int) string {
	b := make([]byte, 0, n*5)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return string(b)
}

// doubling declares T0..Tn, each with two fields of the type before: 2^n
// copies when inlined.
func doubling(n int) string {
	var b strings.Builder
	b.WriteString("[T0:Type | (leaf::String)]\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[T%d:Type | (a%d::T%d), (b%d::T%d)]\n", i, i, i-1, i, i-1)
	}
	fmt.Fprintf(&b, "[big:Tool {description: \"Big\"} | (root::T%d)==>(::Boolean)]\n", n)
	return b.String()
}

func TestCodeExamples(t *testing.T) {
	seen := map[diag.Code]bool{}
	for _, ex := range codeExamples {
		pkg, ds := check.LoadSource("example.gram", []byte(ex.src))
		if ds.HasErrors() {
			t.Errorf("%s: example does not check: %v", ex.code, ds.Err())
			continue
		}
		found := false
		for _, d := range Lint(pkg, []Target{ex.target}) {
			if d.Code == ex.code && (ex.line == 0 || int(d.Range.Start.Line) == ex.line) && d.Range.File == "example.gram" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: not reported at line %d for %s: %v", ex.code, ex.line, ex.target, Lint(pkg, []Target{ex.target}))
		}
		seen[ex.code] = true
	}
	seen[diag.CodeTargetUnknown] = true // TestLintCodes
	for _, c := range []diag.Code{diag.CodeTargetInvalidName, diag.CodeTargetInvalidPropertyName, diag.CodeTargetRecursiveType, diag.CodeTargetStrictFreeFormObject,
		diag.CodeTargetStrictLimit, diag.CodeTargetSchemaTooLarge, diag.CodeTargetKeywordInDescription, diag.CodeTargetDefaultInDescription, diag.CodeTargetEnumInDescription, diag.CodeTargetUnknown} {
		if !seen[c] {
			t.Errorf("code %s has no example", c)
		}
	}
}
