package cli

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the server scenarios of the official MCP
// conformance suite (@modelcontextprotocol/conformance, pinned in
// testdata/mcpconformance) that apply to gramc mcp --http. The others
// cannot apply, for one of two reasons (docs/mcp.md, "MCP by the book"):
//
//   - they call a reference server's own tools, prompts or resources
//     (tools-call-*, json-schema-2020-12, completion-complete,
//     prompts-*, resources-*, elicitation-*, input-required-*, tasks-*,
//     sep-2640-*), which a gram package does not declare;
//   - they speak MCP 2026-07-28 over HTTP (server-stateless, caching,
//     http-header-validation, http-custom-header-server-validation,
//     sep-2164-resource-not-found): the go-sdk of go.mod (v1.8.0) accepts
//     that version only on a stateless HTTP server, and gramc mcp --http
//     keeps sessions (their idle expiry, docs/mcp.md, Security); over
//     stdio, 2026-07-28 and its non-object output schemas are served and
//     tested with the TypeScript SDK's v2 client (mcp_ts_client.txtar).
var conformanceScenarios = []string{
	"server-initialize",
	"server-session-lifecycle",
	"ping",
	"logging-set-level",
	"tools-list",
	"server-sse-multiple-streams",
	"dns-rebinding-protection",
}

// TestMCPConformance runs the official MCP conformance suite against gramc
// mcp --compiler --http: every applicable server scenario passes. Without
// Node 20 or the suite (npm ci in testdata/mcpconformance, which make
// test runs) it is skipped, saying why — or, with
// GRAMC_MCPCONFORMANCE_TEST=required (as .ci/run sets), it fails.
func TestMCPConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suite")
	}
	dir, err := filepath.Abs("testdata/mcpconformance")
	if err != nil {
		t.Fatal(err)
	}
	if why := conformanceMissing(dir); why != "" {
		if os.Getenv("GRAMC_MCPCONFORMANCE_TEST") == "required" { // CI: .ci/run
			t.Fatal(why)
		}
		t.Skip(why)
	}
	if _, err := exec.LookPath("gramc"); err != nil {
		t.Skip("no gramc on PATH (testscript.Main puts it there):", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command("gramc", "mcp", "--compiler", "--root", t.TempDir(), "--http", addr)
	var srvErr strings.Builder
	srv.Stderr = &srvErr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Kill() //nolint:errcheck // ending it
		srv.Wait()         //nolint:errcheck // killed
	}()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("gramc mcp --http did not listen: %s", srvErr.String())
		}
	}
	passed := regexp.MustCompile(`(?m)^Passed: (\d+)/(\d+), 0 failed`)
	for _, s := range conformanceScenarios {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, "node", "--import", "./node20.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js",
			"server", "--url", "http://"+addr+"/", "--scenario", s, "--output-dir", t.TempDir())
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
		out, err := cmd.CombinedOutput()
		cancel()
		m := passed.FindStringSubmatch(string(out))
		if err != nil || m == nil || m[1] != m[2] {
			t.Errorf("scenario %s: %v\n%s", s, err, out)
			continue
		}
		t.Logf("scenario %s: passed %s/%s", s, m[1], m[2])
	}
}

// conformanceMissing says what is missing to run the conformance suite
// ("" when nothing is).
func conformanceMissing(dir string) string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not installed: the MCP conformance suite needs Node 20 or later (and npm ci in cli/testdata/mcpconformance, which make test runs)"
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < 20 {
		return "node " + v + " is too old: the MCP conformance suite needs Node 20 or later"
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "package.json")); err != nil {
		return "@modelcontextprotocol/conformance is not installed: run npm ci in cli/testdata/mcpconformance (make test does)"
	}
	return ""
}
