// Command lspdriver measures a gramc lsp process as an editor uses it: it
// starts BIN lsp with DIR as the workspace root, opens DIR/tools_050.gram
// (or DIR/FILE),
// waits for its diagnostics, makes 20 edits waiting for the diagnostics of
// each, and prints the time to the first diagnostics and the process's peak
// RSS (docs/performance.md, "Language server").
//
//	go run ./cmd/internal/gramgen -tools 10000 -files 100 -o /tmp/g10k
//	make build && go run ./cmd/internal/lspdriver bin/gramc /tmp/g10k
//	go run ./cmd/internal/lspdriver bin/gramc /tmp/big big.gram
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

type cl struct {
	protocol.UnimplementedClient
	mu   sync.Mutex
	got  map[uri.URI]int32
	cond *sync.Cond
}

func (c *cl) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	v, _ := p.Version.Get()
	c.got[p.URI] = v
	c.cond.Broadcast()
	c.mu.Unlock()
	return nil
}

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: lspdriver GRAMC-BINARY WORKSPACE-DIR [FILE]")
		os.Exit(2)
	}
	bin, dir, name := os.Args[1], os.Args[2], "tools_050.gram"
	if len(os.Args) == 4 {
		name = os.Args[3]
	}
	ctx := context.Background()
	cmd := exec.Command(bin, "lsp")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "lspdriver:", err)
		os.Exit(1)
	}
	c := &cl{got: map[uri.URI]int32{}}
	c.cond = sync.NewCond(&c.mu)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(struct {
		io.Reader
		io.WriteCloser
	}{out, in}))
	conn.Go(ctx, protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler))
	s := protocol.ServerDispatcher(conn)
	root := uri.File(dir)
	p := &protocol.InitializeParams{}
	p.RootURI = &root
	if _, err := s.Initialize(ctx, p); err != nil {
		fmt.Fprintln(os.Stderr, "lspdriver: initialize:", err)
		os.Exit(1)
	}
	s.Initialized(ctx, &protocol.InitializedParams{})
	f := filepath.Join(dir, name)
	u := uri.File(f)
	text, _ := os.ReadFile(f)
	s.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: string(text)}})
	c.mu.Lock()
	for c.got[u] != 1 {
		c.cond.Wait()
	}
	c.mu.Unlock()
	first := time.Since(t0)
	for v := int32(2); v < 22; v++ {
		s.DidChange(ctx, &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: protocol.Position{Line: 1, Character: 60}, End: protocol.Position{Line: 1, Character: 61}}, Text: "x"}}})
		c.mu.Lock()
		for c.got[u] != v {
			c.cond.Wait()
		}
		c.mu.Unlock()
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "VmRSS") {
			fmt.Println(l)
		}
	}
	fmt.Println("process start → first diagnostics:", first)
	s.Shutdown(ctx)
	s.Exit(ctx)
	cmd.Wait()
}
