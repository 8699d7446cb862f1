package runtimetest

import (
	"errors"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gramc-dev/gramc/runtime"
)

// ResponseOptions are the go-cmp options under which two runs' Responses
// are the same run: an invocation's Duration aside, and a tool error equal
// by kind, message and tool (a resumed or durable run rebuilds the error
// value). The runtime's resume tests and the durable worker's use them.
var ResponseOptions = cmp.Options{
	cmpopts.IgnoreFields(runtime.Invocation{}, "Duration"),
	cmp.Comparer(func(a, b error) bool {
		var x, y *runtime.ToolCallError
		if errors.As(a, &x) != errors.As(b, &y) {
			return false
		}
		if x != nil {
			return x.Kind == y.Kind && x.Message == y.Message && x.Tool == y.Tool
		}
		return (a == nil) == (b == nil)
	}),
}
