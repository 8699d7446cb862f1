package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageSize bounds one JSON-RPC message read by NewIOTransport.
const MaxMessageSize = 4 << 20

// MaxDepth bounds the nesting of one message's JSON (objects and arrays
// inside each other).
const MaxDepth = 256

// NewIOTransport returns a newline-delimited JSON-RPC transport on r and w
// (a server's standard input and output) that keeps a session alive
// through any line a client sends, where the SDK's own stream transport
// would end the session. Each line that the SDK cannot take is answered
// here, as JSON-RPC 2.0 says, and reported to logf (which may be nil):
//
//   - a line that is not JSON: a parse error (-32700), id null;
//   - JSON that is not a JSON-RPC 2.0 message (`[]`, `null`, `42`, an
//     object or array as id, "jsonrpc" other than "2.0", a method that is
//     not a string): an invalid request (-32600), with the message's id
//     when it has a valid one, else null;
//   - a message over MaxMessageSize bytes or nested deeper than MaxDepth:
//     an invalid request naming the limit, with the message's id when it
//     can be read from the message's start (so the client's call ends).
func NewIOTransport(r io.Reader, w io.Writer, logf func(format string, args ...any)) sdk.Transport {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	out := &lockedWriter{w: w}
	pr, pw := io.Pipe()
	ids := newIDMap()
	go filterLines(r, pw, out, ids, logf)
	return &sdk.IOTransport{Reader: pr, Writer: nopCloser{&idWriter{w: out, ids: ids}}, MaxLineLength: MaxMessageSize + 1}
}

// idMap keeps the ids that the SDK cannot carry exactly — it reads a
// number id as a float64 made an int64, so 2.5 would be answered as 2,
// and 9007199254740993 as 9007199254740992 — as string tokens of its own
// while their requests are served: JSON-RPC requires the answer's id to
// be the request's. A client's own string id that looks like a token is
// carried as one too, so the two never meet.
type idMap struct {
	mu      sync.Mutex
	next    int
	byToken map[string]json.RawMessage // "gramc-id-N" (as JSON) -> the client's id
	byRaw   map[string]string          // the client's id -> its latest token
}

const idTokenPrefix = "gramc-id-"

func newIDMap() *idMap {
	return &idMap{byToken: map[string]json.RawMessage{}, byRaw: map[string]string{}}
}

// forget drops token, its request answered.
func (m *idMap) forget(token string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	orig, ok := m.byToken[token]
	if !ok {
		return
	}
	delete(m.byToken, token)
	if m.byRaw[string(orig)] == token {
		delete(m.byRaw, string(orig))
	}
}

// exactID reports whether the SDK carries id exactly: a string that is
// not a token of ours, null, or an integer of at most 2^53 in magnitude
// written plainly.
func exactID(raw json.RawMessage) bool {
	switch raw[0] {
	case '"':
		var s string
		return json.Unmarshal(raw, &s) == nil && !strings.HasPrefix(s, idTokenPrefix)
	case 'n':
		return true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n <= 1<<53 && n >= -(1<<53) && strconv.FormatInt(n, 10) == string(raw)
}

// inbound rewrites a message's id (and a cancellation's requestId) that
// the SDK would not carry exactly into a token; other lines are returned
// as they are.
func (m *idMap) inbound(line []byte) []byte {
	// The common case at the cost of reading up to the id: an exact id,
	// and no cancellation of a request whose id rides as a token.
	if id := idOf(line); id == nil || exactID(id) {
		m.mu.Lock()
		mapped := len(m.byRaw) > 0
		m.mu.Unlock()
		if !mapped || !bytes.Contains(line, []byte("notifications/cancelled")) {
			return line
		}
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil {
		return line
	}
	changed := false
	if raw, ok := msg["id"]; ok && len(raw) > 0 && !exactID(raw) {
		m.mu.Lock()
		m.next++
		token, _ := json.Marshal(idTokenPrefix + strconv.Itoa(m.next))
		m.byToken[string(token)] = raw
		m.byRaw[string(raw)] = string(token)
		m.mu.Unlock()
		msg["id"], changed = token, true
	}
	if string(msg["method"]) == `"notifications/cancelled"` {
		var params map[string]json.RawMessage
		if json.Unmarshal(msg["params"], &params) == nil {
			m.mu.Lock()
			token, ok := m.byRaw[string(params["requestId"])]
			m.mu.Unlock()
			if ok {
				params["requestId"] = json.RawMessage(token)
				msg["params"], _ = json.Marshal(params)
				changed = true
			}
		}
	}
	if !changed {
		return line
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return line
	}
	return out
}

// idWriter gives back, in each answer the SDK writes, the id the client
// sent in place of its token.
type idWriter struct {
	w   io.Writer
	ids *idMap
}

func (iw *idWriter) Write(p []byte) (int, error) {
	iw.ids.mu.Lock()
	empty := len(iw.ids.byToken) == 0
	iw.ids.mu.Unlock()
	if empty {
		return iw.w.Write(p)
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(p, &msg) != nil {
		return iw.w.Write(p)
	}
	_, isCall := msg["method"]
	iw.ids.mu.Lock()
	orig, ok := iw.ids.byToken[string(msg["id"])]
	iw.ids.mu.Unlock()
	if ok && !isCall {
		iw.ids.forget(string(msg["id"]))
	}
	if !ok || isCall {
		return iw.w.Write(p)
	}
	msg["id"] = orig
	out, err := json.Marshal(msg)
	if err != nil {
		return iw.w.Write(p)
	}
	if _, err := iw.w.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// lockedWriter makes each Write whole: the SDK writes a message per
// Write, and the filter's answers go between them, never inside one.
// cli's gotools_test.go has the same lock around a buffer (lockedBuffer),
// which also reads it; this one only passes writes on.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// The JSON-RPC error codes the filter answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// filterLines copies the JSON-RPC lines of r to w and answers the others
// on out.
func filterLines(r io.Reader, w *io.PipeWriter, out io.Writer, ids *idMap, logf func(string, ...any)) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		var id json.RawMessage
		code, msg := 0, ""
		switch {
		case tooLong > 0:
			id = idOf(line)
			code, msg = codeInvalidRequest, fmt.Sprintf("the message is %d bytes, over the %d-byte limit of a message", tooLong, MaxMessageSize)
		case len(bytes.Trim(line, " \t\r\n")) == 0:
			// A blank line, in JSON's whitespace only: a line of \v or
			// \f is not JSON (FuzzMCPLines found it unanswered).
		case depth(line) > MaxDepth:
			id = idOf(line)
			code, msg = codeInvalidRequest, fmt.Sprintf("the message is nested deeper than the limit of %d levels", MaxDepth)
		case !json.Valid(line):
			code, msg = codeParseError, "the message is not JSON"
		default:
			if why, mid := invalidMessage(line); why != "" {
				id, code, msg = mid, codeInvalidRequest, "the message is not a JSON-RPC 2.0 message: "+why
			} else if _, werr := w.Write(append(ids.inbound(line), '\n')); werr != nil {
				return
			}
		}
		if code != 0 {
			logf("answered a %d-byte line with error %d: %s", max(len(line), tooLong), code, msg)
			if len(id) == 0 {
				id = json.RawMessage("null")
			}
			data, _ := json.Marshal(struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}{JSONRPC: "2.0", ID: id, Error: struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}{code, "gramc mcp: " + msg}})
			if _, werr := out.Write(append(data, '\n')); werr != nil {
				w.CloseWithError(werr)
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			w.CloseWithError(err)
			return
		}
	}
}

// invalidMessage says why a JSON line is not a JSON-RPC 2.0 message ("" if
// it is one), and the id to answer with (nil when it has no valid one).
func invalidMessage(line []byte) (why string, id json.RawMessage) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		return "it is not an object", nil
	}
	if raw, ok := m["id"]; ok {
		if validID(raw) {
			id = raw
		} else {
			return "its id is neither a string, a number nor null", nil
		}
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return `its "jsonrpc" is not "2.0"`, id
	}
	if raw, ok := m["method"]; ok {
		var method string
		if json.Unmarshal(raw, &method) != nil {
			return "its method is not a string", id
		}
		return "", id
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if !hasResult && !hasError {
		return "it has no method, result or error", id
	}
	return "", id
}

func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	case 'n':
		return string(raw) == "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		return json.Unmarshal(raw, &n) == nil
	}
	return false
}

// idOf reads a message's id from its start (a message too long or too
// deep to take whole): the top-level "id" member, if it comes before the
// reader gives up, and is valid.
func idOf(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var raw json.RawMessage
		if key == "id" {
			if dec.Decode(&raw) != nil || !validID(raw) {
				return nil
			}
			return raw
		}
		if skip(dec) != nil {
			return nil
		}
	}
	return nil
}

// skip reads past one value without keeping it.
func skip(dec *json.Decoder) error {
	d := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			d++
		case json.Delim('}'), json.Delim(']'):
			d--
		}
		if d == 0 {
			return nil
		}
	}
}

// depth is the deepest nesting of objects and arrays in line (strings
// skipped).
func depth(line []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range line {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// readLine reads one line holding at most MaxMessageSize bytes (its
// terminator, "\n" or "\r\n", not counted); a longer one is consumed and
// reported by its length, with its first 64 KiB (for idOf).
func readLine(br *bufio.Reader) (line []byte, tooLong int, err error) {
	n := 0 // the line's bytes so far, its terminator included
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= MaxMessageSize+2 {
			line = append(line, chunk...)
		} else if len(line) > 64<<10 {
			line = line[:64<<10]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		size := n
		if bytes.HasSuffix(chunk, []byte("\r\n")) {
			size -= 2
		} else if bytes.HasSuffix(chunk, []byte("\n")) {
			size--
		}
		if size > MaxMessageSize {
			return line, size, err
		}
		return bytes.TrimRight(line, "\r\n"), 0, err
	}
}
