package mcp

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxResponseBytes bounds one message a server sends a client over HTTP
// (a JSON response's body, or one event of an event stream), as the SDK
// bounds a line of a server's standard output over stdio: 16 MiB.
const MaxResponseBytes = sdk.DefaultMaxLineLength

// ErrResponseTooLarge is the error of a response over MaxResponseBytes.
var ErrResponseTooLarge = fmt.Errorf("the server's response is over the %d MiB limit of a message", MaxResponseBytes>>20)

// NewHTTPClientTransport returns the client transport to the streamable
// HTTP MCP server at endpoint, every response bounded: a JSON body or an
// event of an event stream over MaxResponseBytes ends the session with
// ErrResponseTooLarge (see ClientError), rather than growing without end.
// It opens no stream of its own for the server's notifications (gramc's
// client has no use for them): the server speaks only in answer to a
// request.
func NewHTTPClientTransport(endpoint string) sdk.Transport {
	return NewHTTPClientTransportVia(endpoint, http.DefaultTransport)
}

// NewHTTPClientTransportVia is NewHTTPClientTransport making its requests
// through rt (gramc import records the server's own JSON there).
func NewHTTPClientTransportVia(endpoint string, rt http.RoundTripper) sdk.Transport {
	t := &httpClientTransport{}
	t.StreamableClientTransport = sdk.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: boundedTransport{rt: rt, cut: &t.cut}},
		// The SDK's own bound on an event, past ours: ours, which names
		// the limit, is met first.
		MaxEventSize:         MaxResponseBytes + 1<<20,
		DisableStandaloneSSE: true,
	}
	return t
}

type httpClientTransport struct {
	sdk.StreamableClientTransport
	cut atomic.Bool // a response was cut at MaxResponseBytes
}

// ClientError is err, an error of a session on t, saying that a response
// was over MaxResponseBytes when one was: the SDK may report a stream it
// gave up on as a request without an answer.
func ClientError(t sdk.Transport, err error) error {
	if h, ok := t.(*httpClientTransport); ok && err != nil && h.cut.Load() && !errors.Is(err, ErrResponseTooLarge) && !strings.Contains(err.Error(), ErrResponseTooLarge.Error()) {
		return fmt.Errorf("%w (%v)", ErrResponseTooLarge, err)
	}
	return err
}

// boundedTransport bounds each response body it returns.
type boundedTransport struct {
	rt  http.RoundTripper
	cut *atomic.Bool
}

func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &boundedBody{rc: resp.Body, events: mt == "text/event-stream", cut: t.cut}
	return resp, nil
}

// boundedBody fails a read that takes a body (or, in an event stream,
// one event: the bytes since a blank line) past MaxResponseBytes.
type boundedBody struct {
	rc     io.ReadCloser
	events bool
	n      int  // bytes of the body, or of the event so far
	bol    bool // at the beginning of a line (events)
	cut    *atomic.Bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.n > MaxResponseBytes {
		b.cut.Store(true)
		return 0, ErrResponseTooLarge
	}
	n, err := b.rc.Read(p)
	if !b.events {
		b.n += n
	} else {
		for _, c := range p[:n] {
			switch c {
			case '\r':
			case '\n':
				if b.bol {
					b.n = 0 // a blank line ends an event
				}
				b.bol = true
			default:
				b.bol = false
				b.n++
			}
		}
	}
	if b.n > MaxResponseBytes {
		// What was read is passed on; the next read fails.
		if errors.Is(err, io.EOF) {
			b.cut.Store(true)
			err = ErrResponseTooLarge
		}
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }
