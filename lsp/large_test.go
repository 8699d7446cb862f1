package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// TestLargeFileKeepsNoTree opens a file over keepTreeBytes: once its
// diagnostics are published the server holds no syntax tree of it (not in
// the file, the checked model or the index), and requests and an edit are
// answered from its text, model and index.
func TestLargeFileKeepsNoTree(t *testing.T) {
	text := string(gramgen.Document(6000))
	if len(text) <= keepTreeBytes {
		t.Fatalf("the document is %d bytes, not over keepTreeBytes (%d)", len(text), keepTreeBytes)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"big.gram": text})
	c := newTestClient(t, dir, clientOptions{})
	c.open("big.gram")
	if ds := c.diagnostics("big.gram")["big.gram"]; len(ds) != 0 {
		t.Fatalf("diagnostics of a valid document: %v", ds)
	}
	noTree := func(when string) {
		t.Helper()
		s := c.srv
		s.mu.Lock()
		defer s.mu.Unlock()
		key := filepath.Join(dir, "big.gram")
		f := s.ws.files[key]
		if f == nil || f.ast != nil {
			t.Fatalf("%s: the file keeps its tree (%v)", when, f)
		}
		r := s.ws.packageOf(key).result
		if r == nil {
			return // to be checked again: nothing held
		}
		for _, tree := range r.pkg.Files {
			if tree != nil {
				t.Errorf("%s: the checked model keeps the tree of %s", when, tree.Name)
			}
		}
		if fi := r.idx.files[key]; fi == nil || fi.tree != nil || !fi.built {
			t.Errorf("%s: the index of the file is not built whole, or keeps the tree", when)
		}
	}
	noTree("after the diagnostics")

	// The last tool's name, and a use of the Report type.
	lines := strings.Split(text, "\n")
	last := fmt.Sprintf("[tool_%d:Tool", 5999)
	toolLine, reportLine, reportCol := -1, -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, last) {
			toolLine = i
		}
		if j := strings.Index(l, "(::Report)"); j >= 0 && reportLine < 0 {
			reportLine, reportCol = i, j+3
		}
	}
	if toolLine < 0 || reportLine < 0 {
		t.Fatal("the generated document changed: no last tool or no use of Report")
	}
	answer := func(line string) string {
		t.Helper()
		res, err := c.run(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	toolAt := fmt.Sprintf("big.gram %d:3", toolLine+1)
	if h := answer("hover " + toolAt); !strings.Contains(h, "(variant 5999)") {
		t.Errorf("hover on the last tool: %s", h)
	}
	if d := answer(fmt.Sprintf("definition big.gram %d:%d", reportLine+1, reportCol+1)); !strings.Contains(d, `"line":`) {
		t.Errorf("definition of Report: %s", d)
	}
	if refs := answer(fmt.Sprintf("references big.gram %d:%d", reportLine+1, reportCol+1)); strings.Count(refs, `"uri"`) < 100 {
		t.Errorf("references of Report: %d", strings.Count(refs, `"uri"`))
	}
	if f := answer("folding big.gram"); strings.Count(f, "startLine") < 6000 {
		t.Errorf("folding ranges: %d, want one per tool at least", strings.Count(f, "startLine"))
	}
	res, err := c.server.SemanticTokensFull(c.ctx(), &protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("big.gram")}})
	if err != nil || len(res.Data) < 5*6000 {
		t.Errorf("semantic tokens: %v, %d numbers", err, len(res.Data))
	}
	noTree("after the requests")

	// An edit: the last tool's description changes, and hover says so.
	desc := strings.Index(lines[toolLine], `description: "`) + len(`description: "`)
	c.change("big.gram", protocol.Range{
		Start: protocol.Position{Line: uint32(toolLine), Character: uint32(desc)},
		End:   protocol.Position{Line: uint32(toolLine), Character: uint32(desc)},
	}, "Edited. ")
	if ds := c.diagnostics("big.gram")["big.gram"]; len(ds) != 0 {
		t.Fatalf("diagnostics after the edit: %v", ds)
	}
	if h := answer("hover " + toolAt); !strings.Contains(h, "Edited.") {
		t.Errorf("hover after the edit: %s", h)
	}
	noTree("after an edit")
}
