// Package apihttp is the HTTP exchange every provider client of the
// runtime shares (runtime/openai, runtime/anthropic, runtime/gemini):
// one POST of a JSON body with the API key in the provider's header,
// retried on connection errors and 408, 409, 429 and 5xx responses with
// exponential backoff and jitter (the server's Retry-After, retry-after-ms
// or Gemini's RetryInfo delay winning), each provider's error body read
// into a *runtime.APIError that never contains the key, and debug dumps
// with the key redacted. A streamed response's body is handed back open;
// Complete and Stream are the whole exchange, from a request a client has
// encoded to the answer it decodes. Beside them (wire.go), the JSON every
// client writes alike: the request body (Marshal), the tools entries
// (ToolEntries, OpenToolEntry) and a call's arguments object.
package apihttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/credhttp"
	"github.com/gramc-dev/gramc/runtime/internal/sse"
)

// MaxResponseBytes bounds a response body; a longer one is an error that
// says so, never a silently cut reply. A stream is bounded by its SSE
// decoder's limits instead.
const MaxResponseBytes = 64 << 20

// Config is what every provider client is configured with; the zero
// values of the durations and of MaxRetries take the defaults.
type Config struct {
	Provider string // "openai", "anthropic", "gemini": names the errors
	KeyEnv   string // the key's environment variable, for hints
	APIKey   string // "" sends none
	// KeyHeader carries the key: "Authorization" sends "Bearer <key>",
	// any other header the key itself.
	KeyHeader  string
	HTTPClient *http.Client
	// Timeout bounds a request until its answer starts (a whole answer
	// to its end) and, for a stream, every silence between its parts.
	Timeout time.Duration
	// StreamTimeout bounds a whole stream (default 10 minutes).
	StreamTimeout time.Duration
	// MaxRetries: 0 for the default (3), negative for none.
	MaxRetries                           int
	MinBackoff, MaxBackoff, MaxRetryWait time.Duration
	Sleep                                func(ctx context.Context, d time.Duration) error
	Debug                                func(kind string, data []byte)
	OnRetry                              func(attempt int, wait time.Duration, err error)
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// RequestTimeout is the bound of one request (default 60s).
func (c *Config) RequestTimeout() time.Duration { return orDefault(c.Timeout, 60*time.Second) }

// WholeStreamTimeout is the bound of one stream (default 10 minutes).
func (c *Config) WholeStreamTimeout() time.Duration {
	return orDefault(c.StreamTimeout, 10*time.Minute)
}

// timedOut says a request ran out of its timeout d.
func timedOut(d time.Duration) string { return fmt.Sprintf("request timed out after %v", d) }

// A TimeoutError is a time limit a stream hit, in words that name it.
type TimeoutError struct{ msg string }

func (e *TimeoutError) Error() string { return e.msg }

func (c *Config) maxRetries() int {
	switch {
	case c.MaxRetries < 0:
		return 0
	case c.MaxRetries == 0:
		return 3
	}
	return c.MaxRetries
}

// Redact removes the API key from data where it stands as a whole token.
func (c *Config) Redact(data []byte) []byte { return redact.NewSecret(c.APIKey).Bytes(data) }

// RedactString is Redact for a string.
func (c *Config) RedactString(s string) string { return redact.NewSecret(c.APIKey).String(s) }

// DebugData passes data to the debug function, key redacted.
func (c *Config) DebugData(kind string, data []byte) {
	if c.Debug != nil {
		c.Debug(kind, c.Redact(data))
	}
}

// Response is a successful exchange: Data is the whole body, or, for a
// stream, Body is the open body (closing it ends the request).
type Response struct {
	Status int
	Header http.Header
	Data   []byte
	Body   io.ReadCloser
}

// Post sends body to endpoint with the extra header, retrying what may
// succeed later. With stream set, a 2xx response comes back with its body
// open and the request's timeout still running until the body is closed;
// errors are never retried once a stream has started (the caller has
// shown what it got).
func (c *Config) Post(ctx context.Context, endpoint string, header http.Header, body []byte, stream bool) (*Response, error) {
	if c.Debug != nil {
		head := "request POST " + redact.URL(endpoint)
		if c.APIKey != "" {
			if c.KeyHeader == "Authorization" {
				head += "\nAuthorization: Bearer " + redact.Marker
			} else {
				head += "\n" + c.KeyHeader + ": " + redact.Marker
			}
		}
		c.Debug(head, c.Redact(body))
	}
	retries := c.maxRetries()
	for attempt := 1; ; attempt++ {
		resp, apiErr, wait := c.attempt(ctx, endpoint, header, body, stream)
		if apiErr == nil {
			return resp, nil
		}
		apiErr.Attempts = attempt
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w", c.Provider, ctx.Err())
		}
		if !apiErr.Retryable || attempt > retries {
			return nil, apiErr
		}
		if wait > 0 {
			wait = min(wait, orDefault(c.MaxRetryWait, 60*time.Second))
		} else {
			wait = c.backoff(attempt)
		}
		if c.OnRetry != nil {
			c.OnRetry(attempt, wait, apiErr)
		}
		if observe := runtime.RetryObserver(ctx); observe != nil {
			observe(attempt, wait, apiErr)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Provider, err)
		}
	}
}

// backoff is exponential with jitter: a random duration in [d/2, d] for
// d = MinBackoff·2^(attempt-1), capped at MaxBackoff (and MaxRetryWait).
func (c *Config) backoff(attempt int) time.Duration {
	lo := orDefault(c.MinBackoff, 500*time.Millisecond)
	hi := orDefault(c.MaxBackoff, 20*time.Second)
	if c.MaxRetryWait > 0 {
		hi = min(hi, c.MaxRetryWait)
	}
	d := lo
	for i := 1; i < attempt && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (c *Config) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// streamBody is a streamed answer's open body. Each read that gets data
// restarts the silence timer (the request timeout); the whole stream has
// its own bound. Either ends the request's context with a *TimeoutError as
// its cause, which a read then returns instead of the transport's
// "context canceled". Closing the body ends the request.
type streamBody struct {
	io.ReadCloser
	ctx           context.Context
	cancel        context.CancelCauseFunc
	silent, whole *time.Timer
	idle          time.Duration
}

func newStreamBody(ctx context.Context, cancel context.CancelCauseFunc, body io.ReadCloser, idle, whole time.Duration) *streamBody {
	b := &streamBody{ReadCloser: body, ctx: ctx, cancel: cancel, idle: idle}
	b.silent = time.AfterFunc(idle, func() {
		cancel(&TimeoutError{fmt.Sprintf("nothing of the stream arrived for %v (the request timeout)", idle)})
	})
	b.whole = time.AfterFunc(whole, func() {
		cancel(&TimeoutError{fmt.Sprintf("the stream went on past its time limit of %v (the stream timeout)", whole)})
	})
	return b
}

func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.ctx.Err() == nil {
		b.silent.Reset(b.idle)
	}
	if err != nil && err != io.EOF {
		var te *TimeoutError
		if errors.As(context.Cause(b.ctx), &te) {
			err = te
		}
	}
	return n, err
}

func (b *streamBody) Close() error {
	b.silent.Stop()
	b.whole.Stop()
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// attempt makes one request; on failure it returns the error and how long
// the server asked to wait.
func (c *Config) attempt(ctx context.Context, endpoint string, header http.Header, body []byte, stream bool) (*Response, *runtime.APIError, time.Duration) {
	timeout := c.RequestTimeout()
	actx, cancel := context.WithCancelCause(ctx)
	// Until the answer starts; a stream then has its own timers.
	started := time.AfterFunc(timeout, func() { cancel(context.DeadlineExceeded) })
	keep := false
	defer func() {
		if !keep {
			started.Stop()
			cancel(nil)
		}
	}()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &runtime.APIError{Provider: c.Provider, Message: c.RedactString(err.Error())}, 0
	}
	for k, v := range header {
		hreq.Header[k] = v
	}
	hreq.Header.Set("Content-Type", "application/json")
	if stream {
		hreq.Header.Set("Accept", "text/event-stream")
	} else {
		hreq.Header.Set("Accept", "application/json")
	}
	if c.APIKey != "" {
		if c.KeyHeader == "Authorization" {
			hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
		} else {
			hreq.Header.Set(c.KeyHeader, c.APIKey)
		}
	}
	// failure is what to say of an exchange that failed with err: the
	// request timeout's words when it ran out, else err's.
	failure := func(err error) string {
		if ctx.Err() == nil && actx.Err() != nil {
			return timedOut(timeout)
		}
		return c.RedactString(err.Error())
	}
	noAnswer := func(msg string) (*Response, *runtime.APIError, time.Duration) {
		return nil, &runtime.APIError{Provider: c.Provider, Message: "connection error: " + msg,
			Retryable: ctx.Err() == nil, Err: errors.New(msg)}, 0
	}
	resp, err := credhttp.Client(c.HTTPClient).Do(hreq)
	if err != nil {
		// A transport that knows no retry can help (a cassette's replay
		// of a request it did not record) says so: its error is the
		// answer, kept for errors.As.
		var perm interface{ Permanent() bool }
		if errors.As(err, &perm) && perm.Permanent() {
			return nil, &runtime.APIError{Provider: c.Provider, Message: c.RedactString(perm.(error).Error()), Err: perm.(error)}, 0
		}
		return noAnswer(failure(err))
	}
	if stream && resp.StatusCode/100 == 2 {
		if c.Debug != nil {
			c.Debug("response "+resp.Status+" (a stream: each event follows)", nil)
		}
		if !started.Stop() {
			// The answer started as the request timed out: its body
			// would fail at the first read.
			resp.Body.Close()
			return noAnswer(timedOut(timeout))
		}
		keep = true
		body := newStreamBody(actx, cancel, resp.Body, timeout, c.WholeStreamTimeout())
		return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil, 0
	}
	defer resp.Body.Close()
	data, err := credhttp.ReadBody(resp.Body, MaxResponseBytes)
	if c.Debug != nil {
		c.Debug("response "+resp.Status, c.Redact(data))
	}
	if err != nil {
		return nil, &runtime.APIError{Provider: c.Provider, StatusCode: resp.StatusCode,
			Message: "reading the response: " + failure(err), Retryable: ctx.Err() == nil && !errors.Is(err, credhttp.ErrTooLarge), Err: err}, 0
	}
	if resp.StatusCode/100 == 2 {
		return &Response{Status: resp.StatusCode, Header: resp.Header, Data: data}, nil, 0
	}
	e, wait := c.StatusError(resp.StatusCode, data)
	if ra := RetryAfter(resp.Header); ra > 0 {
		wait = ra
	}
	return nil, e, wait
}

// ErrorBody is the error object every provider sends (OpenAI's
// {"error":{"message","type","code"}}, Anthropic's {"type":"error",
// "error":{"type","message"}}, Gemini's {"error":{"code","message",
// "status","details"}}), also inside a stream.
type ErrorBody struct {
	Error *struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Status  string          `json:"status"`
		Code    json.RawMessage `json:"code"`
		Details []struct {
			RetryDelay string `json:"retryDelay"`
		} `json:"details"`
	} `json:"error"`
}

// Decode reads data as an error body; it reports false when data holds
// none.
func (eb *ErrorBody) Decode(data []byte) bool {
	return json.Unmarshal(data, eb) == nil && eb.Error != nil && eb.Error.Message != ""
}

// APIError turns the body into an *runtime.APIError for status (0 when it
// came inside a stream or a 200 response) and returns the retry delay it
// names (Gemini's RetryInfo), if any.
func (c *Config) fromBody(status int, eb *ErrorBody) (*runtime.APIError, time.Duration) {
	e := &runtime.APIError{Provider: c.Provider, StatusCode: status, Retryable: RetryableStatus(status),
		Message: c.RedactString(eb.Error.Message), Type: eb.Error.Type}
	if e.Type == "" {
		e.Type = eb.Error.Status
	}
	if code := strings.Trim(string(eb.Error.Code), `"`); code != "" && code != "null" {
		e.Code = c.RedactString(code)
	}
	var wait time.Duration
	for _, d := range eb.Error.Details {
		if v, err := time.ParseDuration(d.RetryDelay); err == nil && v > 0 {
			wait = v
		}
	}
	if status == 0 {
		// Overload reported in a stream (Anthropic's overloaded_error)
		// or a 200 body: retryable if the provider says so, but a started
		// stream is never retried.
		e.Retryable = e.Type == "overloaded_error" || e.Type == "rate_limit_error" || e.Type == "server_error"
	}
	return e, wait
}

// BodyError is the error for an error body that came with status (0 in a
// stream), if data is one.
func (c *Config) BodyError(status int, data []byte) (*runtime.APIError, bool) {
	var eb ErrorBody
	if !eb.Decode(data) {
		return nil, false
	}
	e, _ := c.fromBody(status, &eb)
	return e, true
}

// StatusError is the error for an HTTP error status with its body.
func (c *Config) StatusError(status int, data []byte) (*runtime.APIError, time.Duration) {
	var e *runtime.APIError
	var wait time.Duration
	var eb ErrorBody
	if eb.Decode(data) {
		e, wait = c.fromBody(status, &eb)
	} else {
		e = &runtime.APIError{Provider: c.Provider, StatusCode: status, Retryable: RetryableStatus(status), Message: http.StatusText(status)}
		if e.Message == "" {
			e.Message = "status " + strconv.Itoa(status)
		}
		if s := strings.TrimSpace(string(data)); s != "" && len(s) < 300 {
			e.Message += ": " + c.RedactString(s)
		}
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		e.Message = "unauthorized (check " + c.KeyEnv + "): " + e.Message
	case http.StatusNotFound:
		e.Message = "not found (check the model name and the base URL): " + e.Message
	case http.StatusBadRequest:
		e.Message = "bad request: " + e.Message
	}
	return e, wait
}

// RetryableStatus reports whether a request that got status may succeed
// later: 408, 409, 429 and 5xx (Anthropic's 529 overloaded included).
func RetryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// RetryAfter reads Retry-After (seconds or an HTTP date) or the
// retry-after-ms header OpenAI also sends.
func RetryAfter(h http.Header) time.Duration {
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if v, err := strconv.ParseFloat(ms, 64); err == nil && v > 0 {
			return time.Duration(v * float64(time.Millisecond))
		}
	}
	ra := h.Get("Retry-After")
	if ra == "" {
		return 0
	}
	if v, err := strconv.ParseFloat(ra, 64); err == nil && v > 0 {
		return time.Duration(v * float64(time.Second))
	}
	if t, err := http.ParseTime(ra); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// StreamError is the error for a stream that could not be read to its
// end: the context's, or an *runtime.APIError saying what went wrong (a
// limit of the SSE decoder named, a cut stream said to be one).
func (c *Config) StreamError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", c.Provider, ctx.Err())
	}
	msg := "reading the stream: " + c.RedactString(err.Error())
	var le *sse.LimitError
	var te *TimeoutError
	if errors.As(err, &le) {
		msg = "the stream is too large: " + err.Error()
	} else if errors.As(err, &te) {
		msg = te.Error()
	} else if errors.Is(err, sse.ErrCut) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "the stream was cut off in the middle of an event"
	}
	return &runtime.APIError{Provider: c.Provider, StatusCode: http.StatusOK, Message: msg, Err: err}
}

// Incomplete is the error for a stream that ended cleanly but before the
// provider's last event (what says which is missing).
func (c *Config) Incomplete(what string) error {
	return &runtime.APIError{Provider: c.Provider, StatusCode: http.StatusOK,
		Message: "the stream ended before the response was complete (" + what + ")", Err: io.ErrUnexpectedEOF}
}

// StreamLimits bound a streamed answer as MaxResponseBytes bounds a
// whole one.
var StreamLimits = sse.Limits{MaxStream: MaxResponseBytes}

// isJSON reports whether a response is JSON rather than an event stream:
// a server that does not stream answers a stream request whole.
func (r *Response) isJSON() bool {
	return strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "application/json")
}

// A Decoder reads a whole answer into a completion.
type Decoder func(data []byte) (*runtime.Completion, error)

// A StreamDecoder reads a streamed answer's events to its end, reporting
// them to emit (nil for none) as they come.
type StreamDecoder func(ctx context.Context, body io.Reader, emit func(runtime.Event)) (*runtime.Completion, error)

// Complete posts body to endpoint and decodes the whole answer with
// decode: every client's runtime.Model.Complete after encoding.
func (c *Config) Complete(ctx context.Context, endpoint string, header http.Header, body []byte, decode Decoder) (*runtime.Completion, error) {
	resp, err := c.Post(ctx, endpoint, header, body, false)
	if err != nil {
		return nil, err
	}
	return decode(resp.Data)
}

// Stream posts body, a request for a stream, to endpoint and reads the
// answer's events with decodeStream, or, from a server that answers it
// whole (isJSON), the answer with decode (readWhole): every client's
// runtime.StreamingModel.Stream after encoding.
func (c *Config) Stream(ctx context.Context, endpoint string, header http.Header, body []byte, decode Decoder, decodeStream StreamDecoder, emit func(runtime.Event)) (*runtime.Completion, error) {
	resp, err := c.Post(ctx, endpoint, header, body, true)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.isJSON() {
		return c.readWhole(ctx, resp.Body, decode, emit)
	}
	return decodeStream(ctx, resp.Body, emit)
}

// readWhole reads a whole answer given to a stream request (isJSON),
// decodes it with decode and reports it to emit as a stream would have:
// its text as one EventText, then each call's EventToolCallStart.
func (c *Config) readWhole(ctx context.Context, body io.Reader, decode Decoder, emit func(runtime.Event)) (*runtime.Completion, error) {
	data, err := credhttp.ReadBody(body, MaxResponseBytes)
	c.DebugData("response body", data)
	if err != nil {
		return nil, c.StreamError(ctx, err)
	}
	comp, err := decode(data)
	if err != nil || emit == nil {
		return comp, err
	}
	if comp.Message.Content != "" {
		emit(runtime.Event{Kind: runtime.EventText, Text: comp.Message.Content})
	}
	for i, tc := range comp.Message.ToolCalls {
		emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: i, Call: runtime.ToolCall{ID: tc.ID, Name: tc.Name}})
	}
	return comp, nil
}
