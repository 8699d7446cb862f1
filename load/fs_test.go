package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

// TestLoadFromFS: with Config.FS every pattern is read from that file
// system and nothing from disk — a directory, "dir/..." (testdata and
// "_" skipped), files named together, the root's "./..." — a file over
// the size limit or a directory named like a file is an unreadable-file
// diagnostic, and a path that leaves the root, or a name the FS lacks,
// is refused.
func TestLoadFromFS(t *testing.T) {
	tool := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("[" + name + ":Tool {description: \"d\"} | (x::String)==>(::String)]\n")}
	}
	fsys := fstest.MapFS{
		"a/one.gram":          tool("one"),
		"a/two.gram":          tool("two"),
		"a/b/three.gram":      tool("three"),
		"a/testdata/x.gram":   {Data: []byte("[broken")},
		"a/_skip/x.gram":      {Data: []byte("[broken")},
		"big/big.gram":        {Data: bytes.Repeat([]byte("// x\n"), 100)},
		"odd/dir.gram/x.gram": tool("x"),
	}
	// A name the FS lacks is not looked for on disk, though it is there.
	if err := os.WriteFile(filepath.Join(t.TempDir(), "disk.gram"), tool("disk").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	tools := func(patterns ...string) (n int, ds diag.Diagnostics, err error) {
		pkgs, ds, err := Packages(patterns, &Config{FS: fsys, MaxFileSize: 200})
		for _, p := range pkgs {
			n += len(p.Tools)
		}
		return n, ds, err
	}
	for _, c := range []struct {
		patterns []string
		want     int
	}{
		{[]string{"a"}, 2},
		{[]string{"./a/..."}, 3},
		{[]string{"a/one.gram", "a/b/three.gram"}, 2},
		{[]string{"./..."}, 4},
	} {
		n, ds, err := tools(c.patterns...)
		if err != nil || n != c.want {
			t.Errorf("%v: %d tools, %v; want %d", c.patterns, n, err, c.want)
		}
		for _, d := range ds {
			if c.patterns[0] != "./..." || d.Code != diag.CodeUnreadableFile {
				t.Errorf("%v: unexpected %s", c.patterns, d.Error())
			}
		}
	}
	if _, ds, err := tools("big"); err != nil || len(ds) != 1 || !strings.Contains(ds[0].Detail, "over the limit of 200") {
		t.Errorf("a file over the limit: %v, %v", ds, err)
	}
	if _, _, err := tools("../a"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("a path above the root: %v", err)
	}
	if _, _, err := tools(filepath.Join(t.TempDir(), "disk.gram")); !errors.Is(err, fs.ErrInvalid) && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file on disk, not in the FS: %v", err)
	}
	if _, _, err := tools("nothere.gram"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a name the FS lacks: %v", err)
	}
}

// TestDiagnosticsPipeline: Diagnostics writes what Check found in the
// format asked, bounded (diag.MaxSameCode of a code in a file) unless
// All, with text's excerpts read through the same FS; an unused
// gramc:ignore is reported unless Partial; Amend and Configure run at
// their places.
func TestDiagnosticsPipeline(t *testing.T) {
	src := "// gramc:ignore unknown-property -- nothing here\n" + strings.Repeat("[]\n", diag.MaxSameCode+5)
	cfg := &Config{FS: fstest.MapFS{"a.gram": {Data: []byte(src)}}}
	var b bytes.Buffer
	rep, err := Diagnostics(&b, []string{"a.gram"}, cfg, CheckOptions{}, diag.RenderOptions{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	var shown []struct{ Code string }
	if err := json.Unmarshal(b.Bytes(), &shown); err != nil {
		t.Fatal(err)
	}
	if len(rep.Diagnostics) != diag.MaxSameCode+6 || len(shown) != diag.MaxSameCode+2 {
		t.Errorf("%d diagnostics, %d shown; want %d and %d", len(rep.Diagnostics), len(shown), diag.MaxSameCode+6, diag.MaxSameCode+2)
	}
	if shown[0].Code != string(diag.CodeUnusedIgnore) {
		t.Errorf("first shown %s, want the unused suppression", shown[0].Code)
	}
	b.Reset()
	amended, configured := false, false
	rep, err = Diagnostics(&b, []string{"a.gram"}, cfg, CheckOptions{
		Partial: true,
		Amend: func(pkgs []*check.Package, ds diag.Diagnostics) ([]*check.Package, diag.Diagnostics, error) {
			amended = len(pkgs) == 1
			return pkgs, ds, nil
		},
		Configure: func(ds diag.Diagnostics) diag.Diagnostics { configured = true; return ds[:1] },
	}, diag.RenderOptions{Format: "text"})
	if err != nil || !amended || !configured || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code == diag.CodeUnusedIgnore {
		t.Errorf("Partial with steps: %v, amended %v, configured %v, %v", err, amended, configured, rep.Diagnostics)
	}
	if !strings.Contains(b.String(), "\n    []\n") || !strings.HasSuffix(b.String(), "1 warning\n") {
		t.Errorf("text: the excerpt from the FS and the count line, got:\n%s", b.String())
	}
}
