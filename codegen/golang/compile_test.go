package golang

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
)

// repoRoot is the module root, two directories up from this package.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the repository root %s: %v", root, err)
	}
	return root
}

// TestCompile generates code (with the implementation skeleton) for every
// example package and every hostile model, writes each into its own
// directory of a temporary module that replaces gramc with this tree, and
// runs go build and go vet on the lot (sqlc's endtoend approach). It needs
// no network: the module cache already holds every dependency.
func TestCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	root := repoRoot(t)
	pkgs := map[string]*check.Package{}
	for name, pkg := range hostileModels() {
		pkgs["hostile_"+name] = pkg
	}
	pkgs["handbuilt_weather"] = weatherModel()
	for _, ex := range examplePackages(t) {
		if ex.pkg != nil {
			pkgs["example_"+ex.id] = ex.pkg
		}
	}

	dir := t.TempDir()
	gomod := fmt.Sprintf("module gramctest\n\ngo 1.25\n\nrequire github.com/gramc-dev/gramc v0.0.0\n\nreplace github.com/gramc-dev/gramc => %s\n", root)
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)
	var ids []string
	for id := range pkgs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		files, err := Generate(Request{Package: pkgs[id], Stubs: true})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, f := range files {
			write(t, filepath.Join(dir, sanitizeDir(id), f.Name), f.Contents)
		}
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod "+os.Getenv("GOFLAGS"), "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
	}
}

func sanitizeDir(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var _ = bytes.Equal
