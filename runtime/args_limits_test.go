package runtime

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/internal/limits"
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
	for _, want := range []string{"at '/days'", "1000000 characters", fmt.Sprint(limits.MaxNumberLength)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Nested numbers too, and at the limit a number is fine.
	_, err = as.prepareArgs(`{"city":"x","stops":[{"name":"a","zoom":` + long[:limits.MaxNumberLength+1] + `}]}`)
	if err == nil || !strings.Contains(err.Error(), "at '/stops/0/zoom'") {
		t.Errorf("nested long number: %v", err)
	}
	_, err = as.prepareArgs(`{"city":"x","days":` + long[:limits.MaxNumberLength] + `}`)
	if err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Errorf("a number at the length limit should reach validation (maximum 14): %v", err)
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
