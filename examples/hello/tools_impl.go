// Started from `gramc gen --stubs`; this file is ours: gramc never
// overwrites it.

package main

import (
	"context"
	"strings"
)

// ToolsImpl implements Tools.
type ToolsImpl struct{}

var _ Tools = ToolsImpl{}

// SayHello implements the gram tool "sayHello". The runtime has already
// validated the arguments and filled in the default name ("world").
func (ToolsImpl) SayHello(ctx context.Context, args SayHelloArgs) (SayHelloResult, error) {
	name := strings.TrimSpace(args.PersonName)
	return "Hello, " + name + "!", nil
}
