package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/syntax"
)

// TestSchemaFilesReplacedAtomically: schema -o replaces an existing file
// with a new one rather than truncating and rewriting it in place, so a
// reader of the old file (or a crash mid-write) never sees half a schema.
func TestSchemaFilesReplacedAtomically(t *testing.T) {
	f, ds := syntax.ParseString("t.gram", `[now:Tool {description: "The time"} | ()==>(::String)]`)
	pkg, ds := check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "now.openai.json")
	old := "old contents, still complete\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	reader, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if err := writeSchemaFiles(dir, pkg.Tools, schema.OpenAI); err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(reader); string(got) != old {
		t.Errorf("a reader of the old file saw %q", got)
	}
	if got, _ := os.ReadFile(path); !strings.Contains(string(got), `"name": "now"`) {
		t.Errorf("new file = %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left in %s: %v", dir, ents)
	}
}
