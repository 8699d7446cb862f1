package cli

import (
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/internal/nodetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestTypeScriptGenerated runs the scripts of testdata/script-ts: the
// TypeScript gramc gen --lang ts writes, compiled with tsc and run with
// Node — the examples' TypeScript MCP servers (examples/weather/ts,
// examples/triage/ts) under gramc run --mcp and gramc diff --against-mcp
// and the official TypeScript client, and a typed agent client calling
// gramc mcp --agents. The npm packages are codegen/typescript's
// (testdata/node, installed by make gents). Without Node 20 or the
// packages it is skipped, saying why — or, with GRAMC_TS_TEST=required
// (as .ci/run sets), it fails.
func TestTypeScriptGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles TypeScript")
	}
	dir := nodetest.Require(t, "GRAMC_TS_TEST", filepath.Join("..", "codegen", "typescript", "testdata", "node"), "the generated TypeScript's tests",
		"run make gents (npm ci in codegen/typescript/testdata/node)", "typescript", "zod", "@modelcontextprotocol/sdk")
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	runScripts(t, "testdata/script-ts", func(env *testscript.Env) error {
		env.Setenv("GENTS", dir)
		env.Setenv("EXAMPLES", examples)
		return scriptDefaults(env)
	})
}
