// Package clientopt declares, once, the options every provider client
// takes (openai.New, anthropic.New, gemini.New): the key, the base URL,
// the model, the HTTP client, timeouts, retries and debugging. A client
// adds its own few on top with Own (openai.WithMode,
// anthropic.WithMaxTokens), and they all travel in one list:
//
//	model, err := openai.New(clientopt.WithTimeout(30*time.Second), openai.WithMode(openai.ResponsesMode))
//
// Package runtime/clients makes the client a model names from the same
// list.
package clientopt

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"time"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
)

// An Option configures a provider client. Options are applied in order;
// a later one wins.
type Option struct {
	shared func(*Settings)
	own    any    // a func(*C) for the client C that declared it
	name   string // the client type Own was made for, for errors
}

// Settings are what the shared options set; a client's New starts them
// from its environment variables and reads them after Apply.
type Settings struct {
	HTTP    apihttp.Config // the key, retries, timeouts, debugging
	BaseURL string         // the API root; "" for the provider's default
	Model   string         // when set, overrides the agent's model name
}

// ModelName is the model a request asks for: the Model override, or the
// agent's `Provider/model-name` without its provider.
func (s *Settings) ModelName(agentModel string) string {
	if s.Model != "" {
		return s.Model
	}
	_, name := runtime.SplitModel(agentModel)
	return name
}

func shared(f func(*Settings)) Option { return Option{shared: f} }

// WithAPIKey sets the API key instead of the provider's key variable.
func WithAPIKey(key string) Option { return shared(func(s *Settings) { s.HTTP.APIKey = key }) }

// WithBaseURL sets the base URL instead of the provider's base-URL
// variable.
func WithBaseURL(u string) Option { return shared(func(s *Settings) { s.BaseURL = u }) }

// WithModel overrides the agent's model name.
func WithModel(m string) Option { return shared(func(s *Settings) { s.Model = m }) }

// WithHTTPClient sets the HTTP client (a cassette's, a proxy's, a test
// server's).
func WithHTTPClient(h *http.Client) Option {
	return shared(func(s *Settings) { s.HTTP.HTTPClient = h })
}

// WithTimeout bounds each request until its answer starts (a whole
// answer to its end) and each silence of a streamed answer (default 60s).
func WithTimeout(d time.Duration) Option { return shared(func(s *Settings) { s.HTTP.Timeout = d }) }

// WithStreamTimeout bounds a whole streamed answer (default 10 minutes).
func WithStreamTimeout(d time.Duration) Option {
	return shared(func(s *Settings) { s.HTTP.StreamTimeout = d })
}

// WithMaxRetries sets how often retryable failures are retried (default
// 3, negative for none).
func WithMaxRetries(n int) Option { return shared(func(s *Settings) { s.HTTP.MaxRetries = n }) }

// WithBackoff sets the exponential backoff's bounds between retries
// (defaults 500ms and 20s).
func WithBackoff(min, max time.Duration) Option {
	return shared(func(s *Settings) { s.HTTP.MinBackoff, s.HTTP.MaxBackoff = min, max })
}

// WithMaxRetryWait bounds every wait between retries, the backoff's and
// the server's Retry-After alike (default 60s).
func WithMaxRetryWait(d time.Duration) Option {
	return shared(func(s *Settings) { s.HTTP.MaxRetryWait = d })
}

// WithRetryNotice is called before each wait to retry.
func WithRetryNotice(f func(attempt int, wait time.Duration, err error)) Option {
	return shared(func(s *Settings) { s.HTTP.OnRetry = f })
}

// WithSleep replaces the wait between retries (for tests).
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return shared(func(s *Settings) { s.HTTP.Sleep = f })
}

// WithDebug receives raw requests and responses, key redacted.
func WithDebug(f func(kind string, data []byte)) Option {
	return shared(func(s *Settings) { s.HTTP.Debug = f })
}

// WithDebugWriter writes raw requests and responses to w, key redacted.
func WithDebugWriter(w io.Writer) Option { return WithDebug(apihttp.DebugWriter(w)) }

// Own makes a client's own option: set is applied to the client C being
// made, after the shared options. Given to another client's New, it is
// an error that names both.
func Own[C any](set func(*C)) Option {
	return Option{own: set, name: reflect.TypeFor[*C]().String()}
}

// Apply applies opts in order: the shared ones to s, the ones Own made
// for C to c. An option another client declared is an error.
func Apply[C any](s *Settings, c *C, opts []Option) error {
	for _, o := range opts {
		switch {
		case o.shared != nil:
			o.shared(s)
		case o.own != nil:
			set, ok := o.own.(func(*C))
			if !ok {
				return fmt.Errorf("an option of %s given to %s's New", o.name, reflect.TypeFor[*C]())
			}
			set(c)
		}
	}
	return nil
}

// FromEnvironment starts a client's settings from its provider's row of
// package provider's table: the key from the first of its key variables
// that is set (hints name the last when none is), the base URL from its
// base-URL variable, the key's header from the row (p.KeyHeaderName:
// a bearer token when the row names no header).
func FromEnvironment(p provider.Info) Settings {
	s := Settings{HTTP: apihttp.Config{Provider: string(p.Client), KeyHeader: p.KeyHeaderName()}}
	if p.BaseURLEnv != "" {
		s.BaseURL = os.Getenv(p.BaseURLEnv)
	}
	if len(p.KeyEnv) > 0 {
		s.HTTP.KeyEnv = p.KeyEnv[len(p.KeyEnv)-1]
	}
	for _, env := range p.KeyEnv {
		if k := os.Getenv(env); k != "" {
			s.HTTP.APIKey, s.HTTP.KeyEnv = k, env
			break
		}
	}
	return s
}

// Setup is every client's New up to its own defaults: the settings from
// the provider's row (FromEnvironment), then opts (Apply), then the
// endpoint checked against the row: the base URL (the row's default
// when none is given; a row without one needs one), and the key, which
// a request to the row's own host needs. Its errors are
// *runtime.ConfigurationError, except an option of another client's.
func Setup[C any](p provider.Info, c *C, opts []Option) (Settings, error) {
	s := FromEnvironment(p)
	if err := Apply(&s, c, opts); err != nil {
		return s, err
	}
	if s.BaseURL == "" && p.BaseURL == "" {
		msg := fmt.Sprintf("provider %s has no built-in endpoint: give the base URL of its %s-compatible API", p.Name, p.Client.API())
		if v := p.KeySetting(); v != "" {
			msg += " (and its key in " + v + ")"
		}
		return s, &runtime.ConfigurationError{Setting: "base URL", Message: msg}
	}
	official := ""
	if u, err := url.Parse(p.BaseURL); err == nil && len(p.KeyEnv) > 0 {
		official = u.Hostname()
	}
	baseSetting := p.BaseURLEnv
	if baseSetting == "" {
		baseSetting = "base URL"
	}
	base, err := s.HTTP.Check(apihttp.Endpoint{BaseURL: s.BaseURL, Default: p.BaseURL,
		BaseSetting: baseSetting, KeySetting: p.KeySetting(), OfficialHost: official, MissingKey: p.MissingKey()})
	s.BaseURL = base
	return s, err
}

// NewClient is every client's NewFor: a new C whose settings, the field
// settings points to, are Setup's.
func NewClient[C any](p provider.Info, opts []Option, settings func(*C) *Settings) (*C, error) {
	c := new(C)
	s, err := Setup(p, c, opts)
	if err != nil {
		return nil, err
	}
	*settings(c) = s
	return c, nil
}
