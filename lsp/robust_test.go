package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	goast "go/ast"
	"go/parser"
	gotoken "go/token"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// quietClient is a client that accepts everything the server sends.
type quietClient struct{ protocol.UnimplementedClient }

func (quietClient) PublishDiagnostics(context.Context, *protocol.PublishDiagnosticsParams) error {
	return nil
}
func (quietClient) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }

// exercise opens text as a lone document of a fresh server and sends every
// request at up to maxPositions positions spread over it, calling the
// handlers directly: a panic anywhere fails the caller (the protocol
// layer would turn it into an InternalError and hide it). It returns the
// answers, as JSON lines.
func exercise(t testing.TB, text string, enc encoding, maxPositions int) []byte {
	var answers bytes.Buffer
	note := func(v any, err error) {
		if err != nil {
			fmt.Fprintf(&answers, "error: %v\n", err)
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("an answer that is not JSON: %v", err)
		}
		answers.Write(b)
		answers.WriteByte('\n')
	}
	s := newServer(Options{})
	s.client = quietClient{}
	s.ctx = context.Background()
	s.state.Store(stateRunning)
	s.ws.setEncoding(enc)
	s.caps.markdown, s.caps.snippets = true, true
	ctx := context.Background()
	u := uri.URI("untitled:fuzz.gram")
	if err := s.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: text}}); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	for _, p := range s.ws.pkgs {
		s.diagnosticsLocked(p)
	}
	f := s.ws.files[keyOf(u)]
	f.prepare(enc)
	m := f.m
	s.mu.Unlock()
	doc := protocol.TextDocumentIdentifier{URI: u}
	step := max(1, len(text)/maxPositions)
	for off := 0; off <= len(text); off += step {
		pos := m.position(off)
		tp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}
		rg := protocol.Range{Start: pos, End: m.position(off + step)}
		note(s.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tp}))
		note(s.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tp}))
		note(s.References(ctx, &protocol.ReferenceParams{TextDocumentPositionParams: tp, Context: protocol.ReferenceContext{IncludeDeclaration: true}}))
		note(s.DocumentHighlight(ctx, &protocol.DocumentHighlightParams{TextDocumentPositionParams: tp}))
		note(s.SignatureHelp(ctx, &protocol.SignatureHelpParams{TextDocumentPositionParams: tp}))
		note(s.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tp}))
		note(s.PrepareRename(ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: tp}))
		note(s.Rename(ctx, &protocol.RenameParams{TextDocumentPositionParams: tp, NewName: "renamed"}))
		note(s.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: rg}))
		note(s.SemanticTokensRange(ctx, &protocol.SemanticTokensRangeParams{TextDocument: doc, Range: rg}))
		note(s.RangeFormatting(ctx, &protocol.DocumentRangeFormattingParams{TextDocument: doc, Range: rg}))
	}
	// Positions past the end, and beyond any line, are errors, not panics.
	for _, pos := range []protocol.Position{{Line: 1 << 30, Character: 0}, {Line: 0, Character: 1 << 31}} {
		tp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}
		note(s.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tp}))
		note(s.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tp}))
	}
	note(s.SemanticTokensFull(ctx, &protocol.SemanticTokensParams{TextDocument: doc}))
	note(s.FoldingRanges(ctx, &protocol.FoldingRangeParams{TextDocument: doc}))
	note(s.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: doc}))
	note(s.Formatting(ctx, &protocol.DocumentFormattingParams{TextDocument: doc}))
	note(s.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: "a"}))
	// An edit anywhere, then everything again on the new text.
	mid := m.position(len(text) / 2)
	s.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: doc, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: mid, End: mid}, Text: "(x::"}},
	})
	note(s.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: mid}}))
	s.DidClose(ctx, &protocol.DidCloseTextDocumentParams{TextDocument: doc})
	return answers.Bytes()
}

// sameWithoutTrees exercises text with the trees kept and with none kept
// (as for files over keepTreeBytes): every answer must be the same.
func sameWithoutTrees(t testing.TB, text string, enc encoding, maxPositions int) {
	kept := exercise(t, text, enc, maxPositions)
	defer func(n int) { keepTreeBytes = n }(keepTreeBytes)
	keepTreeBytes = -1
	if none := exercise(t, text, enc, maxPositions); !bytes.Equal(kept, none) {
		a, b := strings.Split(string(kept), "\n"), strings.Split(string(none), "\n")
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("answer %d differs with no tree kept:\nkept: %s\nnone: %s\ntext: %q", i, a[i], b[i], text)
			}
		}
		t.Fatalf("%d answers with the trees, %d without", len(a), len(b))
	}
}

// corpus is every conformance input and example of the repository.
func corpus(t testing.TB) []string {
	var out []string
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", "gram-corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input string `json:"input"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		out = append(out, c.Input)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.gram"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "check", "*.gram"))
	if len(cases) == 0 || len(paths) == 0 || len(more) == 0 {
		t.Fatalf("the corpus has a gap: %d conformance cases, %d examples, %d check files", len(cases), len(paths), len(more))
	}
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestEveryRequestEveryPosition sends every request at every position of
// every conformance input and example, in both position encodings, and at
// positions of every prefix of a real file (what an editor sees while the
// user types it): the server answers, never panics.
func TestEveryRequestEveryPosition(t *testing.T) {
	for _, text := range corpus(t) {
		exercise(t, text, utf16Units, 1<<20)
		sameWithoutTrees(t, text, utf8Bytes, 64)
	}
	src, err := os.ReadFile(filepath.Join("..", "examples", "weather", "tools.gram"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= len(src); n += 3 {
		exercise(t, string(src[:n]), utf16Units, 16)
	}
}

// FuzzLSPDocument: any text as a document, every request at positions
// over it. Run: go test ./lsp -run '^$' -fuzz FuzzLSPDocument -fuzztime 60s
func FuzzLSPDocument(f *testing.F) {
	for _, text := range corpus(f) {
		f.Add(text)
	}
	f.Add("[a:Tool {description: \"é😀\"} |\n  (x::String {default: \"\u202e\"})==>(::String)\n]")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		exercise(t, text, utf16Units, 32)
		sameWithoutTrees(t, text, utf8Bytes, 8)
	})
}

// TestPositionEncodings converts positions on a line with characters of
// every width, in both encodings, both ways.
func TestPositionEncodings(t *testing.T) {
	text := "a\né😀x\n\n"
	// byte offsets of: 'é' 'x' and the end of line 2
	cases := []struct {
		off         int
		utf16, utf8 protocol.Position
	}{
		{0, protocol.Position{Line: 0, Character: 0}, protocol.Position{Line: 0, Character: 0}},
		{2, protocol.Position{Line: 1, Character: 0}, protocol.Position{Line: 1, Character: 0}},
		{4, protocol.Position{Line: 1, Character: 1}, protocol.Position{Line: 1, Character: 2}},  // after é
		{8, protocol.Position{Line: 1, Character: 3}, protocol.Position{Line: 1, Character: 6}},  // after 😀 (a surrogate pair)
		{9, protocol.Position{Line: 1, Character: 4}, protocol.Position{Line: 1, Character: 7}},  // end of line 2
		{11, protocol.Position{Line: 3, Character: 0}, protocol.Position{Line: 3, Character: 0}}, // end of text
	}
	for _, enc := range []encoding{utf16Units, utf8Bytes} {
		m := newMapper(text, enc)
		for _, c := range cases {
			want := c.utf16
			if enc == utf8Bytes {
				want = c.utf8
			}
			if got := m.position(c.off); got != want {
				t.Errorf("enc %d: position(%d) = %v, want %v", enc, c.off, got, want)
			}
			if got, err := m.offset(want); err != nil || got != c.off {
				t.Errorf("enc %d: offset(%v) = %d, %v; want %d", enc, want, got, err, c.off)
			}
		}
		// Inside a surrogate pair or a UTF-8 sequence: the character's start.
		if got, _ := m.offset(protocol.Position{Line: 1, Character: 2}); enc == utf16Units && got != 4 {
			t.Errorf("inside a surrogate pair: %d, want 4", got)
		}
		// Past the end of a line: the line's end; past the last line: an error.
		if got, _ := m.offset(protocol.Position{Line: 0, Character: 99}); got != 1 {
			t.Errorf("past the end of line 1: %d, want 1", got)
		}
		if _, err := m.offset(protocol.Position{Line: 4, Character: 0}); err == nil {
			t.Errorf("a line past the end is not an error")
		}
	}
}

// Requests through the protocol: an unknown document and a bad position
// are InvalidParams errors, a request before initialize is refused, and
// the server goes on answering after each.
func TestProtocolErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.gram": toolsGram + typesGram})
	c := newTestClient(t, dir, clientOptions{})
	c.open("a.gram")
	ctx := c.ctx()
	_, err := c.server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("nosuch.gram")}}})
	if err == nil || !strings.Contains(err.Error(), "unknown document") {
		t.Errorf("unknown document: %v", err)
	}
	_, err = c.server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("a.gram")}, Position: protocol.Position{Line: 999}}})
	if err == nil || !strings.Contains(err.Error(), "outside the document") {
		t.Errorf("bad position: %v", err)
	}
	if _, err := c.server.Initialize(ctx, &protocol.InitializeParams{}); err == nil {
		t.Errorf("a second initialize was accepted")
	}
	h, err := c.server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("a.gram")}, Position: protocol.Position{Line: 0, Character: 3}}})
	if err != nil || h == nil {
		t.Fatalf("the server stopped answering: %v %v", h, err)
	}
	if err := c.server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.server.Hover(ctx, &protocol.HoverParams{}); err == nil || !strings.Contains(err.Error(), "shut down") {
		t.Errorf("a request after shutdown: %v", err)
	}
}

// wire is a raw protocol session with a server over a pipe: what an
// editor writes and reads, byte for byte.
type wire struct {
	t    *testing.T
	s    *server
	b    net.Conn
	r    *bufio.Reader
	done chan error
}

func newWire(t *testing.T) *wire {
	s := newServer(Options{Log: testLog{t}})
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	w := &wire{t: t, s: s, b: b, r: bufio.NewReader(b), done: make(chan error, 1)}
	go func() { w.done <- s.serve(ctx, newStream(a, s.logger.Printf)) }()
	t.Cleanup(func() {
		cancel()
		b.Close()
		a.Close()
		select {
		case <-w.done:
		case <-time.After(waitLimit):
			t.Errorf("the server did not stop within %v of its connection closing", waitLimit)
		}
	})
	return w
}

// write writes one framed message.
func (w *wire) write(msg string) error {
	_, err := fmt.Fprintf(w.b, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
	return err
}

// send writes one framed message and fails the test if it cannot.
func (w *wire) send(msg string) {
	w.t.Helper()
	if err := w.write(msg); err != nil {
		w.t.Fatal(err)
	}
}

// wireMessage is any message the server writes.
type wireMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code int `json:"code"`
	} `json:"error"`
	raw []byte // the whole body
}

// message reads the next framed message.
func (w *wire) message() wireMessage {
	w.t.Helper()
	var n int
	for {
		line, err := w.r.ReadString('\n')
		if err != nil {
			w.t.Fatal(err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
		if line == "\r\n" {
			break
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(w.r, body); err != nil {
		w.t.Fatal(err)
	}
	var m wireMessage
	if err := json.Unmarshal(body, &m); err != nil {
		w.t.Fatalf("the server wrote invalid JSON: %v\n%s", err, body)
	}
	m.raw = body
	return m
}

// wait reads messages until the answer to id; it returns its error code.
func (w *wire) wait(id int) int {
	w.t.Helper()
	for {
		m := w.message()
		if m.ID != nil && *m.ID == id && m.Method == "" {
			if m.Error != nil {
				return m.Error.Code
			}
			return 0
		}
	}
}

// A client that writes a session without waiting for any answer (as a
// script or a test harness does: initialize, initialized, didOpen, hover,
// shutdown) gets every answer and the diagnostics: the notifications after
// initialize are not dropped as early, and the diagnostics shutdown
// flushes come before its answer. exit follows shutdown's answer, as the
// protocol says (a request still running when exit arrives is not
// answered: the connection refuses writes once it closes).
func TestPipelinedSession(t *testing.T) {
	w := newWire(t)
	// The server's lock is held while the session is written, as if
	// initialize took long: the notifications after it must wait for it,
	// not be read and dropped as coming before it.
	w.s.mu.Lock()
	// net.Pipe has no buffer: the writes go from their own goroutine, as
	// an editor's writer runs beside its reader.
	go func() {
		for _, msg := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
			`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
			`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a.gram","languageId":"gram","version":1,"text":"[a:Tool {description: \"d\"} | (x::Strin)==>(::String)]"}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:a.gram"},"position":{"line":0,"character":1}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		} {
			if err := w.write(msg); err != nil {
				return // the test failed and closed the pipe
			}
		}
	}()
	time.Sleep(100 * time.Millisecond) // the server reads what it will
	w.s.mu.Unlock()
	answered := map[int]wireMessage{}
	var diagnostics []string
	for len(answered) < 3 {
		m := w.message()
		switch {
		case m.ID != nil:
			if m.Error != nil {
				t.Errorf("request %d: error %d", *m.ID, m.Error.Code)
			}
			if *m.ID == 3 && len(diagnostics) == 0 {
				t.Errorf("shutdown answered before the diagnostics of the open document were published")
			}
			answered[*m.ID] = m
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				Diagnostics []struct{ Code string }
			}
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			for _, d := range p.Diagnostics {
				diagnostics = append(diagnostics, d.Code)
			}
		}
	}
	if !slices.Contains(diagnostics, "unknown-type") {
		t.Errorf("diagnostics %v, want unknown-type for Strin", diagnostics)
	}
	if !strings.Contains(string(answered[2].Result), "(x::Strin)") {
		t.Errorf("hover: %s", answered[2].Result)
	}
	w.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-w.done; err != nil {
		t.Errorf("serve after shutdown and exit: %v", err)
	}
	w.done <- nil // for the cleanup
}

// A request cancelled while it waits is answered RequestCancelled. On the
// wire, in order: the server holds its lock (as during a long check), the
// client sends a hover (id 7) and $/cancelRequest for it, then a request
// that needs no lock (id 8); once 8 is answered the server has read the
// cancellation, and the lock is released.
func TestCancellation(t *testing.T) {
	w := newWire(t)
	s, send, wait := w.s, w.send, w.wait
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	wait(1)
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a.gram","languageId":"gram","version":1,"text":"[a:Tool {description: \"d\"} | (x::String)==>(::String)]"}}}`)
	hover := `{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:a.gram"},"position":{"line":0,"character":1}}}`
	send(fmt.Sprintf(hover, 2))
	if code := wait(2); code != 0 {
		t.Fatalf("hover: error %d", code)
	}
	s.mu.Lock()
	send(fmt.Sprintf(hover, 7))
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}`)
	send(`{"jsonrpc":"2.0","id":8,"method":"gramc/nosuch","params":{}}`)
	if code := wait(8); code != int(jsonrpc2.MethodNotFound) {
		t.Errorf("unknown method: code %d, want %d", code, jsonrpc2.MethodNotFound)
	}
	s.mu.Unlock()
	if code := wait(7); code != int(protocol.CodeRequestCancelled) {
		t.Errorf("cancelled hover: code %d, want RequestCancelled (%d)", code, protocol.CodeRequestCancelled)
	}
	// Malformed input is an error answer, and the server goes on.
	send(`{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{"textDocument":7}}`)
	if code := wait(9); code == 0 {
		t.Errorf("malformed params were accepted")
	}
	send(fmt.Sprintf(hover, 10))
	if code := wait(10); code != 0 {
		t.Errorf("hover after errors: code %d", code)
	}
}

// notExercised are the protocol methods the server implements that
// exercise does not send, each with why: lifecycle and workspace
// notifications that take no document position.
var notExercised = map[string]string{
	"Initialize":                "lifecycle: exercise starts a running server",
	"Initialized":               "lifecycle notification",
	"Shutdown":                  "lifecycle: TestProtocolErrors",
	"Exit":                      "lifecycle: ends the process",
	"SetTrace":                  "takes no document",
	"DidSave":                   "takes no position; TestScripts saves",
	"DidChangeConfiguration":    "takes no document",
	"DidChangeWatchedFiles":     "takes no position; the workspace tests",
	"DidChangeWorkspaceFolders": "takes no position; TestWorkspaceFolderAdded",
}

// TestEveryRequestIsExercised derives what TestEveryRequestEveryPosition
// and FuzzLSPDocument must send from the server itself: every method of
// protocol.Server that *server implements is called by exercise or listed
// in notExercised with a reason, so a new request handler fails here until
// it is exercised, instead of going untested.
func TestEveryRequestIsExercised(t *testing.T) {
	implemented, called := serverMethods(t)
	for m := range implemented {
		if _, listed := notExercised[m]; !called[m] && !listed {
			t.Errorf("the server implements %s, which exercise never sends: add it there (or to notExercised, with why)", m)
		}
	}
	for m := range notExercised {
		if !implemented[m] {
			t.Errorf("notExercised lists %s, which the server does not implement", m)
		}
		if called[m] {
			t.Errorf("notExercised lists %s, which exercise sends", m)
		}
	}
}

// serverMethods reads this package's source: the methods of
// protocol.Server that *server implements itself (not those of the
// embedded protocol.UnimplementedServer), and those exercise calls.
func serverMethods(t *testing.T) (implemented, called map[string]bool) {
	t.Helper()
	iface := map[string]bool{}
	st := reflect.TypeOf((*protocol.Server)(nil)).Elem()
	for i := 0; i < st.NumMethod(); i++ {
		iface[st.Method(i).Name] = true
	}
	implemented, called = map[string]bool{}, map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, file := range files {
		f, err := parser.ParseFile(gotoken.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*goast.FuncDecl)
			if !ok {
				continue
			}
			if !strings.HasSuffix(file, "_test.go") && fn.Recv != nil && len(fn.Recv.List) == 1 {
				if star, ok := fn.Recv.List[0].Type.(*goast.StarExpr); ok {
					if id, ok := star.X.(*goast.Ident); ok && id.Name == "server" && iface[fn.Name.Name] {
						implemented[fn.Name.Name] = true
					}
				}
			}
			if file == "robust_test.go" && fn.Name.Name == "exercise" {
				goast.Inspect(fn.Body, func(n goast.Node) bool {
					if sel, ok := n.(*goast.SelectorExpr); ok {
						if x, ok := sel.X.(*goast.Ident); ok && x.Name == "s" && iface[sel.Sel.Name] {
							called[sel.Sel.Name] = true
						}
					}
					return true
				})
			}
		}
	}
	if len(implemented) < 10 || len(called) < 10 {
		t.Fatalf("found %d implemented and %d exercised methods; the test is broken", len(implemented), len(called))
	}
	return implemented, called
}
