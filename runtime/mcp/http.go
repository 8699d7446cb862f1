package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxRequestBodyBytes bounds one HTTP request's body, as MaxMessageSize
// bounds a line on stdio.
const MaxRequestBodyBytes = MaxMessageSize

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"). It is compared in constant time; a
	// request without it, or with another, is answered 401 with
	// "WWW-Authenticate: Bearer".
	Token string
	// AllowedOrigins are the origins ("https://host:port") a browser's
	// request may come from, besides the server's own and, for a server on
	// the loopback interface, the loopback origins. A request whose Origin
	// header is any other is answered 403, as the MCP transport
	// specification requires (a request with no Origin, from a program
	// rather than a page, is not a cross-origin one).
	AllowedOrigins []string
	// SessionTimeout is how long a session may stay idle (no request)
	// before it is closed and its id answered 404, as for a session that
	// never was (0: DefaultSessionTimeout).
	SessionTimeout time.Duration
	// BodyTimeout bounds the reading of one request's body, and each wait
	// for its next bytes to BodyTimeout/4: a client that sends a body
	// slowly, or stops half-way, is cut off (0: DefaultBodyTimeout).
	BodyTimeout time.Duration
}

// Defaults of HTTPOptions.
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultBodyTimeout    = 30 * time.Second
)

// NewHTTPHandler serves srv as MCP's streamable HTTP transport, behind the
// checks opts asks for (token, Origin) and the SDK's own DNS-rebinding
// protection; a request body is bounded by MaxRequestBodyBytes. A call
// whose client goes away (its connection closed) is cancelled, and with it
// the tool's context (gramc mcp's tool commands are killed). A request of
// MCP 2026-07-28 or later (statelessVersion), which has no sessions, is
// served by a stateless handler of the same server behind the same checks;
// earlier versions keep their sessions (opts.SessionTimeout).
func NewHTTPHandler(srv *sdk.Server, opts HTTPOptions) http.Handler {
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{MaxRequestBodyBytes: MaxRequestBodyBytes, SessionTimeout: opts.SessionTimeout})
	// MCP 2026-07-28 has no sessions: each POST is a whole request. The
	// SDK serves it over HTTP only from a stateless handler, so a request
	// speaking it goes to one, on the same server and behind the same
	// checks; its call is cancelled with its HTTP request (the client gone).
	stateless := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{MaxRequestBodyBytes: MaxRequestBodyBytes, Stateless: true, PropagateRequestCancellation: true})
	ids := newIDMap()
	var want [32]byte
	if opts.Token != "" {
		want = sha256.Sum256([]byte(opts.Token))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r, opts.AllowedOrigins) {
			http.Error(w, "Forbidden: the request's Origin "+quoteOrigin(origin)+" is not allowed (gramc mcp --http-allow-origin)", http.StatusForbidden)
			return
		}
		if opts.Token != "" {
			// The scheme is case-insensitive (RFC 9110 11.1): "bearer"
			// is as good as "Bearer".
			scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
			ok = ok && strings.EqualFold(scheme, "Bearer")
			// Hashing first makes the comparison constant-time whatever
			// the lengths.
			sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
			if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
				challenge := `Bearer realm="gramc mcp"`
				if ok {
					challenge += `, error="invalid_token"` // RFC 6750 3.1
				}
				w.Header().Set("WWW-Authenticate", challenge)
				http.Error(w, "Unauthorized: this server needs its bearer token (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
				return
			}
		}
		// The body is read once, here; every look at it below reads
		// these bytes, and the SDK is given them.
		body, err := readBody(w, r, opts.BodyTimeout)
		if err != nil {
			http.Error(w, "Request Timeout: "+err.Error(), http.StatusRequestTimeout)
			return
		}
		if tooDeep(w, body) {
			return
		}
		post := r.Method == http.MethodPost && body != nil
		if post {
			// An id the SDK cannot carry exactly rides as a token, given
			// back in the answer (as over stdio: NewIOTransport).
			var token string
			var orig json.RawMessage
			var done func()
			if body, token, orig, done = exactIDs(ids, body); token != "" {
				defer done()
				w = &idResponseWriter{ResponseWriter: w, token: []byte(token), orig: orig}
			}
		}
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if statelessVersion(r, post, body) {
			stateless.ServeHTTP(w, r)
			return
		}
		var id json.RawMessage
		if post {
			id = callID(body)
		}
		h.ServeHTTP(w, r)
		if id != nil && r.Context().Err() != nil {
			// The client went away before its call was answered: cancel
			// the call as if it had sent notifications/cancelled, so the
			// tool stops now rather than at its timeout.
			cancelCall(h, r, id)
		}
	})
}

// statelessVersion reports whether r speaks MCP newProtocol or later: its
// MCP-Protocol-Version header says so, or (header missing) a message of
// its body carries the version in its _meta, which the stateless handler
// answers with the header's absence (a sessionful one would refuse the
// version instead). Versions compare as dates, as the SDK compares them.
func statelessVersion(r *http.Request, post bool, body []byte) bool {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v >= newProtocol // the first version without sessions
	}
	if !post {
		return false
	}
	var one struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &one) != nil {
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) != nil || len(batch) == 0 || json.Unmarshal(batch[0], &one) != nil {
			return false
		}
	}
	_, ok := one.Params.Meta[sdk.MetaKeyProtocolVersion]
	return ok
}

// readBody reads r's body (at most MaxRequestBodyBytes and one byte) into
// memory within timeout, each wait for more bytes within timeout/4, and
// returns it (nil for none); the connection's read deadline is cleared
// after, so that an event stream answered on it is not cut.
func readBody(w http.ResponseWriter, r *http.Request, timeout time.Duration) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	rc := http.NewResponseController(w)
	defer rc.SetReadDeadline(time.Time{}) //nolint:errcheck // not every connection has deadlines
	end := time.Now().Add(timeout)
	var buf bytes.Buffer
	lr := io.LimitReader(r.Body, MaxRequestBodyBytes+1)
	chunk := make([]byte, 32<<10)
	for {
		next := time.Now().Add(timeout / 4)
		if next.After(end) {
			next = end
		}
		rc.SetReadDeadline(next) //nolint:errcheck // as above
		n, err := lr.Read(chunk)
		buf.Write(chunk[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			r.Body.Close()
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, fmt.Errorf("the request's body did not arrive within %s (or stalled for %s)", timeout, timeout/4)
			}
			return nil, err
		}
	}
	r.Body.Close()
	return buf.Bytes(), nil
}

// exactIDs rewrites the body of a POSTed message whose id the SDK would
// not carry exactly (and a cancellation naming one): the body to serve,
// the token that stands for the id and the id itself ("" when there is
// none), and done, which forgets them.
func exactIDs(ids *idMap, body []byte) (out []byte, token string, orig json.RawMessage, done func()) {
	out = ids.inbound(body)
	if bytes.Equal(out, body) {
		return out, "", nil, nil
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(out, &m) != nil {
		return out, "", nil, nil
	}
	ids.mu.Lock()
	orig, ok := ids.byToken[string(m.ID)]
	ids.mu.Unlock()
	if !ok {
		return out, "", nil, nil
	}
	return out, string(m.ID), orig, func() { ids.forget(string(m.ID)) }
}

// idResponseWriter gives back the client's id in place of its token in
// what the SDK writes: a JSON body or an event stream's events, each
// written whole.
type idResponseWriter struct {
	http.ResponseWriter
	token, orig []byte
}

func (w *idResponseWriter) Write(p []byte) (int, error) {
	if bytes.Contains(p, w.token) {
		if _, err := w.ResponseWriter.Write(bytes.ReplaceAll(p, w.token, w.orig)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (flushes,
// deadlines).
func (w *idResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// callID is the id of a POSTed JSON-RPC request's body (nil for anything
// else).
func callID(data []byte) json.RawMessage {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &m) != nil || m.Method == "" || len(m.ID) == 0 || !validID(m.ID) || string(m.ID) == "null" {
		return nil
	}
	return m.ID
}

// cancelCall sends the session of r a notifications/cancelled for id.
func cancelCall(h http.Handler, r *http.Request, id json.RawMessage) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": id, "reason": "the client disconnected"}})
	req, err := http.NewRequestWithContext(context.WithoutCancel(r.Context()), http.MethodPost, r.URL.String(), bytes.NewReader(body))
	if err != nil {
		return
	}
	for _, k := range []string{"Mcp-Session-Id", "Mcp-Protocol-Version", "Content-Type", "Accept"} {
		if v := r.Header.Get(k); v != "" {
			req.Header.Set(k, v)
		}
	}
	req.Host = r.Host
	h.ServeHTTP(discard{header: http.Header{}}, req)
}

// discard is a ResponseWriter for a request the server makes itself.
type discard struct{ header http.Header }

func (d discard) Header() http.Header       { return d.header }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

// originAllowed: the server's own origin, a listed one, or a loopback
// origin when the request came in on the loopback interface.
func originAllowed(origin string, r *http.Request, allowed []string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimRight(a, "/"), origin) {
			return true
		}
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && isLoopback(local.String()) {
		return isLoopback(u.Host)
	}
	return false
}

// isLoopback reports whether hostport names the loopback interface.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr reports whether a listen address ("127.0.0.1:8080",
// "localhost:0", "[::1]:80") serves only this machine. "0.0.0.0", "::",
// an empty host or any other name or address does not.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return isLoopback(host)
}

func quoteOrigin(o string) string {
	if len(o) > 100 {
		o = o[:100] + "..."
	}
	return "\"" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, o) + "\""
}

// tooDeep answers a request whose body is nested deeper than MaxDepth
// with the JSON-RPC error stdio gives it (one limit for both transports,
// as docs/mcp.md says) and reports true.
func tooDeep(w http.ResponseWriter, body []byte) bool {
	if depth(body) <= MaxDepth {
		return false
	}
	id := idOf(body)
	if id == nil {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"the message is nested deeper than the limit of %d levels"}}`, id, codeInvalidRequest, MaxDepth)
	return true
}
