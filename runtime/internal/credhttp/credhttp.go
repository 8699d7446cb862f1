// Package credhttp sends provider requests that carry credentials (an API
// key in Authorization, x-api-key or x-goog-api-key): a redirect keeps the
// credentials only when it stays on the same origin — scheme, host and
// port — and a response body is read up to a limit that, when hit, is an
// error saying so.
package credhttp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// CredentialHeaders are the request headers that carry an API key.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Proxy-Authorization"}

// maxRedirects is the go http.Client's own default.
const maxRedirects = 10

// Client returns a copy of hc (http.DefaultClient when nil) whose
// redirects drop every credential header when they leave the first
// request's origin. Go's client keeps Authorization on a redirect to the
// same host name on another port; an API key must not reach another
// server (or another service on the same machine) than the one configured.
func Client(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if !sameOrigin(req, via[0]) {
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &c
}

func sameOrigin(a, b *http.Request) bool {
	return strings.EqualFold(a.URL.Scheme, b.URL.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

func hostPort(r *http.Request) string {
	host, port := r.URL.Hostname(), r.URL.Port()
	if port == "" {
		switch strings.ToLower(r.URL.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return host + ":" + port
}

// ErrTooLarge is wrapped by ReadBody's error when the body exceeds its
// limit.
var ErrTooLarge = errors.New("response body too large")

// ReadBody reads r up to limit bytes. A longer body is an error wrapping
// ErrTooLarge that names the limit: a response is never silently cut.
func ReadBody(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return data[:limit], fmt.Errorf("%w: over the %d MiB limit", ErrTooLarge, limit>>20)
	}
	return data, nil
}

// CheckKey reports an API key that no HTTP header can carry: one with a
// line break, another control character or a space (a key pasted with its
// newline). The error says where, never what the key is; a request with
// such a key would fail with a connection error on every retry.
func CheckKey(key string) error {
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '\n' || c == '\r':
			return fmt.Errorf("the key has a line break at byte %d of %d (copy it again without the newline)", i+1, len(key))
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("the key has a control character at byte %d of %d", i+1, len(key))
		case c == ' ':
			return fmt.Errorf("the key has a space at byte %d of %d", i+1, len(key))
		}
	}
	return nil
}
