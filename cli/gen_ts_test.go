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
	dir, err := filepath.Abs(filepath.Join("..", "codegen", "typescript", "testdata", "node"))
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	why := ""
	out, err := exec.Command("node", "--version").Output()
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	switch {
	case err != nil:
		why = "node is not installed: the generated TypeScript needs Node 20 or later (and make gents)"
	case major < 20:
		why = "node " + v + " is too old: the generated TypeScript needs Node 20 or later"
	}
	for _, pkg := range []string{"typescript", "zod", "@modelcontextprotocol/sdk"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); why == "" && err != nil {
			why = pkg + " is not installed: run make gents (npm ci in codegen/typescript/testdata/node)"
		}
	}
	if why != "" {
		if os.Getenv("GRAMC_TS_TEST") == "required" { // CI: .ci/run
			t.Fatal(why)
		}
		t.Skip(why)
	}
	runScripts(t, "testdata/script-ts", func(env *testscript.Env) error {
		env.Setenv("GENTS", dir)
		env.Setenv("EXAMPLES", examples)
		env.Setenv("OPENAI_API_KEY", "")
		env.Setenv("OPENAI_BASE_URL", "")
		for _, s := range scriptSetups {
			if err := s(env); err != nil {
				return err
			}
		}
		return nil
	})
}
