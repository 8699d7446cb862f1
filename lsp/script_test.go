package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/rogpeppe/go-internal/txtar"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestScripts runs the protocol scripts of testdata/*.txtar. Each archive
// holds the workspace's files, a "script" of editor actions and requests,
// and a "golden" section: every request's answer as JSON, with file URIs
// relative to the workspace (and the documentation's copy as $GRAMC_DOCS). GRAMC_UPDATE=1 rewrites the golden sections.
//
// Script lines (positions are 1-based line:column, columns in UTF-16
// units; "settings JSON" before the first line sets initializationOptions):
//
//	open FILE                  didOpen with the file's text
//	edit FILE L:C-L:C "TEXT"   an incremental didChange (TEXT is a Go string)
//	close FILE
//	diagnostics FILE [FILE...] wait for FILE's current version; print each
//	hover FILE L:C
//	definition FILE L:C
//	references FILE L:C
//	highlight FILE L:C
//	signature FILE L:C         signature help
//	completion FILE L:C        labels, kinds and edits
//	format FILE
//	rangeformat FILE L:C-L:C
//	prepare-rename FILE L:C
//	rename FILE L:C NAME
//	codeaction FILE L:C-L:C
//	tokens FILE                decoded: line:col length type modifiers text
//	folding FILE
//	symbols FILE
//	workspace-symbols QUERY
//	shutdown                   shutdown and exit; prints how the server ended
func TestScripts(t *testing.T) { runScripts(t) }

func runScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runScript(t, path)
		})
	}
}

// TestScriptsKeepingNoTree runs every script with no syntax tree kept
// between requests, as for a file over keepTreeBytes: each answer must be
// the one the server gives with the trees (the same golden sections), so
// the index and the model must hold all a request reads.
func TestScriptsKeepingNoTree(t *testing.T) {
	if os.Getenv("GRAMC_UPDATE") != "" {
		t.Skip("the golden sections are TestScripts'")
	}
	defer func(n int) { keepTreeBytes = n }(keepTreeBytes)
	keepTreeBytes = -1
	runScripts(t)
}

func runScript(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var script string
	texts := map[string]string{}
	for _, f := range ar.Files {
		switch f.Name {
		case "script":
			script = string(f.Data)
		case "golden":
		default:
			texts[f.Name] = string(f.Data)
		}
	}
	writeFiles(t, dir, texts)
	opts := clientOptions{snippets: true}
	lines := strings.Split(script, "\n")
	if len(lines) > 0 {
		if rest, ok := strings.CutPrefix(lines[0], "settings "); ok {
			opts.initOptions = rest
			lines = lines[1:]
		}
	}
	c := newTestClient(t, dir, opts)
	var out bytes.Buffer
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(&out, "> %s\n", line)
		res, err := c.run(line)
		if err != nil {
			fmt.Fprintf(&out, "error: %v\n", err)
			continue
		}
		if res != nil {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			out.Write(relativize(b.Bytes(), dir))
		}
	}
	golden.Section(t, path, ar, "golden", out.Bytes())
}

// relativize writes the workspace's file URIs as bare names.
func relativize(b []byte, dir string) []byte {
	prefix := string(uri.File(dir)) + "/"
	b = bytes.ReplaceAll(b, []byte(prefix), nil)
	// The documentation's copy lives in this machine's cache directory.
	if docs := docsDir(); docs != "" {
		b = bytes.ReplaceAll(b, []byte(string(uri.File(docs))+"/"), []byte("$GRAMC_DOCS/"))
	}
	return b
}

func parsePos(s string) (protocol.Position, error) {
	l, c, ok := strings.Cut(s, ":")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	if !ok || err1 != nil || err2 != nil || line < 1 || col < 1 {
		return protocol.Position{}, fmt.Errorf("bad position %q (want LINE:COL, 1-based)", s)
	}
	return protocol.Position{Line: uint32(line - 1), Character: uint32(col - 1)}, nil
}

func parseRange(s string) (protocol.Range, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return protocol.Range{}, fmt.Errorf("bad range %q (want L:C-L:C)", s)
	}
	start, err := parsePos(a)
	if err != nil {
		return protocol.Range{}, err
	}
	end, err := parsePos(b)
	return protocol.Range{Start: start, End: end}, err
}

// run performs one script line and returns what to print (nil: nothing).
func (c *testClient) run(line string) (any, error) {
	f := strings.Fields(line)
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	doc := protocol.TextDocumentIdentifier{URI: c.uri(arg(1))}
	at := func() (protocol.TextDocumentPositionParams, error) {
		p, err := parsePos(arg(2))
		return protocol.TextDocumentPositionParams{TextDocument: doc, Position: p}, err
	}
	ctx := c.ctx()
	// The requests at a position: one line each.
	positional := map[string]func(p protocol.TextDocumentPositionParams) (any, error){
		"hover": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: p}))
		},
		"definition": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: p}))
		},
		"references": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.References(ctx, &protocol.ReferenceParams{TextDocumentPositionParams: p, Context: protocol.ReferenceContext{IncludeDeclaration: true}}))
		},
		"signature": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.SignatureHelp(ctx, &protocol.SignatureHelpParams{TextDocumentPositionParams: p}))
		},
		"highlight": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.DocumentHighlight(ctx, &protocol.DocumentHighlightParams{TextDocumentPositionParams: p}))
		},
		"prepare-rename": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.PrepareRename(ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: p}))
		},
		"rename": func(p protocol.TextDocumentPositionParams) (any, error) {
			return lspResult(c.server.Rename(ctx, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: arg(3)}))
		},
	}
	if request, ok := positional[f[0]]; ok {
		p, err := at()
		if err != nil {
			return nil, err
		}
		return request(p)
	}
	switch f[0] {
	case "shutdown":
		// shutdown, then exit: the server must end cleanly.
		if err := c.server.Shutdown(ctx); err != nil {
			return nil, err
		}
		if err := c.server.Exit(ctx); err != nil {
			return nil, err
		}
		select {
		case err := <-c.done:
			c.done <- err // for the cleanup
			if err != nil {
				return fmt.Sprintf("the server ended: %v", err), nil
			}
			return "the server ended cleanly", nil
		case <-time.After(waitLimit):
			return nil, fmt.Errorf("the server did not end after shutdown and exit")
		}
	case "open":
		c.open(arg(1))
		return nil, nil
	case "close":
		c.closeDoc(arg(1))
		return nil, nil
	case "edit":
		rg, err := parseRange(arg(2))
		if err != nil {
			return nil, err
		}
		_, quoted, _ := strings.Cut(line, arg(2)+" ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			return nil, fmt.Errorf("edit text: %v", err)
		}
		c.change(arg(1), rg, text)
		return nil, nil
	case "diagnostics":
		ds := c.diagnostics(arg(1), f[2:]...)
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range ds {
				if !yield(k) {
					return
				}
			}
		})
		type entry struct {
			File        string                `json:"file"`
			Diagnostics []protocol.Diagnostic `json:"diagnostics"`
		}
		var out []entry
		for _, n := range names {
			out = append(out, entry{n, ds[n]})
		}
		return lspJSON(out)
	case "completion":
		p, err := at()
		if err != nil {
			return nil, err
		}
		res, err := c.server.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: p})
		if err != nil {
			return nil, err
		}
		var items []string
		if l, ok := res.(*protocol.CompletionList); ok {
			for _, it := range l.Items {
				s := fmt.Sprintf("%s (%v)", it.Label, it.Kind)
				if te, ok := it.TextEdit.(*protocol.TextEdit); ok {
					s += fmt.Sprintf(" %d:%d-%d:%d %q", te.Range.Start.Line+1, te.Range.Start.Character+1, te.Range.End.Line+1, te.Range.End.Character+1, te.NewText)
				}
				items = append(items, s)
			}
		}
		return items, nil
	case "format":
		return lspResult(c.server.Formatting(ctx, &protocol.DocumentFormattingParams{TextDocument: doc}))
	case "rangeformat":
		rg, err := parseRange(arg(2))
		if err != nil {
			return nil, err
		}
		return lspResult(c.server.RangeFormatting(ctx, &protocol.DocumentRangeFormattingParams{TextDocument: doc, Range: rg}))
	case "codeaction":
		rg, err := parseRange(arg(2))
		if err != nil {
			return nil, err
		}
		return lspResult(c.server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: rg}))
	case "tokens":
		res, err := c.server.SemanticTokensFull(ctx, &protocol.SemanticTokensParams{TextDocument: doc})
		if err != nil {
			return nil, err
		}
		src, _ := os.ReadFile(filepath.Join(c.dir, arg(1)))
		return decodeTokens(string(src), res.Data), nil
	case "folding":
		return lspResult(c.server.FoldingRanges(ctx, &protocol.FoldingRangeParams{TextDocument: doc}))
	case "symbols":
		return lspResult(c.server.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: doc}))
	case "workspace-symbols":
		return lspResult(c.server.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: arg(1)}))
	}
	return nil, fmt.Errorf("unknown script command %q", f[0])
}

// lspJSON turns a protocol value into plain JSON (through the protocol's
// codec, which knows its unions) for printing.
func lspJSON(v any) (any, error) {
	b, err := protocol.Marshal(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

func lspResult[T any](v T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return lspJSON(v)
}

// decodeTokens prints semantic tokens readably (ASCII lines: UTF-16 units
// are bytes there).
func decodeTokens(src string, data []uint32) []string {
	lines := strings.Split(src, "\n")
	var out []string
	var line, col uint32
	for i := 0; i+4 < len(data); i += 5 {
		if data[i] > 0 {
			col = 0
		}
		line += data[i]
		col += data[i+1]
		n := data[i+2]
		typ := tokenTypeNames[data[i+3]]
		var mods []string
		for j, m := range tokenModNames {
			if data[i+4]&(1<<j) != 0 {
				mods = append(mods, m)
			}
		}
		text := ""
		if int(line) < len(lines) {
			l := lines[line]
			if int(col+n) <= len(l) && utf8.ValidString(l) {
				text = l[col : col+n]
			}
		}
		out = append(out, fmt.Sprintf("%d:%d %s %s %q", line+1, col+1, typ, strings.Join(mods, ","), text))
	}
	return out
}
