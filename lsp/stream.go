package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// MaxFrameBytes bounds one message's body. A frame over it is read past
// (never held) and answered with an error that names the limit.
const MaxFrameBytes = 64 << 20

// Header bounds: a header line, and the lines of one header.
const (
	maxHeaderLine  = 4 << 10
	maxHeaderLines = 32
)

// FramingError is a stream the server cannot read on from: a header
// without Content-Length, a length that is not a number, a stream cut in
// the middle of a frame. gramc lsp reports it on standard error and exits
// with a non-zero status.
type FramingError struct{ Msg string }

func (e *FramingError) Error() string { return "framing error: " + e.Msg }

// stream frames messages with Content-Length headers, as on stdio, and
// keeps the connection alive through any body it cannot use: a body that
// is not JSON is answered with a parse error (-32700), JSON that is not a
// JSON-RPC message (42, null, an object as id, no "jsonrpc": "2.0") with
// an invalid request (-32600), both with id null as JSON-RPC says, and a
// body over MaxFrameBytes with an invalid request naming the limit; then
// the next message is read. Only a broken frame ends the stream.
//
// It is the server's own framing, not jsonrpc2's, because jsonrpc2 ends
// the connection at the first body it cannot decode, silently.
type stream struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
	log    func(format string, args ...any)

	wmu sync.Mutex // one frame at a time
}

func newStream(rwc io.ReadWriteCloser, log func(format string, args ...any)) *stream {
	return &stream{r: bufio.NewReaderSize(rwc, 64<<10), w: rwc, closer: rwc, log: log}
}

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, n, err := s.readFrame()
		if err != nil {
			return nil, n, err
		}
		if body == nil {
			continue // an oversized frame, answered
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		code, what := jsonrpc2.InvalidRequest, "not a JSON-RPC 2.0 message"
		if !json.Valid(body) {
			code, what = jsonrpc2.ParseError, "not JSON"
		}
		s.log("dropped a %d-byte message: %s (%v)", len(body), what, err)
		if err := s.answerInvalid(ctx, code, "gramc lsp: the message is "+what); err != nil {
			return nil, n, err
		}
	}
}

// readFrame reads one frame's body; nil with no error for a frame over
// MaxFrameBytes, which it skips and answers.
func (s *stream) readFrame() ([]byte, int64, error) {
	length := -1
	var n int64
	for lines := 0; ; lines++ {
		line, err := s.readLine()
		n += int64(len(line))
		if err != nil {
			if err == io.EOF && lines == 0 && n == 0 {
				return nil, n, io.EOF // a clean end between messages
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, n, &FramingError{Msg: fmt.Sprintf("reading a header: %v", err)}
		}
		if lines >= maxHeaderLines {
			return nil, n, &FramingError{Msg: fmt.Sprintf("a header of more than %d lines", maxHeaderLines)}
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if lines == 0 {
				continue // tolerate a blank line between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, n, &FramingError{Msg: fmt.Sprintf("header line %q has no colon", clip(line))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v < 0 {
				return nil, n, &FramingError{Msg: fmt.Sprintf("Content-Length %q is not a length", clip(value))}
			}
			length = int(min(v, 1<<62))
		}
	}
	if length < 0 {
		return nil, n, &FramingError{Msg: "a header without Content-Length"}
	}
	if length > MaxFrameBytes {
		skipped, err := io.CopyN(io.Discard, s.r, int64(length))
		n += skipped
		if err != nil {
			return nil, n, &FramingError{Msg: fmt.Sprintf("the stream ended inside a %d-byte frame", length)}
		}
		s.log("dropped a %d-byte message: over the %d MiB limit of a message", length, MaxFrameBytes>>20)
		return nil, n, s.answerInvalid(context.Background(), jsonrpc2.InvalidRequest,
			fmt.Sprintf("gramc lsp: a message of %d bytes is over the %d MiB limit of a message", length, MaxFrameBytes>>20))
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, n, &FramingError{Msg: fmt.Sprintf("the stream ended inside a %d-byte frame", length)}
	}
	return body, n + int64(length), nil
}

func (s *stream) readLine() (string, error) {
	var b strings.Builder
	for {
		frag, err := s.r.ReadSlice('\n')
		if b.Len()+len(frag) > maxHeaderLine {
			return "", fmt.Errorf("a header line longer than %d bytes", maxHeaderLine)
		}
		b.Write(frag)
		if err == bufio.ErrBufferFull {
			continue
		}
		return b.String(), err
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// answerInvalid answers a message the server could not take, with id null.
func (s *stream) answerInvalid(ctx context.Context, code jsonrpc2.Code, msg string) error {
	_, err := s.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(code, msg)))
	return err
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return 0, err
	}
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := s.w.Write(frame)
	return int64(n), err
}

// Close implements jsonrpc2.Stream.
func (s *stream) Close() error { return s.closer.Close() }

var _ jsonrpc2.Stream = (*stream)(nil)

// isFramingError reports whether err ended the stream for its framing.
func isFramingError(err error) bool {
	var fe *FramingError
	return errors.As(err, &fe)
}
