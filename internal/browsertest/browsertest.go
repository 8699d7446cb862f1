// Package browsertest is what gramc's tests in a real browser share: the
// Chromium they drive (Debian's, through playwright-core) and the rule
// that they skip, saying why, unless GRAMC_BROWSER_TEST=required (as
// .ci/run sets it) makes a missing piece a failure. The playground's
// TestBrowser and eval's TestHTMLReportInBrowser use it.
package browsertest

import (
	"os"
	"os/exec"
	"testing"
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
