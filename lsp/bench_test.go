package lsp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
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

// benchAt is a position of benchFile (0-based, as on the wire).
func benchAt(c *testClient, line, char uint32) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(benchFile)},
		Position:     protocol.Position{Line: line, Character: char},
	}
}

// timeRequests times b.N runs of request, failing at its first error.
func timeRequests(b *testing.B, request func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := request(); err != nil {
			b.Fatal(err)
		}
	}
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
	params := &protocol.HoverParams{TextDocumentPositionParams: benchAt(c, 1, 3)}
	timeRequests(b, func() error {
		h, err := c.server.Hover(c.ctx(), params)
		if err == nil && h == nil {
			err = errors.New("no hover")
		}
		return err
	})
}

// BenchmarkCompletion measures completing a type label after "::" in the
// 10,000-tool workspace.
func BenchmarkCompletion(b *testing.B) {
	c := benchClient(b)
	// Line 3 is "  (city::String {...": after "::" at column 10.
	params := &protocol.CompletionParams{TextDocumentPositionParams: benchAt(c, 2, 9)}
	timeRequests(b, func() error {
		res, err := c.server.Completion(c.ctx(), params)
		if l, ok := res.(*protocol.CompletionList); err == nil && (!ok || len(l.Items) == 0) {
			err = fmt.Errorf("no completion items: %+v", res)
		}
		return err
	})
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
	params := &protocol.HoverParams{TextDocumentPositionParams: benchAt(c, 2, 4)}
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
	params := &protocol.DocumentHighlightParams{TextDocumentPositionParams: benchAt(c, 2, 10)}
	var n int
	timeRequests(b, func() error {
		hs, err := c.server.DocumentHighlight(c.ctx(), params)
		if n = len(hs); err == nil && n < 2 {
			err = fmt.Errorf("%d highlights", n)
		}
		return err
	})
	b.ReportMetric(float64(n), "highlights")
}

// BenchmarkSignatureHelp measures signature help on a parameter of a tool
// in the 10,000-tool workspace (editors ask as the cursor moves in a
// signature).
func BenchmarkSignatureHelp(b *testing.B) {
	c := benchClient(b)
	// Line 3 is "  (city::String {...": inside the first parameter.
	params := &protocol.SignatureHelpParams{TextDocumentPositionParams: benchAt(c, 2, 5)}
	timeRequests(b, func() error {
		h, err := c.server.SignatureHelp(c.ctx(), params)
		if err == nil && (h == nil || len(h.Signatures) != 1) {
			err = fmt.Errorf("signature help: %+v", h)
		}
		return err
	})
}

// BenchmarkLargeDocument opens one 10 MB document (gramgen's tools, as an
// untitled buffer) and reports the heap the server holds for it once its
// diagnostics are published, per byte of the document (issue 20.8). The
// syntax tree and the checked model are most of it.
// Run: go test ./lsp -run '^$' -bench LargeDocument -benchtime 1x
func BenchmarkLargeDocument(b *testing.B) {
	text := largeDocument()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c := newTestClient(b, b.TempDir(), clientOptions{ownFraming: true})
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c.open("big.gram", text)
		c.diagnostics("big.gram")
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(text)), "heap-bytes/doc-byte")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MiB")
		if path := os.Getenv("GRAMC_HEAP_PROFILE"); path != "" {
			// What the server holds, by allocation site (go tool pprof
			// -sample_index=inuse_space lsp.test PATH).
			writeHeapProfile(b, path)
		}
		runtime.KeepAlive(c)
	}
}

// largeDocument is 10 MB of gramgen's tools, cut in the middle of one.
func largeDocument() string {
	text := string(gramgen.Document(21000))
	for len(text) < 10<<20 {
		text += string(gramgen.Document(1000))
	}
	return text[:10<<20]
}

// BenchmarkLargeDocumentEdit measures, in the 10 MB document of
// BenchmarkLargeDocument, the time from a didChange (one character of the
// first tool's description) to the publishDiagnostics of the new version.
// Run: go test ./lsp -run '^$' -bench LargeDocumentEdit -benchtime 10x
func BenchmarkLargeDocumentEdit(b *testing.B) {
	text := largeDocument()
	c := newTestClient(b, b.TempDir(), clientOptions{ownFraming: true})
	c.open("big.gram", text)
	want := len(c.diagnostics("big.gram")["big.gram"])
	line := strings.Count(text[:strings.Index(text, "[tool_0:Tool")], "\n")
	rg := protocol.Range{Start: protocol.Position{Line: uint32(line), Character: 40}, End: protocol.Position{Line: uint32(line), Character: 41}}
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.change("big.gram", rg, string(rune('a'+i%26)))
		if ds := c.diagnostics("big.gram"); len(ds["big.gram"]) != want {
			b.Fatalf("the edit changed the diagnostics: %d, want %d", len(ds["big.gram"]), want)
		}
	}
}

func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
