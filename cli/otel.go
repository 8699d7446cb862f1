package cli

import (
	"context"

	"github.com/gramc-dev/gramc/runtime/otelexport"
)

// startTelemetry is otelexport.Start as gramc run and gramc mcp start it
// (prog: "gramc run"): an environment it cannot read is a usage error.
// stop flushes what is buffered (defer it; with nothing exported it does
// nothing).
func startTelemetry(ctx context.Context, e *env, prog string) (tel *otelexport.Setup, stop func(), err error) {
	tel, stop, err = otelexport.Start(ctx, e.stderr, otelexport.Config{Prog: prog, Service: "gramc", Version: versionString()})
	if err != nil {
		return nil, nil, usageErrorf("OpenTelemetry export: %v", err)
	}
	return tel, stop, nil
}
