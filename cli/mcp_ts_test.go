package cli

import (
	"testing"

	"github.com/gramc-dev/gramc/internal/nodetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestTypeScriptSDKClient runs the scripts of testdata/script-node: gramc
// mcp driven by the official TypeScript MCP SDK's clients (v1,
// @modelcontextprotocol/sdk, at MCP 2025-11-25; v2,
// @modelcontextprotocol/client, at 2025-11-25 and 2026-07-28), installed
// in testdata/mcpts by npm ci (make test runs it). Without Node 20 or
// later, or without the installed SDK, it is skipped, saying why — or,
// with GRAMC_MCPTS_TEST=required (as .ci/run sets), it fails.
func TestTypeScriptSDKClient(t *testing.T) {
	dir := nodetest.Require(t, "GRAMC_MCPTS_TEST", "testdata/mcpts", "the TypeScript MCP SDK's clients",
		"run npm ci in cli/testdata/mcpts (make test does)", "@modelcontextprotocol/sdk", "@modelcontextprotocol/client")
	runScripts(t, "testdata/script-node", func(env *testscript.Env) error {
		env.Setenv("MCPTS", dir)
		return nil
	})
}
