package lsp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// waitLimit bounds every wait of a test for the server: a server that
// never answers fails the test instead of hanging it.
const waitLimit = 20 * time.Second

// testClient is an editor in the test's process: a real protocol client
// connected to a real server over a pipe, recording what the server
// publishes and answering its requests as an editor would.
type testClient struct {
	protocol.UnimplementedClient
	t      testing.TB
	dir    string // the workspace folder
	server protocol.Server
	conn   jsonrpc2.Conn
	srv    *server
	done   chan error

	mu       sync.Mutex
	cond     *sync.Cond
	diags    map[uri.URI]*protocol.PublishDiagnosticsParams
	count    map[uri.URI]int // publishes received per URI
	messages []string
	settings []byte // the "gramc" configuration section
	versions map[uri.URI]int32
}

type clientOptions struct {
	utf8          bool
	initOptions   string // JSON
	configuration string // JSON answered to workspace/configuration ("" : capability off)
	snippets      bool
	// ownFraming frames the client's side with the server's stream, which
	// keeps no buffer between messages: jsonrpc2's keeps the largest
	// message it wrote, which a memory figure would count as the server's.
	ownFraming bool
}

// newTestClient starts a server on dir and initializes it.
func newTestClient(t testing.TB, dir string, opts clientOptions) *testClient {
	t.Helper()
	c := &testClient{t: t, dir: dir, diags: map[uri.URI]*protocol.PublishDiagnosticsParams{}, count: map[uri.URI]int{}, versions: map[uri.URI]int32{}, done: make(chan error, 1)}
	c.cond = sync.NewCond(&c.mu)
	if opts.configuration != "" {
		c.settings = []byte(opts.configuration)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, b := net.Pipe()
	c.srv = newServer(Options{Version: "test", Log: testLog{t}})
	go func() { c.done <- c.srv.serve(ctx, newStream(a, c.srv.logger.Printf)) }()
	var clientSide jsonrpc2.Stream = jsonrpc2.NewStream(b)
	if opts.ownFraming {
		clientSide = newStream(b, t.Logf)
	}
	conn := jsonrpc2.NewConn(clientSide, jsonrpc2.WithCodec(codec{}))
	conn.Go(ctx, ordered(protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler)))
	c.conn = conn
	c.server = protocol.ServerDispatcher(conn)
	t.Cleanup(func() {
		cancel()
		conn.Close()
		a.Close()
		// (a script's shutdown has put serve's answer back for this)
		select {
		case <-c.done:
		case <-time.After(waitLimit):
			t.Errorf("the server did not stop")
		}
	})
	yes := true
	caps := protocol.ClientCapabilities{
		General: &protocol.GeneralClientCapabilities{},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			Hover:          &protocol.HoverClientCapabilities{ContentFormat: []protocol.MarkupKind{protocol.MarkupKindMarkdown}},
			DocumentSymbol: &protocol.DocumentSymbolClientCapabilities{HierarchicalDocumentSymbolSupport: &yes},
		},
		Workspace: &protocol.WorkspaceClientCapabilities{},
	}
	if opts.utf8 {
		caps.General.PositionEncodings = []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}
	}
	if opts.snippets {
		caps.TextDocument.Completion = &protocol.CompletionClientCapabilities{CompletionItem: &protocol.ClientCompletionItemOptions{SnippetSupport: &yes}}
	}
	if opts.configuration != "" {
		caps.Workspace.Configuration = &yes
	}
	params := &protocol.InitializeParams{}
	if dir != "" {
		// As editors send it: workspaceFolders (Nullable has no setter).
		raw := `{"capabilities":{},"workspaceFolders":[{"uri":"` + string(uri.File(dir)) + `","name":"test"}]}`
		if err := protocol.Unmarshal([]byte(raw), params); err != nil {
			t.Fatal(err)
		}
	}
	params.Capabilities = caps
	if opts.initOptions != "" {
		params.InitializationOptions = []byte(opts.initOptions)
	}
	res, err := c.server.Initialize(c.ctx(), params)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	want := protocol.PositionEncodingKindUTF16
	if opts.utf8 {
		want = protocol.PositionEncodingKindUTF8
	}
	if res.Capabilities.PositionEncoding != want {
		t.Fatalf("positionEncoding %q, want %q", res.Capabilities.PositionEncoding, want)
	}
	if err := c.server.Initialized(c.ctx(), &protocol.InitializedParams{}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	return c
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("server: %s", p)
	return len(p), nil
}

func (c *testClient) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	c.t.Cleanup(cancel)
	return ctx
}

func (c *testClient) PublishDiagnostics(ctx context.Context, params *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.diags[params.URI] = params
	c.count[params.URI]++
	c.cond.Broadcast()
	return nil
}

func (c *testClient) ShowMessage(ctx context.Context, params *protocol.ShowMessageParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.messages = append(c.messages, params.Message)
	c.cond.Broadcast()
	return nil
}

func (c *testClient) LogMessage(ctx context.Context, params *protocol.LogMessageParams) error {
	return nil
}

func (c *testClient) RegisterCapability(ctx context.Context, params *protocol.RegistrationParams) error {
	return nil
}

func (c *testClient) Configuration(ctx context.Context, params *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]protocol.LSPAny, len(params.Items))
	for i := range out {
		out[i] = protocol.LSPAny(c.settings)
	}
	return out, nil
}

// uri is the URI of a file of the workspace.
func (c *testClient) uri(name string) uri.URI { return uri.File(filepath.Join(c.dir, name)) }

// open opens a file with the text on disk (or text, when given).
func (c *testClient) open(name string, text ...string) {
	c.t.Helper()
	var src string
	if len(text) > 0 {
		src = text[0]
	} else {
		b, err := os.ReadFile(filepath.Join(c.dir, name))
		if err != nil {
			c.t.Fatal(err)
		}
		src = string(b)
	}
	u := c.uri(name)
	c.mu.Lock()
	c.versions[u] = 1
	c.mu.Unlock()
	err := c.server.DidOpen(c.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "gram", Version: 1, Text: src}})
	if err != nil {
		c.t.Fatal(err)
	}
}

// change applies one edit to an open file: text replaces the range.
func (c *testClient) change(name string, rg protocol.Range, text string) {
	c.t.Helper()
	c.send(name, &protocol.TextDocumentContentChangePartial{Range: rg, Text: text})
}

// replaceAll replaces an open file's whole text.
func (c *testClient) replaceAll(name, text string) {
	c.t.Helper()
	c.send(name, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
}

// send sends one didChange of an open file, with its next version.
func (c *testClient) send(name string, change protocol.TextDocumentContentChangeEvent) {
	c.t.Helper()
	u := c.uri(name)
	c.mu.Lock()
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	err := c.server.DidChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{change},
	})
	if err != nil {
		c.t.Fatal(err)
	}
}

func (c *testClient) closeDoc(name string) {
	c.t.Helper()
	u := c.uri(name)
	c.mu.Lock()
	delete(c.versions, u)
	c.mu.Unlock()
	if err := c.server.DidClose(c.ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		c.t.Fatal(err)
	}
}

// diagnostics waits for the diagnostics of the open file name at its
// current version, then returns the latest of each file asked for (the
// server publishes the package's other files before its open ones).
func (c *testClient) diagnostics(name string, others ...string) map[string][]protocol.Diagnostic {
	c.t.Helper()
	u := c.uri(name)
	c.wait(name, func() bool {
		p := c.diags[u]
		if p == nil {
			return false
		}
		v, open := c.versions[u]
		pv, hasVersion := p.Version.Get()
		return !open || hasVersion && pv == v
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]protocol.Diagnostic{}
	for _, n := range append([]string{name}, others...) {
		if p := c.diags[c.uri(n)]; p != nil {
			out[n] = p.Diagnostics
		} else {
			out[n] = nil
		}
	}
	return out
}

// wait waits, at most waitLimit, until ok (called with c.mu held) holds
// after a publish for name.
func (c *testClient) wait(name string, ok func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	timer := time.AfterFunc(waitLimit, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() {
		if time.Now().After(deadline) {
			var last []protocol.Diagnostic
			if p := c.diags[c.uri(name)]; p != nil {
				last = p.Diagnostics
			}
			c.t.Fatalf("%s: the diagnostics the test waits for did not come within %v; last: %v", name, waitLimit, codes(last))
		}
		c.cond.Wait()
	}
}

// writeFiles writes name → text files under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// waitFor waits until name's latest published diagnostics satisfy ok.
func (c *testClient) waitFor(name string, ok func([]protocol.Diagnostic) bool) {
	c.t.Helper()
	u := c.uri(name)
	c.wait(name, func() bool { p := c.diags[u]; return p != nil && ok(p.Diagnostics) })
}

func hasCode(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return slices.Contains(codes(ds), code) }
}

func noDiagnostics(ds []protocol.Diagnostic) bool { return len(ds) == 0 }
