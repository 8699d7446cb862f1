package cassette

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// Answers is an http.RoundTripper that answers request N with the response
// N of a cassette, whatever the request is. Behind a Recorder it
// re-records a cassette from itself: after an edit that changes only the
// requests (an instruction, a tool's description, the input), the new
// requests are written with the recorded answers, with no provider and no
// key. A run that makes more requests than the cassette holds fails with
// how many it holds.
type Answers struct {
	name string
	c    *Cassette

	mu   sync.Mutex
	next int
}

// NewAnswers returns the Answers of c; name (the file) is for errors.
func NewAnswers(name string, c *Cassette) *Answers { return &Answers{name: name, c: c} }

// RoundTrip implements http.RoundTripper.
func (a *Answers) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		// The request is the recorder's to keep; it is read whole and
		// closed as a transport does.
		io.Copy(io.Discard, io.LimitReader(req.Body, MaxBodyBytes+1)) //nolint:errcheck // the recorder has the body
		req.Body.Close()
	}
	a.mu.Lock()
	i := a.next
	a.next++
	a.mu.Unlock()
	if i >= len(a.c.Exchanges) {
		return nil, fmt.Errorf("%s holds %d answers and the run made more requests: re-record it against the provider (--record)", a.name, len(a.c.Exchanges))
	}
	return a.c.Exchanges[i].Response.replay(a.name, req)
}

// replay is the recorded response r as the answer to req (a recorded
// connection error is that error again).
func (r Response) replay(name string, req *http.Request) (*http.Response, error) {
	if r.StatusCode == connectionErrorStatus {
		return nil, fmt.Errorf("%s (replayed from %s)", r.Body, name)
	}
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{
		Status:        strconv.Itoa(r.StatusCode) + " " + http.StatusText(r.StatusCode),
		StatusCode:    r.StatusCode,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(r.Body)),
		ContentLength: int64(len(r.Body)),
		Request:       req,
	}, nil
}
