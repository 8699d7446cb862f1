package runtimetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Fake is a fake server for any of the Providers, as an http.Handler:
// every request is checked against that provider's documented rules (a
// deviation goes to Problem and is answered with the provider's 400),
// decoded into a Turn, answered by Policy in the provider's format, and
// streamed when the request asks for a stream. The OpenAI fake
// (chatServer) also checks requests and its own responses against OpenAI's
// published schema.
type Fake struct {
	Provider string
	Policy   Policy
	// APIKey, when set, is required in the provider's key header (else
	// the provider's 401, quoting the key it got as OpenAI does).
	APIKey string
	// Problem receives every deviation from the provider's rules.
	Problem func(error)
	// NoSchema skips the OpenAI fake's checks against OpenAI's published
	// schema (when the schema file is not available); the conversation
	// rules still apply.
	NoSchema bool

	mu     sync.Mutex
	turns  []*Turn
	n      int
	openai *chatServer
	// signatures are the Gemini thought signatures issued, by call.
	signatures map[string]map[string]bool
}

// Turns returns the requests received so far.
func (f *Fake) Turns() []*Turn {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*Turn(nil), f.turns...)
}

func (f *Fake) problem(err error) {
	if f.Problem != nil {
		f.Problem(fmt.Errorf("fake %s: %w", f.Provider, err))
	}
}

// dialect is one provider's side of a Fake.
type dialect interface {
	// key returns the API key the request carries.
	key(r *http.Request) string
	// decode checks a request against the provider's rules and decodes
	// it.
	decode(f *Fake, r *http.Request, body []byte) (*Turn, error)
	writeError(w http.ResponseWriter, status int, msg string)
	// write answers with reply, streamed when the turn asked.
	write(f *Fake, w http.ResponseWriter, t *Turn, reply Reply, n int)
}

// ServeHTTP implements http.Handler.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var d dialect
	provider := f.Provider
	if provider == OpenAI && strings.HasSuffix(r.URL.Path, "/responses") {
		// OpenAI serves the Responses API beside Chat Completions, under
		// one base URL and key: so does its fake.
		provider = OpenAIResponses
	}
	switch provider {
	case OpenAI:
		f.mu.Lock()
		if f.openai == nil {
			f.openai = &chatServer{APIKey: f.APIKey, Problem: f.Problem, NoSchema: f.NoSchema, Handler: func(req *ChatRequest, n int) Reply {
				t := req.Turn()
				f.mu.Lock()
				f.turns = append(f.turns, t)
				f.mu.Unlock()
				return f.Policy(t, n)
			}}
		}
		f.mu.Unlock()
		f.openai.ServeHTTP(w, r)
		return
	case OpenAIResponses:
		d = responsesDialect{}
	case Anthropic:
		d = anthropicDialect{}
	case Gemini:
		d = geminiDialect{}
	default:
		f.problem(fmt.Errorf("unknown provider %q", f.Provider))
		http.NotFound(w, r)
		return
	}
	if f.APIKey != "" && d.key(r) != f.APIKey {
		d.writeError(w, http.StatusUnauthorized, fmt.Sprintf("Incorrect API key provided: %s.", d.key(r)))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		f.problem(fmt.Errorf("reading the request: %w", err))
		return
	}
	t, err := d.decode(f, r, body)
	if err != nil {
		f.problem(fmt.Errorf("malformed request: %w\n%s", err, body))
		d.writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	t.Provider, t.Header, t.Raw = provider, r.Header.Clone(), body
	f.mu.Lock()
	f.n++
	n := f.n
	f.turns = append(f.turns, t)
	f.mu.Unlock()

	reply := f.Policy(t, n)
	if reply.serveCanned(w, r, func(status int, msg string) { d.writeError(w, status, msg) }) {
		return
	}
	d.write(f, w, t, reply, n)
}

// ProviderServer is a Fake on a loopback httptest server that fails the
// test on any deviation from the provider's rules.
type ProviderServer struct {
	*Fake
	HTTP *httptest.Server
	// URL is the base URL to give the provider's client.
	URL string
}

// NewProviderServer starts a fake server for provider answering with p;
// it is closed when the test ends.
func NewProviderServer(t testing.TB, provider string, p Policy) *ProviderServer {
	t.Helper()
	if err := loadReference(); err != nil {
		t.Fatal(err)
	}
	f := &Fake{Provider: provider, Policy: p, Problem: func(err error) { t.Error(err) }}
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)
	return &ProviderServer{Fake: f, HTTP: hs, URL: hs.URL + BasePath(provider)}
}

// BasePath is the path a provider's base URL ends in ("/v1" for OpenAI's
// APIs, "/v1beta" for Gemini, none for Anthropic, whose client adds
// /v1/messages).
func BasePath(provider string) string {
	switch provider {
	case OpenAI, OpenAIResponses:
		return "/v1"
	case Gemini:
		return "/v1beta"
	}
	return ""
}

// writeSSE sends events (each "event: type" when type is not empty, and
// its data) flushing each.
func writeSSE(w http.ResponseWriter, events []sseEvent) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	for _, ev := range events {
		var b bytes.Buffer
		if ev.typ != "" {
			b.WriteString("event: " + ev.typ + "\n")
		}
		b.WriteString("data: ")
		b.Write(ev.data)
		b.WriteString("\n\n")
		w.Write(b.Bytes())
		if fl != nil {
			fl.Flush()
		}
	}
}

type sseEvent struct {
	typ  string
	data []byte
}

func mustJSON(v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return out
}

// strictDecode decodes data into v refusing unknown fields, as the
// providers refuse them.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// decodeBody checks that a request's body is JSON and strictDecodes it
// into v; what names the body in a decoding error, in the provider's
// words.
func decodeBody(r *http.Request, body []byte, v any, what string) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("content-type %q, want application/json", ct)
	}
	if err := strictDecode(body, v); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil
}

// compact returns raw compacted (raw itself when it is not JSON).
func compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// callArgs is a fake call's arguments as a JSON object; arguments that
// are not one are a mistake of the test (a provider that parses them
// never sends such), reported as a problem.
func (f *Fake) callArgs(c FakeCall) json.RawMessage {
	a := strings.TrimSpace(c.Arguments)
	if a == "" {
		return json.RawMessage(`{}`)
	}
	if !isObject(json.RawMessage(a)) {
		f.problem(fmt.Errorf("%s sends arguments as a JSON object; %q is not one (use Reply.Body for a malformed response)", f.Provider, c.Arguments))
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(a)
}

// Chats are the OpenAI fake's requests so far in Chat Completions' own
// terms (Turn.Chat of each); nil entries for the other providers.
func (f *Fake) Chats() []*ChatRequest {
	var out []*ChatRequest
	for _, t := range f.Turns() {
		out = append(out, t.Chat())
	}
	return out
}
