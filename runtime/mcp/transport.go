package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageSize bounds one JSON-RPC message read by NewIOTransport.
const MaxMessageSize = 4 << 20

// NewIOTransport returns a newline-delimited JSON-RPC transport on r and w
// (a server's standard input and output) that keeps a session alive
// through bad input: a line that is not JSON, or is longer than
// MaxMessageSize, is dropped and reported to logf (which may be nil), where
// the SDK's own stream transport would end the session on it.
func NewIOTransport(r io.Reader, w io.Writer, logf func(format string, args ...any)) sdk.Transport {
	pr, pw := io.Pipe()
	go filterLines(r, pw, logf)
	return &sdk.IOTransport{Reader: pr, Writer: nopCloser{w}, MaxLineLength: MaxMessageSize + 1}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// filterLines copies the JSON lines of r to w, dropping the others.
func filterLines(r io.Reader, w *io.PipeWriter, logf func(string, ...any)) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		switch {
		case tooLong > 0:
			logf("dropped a message of %d bytes, over the %d-byte limit", tooLong, MaxMessageSize)
		case len(bytes.TrimSpace(line)) == 0:
		case !json.Valid(line):
			logf("dropped a line that is not JSON (%d bytes)", len(line))
		default:
			if _, werr := w.Write(append(line, '\n')); werr != nil {
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

// readLine reads one line of at most MaxMessageSize bytes; a longer one is
// consumed and reported by its length.
func readLine(br *bufio.Reader) (line []byte, tooLong int, err error) {
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= MaxMessageSize {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n > MaxMessageSize {
			return nil, n, err
		}
		return bytes.TrimRight(line, "\r\n"), 0, err
	}
}
