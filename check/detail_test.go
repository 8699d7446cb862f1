package check

import (
	"strings"
	"testing"
)

// TestAnonymousFieldDetail: a record field without a name is told how to
// name it, without the signature's "return type" advice that applies to
// tool parameters only.
func TestAnonymousFieldDetail(t *testing.T) {
	_, ds := LoadSource("a.gram", []byte("[Chain:Type | (::String)]\n"))
	var detail string
	for _, d := range ds {
		if d.Code == CodeAnonymousParameter {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, "(name::String)") || strings.Contains(detail, "return type") {
		t.Errorf("detail for an unnamed field = %q", detail)
	}
}
