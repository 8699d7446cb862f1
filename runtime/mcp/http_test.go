package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// initialize is a 2025-06-18 client's first request.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// postMCP posts body to the MCP endpoint url as a streamable HTTP client
// does, with the headers h (one whose value is "" is not sent), and
// returns the response and its body, read and closed.
func postMCP(t *testing.T, url, body string, h http.Header) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for name, values := range h {
		if values[0] != "" {
			req.Header.Set(name, values[0])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(data)
}

// inSession is the headers of a request in session (none for "", before
// initialize has given one).
func inSession(session string) http.Header {
	if session == "" {
		return nil
	}
	return http.Header{"Mcp-Session-Id": {session}, "Mcp-Protocol-Version": {"2025-06-18"}}
}

func connectHTTP(t *testing.T, url string, hc *http.Client) (*sdk.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
}

// TestHTTPToken (issue 20.5): with a token, a request without it or with
// another is 401; the SDK's client with it lists and calls tools.
func TestHTTPToken(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{Token: "s3cret-token"}))
	defer srv.Close()
	for _, auth := range []string{"", "Bearer wrong", "Bearer s3cret-token-but-longer", "s3cret-token", "Basic czNjcmV0LXRva2Vu"} {
		resp, _ := postMCP(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, http.Header{"Authorization": {auth}})
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: status %d, WWW-Authenticate %q; want 401 Bearer", auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
	if _, err := connectHTTP(t, srv.URL, nil); err == nil {
		t.Error("a client without the token connected")
	}
	cs, err := connectHTTP(t, srv.URL, &http.Client{Transport: bearer{"s3cret-token"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "with token"}})
	if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != "with token" {
		t.Fatalf("call with the token: %v %+v", err, res)
	}
}

// TestHTTPOrigin (issue 20.5): a request whose Origin is foreign is 403, as
// the MCP transport specification requires; no Origin, the server's own,
// a listed one and (on loopback) a loopback one pass.
func TestHTTPOrigin(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{AllowedOrigins: []string{"https://app.example.com"}}))
	defer srv.Close()
	for origin, want := range map[string]int{
		"https://evil.example.com":  http.StatusForbidden,
		"http://attacker.test:8080": http.StatusForbidden,
		"null":                      http.StatusForbidden,
		"":                          http.StatusOK,
		"https://app.example.com":   http.StatusOK,
		"http://localhost:3000":     http.StatusOK,
		srv.URL:                     http.StatusOK,
	} {
		resp, _ := postMCP(t, srv.URL, initialize, http.Header{"Origin": {origin}})
		if resp.StatusCode != want {
			t.Errorf("Origin %q: status %d, want %d", origin, resp.StatusCode, want)
		}
	}
}

// blockingTool is an MCP server over HTTP whose one tool, block, waits
// until its context ends.
type blockingTool struct {
	url                string
	started, cancelled chan struct{}
}

func serveBlockingTool(t *testing.T) *blockingTool {
	t.Helper()
	b := &blockingTool{started: make(chan struct{}, 1), cancelled: make(chan struct{})}
	spec := runtime.ToolSpecification{Name: "block", Description: "Blocks", Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		b.started <- struct{}{}
		<-ctx.Done()
		close(b.cancelled)
		return nil, ctx.Err()
	}})
	s, err := mcp.NewServer("t", "1", lib, []runtime.ToolSpecification{spec})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mcp.NewHTTPHandler(s, mcp.HTTPOptions{}))
	t.Cleanup(srv.Close)
	b.url = srv.URL
	return b
}

// disconnectCancels sends a call of block with send, whose client goes
// away once the tool has started, and fails t unless the tool's context
// is then cancelled, well before any timeout.
func (b *blockingTool) disconnectCancels(t *testing.T, send func(ctx context.Context) (*http.Response, error)) {
	t.Helper()
	ctx, disconnect := context.WithCancel(context.Background())
	go func() {
		if resp, err := send(ctx); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	select {
	case <-b.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not start")
	}
	disconnect()
	select {
	case <-b.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool's context was not cancelled when its client went away")
	}
}

// TestHTTPDisconnectCancels (issue 20.4): a call whose client goes away is
// cancelled: the tool's context ends, well before any timeout.
func TestHTTPDisconnectCancels(t *testing.T) {
	b := serveBlockingTool(t)
	post := func(ctx context.Context, session, body string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", b.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		return http.DefaultClient.Do(req)
	}
	resp, err := post(context.Background(), "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp, err = post(context.Background(), session, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	b.disconnectCancels(t, func(ctx context.Context) (*http.Response, error) {
		return post(ctx, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	})
}

// TestHTTPTokenScheme: the Authorization scheme is case-insensitive (RFC
// 9110), so "bearer TOKEN" is served; a wrong token's challenge says
// error="invalid_token" (RFC 6750), a missing one's does not. Before,
// only "Bearer " with a capital B passed.
func TestHTTPTokenScheme(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{Token: "s3cret-token"}))
	defer srv.Close()
	for _, c := range []struct {
		auth      string
		status    int
		challenge string
	}{
		{"bearer s3cret-token", http.StatusOK, ""},
		{"BEARER s3cret-token", http.StatusOK, ""},
		{"Bearer s3cret-token ", http.StatusOK, ""},
		{"", http.StatusUnauthorized, `Bearer realm="gramc mcp"`},
		{"Basic czNjcmV0LXRva2Vu", http.StatusUnauthorized, `Bearer realm="gramc mcp"`},
		{"Bearer wrong", http.StatusUnauthorized, `Bearer realm="gramc mcp", error="invalid_token"`},
		{"bearer s3cret-tokenx", http.StatusUnauthorized, `Bearer realm="gramc mcp", error="invalid_token"`},
	} {
		resp, _ := postMCP(t, srv.URL, initialize, http.Header{"Authorization": {c.auth}})
		if resp.StatusCode != c.status || resp.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("Authorization %q: status %d, WWW-Authenticate %q; want %d, %q", c.auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), c.status, c.challenge)
		}
	}
}

// TestTraceThroughMCP (issue 24): a tool call through an MCP client
// carries its trace in _meta; the server's tools/call span (SERVER)
// continues it, with the MCP attributes, and the server's execute_tool
// span is its child: one trace from the agent into the tool.
func TestTraceThroughMCP(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { traceThroughMCP(t, version) })
	}
}

func traceThroughMCP(t *testing.T, version string) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: echoSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) { return "echoed", nil }})
	s, err := mcp.NewServer("t", "1", lib, []runtime.ToolSpecification{echoSpec}, runtime.WithTracerProvider(tp))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mcp.NewHTTPHandler(s, mcp.HTTPOptions{}))
	defer srv.Close()
	ctx0, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx0, &sdk.StreamableClientTransport{Endpoint: srv.URL}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := mcp.Tools(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, caller := tp.Tracer("test").Start(context.Background(), "execute_tool echo (agent side)")
	if _, err := tools[0].Func(ctx, json.RawMessage(`{"text":"x"}`)); err != nil {
		t.Fatal(err)
	}
	caller.End()
	var server, tool *tracetest.SpanStub
	spans := exp.GetSpans()
	for i := range spans {
		switch spans[i].Name {
		case "tools/call echo":
			server = &spans[i]
		case "execute_tool echo":
			tool = &spans[i]
		}
	}
	if server == nil || tool == nil {
		t.Fatalf("spans %v", spans)
	}
	if server.SpanKind != trace.SpanKindServer || server.Parent.SpanID() != caller.SpanContext().SpanID() || server.SpanContext.TraceID() != caller.SpanContext().TraceID() {
		t.Errorf("the server span does not continue the caller's trace: parent %v, caller %v", server.Parent, caller.SpanContext())
	}
	if tool.Parent.SpanID() != server.SpanContext.SpanID() {
		t.Errorf("execute_tool is not the server span's child")
	}
	want := map[string]bool{"mcp.method.name": false, "mcp.protocol.version": false, "gen_ai.tool.name": false}
	if version < "2026-07-28" {
		want["mcp.session.id"] = false // 2026-07-28 has no sessions (served statelessly)
	}
	for _, kv := range server.Attributes {
		if _, ok := want[string(kv.Key)]; ok {
			want[string(kv.Key)] = kv.Value.AsString() != ""
		}
		if kv.Key == "mcp.protocol.version" && kv.Value.AsString() != version {
			t.Errorf("mcp.protocol.version %q, want %q", kv.Value.AsString(), version)
		}
		if kv.Key == "mcp.session.id" && version >= "2026-07-28" {
			t.Errorf("a session id %q at %s, which has none", kv.Value.AsString(), version)
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("server span lacks %s", k)
		}
	}
}

// TestHTTPSlowBodyCut: a request whose body stalls is answered 408 and
// its connection freed (issue 35.3: a slow body held it for ever).
func TestHTTPSlowBodyCut(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{BodyTimeout: 400 * time.Millisecond}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":", srv.Listener.Addr())
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "did not arrive within 400ms") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

// TestHTTPSessionExpires: a session idle past SessionTimeout is closed:
// its id is answered 404 (issue 35.3: sessions lived for ever).
func TestHTTPSessionExpires(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{SessionTimeout: 200 * time.Millisecond}))
	defer srv.Close()
	resp, _ := postMCP(t, srv.URL, initialize, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("no session: %d", resp.StatusCode)
	}
	postMCP(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession(session))
	for range 100 {
		time.Sleep(100 * time.Millisecond)
		if r, _ := postMCP(t, srv.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, inSession(session)); r.StatusCode == http.StatusNotFound {
			return
		}
		time.Sleep(300 * time.Millisecond) // idle past the timeout
	}
	t.Fatal("the idle session never expired")
}

// TestHTTPIDsRoundTrip: over HTTP too, an id is answered exactly as sent
// (issue 35.3: 2.5 was answered as 2).
func TestHTTPIDsRoundTrip(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{}))
	defer srv.Close()
	resp, _ := postMCP(t, srv.URL, `{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	postMCP(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession(session))
	for _, id := range []string{`2.5`, `9007199254740993`, `"gramc-id-1"`} {
		_, body := postMCP(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, inSession(session))
		if !strings.Contains(body, `"id":`+id+`,`) || !strings.Contains(body, "hi") {
			t.Errorf("id %s answered: %s", id, body)
		}
	}
}

// TestHTTPDepthLimit (issue 44, Low): over HTTP, as over stdio, a message
// nested deeper than MaxDepth is answered with the JSON-RPC error naming
// the limit, and one at the limit is not.
func TestHTTPDepthLimit(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{}))
	defer srv.Close()
	nested := func(n int) string {
		return `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"},"x":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
	}
	resp, body := postMCP(t, srv.URL, nested(300), nil)
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"the message is nested deeper than the limit of %d levels"}}`, mcp.MaxDepth)
	if resp.StatusCode != http.StatusBadRequest || strings.TrimSpace(body) != want {
		t.Errorf("300 levels: %d %s", resp.StatusCode, body)
	}
	if resp, body := postMCP(t, srv.URL, nested(mcp.MaxDepth-3), nil); resp.StatusCode != http.StatusOK || strings.Contains(body, "nested deeper") {
		t.Errorf("%d levels: %d %s", mcp.MaxDepth-3, resp.StatusCode, body)
	}
}
