// Package cassette records a model provider's HTTP traffic to a text file
// and replays it, so that an agent's tests run offline, without a key, and
// give the same output every time — Go's golden-file habit for agents.
//
// A cassette is a txtar archive, readable and diff-friendly: one
// "-- N request --" and one "-- N response --" file per exchange, in the
// order the requests were made, streamed responses and retried attempts
// included. A request is its method, path and JSON body (indented, keys in
// the order they were sent); a response its status, a few headers and its
// body as received. No credential is ever written: the request headers
// kept are an allow-list without Authorization, x-api-key or
// x-goog-api-key, and every secret given (the configured key) is replaced,
// raw and in its JSON- and URL-escaped forms, by [REDACTED] everywhere.
//
// A Recorder is an http.RoundTripper that forwards each request and keeps
// the exchange; a Replayer answers each request from the cassette without
// a network, and fails a request that differs from the recorded one with a
// *MismatchError naming the first difference as a JSON path with both
// values — never a silent answer from a stale recording. Open starts a
// Session on a cassette file, in the mode ModeFromEnv reads from
// GRAMC_RECORD, whose Client a provider client is built with
// (clientopt.WithHTTPClient).
package cassette

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/internal/regular"
)

// Marker replaces a secret in a cassette.
const Marker = "[REDACTED]"

// MaxFileBytes bounds a cassette file read by Load.
const MaxFileBytes = 256 << 20

const header = "gramc cassette v1: the HTTP exchanges of a model provider, in order. Written by gramc run --record (or cassette.Recorder); re-record rather than edit.\n"

// Exchange is one request and the response it got.
type Exchange struct {
	Request  Request
	Response Response
}

// Request is what a client sent, without its credentials.
type Request struct {
	Method string
	// URL is the path and query (no scheme, host or credentials): the
	// same cassette replays against any base URL.
	URL    string
	Header http.Header
	Body   []byte
}

// Response is what the server answered.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// Cassette is an ordered list of exchanges.
type Cassette struct {
	Exchanges []Exchange
}

// The headers a cassette keeps; every other one (credentials, dates,
// request IDs) is dropped.
var (
	requestHeaders  = []string{"Accept", "Anthropic-Version", "Content-Type"}
	responseHeaders = []string{"Content-Type", "Retry-After", "Retry-After-Ms"}
)

func keep(h http.Header, names []string) http.Header {
	out := http.Header{}
	for _, n := range names {
		if v := h.Values(n); len(v) > 0 {
			out[http.CanonicalHeaderKey(n)] = append([]string(nil), v...)
		}
	}
	return out
}

// Marshal writes the cassette in its text form, byte-stable: the same
// exchanges give the same bytes.
func (c *Cassette) Marshal() ([]byte, error) {
	a := &txtar.Archive{Comment: []byte(header)}
	for i, ex := range c.Exchanges {
		n := fmt.Sprintf("%03d", i+1)
		req, err := section(ex.Request.Method+" "+ex.Request.URL, ex.Request.Header, indentJSON(ex.Request.Body))
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", i+1, err)
		}
		resp, err := section(strconv.Itoa(ex.Response.StatusCode)+" "+http.StatusText(ex.Response.StatusCode), ex.Response.Header, ex.Response.Body)
		if err != nil {
			return nil, fmt.Errorf("response %d: %w", i+1, err)
		}
		a.Files = append(a.Files, txtar.File{Name: n + " request", Data: req}, txtar.File{Name: n + " response", Data: resp})
	}
	return txtar.Format(a), nil
}

// section is a first line, sorted headers, a blank line and the body. A
// body that would end the txtar file early, or has no final newline, is
// quoted (txtar's "unquote" prefix: every line starts with '>').
func section(first string, h http.Header, body []byte) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(first)
	b.WriteByte('\n')
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	switch {
	case !utf8.Valid(body):
		// Bytes that are not text (txtar cannot quote them) are base64,
		// in lines of 76.
		b.WriteString(bodyBase64 + "\n\n")
		enc := base64.StdEncoding.EncodeToString(body)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\n")
	case len(body) > 0 && (txtar.NeedsQuote(body) || body[len(body)-1] != '\n'):
		q, err := txtar.Quote(append(body[:len(body):len(body)], '\n'))
		if err != nil {
			return nil, err
		}
		b.WriteString(bodyQuoted + "\n\n")
		b.Write(q)
	default:
		b.WriteByte('\n')
		b.Write(body)
	}
	return b.Bytes(), nil
}

// The line that says how a body is written when it is not as received.
const (
	bodyQuoted = "Body: quoted, with a final newline added"
	bodyBase64 = "Body: base64"
)

// indentJSON indents a JSON body (keys keep their order) for readable
// diffs; anything else is kept as it is.
func indentJSON(body []byte) []byte {
	if !json.Valid(body) {
		return body
	}
	var b bytes.Buffer
	// json.Indent keeps trailing space: without the trim, a parsed
	// cassette would gain a newline per body each time it is written.
	if json.Indent(&b, bytes.TrimRight(body, " \t\r\n"), "", "  ") != nil {
		return body
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Parse reads a cassette's text form; name is for errors.
func Parse(name string, data []byte) (*Cassette, error) {
	if line := shortMarker(data); line > 0 {
		return nil, fmt.Errorf("%s:%d: a section marker with no name (\"-- --\")", name, line)
	}
	a := txtar.Parse(data)
	if !bytes.HasPrefix(a.Comment, []byte("gramc cassette v1")) {
		return nil, fmt.Errorf("%s: not a gramc cassette (it must begin %q)", name, "gramc cassette v1")
	}
	if len(a.Files)%2 != 0 {
		return nil, fmt.Errorf("%s: %d sections; a cassette holds a request and a response per exchange", name, len(a.Files))
	}
	c := &Cassette{}
	for i := 0; i < len(a.Files); i += 2 {
		n := fmt.Sprintf("%03d", i/2+1)
		rq, rs := a.Files[i], a.Files[i+1]
		if rq.Name != n+" request" || rs.Name != n+" response" {
			return nil, fmt.Errorf("%s: sections %q and %q, want %q and %q", name, rq.Name, rs.Name, n+" request", n+" response")
		}
		first, h, body, err := parseSection(rq.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, rq.Name, err)
		}
		method, u, ok := strings.Cut(first, " ")
		if !ok || method == "" || !strings.HasPrefix(u, "/") {
			return nil, fmt.Errorf("%s: %s: first line %q, want METHOD /path", name, rq.Name, first)
		}
		ex := Exchange{Request: Request{Method: method, URL: u, Header: h, Body: body}}
		first, h, body, err = parseSection(rs.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, rs.Name, err)
		}
		code, _, _ := strings.Cut(first, " ")
		status, err := strconv.Atoi(code)
		if err != nil || status < 100 || status > 999 {
			return nil, fmt.Errorf("%s: %s: first line %q, want a status code", name, rs.Name, first)
		}
		ex.Response = Response{StatusCode: status, Header: h, Body: body}
		c.Exchanges = append(c.Exchanges, ex)
	}
	return c, nil
}

// shortMarker is the number of the first line that is "-- --" (with an
// optional \r), or 0. go-internal's txtar.Parse (v1.16.0) panics on such a
// line, where the marker's "-- " and " --" overlap; FuzzCassette found it.
func shortMarker(data []byte) int {
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) < 6 && bytes.HasPrefix(line, []byte("-- ")) && bytes.HasSuffix(line, []byte(" --")) {
			return n
		}
		data = rest
	}
	return 0
}

func parseSection(data []byte) (first string, h http.Header, body []byte, err error) {
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return "", nil, nil, errors.New("no first line")
	}
	first = string(line)
	h = http.Header{}
	encoding := ""
	for {
		line, rest, ok = bytes.Cut(rest, []byte("\n"))
		if !ok {
			return "", nil, nil, errors.New("no blank line after the headers")
		}
		if len(line) == 0 {
			break
		}
		if l := string(line); l == bodyQuoted || l == bodyBase64 {
			encoding = l
			continue
		}
		k, v, ok := strings.Cut(string(line), ": ")
		if !ok {
			return "", nil, nil, fmt.Errorf("header line %q, want Name: value", line)
		}
		if http.CanonicalHeaderKey(k) == "Body" {
			return "", nil, nil, fmt.Errorf("header line %q: Body says how the body is written (%q or %q)", line, bodyQuoted, bodyBase64)
		}
		h.Add(k, v)
	}
	body = rest
	switch encoding {
	case bodyQuoted:
		if body, err = txtar.Unquote(rest); err != nil {
			return "", nil, nil, fmt.Errorf("quoted body: %w", err)
		}
		body = bytes.TrimSuffix(body, []byte("\n"))
	case bodyBase64:
		if body, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(string(rest), "\n", "")); err != nil {
			return "", nil, nil, fmt.Errorf("base64 body: %w", err)
		}
	}
	return first, h, body, nil
}

// Load reads and parses the cassette file path.
func Load(path string) (*Cassette, error) {
	// A FIFO is refused, not waited on.
	f, st, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the %d MiB limit of a cassette", path, st.Size(), MaxFileBytes>>20)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return Parse(path, b.Bytes())
}

// Save writes the cassette to path (replacing it; its directory is made
// when missing), through a temporary file so that a crash never leaves
// half a cassette.
func (c *Cassette) Save(path string) error {
	data, err := c.Marshal()
	if err != nil {
		return err
	}
	// A cassette's directory (testdata/) is made on the first recording.
	return regular.WriteFile(path, data)
}

// secrets are the secrets of a recording: the values, and the forms they
// may take in a request or response.
type secrets struct {
	values []string
	forms  []string
}

func newSecrets(values []string) secrets {
	var s secrets
	add := func(f string) {
		if f == "" {
			return
		}
		for _, x := range s.forms {
			if x == f {
				return
			}
		}
		s.forms = append(s.forms, f)
	}
	for _, v := range values {
		if v == "" {
			continue
		}
		s.values = append(s.values, v)
		add(v)
		// JSON-escaped, and escaped again (a tool's JSON result quoted in
		// a streamed event's JSON), with and without HTML escapes.
		for _, html := range []bool{true, false} {
			once := jsonEscape(v, html)
			add(once)
			add(jsonEscape(once, html))
		}
		add(url.QueryEscape(v))
		add(url.PathEscape(v))
	}
	// Longest first, so a form is replaced before a shorter one inside it.
	sort.Slice(s.forms, func(i, j int) bool { return len(s.forms[i]) > len(s.forms[j]) })
	return s
}

func jsonEscape(v string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(v)
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

// bytes replaces every form of each secret in b, and then each secret as
// a client reads it from JSON (redact.Pieces): written with escapes, or in
// pieces across a streamed answer's events.
func (s secrets) bytes(b []byte) []byte {
	for _, f := range s.forms {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Marker))
		}
	}
	if len(s.values) > 0 {
		b = redact.Pieces(b, s.match)
	}
	return b
}

// match is every occurrence of a secret's value in text.
func (s secrets) match(text string) [][2]int {
	var out [][2]int
	for _, v := range s.values {
		for from := 0; ; {
			i := strings.Index(text[from:], v)
			if i < 0 {
				break
			}
			out = append(out, [2]int{from + i, from + i + len(v)})
			from += i + 1
		}
	}
	return out
}

func (s secrets) string(v string) string { return string(s.bytes([]byte(v))) }

func (s secrets) header(h http.Header) http.Header {
	for k, vs := range h {
		for i := range vs {
			vs[i] = s.string(vs[i])
		}
		h[k] = vs
	}
	return h
}

// requestURL is r's path and query, without credentials.
func requestURL(u *url.URL) string {
	out := u.EscapedPath()
	if out == "" {
		out = "/"
	}
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out
}
