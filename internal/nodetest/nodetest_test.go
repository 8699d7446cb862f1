package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissing: a package absent from dir's node_modules is named with
// how to install it; present, nothing is missing.
func TestMissing(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on PATH")
	}
	dir := t.TempDir()
	if why := Missing(dir, "the test", "run npm ci", "zod"); why != "zod is not installed: run npm ci" && !strings.Contains(why, "too old") {
		t.Errorf("absent package: %q", why)
	}
	pkg := filepath.Join(dir, "node_modules", "@scope", "zod")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if why := Missing(dir, "the test", "run npm ci", "@scope/zod"); why != "" && !strings.Contains(why, "too old") {
		t.Errorf("present package: %q", why)
	}
}
