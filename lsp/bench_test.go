package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// The workspace of issue 13's goals: 10,000 tools in 100 files (one
// package, about 4.2 MB), as gramgen writes it.
const (
	benchTools = 10000
	benchFiles = 100
	benchFile  = "tools_050.gram" // the file the benchmarks edit
)

func benchWorkspace(b *testing.B) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	var size int64
	for name, src := range gramgen.Package(benchTools, benchFiles) {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			b.Fatal(err)
		}
		size += int64(len(src))
	}
	return dir, size
}

// benchClient is a client of a server with the 10,000-tool workspace
// loaded and benchFile open, its first diagnostics received.
func benchClient(b *testing.B) *testClient {
	dir, _ := benchWorkspace(b)
	c := newTestClient(b, dir, clientOptions{})
	c.open(benchFile)
	c.diagnostics(benchFile)
	return c
}

// BenchmarkDidChangeToDiagnostics measures, in the 10,000-tool workspace,
// the time from a didChange (one character of a tool's description) to
// the publishDiagnostics of the new version, through the protocol.
// Run: go test ./lsp -run '^$' -bench DidChangeToDiagnostics -benchtime 50x
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	c := benchClient(b)
	// Line 2 holds tool_5000's description; column 60 is inside it.
	rg := protocol.Range{Start: protocol.Position{Line: 1, Character: 60}, End: protocol.Position{Line: 1, Character: 61}}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		c.change(benchFile, rg, string(rune('a'+i%26)))
		if ds := c.diagnostics(benchFile); len(ds[benchFile]) != 0 {
			b.Fatalf("edit made diagnostics: %+v", ds[benchFile])
		}
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/change")
}

// BenchmarkHover measures a hover on a tool's name in the 10,000-tool
// workspace (its signature and JSON Schema), with the package checked.
func BenchmarkHover(b *testing.B) {
	c := benchClient(b)
	params := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: 1, Character: 3},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, err := c.server.Hover(c.ctx(), params)
		if err != nil || h == nil {
			b.Fatalf("hover: %v %v", h, err)
		}
	}
}

// BenchmarkCompletion measures completing a type label after "::" in the
// 10,000-tool workspace.
func BenchmarkCompletion(b *testing.B) {
	c := benchClient(b)
	// Line 3 is "  (city::String {...": after "::" at column 10.
	params := &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: 2, Character: 9},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := c.server.Completion(c.ctx(), params)
		if err != nil {
			b.Fatal(err)
		}
		if l, ok := res.(*protocol.CompletionList); !ok || len(l.Items) == 0 {
			b.Fatalf("no completion items: %+v", res)
		}
	}
}

// BenchmarkInitialize measures initialize → the first diagnostics of an
// open file in the 10,000-tool workspace (loading, parsing and checking
// all of it), and the server's live heap once it is loaded.
func BenchmarkInitialize(b *testing.B) {
	dir, size := benchWorkspace(b)
	b.SetBytes(size)
	b.ReportAllocs()
	var heap uint64
	for i := 0; i < b.N; i++ {
		c := newTestClient(b, dir, clientOptions{})
		c.open(benchFile)
		c.diagnostics(benchFile)
		if i == 0 { // later iterations keep earlier servers until the end
			b.StopTimer()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = ms.HeapAlloc
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(heap)/(1<<20), "MB-heap")
}

// BenchmarkHoverAfterEdit measures the hover a user makes right after an
// edit in the 10,000-tool workspace: each iteration edits, waits for the
// diagnostics (not timed), then hovers (timed) on the re-checked package.
func BenchmarkHoverAfterEdit(b *testing.B) {
	c := benchClient(b)
	rg := protocol.Range{Start: protocol.Position{Line: 1, Character: 60}, End: protocol.Position{Line: 1, Character: 61}}
	params := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: 2, Character: 4},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c.change(benchFile, rg, string(rune('a'+i%26)))
		c.diagnostics(benchFile)
		b.StartTimer()
		if h, err := c.server.Hover(c.ctx(), params); err != nil || h == nil {
			b.Fatalf("hover: %v %v", h, err)
		}
	}
}

// BenchmarkDocumentHighlight measures highlighting every use of String
// in a file of 100 tools of the 10,000-tool workspace (editors ask on
// every cursor move).
func BenchmarkDocumentHighlight(b *testing.B) {
	c := benchClient(b)
	// Line 3 is "  (city::String {...": String at column 10.
	params := &protocol.DocumentHighlightParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: 2, Character: 10},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		hs, err := c.server.DocumentHighlight(c.ctx(), params)
		if err != nil || len(hs) < 2 {
			b.Fatalf("highlight: %d highlights, %v", len(hs), err)
		}
		n = len(hs)
	}
	b.ReportMetric(float64(n), "highlights")
}

// BenchmarkSignatureHelp measures signature help on a parameter of a tool
// in the 10,000-tool workspace (editors ask as the cursor moves in a
// signature).
func BenchmarkSignatureHelp(b *testing.B) {
	c := benchClient(b)
	// Line 3 is "  (city::String {...": inside the first parameter.
	params := &protocol.SignatureHelpParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: 2, Character: 5},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, err := c.server.SignatureHelp(c.ctx(), params)
		if err != nil || h == nil || len(h.Signatures) != 1 {
			b.Fatalf("signature help: %v %v", h, err)
		}
	}
}
