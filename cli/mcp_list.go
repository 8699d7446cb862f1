package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// maxListingBytes bounds the tools/list results recorded from a server.
const maxListingBytes = 64 << 20

// mcpToolList returns the tools/list of a live MCP server (every page, at
// most maxListedTools tools) as JSON, {"tools": [...]}, within timeout;
// flag names the server's flag in errors (--against-mcp, --mcp). The
// entries are the server's own JSON, as it wrote them (the SDK's Tool
// decodes a schema into a map, which loses the order of its properties:
// the order of a tool's parameters): they are recorded from the
// connection, stdio's messages or the HTTP bodies.
func mcpToolList(ctx context.Context, server string, timeout time.Duration, flag, clientName string) ([]byte, error) {
	// A signal while the server starts or lists ends the listing and kills
	// the server's process group at once; so does the end of ctx, the
	// command's.
	sctx, interrupted, stopSignals := stopOnSignal(ctx, nil)
	defer stopSignals()
	ctx, cancel := context.WithTimeout(sctx, timeout)
	defer cancel()
	logs := &tailBuffer{max: 4096} // a command's standard error, shown when listing fails
	rec := &listRecorder{results: map[string][]byte{}}
	var t sdk.Transport
	if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
		// mcpTransport's, recording below its bounds.
		t = mcp.NewHTTPClientTransportVia(server, &recordingRoundTripper{next: http.DefaultTransport, rec: rec})
	} else {
		var cmd *exec.Cmd
		t, cmd = mcpTransport(sctx, server, logs, time.Second)
		// What the command starts goes when the session does (sh -c 'srv &',
		// a server that forks), after the SDK's own close.
		defer toolcmd.KillGroup(cmd)
		t = &recordingTransport{Transport: t, rec: rec}
	}
	fail := func(err error) error {
		if sctx.Err() != nil {
			return interrupted(err)
		}
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			err = fmt.Errorf("no tool list within %s (--mcp-timeout)", timeout)
		}
		err = mcp.ClientError(t, err)
		if s := strings.TrimSpace(logs.String()); s != "" {
			err = fmt.Errorf("%w; the server wrote:\n%s", err, termsafe.Text(s, 4096))
		}
		return mcpFailure(flag, server, err)
	}
	client := mcp.NewClient(clientName, versionString())
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fail(err)
	}
	defer session.Close()
	var tools []*sdk.Tool
	for tool, err := range mcp.ListTools(ctx, session) {
		if err != nil {
			return nil, fail(err)
		}
		if len(tools) == maxListedTools {
			return nil, fail(fmt.Errorf("more than %d tools listed (the limit)", maxListedTools))
		}
		tools = append(tools, tool)
	}
	if rec.overflow {
		return nil, fail(fmt.Errorf("a tool list larger than %d bytes (the limit)", maxListingBytes))
	}
	if raw := rec.tools(); len(raw) == len(tools) {
		return json.MarshalIndent(map[string]any{"tools": raw}, "", "  ")
	}
	// Not recorded (a transport that speaks otherwise): the SDK's view.
	data, err := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	if err != nil {
		return nil, fail(err)
	}
	return data, nil
}

// listRecorder keeps the raw results of the tools/list requests of a
// session, in the order of the requests.
type listRecorder struct {
	mu       sync.Mutex
	ids      []string          // the tools/list requests' IDs, in order
	results  map[string][]byte // by request ID
	size     int
	overflow bool
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%#v", id.Raw()) }

// message records a JSON-RPC message (or a batch) seen on the wire.
func (r *listRecorder) message(data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) == nil {
			for _, m := range batch {
				r.message(m)
			}
		}
		return
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return
	}
	r.decoded(msg)
}

func (r *listRecorder) decoded(msg jsonrpc.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method == "tools/list" && m.ID.IsValid() {
			r.ids = append(r.ids, idKey(m.ID))
		}
	case *jsonrpc.Response:
		if !m.ID.IsValid() || m.Result == nil {
			return
		}
		key := idKey(m.ID)
		for _, id := range r.ids {
			if id == key {
				if r.size += len(m.Result); r.size > maxListingBytes {
					r.overflow = true
					return
				}
				r.results[key] = append([]byte(nil), m.Result...)
			}
		}
	}
}

// tools are the entries of every page recorded, in order, as the server
// wrote them (nil when a page is missing).
func (r *listRecorder) tools() []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []json.RawMessage
	for _, id := range r.ids {
		res, ok := r.results[id]
		if !ok {
			return nil
		}
		var page struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(res, &page) != nil {
			return nil
		}
		out = append(out, page.Tools...)
	}
	return out
}

// recordingTransport records the messages of a stdio (or other
// message-level) connection.
type recordingTransport struct {
	sdk.Transport
	rec *listRecorder
}

func (t *recordingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, rec: t.rec}, nil
}

type recordingConn struct {
	sdk.Connection
	rec *listRecorder
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.rec.decoded(m)
	}
	return m, err
}

func (c *recordingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.rec.decoded(m)
	return c.Connection.Write(ctx, m)
}

// recordingRoundTripper records the messages of streamable HTTP: the
// requests' bodies, and the responses' (JSON, or the data of an event
// stream) as the SDK reads them.
type recordingRoundTripper struct {
	next http.RoundTripper
	rec  *listRecorder
}

func (t *recordingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Method == http.MethodPost {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxListingBytes))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		t.rec.message(body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	resp.Body = &teeBody{body: resp.Body, sse: sse, rec: t.rec}
	return resp, nil
}

// teeBody records the messages of a response body as the SDK reads it,
// before the SDK sees the bytes that complete one: a JSON body when it
// ends, each event of an event stream when its blank line arrives. Each
// byte is looked at once, so a large event costs linear time.
type teeBody struct {
	body     io.ReadCloser
	sse      bool
	rec      *listRecorder
	buf      []byte // the JSON body, or the event stream's pending text (line ends as \n)
	cr       bool   // the last byte appended was a \r (a \r\n may be split across reads)
	scanned  int    // buf[:scanned] has no blank line
	overflow bool
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if !b.overflow {
		if b.sse {
			b.appendEvents(p[:n])
		} else {
			b.buf = append(b.buf, p[:n]...)
		}
		if len(b.buf) > maxListingBytes {
			b.overflow, b.buf = true, nil
		}
	}
	if err == io.EOF && !b.overflow {
		if b.sse {
			b.event(b.buf)
		} else {
			b.rec.message(b.buf)
		}
		b.buf = nil
	}
	return n, err
}

// appendEvents appends stream text with its line ends made \n, and
// records each event a blank line completes.
func (b *teeBody) appendEvents(p []byte) {
	for _, c := range p {
		switch {
		case c == '\n' && b.cr:
			b.cr = false // the \n of a \r\n: the \r made the line end
			continue
		case c == '\r':
			b.cr = true
			c = '\n'
		default:
			b.cr = false
		}
		b.buf = append(b.buf, c)
	}
	for {
		i := bytes.Index(b.buf[max(b.scanned-1, 0):], []byte("\n\n"))
		if i < 0 {
			b.scanned = len(b.buf)
			return
		}
		end := max(b.scanned-1, 0) + i
		b.event(b.buf[:end])
		b.buf = b.buf[end+2:]
		b.scanned = 0
	}
}

// event records the message of one event's data lines.
func (b *teeBody) event(text []byte) {
	var data bytes.Buffer
	for _, line := range bytes.Split(text, []byte("\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data.Write(bytes.TrimPrefix(d, []byte(" ")))
			data.WriteByte('\n')
		}
	}
	if data.Len() > 0 {
		b.rec.message(data.Bytes())
	}
}

func (b *teeBody) Close() error { return b.body.Close() }
