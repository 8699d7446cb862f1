package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime/mcp"
)

// lineSession is a raw stdio session with an echo server: the lines a
// host writes and reads.
type lineSession struct {
	t     testing.TB
	in    *io.PipeWriter
	lines chan string
	done  chan error
	seen  []answer // the other answers read while awaiting one
}

func newLineSession(t testing.TB) *lineSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &lineSession{t: t, in: inW, lines: make(chan string, 64), done: make(chan error, 1)}
	go func() { s.done <- echoServer(t).Run(ctx, mcp.NewIOTransport(inR, outW, nil)); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-s.done
	})
	s.write(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.answer(`"init"`)
	s.write(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	return s
}

func (s *lineSession) write(lines ...string) {
	go func() {
		for _, l := range lines {
			if _, err := io.WriteString(s.in, l+"\n"); err != nil {
				return
			}
		}
	}()
}

type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// answer reads lines until the answer with id (as JSON) and returns it,
// failing the test if none comes within the wait limit.
func (s *lineSession) answer(id string) answer {
	s.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the server closed the stream waiting for the answer to %s", id)
			}
			var a answer
			if err := json.Unmarshal([]byte(l), &a); err != nil {
				s.t.Fatalf("the server wrote a line that is not JSON: %q", l)
			}
			if string(a.ID) == id {
				return a
			}
			s.seen = append(s.seen, a)
		case <-timeout:
			s.t.Fatalf("no answer to %s", id)
		}
	}
}

// alive fails the test unless a tool call (id) is answered. The lines
// first are written before the call, in order.
func (s *lineSession) alive(id int, after string, first ...string) {
	s.t.Helper()
	s.write(append(first, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"alive"}}}`, id))...)
	a := s.answer(fmt.Sprint(id))
	if a.Error != nil || !strings.Contains(string(a.Result), "alive") {
		s.t.Fatalf("after %s: the call was answered %s %+v", after, a.Result, a.Error)
	}
}

// TestNotJSONRPCLines (issue 20.3): a line that is not a JSON-RPC 2.0
// message is answered as JSON-RPC says, and the session goes on. Before,
// a line of valid JSON that is not a message ended gramc mcp (exit 2).
func TestNotJSONRPCLines(t *testing.T) {
	for _, c := range []struct {
		line, id string
		code     int
	}{
		{`this is not json`, "null", -32700},
		{"\v", "null", -32700},
		{"\f \u00a0", "null", -32700},
		{`{"jsonrpc":"2.0","id":5,`, "null", -32700},
		{`[]`, "null", -32600},
		{`[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]`, "null", -32600},
		{`null`, "null", -32600},
		{`42`, "null", -32600},
		{`"text"`, "null", -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, "null", -32600},
		{`{"jsonrpc":"1.0","id":6,"method":"tools/list"}`, "6", -32600},
		{`{"id":7,"method":"tools/list"}`, "7", -32600},
		{`{"jsonrpc":"2.0","id":"s8","method":42}`, `"s8"`, -32600},
		{`{"jsonrpc":"2.0","id":9}`, "9", -32600},
		{`{"jsonrpc":"2.0","id":10,"method":"tools/list","params":` + strings.Repeat("[", mcp.MaxDepth+1) + strings.Repeat("]", mcp.MaxDepth+1) + `}`, "10", -32600},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", mcp.MaxMessageSize) + `"}}`, "11", -32600},
	} {
		name := c.line
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			s := newLineSession(t)
			s.write(c.line)
			a := s.answer(c.id)
			if a.Error == nil || a.Error.Code != c.code {
				t.Fatalf("answer %+v, want error %d with id %s", a, c.code, c.id)
			}
			switch {
			case strings.Contains(c.line, strings.Repeat("x", 100)) && !strings.Contains(a.Error.Message, "over the 4194304-byte limit of a message"),
				strings.Contains(c.line, "[[[[") && !strings.Contains(a.Error.Message, fmt.Sprintf("deeper than the limit of %d levels", mcp.MaxDepth)):
				t.Errorf("the answer does not name the limit: %s", a.Error.Message)
			}
			s.alive(100, c.line)
		})
	}
}

// FuzzMCPLines writes a fuzzed line (or lines) into a live session, then
// a tool call: the call must be answered, every line the server writes
// must be JSON, a line that is not JSON or JSON that is not an object
// must be answered -32700 or -32600 with id null (wantError), and
// nothing may panic or hang. Seeded with the lines of
// TestNotJSONRPCLines, so it finds issue 20.3 on the code before it.
// Run: go test ./runtime/mcp -run '^$' -fuzz FuzzMCPLines -fuzztime 2m
func FuzzMCPLines(f *testing.F) {
	for _, l := range []string{`[]`, `null`, `42`, `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, "not json",
		// The probe of issue 35: ids the SDK cannot carry exactly.
		`{"jsonrpc":"2.0","id":2.5,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":"gramc-id-1","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2.5}}`} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 1<<16 || strings.Contains(line, `"id":100`) || strings.Contains(line, `"id":1e2`) {
			return
		}
		s := newLineSession(t)
		s.seen = nil
		s.alive(100, "the fuzzed line", line)
		if code := wantError(line); code != 0 && !slices.ContainsFunc(s.seen, func(a answer) bool {
			return string(a.ID) == "null" && a.Error != nil && a.Error.Code == code
		}) {
			t.Fatalf("the line %q was not answered with error %d, id null (answers: %+v)", line, code, s.seen)
		}
	})
}

// wantError is the error JSON-RPC 2.0 says a single line must be answered
// with when that does not depend on what the server serves: -32700 for
// one that is not JSON, -32600 for JSON that is not an object. It is 0
// for the rest, and for several lines, a blank one, or one nested deeper
// than the limit (answered -32600 whatever it is).
func wantError(line string) int {
	text := strings.Trim(line, " \t\r\n")
	switch {
	case text == "" || strings.ContainsAny(line, "\n\r") || strings.Count(line, "[")+strings.Count(line, "{") > mcp.MaxDepth:
		return 0
	case !json.Valid([]byte(text)):
		return -32700
	case text[0] != '{':
		return -32600
	}
	return 0
}

// TestMessageAtTheLimit: a message of exactly MaxMessageSize bytes is
// served, and the size named for one over it is the message's own, its
// line terminator not counted (before, a message of exactly the limit was
// refused, and the size named one byte more than the message's).
func TestMessageAtTheLimit(t *testing.T) {
	padded := func(id, size int, end string) string {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{"pad":"`, id)
		return head + strings.Repeat("x", size-len(head)-len(`"}}`)) + `"}}` + end
	}
	s := newLineSession(t)
	if l := padded(1, mcp.MaxMessageSize, ""); len(l) != mcp.MaxMessageSize {
		t.Fatalf("the message has %d bytes", len(l))
	}
	s.write(padded(1, mcp.MaxMessageSize, ""))
	if a := s.answer("1"); a.Error != nil || !strings.Contains(string(a.Result), `"echo"`) {
		t.Errorf("a message of exactly %d bytes: %s %+v", mcp.MaxMessageSize, a.Result, a.Error)
	}
	s.write(padded(2, mcp.MaxMessageSize, "\r"))
	if a := s.answer("2"); a.Error != nil {
		t.Errorf("a message of exactly %d bytes ending in CRLF: %+v", mcp.MaxMessageSize, a.Error)
	}
	s.write(padded(3, mcp.MaxMessageSize+1, ""))
	want := fmt.Sprintf("the message is %d bytes, over the %d-byte limit", mcp.MaxMessageSize+1, mcp.MaxMessageSize)
	if a := s.answer("3"); a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, want) {
		t.Errorf("a message of %d bytes: %+v, want -32600 %q", mcp.MaxMessageSize+1, a.Error, want)
	}
	s.alive(100, "the messages at the limit")
}

// TestIDsRoundTrip: every id is answered exactly as the client wrote it
// (issue 35.3): the SDK reads a number id as an integer, so 2.5 was
// answered as 2, and an integer past 2^53 as another. A client's string id
// that looks like gramc's own stand-in is answered as itself too, and a
// cancellation names the request by the same exact id.
func TestIDsRoundTrip(t *testing.T) {
	s := newLineSession(t)
	for _, id := range []string{`2.5`, `-0.5`, `1e3`, `9007199254740993`, `12345678901234567890`, `"gramc-id-1"`, `7`, `"x"`} {
		s.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, id))
		if a := s.answer(id); a.Error != nil || !strings.Contains(string(a.Result), "hi") {
			t.Errorf("id %s: answered %s %+v", id, a.Result, a.Error)
		}
	}
	s.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3.5}}`)
	s.alive(100, "the ids")
}
