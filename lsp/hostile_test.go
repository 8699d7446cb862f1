package lsp

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hoverRequest is a well-formed request the server must answer after
// whatever came before it.
const hoverRequest = `{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:a.gram"},"position":{"line":0,"character":1}}}`

// openSession initializes a wire session with one open document.
func openSession(t *testing.T) *wire {
	w := newWire(t)
	w.b.SetReadDeadline(time.Now().Add(waitLimit))
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	w.wait(1)
	w.b.SetReadDeadline(time.Time{})
	w.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	w.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a.gram","languageId":"gram","version":1,"text":"[a:Tool {description: \"d\"} | (x::String)==>(::String)]"}}}`)
	return w
}

// alive writes the messages first, then a hover (id), and fails the test
// unless the server answers the hover within the wait limit.
func (w *wire) alive(id int, after string, first ...string) {
	w.t.Helper()
	w.b.SetReadDeadline(time.Now().Add(waitLimit))
	defer w.b.SetReadDeadline(time.Time{})
	// The pipe has no buffer, and the server may be writing an answer to
	// what came before: write from a goroutine, as an editor's writer
	// runs beside its reader.
	go func() {
		for _, m := range append(first, fmt.Sprintf(hoverRequest, id)) {
			if w.write(m) != nil {
				return
			}
		}
	}()
	if code := w.wait(id); code != 0 {
		w.t.Fatalf("after %s: hover answered with error %d", after, code)
	}
}

// TestHostileNotifications (issue 20.1): a notification the server does
// not implement or cannot decode is dropped (and logged); the server goes
// on answering requests and publishing diagnostics. Before, each of these
// wedged it for good.
func TestHostileNotifications(t *testing.T) {
	for _, n := range []string{
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"loud"}}`,
		`{"jsonrpc":"2.0","method":"$/somethingNew","params":{}}`,
		`{"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":"t"}}`,
		`{"jsonrpc":"2.0","method":"workspace/didRenameFiles","params":{"files":[]}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:b.gram","languageId":"gram","version":1,"text":42}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":42}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":7}`,
		`{"jsonrpc":"2.0","method":"gramc/unknown"}`,
	} {
		t.Run(n, func(t *testing.T) {
			w := openSession(t)
			w.send(n)
			w.alive(50, n)
			// Diagnostics still flow: an edit that breaks the document is
			// reported.
			w.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:a.gram","version":2},"contentChanges":[{"text":"[a:Tool {description: \"d\"} | (x::Strin)==>(::String)]"}]}}`)
			w.b.SetReadDeadline(time.Now().Add(waitLimit))
			for {
				m := w.message()
				if m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "unknown-type") {
					break
				}
			}
		})
	}
}

// TestSetTraceRecorded: $/setTrace is served, not just survived.
func TestSetTraceRecorded(t *testing.T) {
	w := openSession(t)
	w.send(`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"messages"}}`)
	w.alive(2, "$/setTrace")
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if w.s.trace != "messages" {
		t.Errorf("trace = %q, want messages", w.s.trace)
	}
}

// TestNotJSONRPC (issue 20.2): a well-framed body that is not JSON is
// answered with a parse error, JSON that is not a JSON-RPC message with an
// invalid request, both with id null; the server goes on. Before, it
// exited silently with status 0.
func TestNotJSONRPC(t *testing.T) {
	for _, c := range []struct {
		body string
		code int
	}{
		{`{not json`, -32700},
		{`Content-Length: 3`, -32700},
		{`42`, -32600},
		{`null`, -32600},
		{`"hello"`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":{}}`, -32600},
		{`{"jsonrpc":"2.0","id":[1],"method":"shutdown"}`, -32600},
		{`{"id":4,"method":"textDocument/hover","params":{}}`, -32600},
		{`{"jsonrpc":"1.0","id":4,"method":"textDocument/hover","params":{}}`, -32600},
		{`{"jsonrpc":"2.0","id":4,"method":7}`, -32600},
		{`{}`, -32600},
	} {
		t.Run(c.body, func(t *testing.T) {
			w := openSession(t)
			w.send(c.body)
			w.b.SetReadDeadline(time.Now().Add(waitLimit))
			var got *rawAnswer
			for got == nil {
				got = w.rawAnswer()
			}
			if string(got.ID) != "null" || got.Error == nil || got.Error.Code != c.code {
				t.Errorf("answer %+v, want error %d with id null", got, c.code)
			}
			w.alive(60, c.body)
		})
	}
}

type rawAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rawAnswer reads the next message; a response (no method) is returned,
// anything else (diagnostics) nil.
func (w *wire) rawAnswer() *rawAnswer {
	w.t.Helper()
	m := w.message()
	if m.Method != "" {
		return nil
	}
	var a rawAnswer
	if err := json.Unmarshal(m.raw, &a); err != nil {
		w.t.Fatal(err)
	}
	return &a
}

// TestOversizedFrame (issue 20.8): a frame over MaxFrameBytes is read past,
// not held, and answered with an error naming the limit.
func TestOversizedFrame(t *testing.T) {
	w := openSession(t)
	n := MaxFrameBytes + 1
	go func() {
		fmt.Fprintf(w.b, "Content-Length: %d\r\n\r\n", n)
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = ' '
		}
		for left := n; left > 0; left -= len(chunk) {
			if _, err := w.b.Write(chunk[:min(left, len(chunk))]); err != nil {
				return
			}
		}
	}()
	w.b.SetReadDeadline(time.Now().Add(waitLimit))
	var got *rawAnswer
	for got == nil {
		got = w.rawAnswer()
	}
	if got.Error == nil || !strings.Contains(got.Error.Message, "over the 64 MiB limit of a message") {
		t.Fatalf("answer %+v, want an error naming the limit", got)
	}
	w.alive(70, "an oversized frame")
}

// TestFramingErrorEndsWithError: a header the server cannot frame past is
// the one error that ends the session, and serve returns it (gramc lsp
// prints it and exits non-zero).
func TestFramingErrorEndsWithError(t *testing.T) {
	w := openSession(t)
	fmt.Fprintf(w.b, "Content-Type: application/json\r\n\r\n{}")
	go func() {
		for {
			if _, err := w.r.ReadByte(); err != nil {
				return
			}
		}
	}()
	select {
	case err := <-w.done:
		if err == nil || !strings.Contains(err.Error(), "without Content-Length") {
			t.Errorf("serve returned %v, want the framing error", err)
		}
		w.done <- nil
	case <-time.After(waitLimit):
		t.Fatal("the server did not end on a broken frame")
	}
}

var _ net.Conn // (the wire is a net.Pipe)

// FuzzLSP sends a fuzzed message body, framed, into a live session, then
// a well-formed request: the server must answer it (and must not panic or
// hang). Seeded with the hostile notifications and non-JSON-RPC bodies
// above, so it finds issue 20's items 1 and 2 on the code before them.
// Run: go test ./lsp -run '^$' -fuzz '^FuzzLSP$' -fuzztime 2m
func FuzzLSP(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`,
		`{"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":"t"}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:b.gram","text":42}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/completion","params":{"textDocument":{"uri":"untitled:a.gram"},"position":{"line":0,"character":40}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"textDocument/rename","params":{"textDocument":{"uri":"untitled:a.gram"},"position":{"line":0,"character":1},"newName":"b"}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:a.gram","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":3},"end":{"line":0,"character":3}},"text":"(x::"}]}}`,
		`42`, `null`, `{not json`, `{"jsonrpc":"2.0","id":{},"method":"shutdown"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<16 || strings.Contains(body, `"exit"`) || strings.Contains(body, `"shutdown"`) && !strings.Contains(body, `"id":{`) {
			return // exit and shutdown end a session by design
		}
		w := openSession(t)
		w.alive(1000, "the fuzzed message", body)
	})
}

// TestDocsListServedNotifications holds docs/editors.md to the server:
// every notification it acts on is named there.
func TestDocsListServedNotifications(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "editors.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## What the server serves and what it ignores")
	if !ok {
		t.Fatal("docs/editors.md has no section on what the server serves")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for m := range servedNotifications {
		name := m[strings.LastIndex(m, "/")+1:]
		if m == "$/cancelRequest" || m == "$/setTrace" {
			name = m
		}
		if !strings.Contains(section, "`"+name+"`") && !strings.Contains(section, "`"+m+"`") {
			t.Errorf("docs/editors.md does not name the served notification %s", m)
		}
	}
}

// TestCodeDescriptionOffline (issue 22.5): a diagnostic's codeDescription
// opens its explanation from the documentation gramc carries (a copy in
// the user's cache directory), not a web page that may not exist.
func TestCodeDescriptionOffline(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.gram": "[Report:Type | (city::Strng)]\n"})
	c := newTestClient(t, dir, clientOptions{})
	c.open("a.gram")
	ds := c.diagnostics("a.gram")["a.gram"]
	if len(ds) == 0 {
		t.Fatal("no diagnostics")
	}
	href := string(ds[0].CodeDescription.Href)
	path, anchor, _ := strings.Cut(strings.TrimPrefix(href, "file://"), "#")
	data, err := os.ReadFile(path)
	if err != nil || anchor != "unknown-type" || !strings.Contains(string(data), "### `unknown-type`") {
		t.Fatalf("codeDescription %q: %v (anchor %q)", href, err, anchor)
	}
}
