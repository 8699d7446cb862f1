package cassette

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/internal/jsonpath"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/runtime"
)

// MaxBodyBytes bounds one recorded or replayed body.
const MaxBodyBytes = 64 << 20

// Recorder is an http.RoundTripper that forwards each request to its
// Transport and keeps the exchange, streamed bodies included (a body is
// kept as the client read it, when the client closes it).
type Recorder struct {
	// Transport makes the real requests (nil: http.DefaultTransport).
	Transport http.RoundTripper
	secrets   secrets

	mu        sync.Mutex
	exchanges []*Exchange
}

// NewRecorder returns a Recorder that replaces each of secrets (the
// configured API key) wherever it appears.
func NewRecorder(transport http.RoundTripper, secrets ...string) *Recorder {
	return &Recorder{Transport: transport, secrets: newSecrets(secrets)}
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	ex := &Exchange{Request: Request{
		Method: req.Method,
		URL:    r.secrets.string(requestURL(req.URL)),
		Header: r.secrets.header(keep(req.Header, requestHeaders)),
		Body:   r.secrets.bytes(append([]byte(nil), body...)),
	}}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, ex)
	r.mu.Unlock()
	t := r.Transport
	if t == nil {
		t = http.DefaultTransport
	}
	resp, err := t.RoundTrip(req)
	if err != nil {
		// A connection error has no response to replay: the exchange
		// records it as a 599 whose body is the error, which a replay
		// turns back into the same connection error.
		r.mu.Lock()
		ex.Response = Response{StatusCode: connectionErrorStatus, Body: r.secrets.bytes([]byte(err.Error()))}
		r.mu.Unlock()
		return nil, err
	}
	ex.Response = Response{StatusCode: resp.StatusCode, Header: r.secrets.header(keep(resp.Header, responseHeaders))}
	resp.Body = &teeBody{rc: resp.Body, done: func(b []byte) {
		r.mu.Lock()
		ex.Response.Body = r.secrets.bytes(b)
		r.mu.Unlock()
	}}
	return resp, nil
}

// connectionErrorStatus stands for "no response: the connection failed".
const connectionErrorStatus = 599

// Cassette returns the exchanges recorded so far, in request order.
func (r *Recorder) Cassette() *Cassette {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &Cassette{}
	for _, ex := range r.exchanges {
		c.Exchanges = append(c.Exchanges, *ex)
	}
	return c
}

// teeBody keeps what the client reads and hands it over on EOF or Close.
type teeBody struct {
	rc   io.ReadCloser
	buf  bytes.Buffer
	done func([]byte)
	once sync.Once
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	if t.buf.Len()+n <= MaxBodyBytes {
		t.buf.Write(p[:n])
	}
	if err == io.EOF {
		t.finish()
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.finish()
	return t.rc.Close()
}

func (t *teeBody) finish() { t.once.Do(func() { t.done(append([]byte(nil), t.buf.Bytes()...)) }) }

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(io.LimitReader(req.Body, MaxBodyBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBodyBytes {
		return nil, fmt.Errorf("cassette: request body over the %d MiB limit", MaxBodyBytes>>20)
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}

// Replayer is an http.RoundTripper that answers each request from a
// cassette, in order, with no network.
type Replayer struct {
	name    string
	c       *Cassette
	secrets secrets

	mu     sync.Mutex
	next   int
	ignore []jsonpath.Path // see IgnorePaths
}

// NewReplayer returns a Replayer of c; name (the file) is for errors, and
// secrets are replaced in each request before it is compared, as they
// were when it was recorded.
func NewReplayer(name string, c *Cassette, secrets ...string) *Replayer {
	return &Replayer{name: name, c: c, secrets: newSecrets(secrets)}
}

// MismatchError is a request that differs from the recorded one.
type MismatchError struct {
	Cassette string
	// Index is the request's number, from 1.
	Index int
	// Path is where the first difference is: "method", "url", or a JSON
	// path in the body ("$.messages[2].content").
	Path string
	// Recorded and Got are the two values there, as compact JSON (or
	// text), cut to a readable length: two strings, a window of each
	// around the first character that differs.
	Recorded, Got string
	// Char, when the window leaves out their start, is the character
	// (from 1) of the strings where they first differ.
	Char int
}

func (e *MismatchError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: request %d was not recorded: %s", e.Cassette, e.Index, e.Got)
	}
	at := e.Path
	if e.Char > 0 {
		at += fmt.Sprintf(", from character %d", e.Char)
	}
	return fmt.Sprintf("%s: request %d differs from the recording at %s: recorded %s, got %s (%s)",
		e.Cassette, e.Index, at, e.Recorded, e.Got, Advice)
}

// Advice says what to do when a request differs from its recording on
// purpose: keep the answers and rewrite the requests (no key), or leave
// the part out of the comparison; recording anew needs the provider.
const Advice = "if the request changed on purpose: gramc test --rerecord rewrites the requests and keeps the recorded answers, with no provider and no key; a test's ignoreRequests leaves out a part the answers do not depend on; --record records anew against the provider, with a key"

// Permanent tells the provider client not to retry: the recording will not
// change.
func (e *MismatchError) Permanent() bool { return true }

// RoundTrip implements http.RoundTripper.
func (r *Replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	i := r.next
	r.next++
	r.mu.Unlock()
	if i >= len(r.c.Exchanges) {
		return nil, &MismatchError{Cassette: r.name, Index: i + 1,
			Got: fmt.Sprintf("the cassette holds %d requests and the run made more (%s)", len(r.c.Exchanges), Advice)}
	}
	ex := r.c.Exchanges[i]
	got := Request{Method: req.Method, URL: r.secrets.string(requestURL(req.URL)), Body: r.secrets.bytes(body)}
	if d := r.difference(ex.Request, got); d.Path != "" {
		d.Cassette, d.Index = r.name, i+1
		return nil, &d
	}
	return ex.Response.replay(r.name, req)
}

// Unused is how many recorded exchanges no request has used: a run that
// ends before its recording did behaves differently.
func (r *Replayer) Unused() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return max(0, len(r.c.Exchanges)-r.next)
}

// firstDifference compares a recorded request with a new one: method,
// URL, then the bodies as JSON values (so indentation does not matter).
// It fills Path, Recorded, Got and Char of a MismatchError (Path "" when
// the requests are alike).
func firstDifference(rec, got Request) MismatchError {
	if rec.Method != got.Method {
		return MismatchError{Path: "method", Recorded: rec.Method, Got: got.Method}
	}
	if rec.URL != got.URL {
		return MismatchError{Path: "url", Recorded: rec.URL, Got: got.URL}
	}
	a, errA := jsonvalue.Decode(rec.Body)
	b, errB := jsonvalue.Decode(got.Body)
	if errA != nil || errB != nil {
		if !bytes.Equal(bytes.TrimSpace(rec.Body), bytes.TrimSpace(got.Body)) {
			r, g, at := window(string(bytes.TrimSpace(rec.Body)), string(bytes.TrimSpace(got.Body)))
			return MismatchError{Path: "body", Recorded: r, Got: g, Char: at}
		}
		return MismatchError{}
	}
	d, differ := runtime.FirstDifference(a, b)
	if !differ {
		return MismatchError{}
	}
	if d.Lengths {
		return MismatchError{Path: jsonPath(d.Pointer) + " (length)", Recorded: fmt.Sprint(d.A), Got: fmt.Sprint(d.B)}
	}
	if sa, ok := d.A.(string); ok {
		if sb, ok := d.B.(string); ok {
			r, g, at := window(sa, sb)
			return MismatchError{Path: jsonPath(d.Pointer), Recorded: r, Got: g, Char: at}
		}
	}
	return MismatchError{Path: jsonPath(d.Pointer), Recorded: show(d.A), Got: show(d.B)}
}

// windowBefore and windowAfter are how many characters window shows
// before the first difference and from it on.
const (
	windowBefore = 40
	windowAfter  = 80
)

// window shows two strings that differ where they do: a window of each
// around the first character that differs, as JSON strings, with "…"
// where text is left out and, when the window does not start at the
// beginning, the character the difference is at (else 0). (Cutting both
// at the same length would show two equal strings when a long
// instruction changed at its end.)
func window(a, b string) (string, string, int) {
	ra, rb := []rune(a), []rune(b)
	p := 0
	for p < len(ra) && p < len(rb) && ra[p] == rb[p] {
		p++
	}
	start := max(0, p-windowBefore)
	cut := func(rs []rune) string {
		end := min(len(rs), p+windowAfter)
		var q bytes.Buffer
		enc := json.NewEncoder(&q)
		enc.SetEscapeHTML(false)
		enc.Encode(string(rs[start:end])) //nolint:errcheck // a string encodes
		s := strings.TrimSuffix(q.String(), "\n")
		if start > 0 {
			s = `"…` + s[1:]
		}
		if end < len(rs) {
			s = s[:len(s)-1] + `…"`
		}
		return s
	}
	if start > 0 {
		return cut(ra), cut(rb), p + 1
	}
	return cut(ra), cut(rb), 0
}

// jsonPath writes a JSON pointer as "$.messages[2].content".
func jsonPath(ptr string) string {
	var b strings.Builder
	b.WriteString("$")
	if ptr == "" {
		return b.String()
	}
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch {
		case seg != "" && strings.Trim(seg, "0123456789") == "":
			b.WriteString("[" + seg + "]")
		case isIdent(seg):
			b.WriteString("." + seg)
		default:
			b.WriteString("[" + strconv.Quote(seg) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func show(v any) string {
	if v == runtime.Absent {
		return "(absent)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return short(string(b))
}

func short(s string) string {
	const max = 200
	s = strings.TrimSpace(s)
	if len(s) > max {
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return s[:i] + "…"
	}
	return s
}
