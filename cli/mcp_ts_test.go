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
	dir := requireNode(t, "GRAMC_MCPTS_TEST", "testdata/mcpts", "the TypeScript MCP SDK's clients",
		"run npm ci in cli/testdata/mcpts (make test does)", "@modelcontextprotocol/sdk", "@modelcontextprotocol/client")
	runScripts(t, "testdata/script-node", func(env *testscript.Env) error {
		env.Setenv("MCPTS", dir)
		return nil
	})
}

// requireNode returns dir made absolute, where install puts the npm
// packages pkgs that what needs beside Node 20 or later. When one of them
// is missing it skips t, saying why — or, with env=required (as .ci/run
// sets), fails it.
func requireNode(t *testing.T, env, dir, what, install string, pkgs ...string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if why := nodeMissing(abs, what, install, pkgs); why != "" {
		if os.Getenv(env) == "required" { // CI: .ci/run
			t.Fatalf("%s=required, but %s", env, why)
		}
		t.Skip(why)
	}
	return abs
}

// nodeMissing says what is missing of Node 20 or later and the packages
// pkgs in dir ("" when nothing is).
func nodeMissing(dir, what, install string, pkgs []string) string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not installed: " + what + " need Node 20 or later (then " + install + ")"
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < 20 {
		return "node " + v + " is too old: " + what + " need Node 20 or later"
	}
	for _, pkg := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			return pkg + " is not installed: " + install
		}
	}
	return ""
}
