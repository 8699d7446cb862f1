// Package browsertest is what gramc's tests in a real browser share: the
// Chromium they drive (Debian's, through playwright-core) and the rule
// that they skip, saying why, unless GRAMC_BROWSER_TEST=required (as
// .ci/run sets it) makes a missing piece a failure. The playground's
// TestBrowser and eval's TestHTMLReportInBrowser use it, each with a
// script that playwright-core runs (Run) and that reads the browser, its
// flags (Args) and where to write its result from a JSON file.
package browsertest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/internal/nodetest"
)

// Chromium finds the browser: $GRAMC_CHROMIUM, else chromium on PATH
// ("" when there is none).
func Chromium() string {
	if p := os.Getenv("GRAMC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// SkipOrFail skips t, saying why, or fails it where the browser tests are
// required (GRAMC_BROWSER_TEST=required).
func SkipOrFail(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("GRAMC_BROWSER_TEST") == "required" {
		t.Fatalf("GRAMC_BROWSER_TEST=required, but %s", why)
	}
	t.Skip("the browser test does not run: " + why)
}

// Args are the flags Chromium runs with: headless, and nothing fetched
// but what the page asks for (playwright starts it with a fresh, empty
// --user-data-dir of its own and refuses one here).
var Args = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"}

// Require returns Chromium's path when the browser, node and the npm
// packages under modules (a node_modules directory) are there, and skips
// or fails t (SkipOrFail) naming the first one missing.
func Require(t testing.TB, modules string, packages ...string) string {
	t.Helper()
	browser := Chromium()
	if browser == "" {
		SkipOrFail(t, "no Chromium found (apt-get install chromium, or set GRAMC_CHROMIUM to its path)")
	}
	if fi, err := os.Stat(browser); err != nil || fi.IsDir() {
		SkipOrFail(t, "no Chromium at "+browser+" (GRAMC_CHROMIUM names the browser's program)")
	}
	if why := nodetest.Missing(filepath.Dir(modules), "the browser tests", "run make playground-test-setup", packages...); why != "" {
		SkipOrFail(t, why)
	}
	return browser
}

// Run runs script with node, modules and this package's directory on
// NODE_PATH (so the script's require("browsertest") is browsertest.js,
// which launches the browser and writes the result), on a JSON file of
// cfg and "chromium", "chromiumArgs" (Args) and "result", the file the
// script writes its result to: an object with the steps it took
// ("steps") and, when one failed, the error ("error"), and whatever else
// res decodes.
// It fails t when the script wrote no result, failed, or exited with an
// error.
func Run(t testing.TB, browser, modules, script string, cfg map[string]any, res any) {
	t.Helper()
	dir := t.TempDir()
	result := filepath.Join(dir, "result.json")
	all := map[string]any{"chromium": browser, "chromiumArgs": Args, "result": result}
	for k, v := range cfg {
		all[k] = v
	}
	b, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Base(script), cfgPath)
	cmd.Dir = filepath.Dir(script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules+string(os.PathListSeparator)+here())
	out, runErr := cmd.CombinedOutput()
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("%s wrote no result (%v): %v\n%s", script, runErr, err, out)
	}
	var done struct {
		Steps []string
		Error string
	}
	if err := json.Unmarshal(data, &done); err != nil {
		t.Fatalf("%s result %q: %v", script, data, err)
	}
	t.Logf("steps done: %s", strings.Join(done.Steps, "; "))
	if done.Error != "" || runErr != nil {
		t.Fatalf("in the browser: %s (%v)\n%s", done.Error, runErr, out)
	}
	if res != nil {
		if err := json.Unmarshal(data, res); err != nil {
			t.Fatalf("%s result %q: %v", script, data, err)
		}
	}
}

// here is this package's source directory, where browsertest.js is.
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}
