package check

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckParamValuesAgreesWithChecker: what CheckParamValues says of a
// parameter's values is what the checker says of the parameter written as
// gram — the same errors and warnings, code, summary and detail alike —
// and it names the property each is of. The parameter's type is the one
// the checker lowered (a record's fields, an enum's values).
func TestCheckParamValuesAgreesWithChecker(t *testing.T) {
	num := func(s string) *json.Number { n := json.Number(s); return &n }
	cnt := func(i int64) *int64 { return &i }
	big := "1" + strings.Repeat("0", 399) // beyond float64, within MaxNumberLength
	const decls = `[Point:Type | (x::Integer), (y::Integer {default: 0})]
[Color:Enum {values: ["red", "green"]}]
[Size:Enum {values: [1, 2]}]
`
	cases := []struct {
		param string // the parameter's label and properties as written
		pv    ParamValues
		keys  []string // the properties spoken of
	}{
		{`String {default: "abc", pattern: "^a"}`, ParamValues{Constraints: &Constraints{Pattern: "^a"}, Default: "abc", HasDefault: true}, nil},
		{`String {default: "xyz", pattern: "^a"}`, ParamValues{Constraints: &Constraints{Pattern: "^a"}, Default: "xyz", HasDefault: true}, []string{"default"}},
		{`String {pattern: "a("}`, ParamValues{Constraints: &Constraints{Pattern: "a("}}, []string{"pattern"}},
		{`String {pattern: "(?i)a", default: "A"}`, ParamValues{Constraints: &Constraints{Pattern: "(?i)a"}, Default: "A", HasDefault: true}, []string{"pattern"}},
		{`String {pattern: "(?=a)", default: "b"}`, ParamValues{Constraints: &Constraints{Pattern: "(?=a)"}, Default: "b", HasDefault: true}, []string{"pattern"}},
		{`Integer {default: 7, minimum: 1, maximum: 5}`, ParamValues{Constraints: &Constraints{Minimum: num("1"), Maximum: num("5")}, Default: json.Number("7"), HasDefault: true}, []string{"default"}},
		{`Number {minimum: 9, maximum: 5}`, ParamValues{Constraints: &Constraints{Minimum: num("9"), Maximum: num("5")}}, []string{"maximum"}},
		{`Number {exclusiveMinimum: 5, exclusiveMaximum: 5}`, ParamValues{Constraints: &Constraints{ExclusiveMinimum: num("5"), ExclusiveMaximum: num("5")}}, []string{"exclusiveMaximum"}},
		{`Number {minimum: 1, exclusiveMaximum: 1}`, ParamValues{Constraints: &Constraints{Minimum: num("1"), ExclusiveMaximum: num("1")}}, []string{"exclusiveMaximum"}},
		{`Number {maximum: ` + big + `, default: 3}`, ParamValues{Constraints: &Constraints{Maximum: num(big)}, Default: json.Number("3"), HasDefault: true}, []string{"maximum"}},
		{`Number {default: ` + big + `}`, ParamValues{Default: json.Number(big), HasDefault: true}, []string{"default"}},
		{`String {minLength: 4, maxLength: 2}`, ParamValues{Constraints: &Constraints{MinLength: cnt(4), MaxLength: cnt(2)}}, []string{"maxLength"}},
		{`Array {elementType: String, minItems: 3, maxItems: 1}`, ParamValues{Constraints: &Constraints{MinItems: cnt(3), MaxItems: cnt(1)}}, []string{"maxItems"}},
		{`Integer {examples: ["7", 3]}`, ParamValues{Examples: []any{"7", json.Number("3")}}, []string{"examples"}},
		{`Integer {examples: [2.5]}`, ParamValues{Examples: []any{json.Number("2.5")}}, []string{"examples"}},
		{`Integer {default: 99999999999999999999}`, ParamValues{Default: json.Number("99999999999999999999"), HasDefault: true}, []string{"default"}},
		{`Boolean {default: "yes"}`, ParamValues{Default: "yes", HasDefault: true}, []string{"default"}},
		{`Number {default: true}`, ParamValues{Default: true, HasDefault: true}, []string{"default"}},
		{`Integer {default: 3, enum: [1, 2]}`, ParamValues{Constraints: &Constraints{Enum: []any{json.Number("1"), json.Number("2")}}, Default: json.Number("3"), HasDefault: true}, []string{"default"}},
		{`Integer {enum: [1, 99999999999999999999, 2.5]}`, ParamValues{Constraints: &Constraints{Enum: []any{json.Number("1"), json.Number("99999999999999999999"), json.Number("2.5")}}}, []string{"enum", "enum"}},
		{`String {enum: ["a", "b", "a"], default: "c"}`, ParamValues{Constraints: &Constraints{Enum: []any{"a", "b", "a"}}, Default: "c", HasDefault: true}, []string{"enum", "default"}},
		{`String {default: "a long enough value that the message truncates it", maxLength: 3}`, ParamValues{Constraints: &Constraints{MaxLength: cnt(3)}, Default: "a long enough value that the message truncates it", HasDefault: true}, []string{"default"}},
		{`String {examples: ["ab", "abcdef"], maxLength: 3, default: "abcd"}`, ParamValues{Constraints: &Constraints{MaxLength: cnt(3)}, Examples: []any{"ab", "abcdef"}, Default: "abcd", HasDefault: true}, []string{"examples", "default"}},
		// Arrays: the examples are one array; a default's elements are of the element type.
		{`Array {elementType: Integer, examples: [1, "two"]}`, ParamValues{Examples: []any{json.Number("1"), "two"}}, []string{"examples"}},
		{`Array {elementType: Integer, examples: [1, 2]}`, ParamValues{Examples: []any{json.Number("1"), json.Number("2")}}, nil},
		{`Array {elementType: Integer, default: [1, 2.5, "x"], maxItems: 2}`, ParamValues{Constraints: &Constraints{MaxItems: cnt(2)}, Default: []any{json.Number("1"), json.Number("2.5"), "x"}, HasDefault: true}, []string{"default", "default"}},
		{`Array {elementType: String, default: ["a", "a"], uniqueItems: true}`, ParamValues{Constraints: &Constraints{UniqueItems: true}, Default: []any{"a", "a"}, HasDefault: true}, []string{"default"}},
		{`Array {elementType: Color, default: ["red", "blue"]}`, ParamValues{Default: []any{"red", "blue"}, HasDefault: true}, []string{"default"}},
		{`String {default: ["a"]}`, ParamValues{Default: []any{"a"}, HasDefault: true}, []string{"default"}},
		// Records: fields of their types, the required ones given, no other.
		{`Point {default: {x: 1}}`, ParamValues{Default: map[string]any{"x": json.Number("1")}, HasDefault: true}, nil},
		{`Point {default: {y: 1}}`, ParamValues{Default: map[string]any{"y": json.Number("1")}, HasDefault: true}, []string{"default"}},
		{`Point {default: {x: "1", z: 2, w: 3}}`, ParamValues{Default: map[string]any{"x": "1", "z": json.Number("2"), "w": json.Number("3")}, HasDefault: true}, []string{"default", "default", "default"}},
		{`Point {default: 3}`, ParamValues{Default: json.Number("3"), HasDefault: true}, []string{"default"}},
		// Enums and objects.
		{`Color {default: "green"}`, ParamValues{Default: "green", HasDefault: true}, nil},
		{`Color {default: "gren"}`, ParamValues{Default: "gren", HasDefault: true}, []string{"default"}},
		{`Color {default: 1}`, ParamValues{Default: json.Number("1"), HasDefault: true}, []string{"default"}},
		{`Size {default: 3, examples: [1.5]}`, ParamValues{Default: json.Number("3"), HasDefault: true, Examples: []any{json.Number("1.5")}}, []string{"examples", "default"}},
		{`Size {default: ` + big + `}`, ParamValues{Default: json.Number(big), HasDefault: true}, []string{"default"}},
		{`Object {default: {a: 1, b: "c"}}`, ParamValues{Default: map[string]any{"a": json.Number("1"), "b": "c"}, HasDefault: true}, nil},
		{`Object {default: "c"}`, ParamValues{Default: "c", HasDefault: true}, []string{"default"}},
	}
	for _, tc := range cases {
		t.Run(truncate(tc.param, 60), func(t *testing.T) {
			src := decls + fmt.Sprintf("[f:Tool {description: \"d\"} |\n  (x::%s) ==>\n  (::String)\n]\n", tc.param)
			pkg, ds := loadSource("p.gram", []byte(src))
			var want []ValueDiagnostic
			for _, d := range ds {
				want = append(want, ValueDiagnostic{Severity: d.Severity, Code: d.Code, Summary: d.Summary, Detail: d.Detail})
			}
			if len(pkg.Tools) != 1 || len(pkg.Tools[0].Params) != 1 {
				t.Fatalf("the tool did not lower: %v", ds)
			}
			tc.pv.Name = "x"
			tc.pv.Type = pkg.Tools[0].Params[0].Type
			got := CheckParamValues(tc.pv)
			var keys []string
			for i := range got {
				keys = append(keys, got[i].Key)
				got[i].Key = ""
			}
			if diff := cmp.Diff(tc.keys, keys); diff != "" {
				t.Errorf("keys spoken of (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
				t.Errorf("against the checker's diagnostics (-checker +CheckParamValues):\n%s", diff)
			}
		})
	}
}

// TestCheckParamValuesRecordRequires: a record's field is required by
// the TypeDecl given (Param.Required), so a caller that drops a field's
// default sees the defaults of the record that leave it out refused.
func TestCheckParamValuesRecordRequires(t *testing.T) {
	y := &Param{Name: "y", Type: &Type{Kind: Integer}, Optional: true, HasDefault: true}
	point := &Type{Kind: Record, Decl: &TypeDecl{Name: "Point", Fields: []*Param{{Name: "x", Type: &Type{Kind: Integer}}, y}}}
	pv := ParamValues{Name: "p", Type: point, Default: map[string]any{"x": json.Number("1")}, HasDefault: true}
	if got := CheckParamValues(pv); len(got) != 0 {
		t.Fatalf("y has a default: %v", got)
	}
	y.Optional, y.HasDefault = false, false
	got := CheckParamValues(pv)
	if len(got) != 1 || got[0].Key != "default" || got[0].Summary != "default of parameter p lacks the required field y" {
		t.Fatalf("y is required: %+v", got)
	}
}

func sorted(ds []ValueDiagnostic) []ValueDiagnostic {
	out := append([]ValueDiagnostic(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Summary < out[j].Summary })
	return out
}
