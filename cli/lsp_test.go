package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	// lspclient COMMAND ARGS... starts COMMAND as a language server on its
	// standard input and output and drives it as an editor does, with
	// go.lsp.dev/protocol's client: initialize with the current directory
	// as the workspace folder, then for each line of its own standard
	// input "open FILE", "diagnostics FILE" (wait for them, print one line
	// each: file:line:col: severity code: summary), "hover FILE LINE:COL"
	// (print the hover's first line) or "format FILE" (print the formatted
	// text); then shutdown and exit, and print the server's exit status.
	scriptCommands["lspclient"] = func() { os.Exit(lspClientMain(os.Args[1:])) }
	// lspframe COMMAND ARGS... starts COMMAND as a language server and
	// writes each line of its own standard input to it as one message body
	// framed with a Content-Length header; a line "raw TEXT" is written as
	// TEXT, with a CR LF for each \r\n; a line "await ID" waits (up to
	// 20 s) for the answer to request ID. It prints each message the server writes, one
	// per line, then closes the server's input and prints its exit status:
	// the raw frames of hostile-client scripts.
	scriptCommands["lspframe"] = func() { os.Exit(lspFrameMain(os.Args[1:])) }
}

func lspFrameMain(args []string) int {
	srv := startScriptServer("lspframe", args)
	if srv == nil {
		return 2
	}
	r := bufio.NewReader(srv.out)
	srv.drive(func() ([]byte, bool) { return readLSPFrame(r) }, func(in io.Writer, line string) {
		switch {
		case strings.HasPrefix(line, "raw "):
			io.WriteString(in, strings.ReplaceAll(strings.TrimPrefix(line, "raw "), `\r\n`, "\r\n"))
		case line != "":
			fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(line), line)
		}
	})
	return 0
}

// readLSPFrame reads the body of the next message a language server
// writes, after its headers (a missing Content-Length is an empty body).
func readLSPFrame(r *bufio.Reader) ([]byte, bool) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, false
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
		if line == "\r\n" {
			break
		}
	}
	body := make([]byte, max(n, 0))
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, false
	}
	return body, true
}

type lspScriptClient struct {
	protocol.UnimplementedClient
	mu    sync.Mutex
	cond  *sync.Cond
	diags map[uri.URI]*protocol.PublishDiagnosticsParams
}

func (c *lspScriptClient) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.diags[p.URI] = p
	c.cond.Broadcast()
	return nil
}

func (c *lspScriptClient) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}

func lspClientMain(args []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := startScriptServer("lspclient", args)
	if srv == nil {
		return 1
	}
	c := &lspScriptClient{diags: map[uri.URI]*protocol.PublishDiagnosticsParams{}}
	c.cond = sync.NewCond(&c.mu)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(struct {
		io.Reader
		io.WriteCloser
	}{srv.out, srv.in}))
	conn.Go(ctx, protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(conn)
	wd, _ := os.Getwd()
	params := &protocol.InitializeParams{}
	root := uri.File(wd)
	params.RootURI = &root
	if _, err := server.Initialize(ctx, params); err != nil {
		fmt.Fprintln(os.Stderr, "lspclient: initialize:", err)
		return 1
	}
	server.Initialized(ctx, &protocol.InitializedParams{})
	input, _ := os.ReadFile("/dev/stdin")
	for _, line := range strings.Split(strings.TrimSpace(string(input)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		u := uri.File(filepath.Join(wd, f[1]))
		doc := protocol.TextDocumentIdentifier{URI: u}
		switch f[0] {
		case "open":
			text, _ := os.ReadFile(f[1])
			server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "gram", Version: 1, Text: string(text)}})
		case "diagnostics":
			c.mu.Lock()
			for c.diags[u] == nil && ctx.Err() == nil {
				c.cond.Wait()
			}
			p := c.diags[u]
			c.mu.Unlock()
			for _, d := range p.Diagnostics {
				msg, _ := d.Message.(protocol.String)
				summary, _, _ := strings.Cut(string(msg), "\n")
				code, _ := d.Code.(protocol.String)
				fmt.Printf("%s:%d:%d: %d %s: %s\n", f[1], d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, code, summary)
			}
		case "hover":
			l, col, _ := strings.Cut(f[2], ":")
			ln, _ := strconv.Atoi(l)
			cn, _ := strconv.Atoi(col)
			h, err := server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: protocol.Position{Line: uint32(ln - 1), Character: uint32(cn - 1)}}})
			if err != nil || h == nil {
				fmt.Printf("hover: %v\n", err)
				continue
			}
			if m, ok := h.Contents.(*protocol.MarkupContent); ok {
				first, _, _ := strings.Cut(strings.TrimPrefix(m.Value, "```gram\n"), "\n")
				fmt.Printf("hover: %s\n", first)
			}
		case "format":
			edits, err := server.Formatting(ctx, &protocol.DocumentFormattingParams{TextDocument: doc})
			if err != nil {
				fmt.Printf("format: %v\n", err)
				continue
			}
			text, _ := os.ReadFile(f[1])
			fmt.Print(applyLSPEdits(string(text), edits))
		}
	}
	if err := server.Shutdown(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "lspclient: shutdown:", err)
	}
	server.Exit(ctx)
	srv.printExit()
	conn.Close()
	return 0
}

// applyLSPEdits applies edits (ASCII text: UTF-16 units are bytes).
func applyLSPEdits(text string, edits []protocol.TextEdit) string {
	lines := strings.SplitAfter(text, "\n")
	off := func(p protocol.Position) int {
		n := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s, t := off(e.Range.Start), off(e.Range.End)
		text = text[:s] + e.NewText + text[t:]
	}
	return text
}
