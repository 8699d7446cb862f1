package check

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gramc-dev/gramc/diag"
)

// TestCheckParamValuesAgreesWithChecker: what CheckParamValues refuses of
// a parameter is what the checker refuses of it written as gram, code,
// summary and detail alike, and what it accepts checks.
func TestCheckParamValuesAgreesWithChecker(t *testing.T) {
	num := func(s string) *json.Number { n := json.Number(s); return &n }
	cnt := func(i int64) *int64 { return &i }
	cases := []struct {
		gram string // the parameter's properties as written
		pv   ParamValues
		keys []string // the properties refused
	}{
		{`{default: "abc", pattern: "^a"}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{Pattern: "^a"}, Default: "abc", HasDefault: true}, nil},
		{`{default: "xyz", pattern: "^a"}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{Pattern: "^a"}, Default: "xyz", HasDefault: true}, []string{"default"}},
		{`{pattern: "a("}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{Pattern: "a("}}, []string{"pattern"}},
		{`{default: 7, minimum: 1, maximum: 5}`, ParamValues{Type: &Type{Kind: Integer}, Constraints: &Constraints{Minimum: num("1"), Maximum: num("5")}, Default: json.Number("7"), HasDefault: true}, []string{"default"}},
		{`{minimum: 9, maximum: 5}`, ParamValues{Type: &Type{Kind: Number}, Constraints: &Constraints{Minimum: num("9"), Maximum: num("5")}}, []string{"maximum"}},
		{`{exclusiveMinimum: 5, exclusiveMaximum: 5}`, ParamValues{Type: &Type{Kind: Number}, Constraints: &Constraints{ExclusiveMinimum: num("5"), ExclusiveMaximum: num("5")}}, []string{"exclusiveMaximum"}},
		{`{minLength: 4, maxLength: 2}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{MinLength: cnt(4), MaxLength: cnt(2)}}, []string{"maxLength"}},
		{`{examples: ["7", 3]}`, ParamValues{Type: &Type{Kind: Integer}, Examples: []any{"7", json.Number("3")}}, []string{"examples"}},
		{`{examples: [2.5]}`, ParamValues{Type: &Type{Kind: Integer}, Examples: []any{json.Number("2.5")}}, []string{"examples"}},
		{`{default: 99999999999999999999}`, ParamValues{Type: &Type{Kind: Integer}, Default: json.Number("99999999999999999999"), HasDefault: true}, []string{"default"}},
		{`{default: "yes"}`, ParamValues{Type: &Type{Kind: Boolean}, Default: "yes", HasDefault: true}, []string{"default"}},
		{`{default: true}`, ParamValues{Type: &Type{Kind: Number}, Default: true, HasDefault: true}, []string{"default"}},
		{`{default: 3, enum: [1, 2]}`, ParamValues{Type: &Type{Kind: Integer}, Constraints: &Constraints{Enum: []any{json.Number("1"), json.Number("2")}}, Default: json.Number("3"), HasDefault: true}, []string{"default"}},
		{`{default: "a long enough value that the message truncates it", maxLength: 3}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{MaxLength: cnt(3)}, Default: "a long enough value that the message truncates it", HasDefault: true}, []string{"default"}},
		{`{examples: ["ab", "abcdef"], maxLength: 3, default: "abcd"}`, ParamValues{Type: &Type{Kind: String}, Constraints: &Constraints{MaxLength: cnt(3)}, Examples: []any{"ab", "abcdef"}, Default: "abcd", HasDefault: true}, []string{"examples", "default"}},
	}
	for _, tc := range cases {
		t.Run(tc.gram, func(t *testing.T) {
			kind := tc.pv.Type.Kind.String()
			src := fmt.Sprintf("[f:Tool {description: \"d\"} |\n  (x::%s %s) ==>\n  (::String)\n]\n", kind, tc.gram)
			_, ds := loadSource("p.gram", []byte(src))
			var want []Refusal
			for _, d := range ds {
				if d.Severity == diag.Error {
					want = append(want, Refusal{Code: d.Code, Summary: d.Summary, Detail: d.Detail})
				}
			}
			tc.pv.Name = "x"
			got := CheckParamValues(tc.pv)
			var keys []string
			for i := range got {
				keys = append(keys, got[i].Key)
				got[i].Key = ""
			}
			if diff := cmp.Diff(tc.keys, keys); diff != "" {
				t.Errorf("keys refused (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
				t.Errorf("refusals against the checker's errors (-checker +CheckParamValues):\n%s", diff)
			}
		})
	}
}

func sorted(rs []Refusal) []Refusal {
	out := append([]Refusal(nil), rs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].Summary < out[i].Summary {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
