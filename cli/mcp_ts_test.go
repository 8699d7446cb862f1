package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
	dir, err := filepath.Abs("testdata/mcpts")
	if err != nil {
		t.Fatal(err)
	}
	if why := nodeMissing(dir); why != "" {
		if os.Getenv("GRAMC_MCPTS_TEST") == "required" { // CI: .ci/run
			t.Fatal(why)
		}
		t.Skip(why)
	}
	runScripts(t, "testdata/script-node", func(env *testscript.Env) error {
		env.Setenv("MCPTS", dir)
		return nil
	})
}

// nodeMissing says what is missing to run the TypeScript SDK's clients
// ("" when nothing is).
func nodeMissing(dir string) string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not installed: the TypeScript MCP SDK's clients need Node 20 or later (and npm ci in cli/testdata/mcpts, which make test runs)"
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < 20 {
		return "node " + v + " is too old: the TypeScript MCP SDK's clients need Node 20 or later"
	}
	for _, pkg := range []string{"@modelcontextprotocol/sdk", "@modelcontextprotocol/client"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			return pkg + " is not installed: run npm ci in cli/testdata/mcpts (make test does)"
		}
	}
	return ""
}
