package runtime

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A model's long number is rejected before validation with a message that
// names the limit (issue 12.2: a 10-million-digit number took minutes to
// validate, outside the tool timeout).
func TestLongNumberRejected(t *testing.T) {
	as, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("9", 1_000_000)
	_, err = as.prepareArgs(`{"city":"Paris","days":` + long + `}`)
	if err == nil {
		t.Fatal("a 1,000,000-digit number was accepted")
	}
	for _, want := range []string{"at '/days'", "1000000 characters", fmt.Sprint(MaxNumberLength)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Nested numbers too, and at the limit a number is fine.
	_, err = as.prepareArgs(`{"city":"x","stops":[{"name":"a","zoom":` + long[:MaxNumberLength+1] + `}]}`)
	if err == nil || !strings.Contains(err.Error(), "at '/stops/0/zoom'") {
		t.Errorf("nested long number: %v", err)
	}
	_, err = as.prepareArgs(`{"city":"x","days":` + long[:MaxNumberLength] + `}`)
	if err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Errorf("a number at the length limit should reach validation (maximum 14): %v", err)
	}
}

// strictSchema is an OpenAI strict-mode schema: a nullable property whose
// default is only in its description.
func strictSchema(def string) string {
	desc, _ := json.Marshal("A note. Default: " + def + ".")
	return `{"type":"object","properties":{"note":{"type":["string","null"],"description":` + string(desc) + `}},"required":["note"],"additionalProperties":false}`
}

// Defaults read from descriptions (strict mode) are found for every kind
// of value, including ones full of ". " (issue 12.8).
func TestDescribedDefaults(t *testing.T) {
	big := `"` + strings.Repeat("a. b", 20_000) + `"`
	for _, tc := range []struct{ desc, want string }{
		{`Temperature. Default: 3.`, `3`},
		{`Default: 2.5.`, `2.5`},
		{`Default: "x. y".`, `"x. y"`},
		{`Default: {"a":"b. c"}. More text.`, `{"a":"b. c"}`},
		{`Default: [1, 2]. Default: true.`, `true`},
		{`Default: null.`, `null`},
		{`Default: nope.`, ``},
		{`Default: 3`, ``},
		{`Default: ` + big + `.`, big},
	} {
		v, ok := describedDefault(tc.desc)
		got := ""
		if ok {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if got != tc.want && !(tc.want == big && got == big) {
			t.Errorf("describedDefault(%.60q) = %.60s, want %.60s", tc.desc, got, tc.want)
		}
	}
	as, err := compileArgSchema(json.RawMessage(strictSchema(big)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := as.prepareArgs(`{"note":null}`)
	if err != nil || !strings.Contains(string(out), "a. ba. b") {
		t.Errorf("strict default not applied: %.80s %v", out, err)
	}
}

// BenchmarkLongNumber: rejecting a long number is linear in its length
// (1x, 10x, 100x inputs; issue 12.2).
func BenchmarkLongNumber(b *testing.B) {
	as, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		args := `{"city":"Paris","days":` + strings.Repeat("9", n) + `}`
		b.Run(fmt.Sprintf("digits=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			for b.Loop() {
				if _, err := as.prepareArgs(args); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

// BenchmarkDescribedDefault: a call that omits a strict-mode parameter
// whose default is long (1x, 10x, 100x; issue 12.8). The first call reads
// the description; later calls reuse it.
func BenchmarkDescribedDefault(b *testing.B) {
	for _, n := range []int{900, 9_000, 90_000} {
		def := `"` + strings.Repeat("a. b", n/4) + `"`
		b.Run(fmt.Sprintf("bytes=%d", len(def)), func(b *testing.B) {
			b.SetBytes(int64(len(def)))
			for b.Loop() {
				v, ok := describedDefault("Default: " + def + ".")
				if !ok || v == nil {
					b.Fatal("not found")
				}
			}
		})
	}
}
