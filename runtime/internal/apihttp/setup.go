package apihttp

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/credhttp"
)

// Endpoint is where a provider client sends its requests, as its New
// checks it before any request is made.
type Endpoint struct {
	// BaseURL is the configured API root; "" takes Default.
	BaseURL, Default string
	// BaseSetting names the base URL's setting in errors
	// ("OPENAI_BASE_URL").
	BaseSetting string
	// KeySetting names the key's setting in errors ("OPENAI_API_KEY").
	KeySetting string
	// OfficialHost is the provider's own API host: a request to it needs
	// a key, and MissingKey says so.
	OfficialHost, MissingKey string
}

// Check validates the client's endpoint and key the one way every provider
// client does: the base URL must be http(s)://host/path, the key must be
// sendable in a header, and the provider's own host needs one. It returns
// the base URL to use; its errors are *runtime.ConfigurationError.
func (c *Config) Check(e Endpoint) (string, error) {
	base := e.BaseURL
	if base == "" {
		base = e.Default
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", &runtime.ConfigurationError{Setting: e.BaseSetting,
			Message: fmt.Sprintf("invalid base URL %q: want http(s)://host/path", base)}
	}
	if err := credhttp.CheckKey(c.APIKey); err != nil {
		return "", &runtime.ConfigurationError{Setting: e.KeySetting, Message: c.KeyEnv, Err: err}
	}
	if c.APIKey == "" && strings.EqualFold(u.Hostname(), e.OfficialHost) {
		return "", &runtime.ConfigurationError{Setting: e.KeySetting, Message: e.MissingKey}
	}
	return base, nil
}

// DebugWriter is the debug function of every client's WithDebugWriter:
// each raw request and response (key redacted) written to w under a
// "--- kind" line.
func DebugWriter(w io.Writer) func(kind string, data []byte) {
	return func(kind string, data []byte) {
		fmt.Fprintf(w, "--- %s\n%s\n", kind, bytes.TrimRight(data, "\n"))
	}
}
