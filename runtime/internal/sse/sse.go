// Package sse decodes a server-sent event stream (the text/event-stream
// format of the HTML standard) as the model providers' streaming APIs send
// it: OpenAI's Chat Completions and Responses, Anthropic's Messages and
// Gemini's streamGenerateContent?alt=sse all use this one decoder.
//
// Lines end in LF, CRLF or a lone CR; a line starting with ':' is a
// comment; "field: value" loses one space after the colon (so "data:x" and
// "data: x" are the same); data lines of one event are joined with LF; a
// blank line ends an event. Every size is bounded: a line, an event and
// the whole stream each have a limit, and going over one is a *LimitError
// naming that limit, so an endless or oversized stream costs bounded
// memory and ends with an error that says why.
package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Default limits.
const (
	DefaultMaxLine   = 8 << 20
	DefaultMaxEvent  = 16 << 20
	DefaultMaxStream = 256 << 20
)

// Limits bound what a Decoder accepts; a zero field takes its default.
type Limits struct {
	MaxLine   int   // bytes in one line, without its terminator
	MaxEvent  int   // bytes of one event's data
	MaxStream int64 // bytes of the whole stream
}

// LimitError reports a stream that went over one of the Limits.
type LimitError struct {
	Limit string // "line", "event" or "stream"
	Max   int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("server-sent events: %s over the %s-byte %s limit", article(e.Limit), size(e.Max), e.Limit)
}

func article(limit string) string {
	switch limit {
	case "line":
		return "a line"
	case "event":
		return "an event"
	}
	return "the stream"
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d Mi", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d Ki", n>>10)
	}
	return fmt.Sprint(n)
}

// ErrCut is wrapped by the error of a stream that ends in the middle of a
// line.
var ErrCut = errors.New("server-sent events: the stream ended in the middle of a line")

// Event is one server-sent event. Data is only valid until the next call
// of Next.
type Event struct {
	// Type is the event field ("" when the event has none: a "message").
	Type string
	// Data is the event's data lines joined with LF.
	Data []byte
	// ID is the last event ID seen in the stream.
	ID string
}

// Decoder reads events from a stream.
type Decoder struct {
	r      io.Reader
	lim    Limits
	buf    []byte
	r0, w  int
	total  int64
	skipLF bool // the last line ended in CR: a following LF belongs to it
	err    error
	empty  int    // consecutive empty reads
	line   []byte // a line that spans reads
	data   []byte
	typ    []byte
	id     string
	last   string // the last event type
}

// NewDecoder returns a decoder reading r within lim.
func NewDecoder(r io.Reader, lim Limits) *Decoder {
	if lim.MaxLine <= 0 {
		lim.MaxLine = DefaultMaxLine
	}
	if lim.MaxEvent <= 0 {
		lim.MaxEvent = DefaultMaxEvent
	}
	if lim.MaxStream <= 0 {
		lim.MaxStream = DefaultMaxStream
	}
	return &Decoder{r: r, lim: lim, buf: make([]byte, 4<<10)}
}

// Next returns the next event, io.EOF at the end of the stream, or the
// error that ended it (a *LimitError, an error wrapping ErrCut, or the
// reader's). An event still open when the stream ends after a complete
// line is returned (servers that omit the last blank line exist); a line
// cut off by the end of the stream is an error.
func (d *Decoder) Next() (Event, error) {
	d.data = d.data[:0]
	d.typ = d.typ[:0]
	hasData := false
	for {
		line, err := d.readLine()
		if err != nil {
			if err == io.EOF && hasData {
				return d.event(), nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if hasData {
				return d.event(), nil
			}
			d.typ = d.typ[:0]
			continue
		}
		if line[0] == ':' {
			continue // a comment (keep-alives)
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if len(d.data)+len(value)+1 > d.lim.MaxEvent {
				return Event{}, &LimitError{Limit: "event", Max: int64(d.lim.MaxEvent)}
			}
			d.data = append(d.data, value...)
			d.data = append(d.data, '\n')
			hasData = true
		case "event":
			d.typ = append(d.typ[:0], value...)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				d.id = string(value)
			}
		}
		// "retry" and unknown fields are ignored, as the standard says.
	}
}

func (d *Decoder) event() Event {
	data := d.data
	if n := len(data); n > 0 && data[n-1] == '\n' {
		data = data[:n-1]
	}
	return Event{Type: d.typeName(), Data: data, ID: d.id}
}

// typeName returns the event type as a string, reusing the strings of
// types seen before, by any decoder: streams repeat a handful of types
// thousands of times. At most maxTypes are kept.
func (d *Decoder) typeName() string {
	if len(d.typ) == 0 {
		return ""
	}
	if string(d.typ) == d.last {
		return d.last // runs of one type (content_block_delta, ...)
	}
	d.last = d.internType()
	return d.last
}

func (d *Decoder) internType() string {
	types.RLock()
	s, ok := types.m[string(d.typ)]
	types.RUnlock()
	if ok {
		return s
	}
	s = string(d.typ)
	types.Lock()
	if len(types.m) < maxTypes {
		types.m[s] = s
	}
	types.Unlock()
	return s
}

const maxTypes = 256

var types = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

// readLine returns the next line without its terminator; it is only
// valid until the next call.
func (d *Decoder) readLine() ([]byte, error) {
	d.line = d.line[:0]
	spanning := false
	for {
		if d.r0 < d.w && d.skipLF {
			d.skipLF = false
			if d.buf[d.r0] == '\n' {
				d.r0++
			}
		}
		if d.r0 < d.w {
			b := d.buf[d.r0:d.w]
			i := bytes.IndexByte(b, '\n')
			seg := b
			if i >= 0 {
				seg = b[:i]
			}
			if j := bytes.IndexByte(seg, '\r'); j >= 0 {
				i = j
				d.skipLF = true
			}
			if i >= 0 {
				d.r0 += i + 1
				if len(d.line)+i > d.lim.MaxLine {
					return nil, &LimitError{Limit: "line", Max: int64(d.lim.MaxLine)}
				}
				if spanning {
					d.line = append(d.line, b[:i]...)
					return d.line, nil
				}
				return b[:i], nil
			}
			if len(d.line)+len(b) > d.lim.MaxLine {
				return nil, &LimitError{Limit: "line", Max: int64(d.lim.MaxLine)}
			}
			d.line = append(d.line, b...)
			spanning = true
			d.r0 = d.w
		}
		if d.err != nil {
			if spanning && d.err == io.EOF {
				return nil, fmt.Errorf("%w (%d bytes of it read)", ErrCut, len(d.line))
			}
			return nil, d.err
		}
		n, err := d.r.Read(d.buf)
		d.r0, d.w = 0, n
		d.total += int64(n)
		if d.total > d.lim.MaxStream {
			d.err = &LimitError{Limit: "stream", Max: d.lim.MaxStream}
			return nil, d.err
		}
		switch {
		case err != nil:
			d.err = err
		case n > 0:
			d.empty = 0
		default:
			// io.Reader allows an empty read without an error, but not
			// forever (bufio gives up after 100 too).
			if d.empty++; d.empty >= 100 {
				d.err = io.ErrNoProgress
			}
		}
	}
}
