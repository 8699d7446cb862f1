package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	go filterLines(r, pw, out, logf)
	return &sdk.IOTransport{Reader: pr, Writer: nopCloser{out}, MaxLineLength: MaxMessageSize + 1}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// lockedWriter makes each Write whole: the SDK writes a message per
// Write, and the filter's answers go between them, never inside one.
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
func filterLines(r io.Reader, w *io.PipeWriter, out io.Writer, logf func(string, ...any)) {
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
			} else if _, werr := w.Write(append(line, '\n')); werr != nil {
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
