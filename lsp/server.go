package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/config"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load/git"
)

// Options configure a server.
type Options struct {
	// Version is what the server reports as serverInfo.version.
	Version string
	// Log receives the server's log lines (gramc lsp: standard error).
	// Nil discards them. Nothing from a document reaches it unescaped.
	Log io.Writer
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// without shutdown first; `gramc lsp` then exits with status 1, as the
// protocol asks.
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve runs a language server on rwc (framed with Content-Length headers,
// as on stdio) until the client sends exit, the stream ends or ctx is
// cancelled.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := newServer(opts)
	return s.serve(ctx, newStream(rwc, s.logger.Printf))
}

// server implements the protocol's Server: the requests it answers and the
// notifications it takes. Notifications are handled in the order they
// arrive, on the connection's read loop (an edit must never overtake the
// one before it); requests run concurrently and see every notification
// that arrived before them.
type server struct {
	protocol.UnimplementedServer
	opts   Options
	logger *log.Logger

	client protocol.Client
	conn   jsonrpc2.Conn
	ctx    context.Context // the connection's lifetime: for calls to the client made in the background

	state atomic.Int32 // stateNew, stateRunning, stateShutdown

	mu       sync.Mutex // guards everything below and the workspace
	ws       *workspace
	exited   bool
	exitCh   chan struct{} // closed by exit
	caps     clientCaps
	pending  map[string]bool // packages to diagnose
	busy     int             // packages being published
	loopDone bool            // the diagnosis loop has ended
	idle     *sync.Cond      // signalled when busy drops or the loop ends
	wake     chan struct{}
	settings settings
	trace    protocol.TraceValue // $/setTrace's value
}

const (
	stateNew int32 = iota
	stateRunning
	stateShutdown
)

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	configuration   bool // workspace/configuration
	watchRegistered bool // dynamic registration of didChangeWatchedFiles
	snippets        bool // completion snippets
	markdown        bool // hover in markdown
	hierarchical    bool // hierarchical document symbols
}

// settings are the server's configuration: initializationOptions, or the
// "gramc" section of workspace/configuration.
type settings struct {
	// Targets are the providers whose rules are linted too, as
	// `gramc check --target` (see `gramc schema --help`).
	Targets []string `json:"targets"`
	// Baseline is a git revision: breaking and dangerous changes since it
	// are shown as warnings (overrides gramc.json's baseline).
	Baseline string `json:"baseline"`
}

func newServer(opts Options) *server {
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := &server{
		opts:    opts,
		logger:  log.New(w, "gramc lsp: ", log.LstdFlags),
		ws:      newWorkspace(),
		pending: map[string]bool{},
		wake:    make(chan struct{}, 1),
		exitCh:  make(chan struct{}),
	}
	s.idle = sync.NewCond(&s.mu)
	s.ws.logf = s.logger.Printf
	s.ws.baselineDone = func(dir string, apply func()) {
		s.mu.Lock()
		apply()
		for k, p := range s.ws.pkgs {
			if p.dir == dir {
				p.result = nil
				s.pending[k] = true
			}
		}
		s.mu.Unlock()
		s.kick()
	}
	return s
}

func (s *server) serve(ctx context.Context, stream jsonrpc2.Stream) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	s.conn = conn
	s.client = protocol.ClientDispatcher(conn)
	handler := ordered(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler))
	conn.Go(ctx, s.guard(handler))
	go s.diagnoseLoop(ctx)
	var readErr error
	select {
	case <-conn.Done():
		// A stream that broke mid-frame is the one end the client did not
		// ask for: say so (gramc lsp exits non-zero).
		if err := conn.Err(); isFramingError(err) {
			readErr = err
		}
	case <-s.exitCh:
		// The reader may be blocked on a stream that stays open (a
		// client that does not close our standard input): exit ends the
		// server anyway, as the protocol says.
		go conn.Close()
	case <-ctx.Done():
		go conn.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited && s.state.Load() != stateShutdown {
		return ErrExitWithoutShutdown
	}
	return readErr
}

// ordered lets requests run concurrently but keeps notifications (didOpen,
// didChange, ...) on the read loop, in the order the client sent them.
// initialize and shutdown also run on the read loop, answered before the
// next message is read: a client that pipelines a whole session (initialize,
// initialized, didOpen, ..., shutdown, exit without waiting for answers)
// gets its notifications handled after initialize, not dropped as early,
// and the diagnostics shutdown flushes are written before exit is read.
//
// A concurrent request can be cancelled ($/cancelRequest): the cancel
// handler registers it on the read loop, before it is released, so a
// cancellation read next finds it. initialize and shutdown bypass it and
// get the connection's context (jsonrpc2.DetachContext): jsonrpc2 recycles
// a synchronous request's context when its handler returns, and a context
// derived from it would still be watching it.
func ordered(h jsonrpc2.Handler) jsonrpc2.Handler {
	release := func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			jsonrpc2.Async(ctx)
		}
		return h(ctx, req)
	}
	cancellable := protocol.CancelHandler(release)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if m := req.Method(); req.IsCall() && (m == protocol.MethodInitialize || m == protocol.MethodShutdown) {
			return h(jsonrpc2.DetachContext(ctx), req)
		}
		return cancellable(ctx, req)
	}
}

// guard enforces the protocol's lifecycle (nothing but initialize before
// initialize, nothing but exit after shutdown) and turns a panic in a
// handler into an InternalError answer, logged, instead of a dead server.
//
// A notification never fails the connection (jsonrpc2 ends it at a
// notification handler's error): one the server does not implement is
// dropped, a "$/" one ignored, one whose params it cannot decode logged
// and dropped, as LSP says.
func (s *server) guard(h jsonrpc2.Handler) jsonrpc2.Handler {
	guarded := s.guardCall(h)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			return guarded(ctx, req)
		}
		method := req.Method()
		if _, known := servedNotifications[method]; !known {
			if !strings.HasPrefix(method, "$/") {
				s.logger.Printf("ignored notification %s: not implemented", termsafe.Line(method, 200))
			}
			return nil, nil
		}
		if _, err := guarded(ctx, req); err != nil {
			s.logger.Printf("dropped notification %s: %s", method, termsafe.Line(err.Error(), 500))
		}
		return nil, nil
	}
}

// servedNotifications are the notifications the server acts on; every
// other one is dropped (docs/editors.md lists both).
var servedNotifications = map[string]struct{}{
	protocol.MethodInitialized:                        {},
	protocol.MethodExit:                               {},
	protocol.MethodCancelRequest:                      {},
	protocol.MethodTextDocumentDidOpen:                {},
	protocol.MethodTextDocumentDidChange:              {},
	protocol.MethodTextDocumentDidSave:                {},
	protocol.MethodTextDocumentDidClose:               {},
	protocol.MethodWorkspaceDidChangeConfiguration:    {},
	protocol.MethodWorkspaceDidChangeWatchedFiles:     {},
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: {},
	protocol.MethodSetTrace:                           {},
}

func (s *server) guardCall(h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := req.Method()
		state := s.state.Load()
		switch {
		case method == protocol.MethodExit || method == protocol.MethodCancelRequest:
		case state == stateNew && method != protocol.MethodInitialize:
			if !req.IsCall() {
				return nil, nil // notifications before initialize are dropped
			}
			return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: send initialize first")
		case state == stateShutdown:
			if !req.IsCall() {
				return nil, nil
			}
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted")
		}
		defer func() {
			if v := recover(); v != nil {
				s.logger.Printf("panic in %s: %s", method, termsafe.Line(fmt.Sprint(v), 2000))
				result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("gramc lsp: internal error in %s (a bug: please report it)", method))
			}
		}()
		return h(ctx, req)
	}
}

// codec is the protocol package's union-aware JSON codec (its own is not
// exported): LSP unions such as Hover.contents only round-trip through it.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	// A result is decoded on the read goroutine from the frame buffer the
	// next read reuses, and the protocol package's decoders alias their
	// input for strings (it copies it first for most types, but not for a
	// union at the root, such as a code action list): decode a copy.
	return protocol.Unmarshal(slices.Clone(data), v)
}

// invalidParams is the JSON-RPC error for a request the server cannot
// answer because of what it asked: an unknown document, a position
// outside it.
func invalidParams(err error) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
}

// jsonrpcError is the error for a request the server understood but
// refuses (a rename to a name that clashes): RequestFailed, whose message
// the editor shows.
func jsonrpcError(err error) error {
	return jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), err.Error())
}

func (s *server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state.Load() != stateNew {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already sent")
	}
	c := params.Capabilities
	enc := utf16Units
	if c.General != nil {
		for _, e := range c.General.PositionEncodings {
			if e == protocol.PositionEncodingKindUTF8 {
				enc = utf8Bytes
				break
			}
		}
	}
	s.ws.setEncoding(enc)
	if w := c.Workspace; w != nil {
		s.caps.configuration = w.Configuration != nil && *w.Configuration
		s.caps.watchRegistered = w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil && *w.DidChangeWatchedFiles.DynamicRegistration
	}
	if t := c.TextDocument; t != nil {
		if t.Completion != nil && t.Completion.CompletionItem != nil && t.Completion.CompletionItem.SnippetSupport != nil {
			s.caps.snippets = *t.Completion.CompletionItem.SnippetSupport
		}
		if t.Hover != nil {
			for _, k := range t.Hover.ContentFormat {
				if k == protocol.MarkupKindMarkdown {
					s.caps.markdown = true
				}
			}
		}
		if t.DocumentSymbol != nil && t.DocumentSymbol.HierarchicalDocumentSymbolSupport != nil {
			s.caps.hierarchical = *t.DocumentSymbol.HierarchicalDocumentSymbolSupport
		}
	}
	if len(params.InitializationOptions) > 0 {
		if err := s.applySettings(params.InitializationOptions); err != nil {
			return nil, invalidParams(fmt.Errorf("initializationOptions: %w", err))
		}
		// An editor that does not trust the workspace says so once, here:
		// then no baseline is read, whatever gramc.json or the settings say.
		var trust struct {
			Untrusted bool `json:"untrustedWorkspace"`
		}
		_ = json.Unmarshal(params.InitializationOptions, &trust)
		s.ws.untrusted = trust.Untrusted
	}
	var folders []string
	if fs, ok := params.WorkspaceFolders.Get(); ok {
		for _, f := range fs {
			if f.URI.IsFile() {
				folders = append(folders, keyOf(f.URI))
			}
		}
	} else if params.RootURI != nil && params.RootURI.IsFile() {
		folders = append(folders, keyOf(*params.RootURI))
	}
	s.ws.folders = folders
	s.state.Store(stateRunning)
	return &protocol.InitializeResult{
		Capabilities: s.capabilities(),
		ServerInfo:   protocol.ServerInfo{Name: "gramc", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

func (s *server) capabilities() protocol.ServerCapabilities {
	yes := protocol.Boolean(true)
	t := true
	incremental := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		PositionEncoding: s.ws.enc.kind(),
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &t,
			Change:    &incremental,
			Save:      yes, // a saved gramc.json is read again
		},
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &t, ChangeNotifications: yes},
		},
		HoverProvider:             yes,
		DefinitionProvider:        yes,
		ReferencesProvider:        yes,
		DocumentHighlightProvider: yes,
		SignatureHelpProvider: &protocol.SignatureHelpOptions{
			TriggerCharacters:   []string{"(", ">"},
			RetriggerCharacters: []string{","},
		},
		DocumentSymbolProvider:          yes,
		WorkspaceSymbolProvider:         yes,
		DocumentFormattingProvider:      yes,
		DocumentRangeFormattingProvider: yes,
		RenameProvider:                  &protocol.RenameOptions{PrepareProvider: &t},
		FoldingRangeProvider:            yes,
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{":", "{", ",", "/", "\"", " "},
		},
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
		},
		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: tokenLegend(),
			Full:   protocol.Boolean(true),
			Range:  protocol.Boolean(true),
		},
	}
}

// applySettings reads the server's settings from JSON; called with s.mu
// held. An unknown target is an error that names the known ones.
func (s *server) applySettings(raw []byte) error {
	var st settings
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	var targets []schema.Target
	if len(st.Targets) > 0 {
		ts, err := schema.ParseTargets(strings.Join(st.Targets, ","))
		if err != nil {
			return fmt.Errorf("targets: %w", err)
		}
		targets = ts
	}
	if st.Baseline != "" {
		if why := git.ValidRevision(st.Baseline); why != "" {
			return fmt.Errorf("baseline %q: %s", termsafe.Line(st.Baseline, 100), why)
		}
	}
	s.settings = st
	s.ws.targets = targets
	s.ws.baseline = st.Baseline
	s.ws.dropBaselines()
	for _, p := range s.ws.pkgs {
		p.result = nil
		s.pending[p.key] = true
	}
	return nil
}

func (s *server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	s.mu.Lock()
	for _, f := range s.ws.folders {
		if err := s.ws.loadFolder(f); err != nil {
			s.logger.Printf("loading %s: %v", termsafe.Line(f, 500), termsafe.Line(err.Error(), 2000))
		}
	}
	for k := range s.ws.pkgs {
		s.pending[k] = true
	}
	caps := s.caps
	s.mu.Unlock()
	s.kick()
	// Requests to the client wait for its answer, which the read loop
	// delivers: they must not run on it.
	go func() {
		ctx := s.ctx
		if caps.watchRegistered {
			opts, _ := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
				Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*.gram")}, {GlobPattern: protocol.Pattern("**/" + config.FileName)}},
			})
			if err := s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
				ID: "gramc-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
			}}}); err != nil {
				s.logger.Printf("registering file watching: %v", err)
			}
		}
		if caps.configuration {
			s.fetchConfiguration(ctx)
		}
	}()
	return nil
}

// fetchConfiguration asks the client for the "gramc" settings section.
func (s *server) fetchConfiguration(ctx context.Context) {
	section := "gramc"
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}})
	if err != nil || len(res) == 0 || len(res[0]) == 0 || string(res[0]) == "null" {
		return
	}
	s.mu.Lock()
	err = s.applySettings(res[0])
	s.mu.Unlock()
	if err != nil {
		s.showError(ctx, "gramc settings: "+err.Error())
		return
	}
	s.kick()
}

func (s *server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	var err error
	if !pull && len(params.Settings) > 0 {
		var wrapped struct {
			Gramc json.RawMessage `json:"gramc"`
		}
		if json.Unmarshal(params.Settings, &wrapped) == nil && len(wrapped.Gramc) > 0 {
			err = s.applySettings(wrapped.Gramc)
		}
	}
	s.mu.Unlock()
	if pull {
		go s.fetchConfiguration(s.ctx)
		return nil
	}
	if err != nil {
		go s.showError(s.ctx, "gramc settings: "+err.Error())
	}
	s.kick()
	return nil
}

func (s *server) showError(ctx context.Context, msg string) {
	s.logger.Print(termsafe.Line(msg, 2000))
	_ = s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
}

// Shutdown finishes the diagnostics in flight (an edit just before
// shutdown is still reported) and then refuses everything but exit.
// SetTrace records the trace level the client asks for (VS Code sends it
// when the user changes gramc.trace.server). The client's own trace of the
// messages is what the setting shows; the server sends no $/logTrace.
func (s *server) SetTrace(ctx context.Context, params *protocol.SetTraceParams) error {
	switch params.Value {
	case protocol.TraceValueOff, protocol.TraceValueMessages, protocol.TraceValueVerbose:
	default:
		return fmt.Errorf("unknown trace value %q", termsafe.Line(string(params.Value), 100))
	}
	s.mu.Lock()
	s.trace = params.Value
	s.mu.Unlock()
	return nil
}

func (s *server) Shutdown(ctx context.Context) error {
	s.state.Store(stateShutdown)
	s.mu.Lock()
	defer s.mu.Unlock()
	for (len(s.pending) > 0 || s.busy > 0) && !s.loopDone {
		s.kick()
		s.idle.Wait()
	}
	return nil
}

func (s *server) Exit(ctx context.Context) error {
	s.mu.Lock()
	if !s.exited {
		s.exited = true
		close(s.exitCh)
	}
	s.mu.Unlock()
	return nil
}

func (s *server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	d := params.TextDocument
	s.mu.Lock()
	p, err := s.ws.open(d.URI, d.Version, d.Text)
	s.markLocked(p)
	s.mu.Unlock()
	if err != nil {
		go s.showError(s.ctx, err.Error())
	}
	s.kick()
	return nil
}

func (s *server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	f := s.ws.files[keyOf(params.TextDocument.URI)]
	var err error
	var p *pkg
	if f == nil || !f.open {
		err = fmt.Errorf("didChange for %s, which is not open", params.TextDocument.URI)
	} else {
		var text string
		text, err = applyChanges(f.text, f.m, params.ContentChanges, s.ws.enc)
		if err == nil {
			p, err = s.ws.change(params.TextDocument.URI, params.TextDocument.Version, text)
		}
	}
	s.markLocked(p)
	s.mu.Unlock()
	if err != nil {
		s.logger.Print(termsafe.Line(err.Error(), 2000))
	}
	s.kick()
	return nil
}

// applyChanges applies a didChange's edits in order. m is src's mapper,
// or nil: an edit's positions are mapped in the text before it, so only
// the first can use the file's own.
func applyChanges(src string, m *mapper, changes []protocol.TextDocumentContentChangeEvent, enc encoding) (string, error) {
	for _, c := range changes {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			// A copy: the decoded string may share the memory of the
			// whole message, which must not live as long as the text.
			src, m = strings.Clone(c.Text), nil
		case *protocol.TextDocumentContentChangePartial:
			if m == nil {
				m = newMapper(src, enc)
			}
			start, err := m.offset(c.Range.Start)
			if err != nil {
				return "", err
			}
			end, err := m.offset(c.Range.End)
			if err != nil {
				return "", err
			}
			if end < start {
				return "", fmt.Errorf("change range ends before it starts")
			}
			src, m = src[:start]+c.Text+src[end:], nil
		}
	}
	return src, nil
}

func (s *server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	// An open .gram document's text is already what was saved; a saved
	// gramc.json changes every package's configuration.
	if filepath.Base(keyOf(params.TextDocument.URI)) == config.FileName {
		s.mu.Lock()
		for _, p := range s.ws.configChanged() {
			s.markLocked(p)
		}
		s.mu.Unlock()
		s.kick()
	}
	return nil
}

func (s *server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	p, gone := s.ws.close(params.TextDocument.URI)
	s.markLocked(p)
	s.mu.Unlock()
	if gone != nil {
		s.clear(ctx, gone)
	}
	s.kick()
	return nil
}

func (s *server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	var gone []*file
	s.mu.Lock()
	for _, c := range params.Changes {
		if !c.URI.IsFile() {
			continue
		}
		if filepath.Base(keyOf(c.URI)) == config.FileName {
			// The project configuration: every package again.
			for _, p := range s.ws.configChanged() {
				s.markLocked(p)
			}
			continue
		}
		p, g := s.ws.diskChanged(keyOf(c.URI), c.Type == protocol.FileChangeTypeDeleted)
		s.markLocked(p)
		if g != nil {
			gone = append(gone, g)
		}
	}
	s.mu.Unlock()
	for _, f := range gone {
		s.clear(ctx, f)
	}
	s.kick()
	return nil
}

func (s *server) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	for _, f := range params.Event.Added {
		if f.URI.IsFile() {
			if err := s.ws.loadFolder(keyOf(f.URI)); err != nil {
				s.logger.Printf("loading %s: %v", termsafe.Line(string(f.URI), 500), termsafe.Line(err.Error(), 2000))
			}
		}
	}
	for k := range s.ws.pkgs {
		s.pending[k] = true
	}
	s.mu.Unlock()
	s.kick()
	return nil
}

// clear publishes an empty diagnostics list for a file that left the
// workspace.
func (s *server) clear(ctx context.Context, f *file) {
	_ = s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: f.uri, Diagnostics: []protocol.Diagnostic{}})
}

// markLocked queues a package for diagnosis; s.mu must be held.
func (s *server) markLocked(p *pkg) {
	if p != nil {
		s.pending[p.key] = true
	}
}

// kick wakes the diagnosis loop.
func (s *server) kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// diagnoseLoop checks the queued packages and publishes their
// diagnostics, one package at a time, until ctx ends. Edits that arrive
// while a package is checked queue it again; a burst of edits costs one
// check.
func (s *server) diagnoseLoop(ctx context.Context) {
	defer func() {
		s.mu.Lock()
		s.loopDone = true
		s.idle.Broadcast()
		s.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		for {
			s.mu.Lock()
			var key string
			for k := range s.pending {
				key = k
				break
			}
			if key == "" {
				s.idle.Broadcast()
				s.mu.Unlock()
				break
			}
			delete(s.pending, key)
			var out []*protocol.PublishDiagnosticsParams
			if p := s.ws.pkgs[key]; p != nil {
				out = s.safeDiagnosticsLocked(p)
			}
			s.busy++
			s.mu.Unlock()
			var err error
			for _, params := range out {
				if err = s.client.PublishDiagnostics(ctx, params); err != nil {
					break
				}
			}
			s.mu.Lock()
			s.busy--
			r, open := s.warmable(key)
			s.idle.Broadcast()
			s.mu.Unlock()
			s.warm(r, open)
			if err != nil {
				return
			}
		}
	}
}

// safeDiagnosticsLocked is diagnosticsLocked that survives a panic in
// the checker (a bug): it is logged and the package publishes nothing,
// and the server goes on.
func (s *server) safeDiagnosticsLocked(p *pkg) (out []*protocol.PublishDiagnosticsParams) {
	defer func() {
		if v := recover(); v != nil {
			s.logger.Printf("panic while checking %s: %s", termsafe.Line(p.key, 500), termsafe.Line(fmt.Sprint(v), 2000))
			out = nil
		}
	}()
	return s.diagnosticsLocked(p)
}

// warmable returns the package's current result and its open files, for
// warm; s.mu must be held.
func (s *server) warmable(key string) (*result, []string) {
	p := s.ws.pkgs[key]
	if p == nil || p.result == nil {
		return nil, nil // gone, or edited again: the next check warms it
	}
	var open []string
	for _, f := range p.files {
		if f.open {
			open = append(open, f.key)
		}
	}
	return p.result, open
}

// warm builds, once a package's diagnostics are out, what the next request
// on it will need: its index and the walks of its open files, so that a
// hover right after an edit costs the hover alone. It runs without the
// server's lock (a result is read-only), so the next edit is not held up.
func (s *server) warm(r *result, open []string) {
	if r == nil {
		return
	}
	defer func() {
		if v := recover(); v != nil { // a bug in the index: the request that needs it will report it
			s.logger.Printf("panic while indexing: %s", termsafe.Line(fmt.Sprint(v), 2000))
		}
	}()
	x := r.index()
	for _, k := range open {
		x.file(k)
	}
}

// withDoc runs f with the lock held on the document's file, package and
// current result. An unknown document is an InvalidParams error.
func withDoc[T any](ctx context.Context, s *server, u uri.URI, f func(*file, *pkg, *result) (T, error)) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil {
		var zero T
		return zero, protocol.ErrRequestCancelled
	}
	fl, p, r, err := s.ws.doc(u)
	if err != nil {
		var zero T
		return zero, invalidParams(err)
	}
	fl.prepare(s.ws.enc)
	v, err := f(fl, p, r)
	var bad errBadPosition
	if errors.As(err, &bad) {
		return v, invalidParams(err)
	}
	return v, err
}

// offsetAt is the byte offset of a request's position in a file.
func offsetAt(f *file, p protocol.Position) (int, error) {
	return f.m.offset(p)
}

// offsetsOf is the byte span of a request's range in a file.
func offsetsOf(f *file, rg protocol.Range) (start, end int, err error) {
	if start, err = f.m.offset(rg.Start); err != nil {
		return 0, 0, err
	}
	if end, err = f.m.offset(rg.End); err != nil {
		return 0, 0, err
	}
	return start, max(start, end), nil
}
