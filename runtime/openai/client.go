// Package openai is a runtime.Model for the OpenAI Chat Completions API
// and the servers that speak it (Ollama, vLLM, llama.cpp, ...), written
// over net/http.
//
// It sends tools as `tools` and reads `tool_calls` (or, in FunctionsMode,
// the legacy `functions`/`function_call` form), retries connection errors
// and 408, 409, 429 and 5xx responses with exponential backoff and jitter
// (honouring Retry-After), and never lets the API key into an error or a
// debug dump.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gramc-dev/gramc/internal/credhttp"
	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/runtime"
)

// DefaultBaseURL is the OpenAI API's base URL.
const DefaultBaseURL = "https://api.openai.com/v1"

// Mode selects how tools are sent.
type Mode int

const (
	// ToolsMode sends `tools` and reads `tool_calls` (the default).
	ToolsMode Mode = iota
	// FunctionsMode sends the legacy `functions` and reads `function_call`
	// (one call per response).
	FunctionsMode
)

// Client is a runtime.Model that talks to a Chat Completions endpoint. It
// is configured one way, with the options of New (WithBaseURL, WithModel,
// ...), and is safe for concurrent use.
type Client struct {
	apiKey     string // sent as a bearer token ("" sends none: local servers)
	baseURL    string // the API root, e.g. "https://api.openai.com/v1"
	model      string // when set, overrides the agent's model name
	mode       Mode
	httpClient *http.Client // nil: http.DefaultClient (the per-request timeout applies)
	timeoutD   time.Duration
	// maxRetriesN is how many times a retryable failure is retried (0:
	// the default, 3; negative for none).
	maxRetriesN int
	// The exponential backoff's bounds, and Retry-After's (0: defaults).
	minBackoffD, maxBackoffD, maxRetryAfterD time.Duration
	sleepFn                                  func(ctx context.Context, d time.Duration) error
	debug                                    func(kind string, data []byte)
	onRetry                                  func(attempt int, wait time.Duration, err error)
}

// Option configures New.
type Option func(*Client)

// WithAPIKey sets the API key instead of OPENAI_API_KEY.
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithBaseURL sets the base URL instead of OPENAI_BASE_URL.
func WithBaseURL(u string) Option { return func(c *Client) { c.baseURL = u } }

// WithModel overrides the agent's model name.
func WithModel(m string) Option { return func(c *Client) { c.model = m } }

// WithMode selects tools or legacy functions.
func WithMode(m Mode) Option { return func(c *Client) { c.mode = m } }

// WithHTTPClient sets the HTTP client.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.httpClient = h } }

// WithMaxRetryWait bounds every wait between retries, the backoff's and
// the server's Retry-After alike.
func WithMaxRetryWait(d time.Duration) Option {
	return func(c *Client) { c.maxBackoffD, c.maxRetryAfterD = d, d }
}

// WithRetryNotice sets OnRetry.
func WithRetryNotice(f func(attempt int, wait time.Duration, err error)) Option {
	return func(c *Client) { c.onRetry = f }
}

// WithBackoff sets the exponential backoff's bounds between retries
// (defaults 500ms and 20s).
func WithBackoff(min, max time.Duration) Option {
	return func(c *Client) { c.minBackoffD, c.maxBackoffD = min, max }
}

// BaseURL returns the API root the client sends requests to.
func (c *Client) BaseURL() string { return c.baseURL }

// WithTimeout bounds each HTTP request.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeoutD = d } }

// WithMaxRetries sets how often retryable failures are retried.
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetriesN = n } }

// WithSleep replaces the wait between retries (for tests).
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleepFn = f }
}

// WithDebug receives raw requests and responses, key redacted.
func WithDebug(f func(kind string, data []byte)) Option { return func(c *Client) { c.debug = f } }

// WithDebugWriter writes raw requests and responses to w, key redacted.
func WithDebugWriter(w io.Writer) Option {
	return WithDebug(func(kind string, data []byte) {
		fmt.Fprintf(w, "--- %s\n%s\n", kind, bytes.TrimRight(data, "\n"))
	})
}

// New returns a client configured from OPENAI_API_KEY and OPENAI_BASE_URL,
// then opts. Without an API key it is a *runtime.ConfigurationError when
// the base URL is OpenAI's own (a local compatible server needs none).
func New(opts ...Option) (*Client, error) {
	c := &Client{apiKey: os.Getenv("OPENAI_API_KEY"), baseURL: os.Getenv("OPENAI_BASE_URL")}
	for _, o := range opts {
		o(c)
	}
	if c.baseURL == "" {
		c.baseURL = DefaultBaseURL
	}
	u, err := url.Parse(c.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &runtime.ConfigurationError{Setting: "OPENAI_BASE_URL",
			Message: fmt.Sprintf("invalid base URL %q: want http(s)://host/path", c.baseURL)}
	}
	if err := credhttp.CheckKey(c.apiKey); err != nil {
		return nil, &runtime.ConfigurationError{Setting: "OPENAI_API_KEY", Message: "OPENAI_API_KEY: " + err.Error(), Err: err}
	}
	if c.apiKey == "" && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return nil, &runtime.ConfigurationError{Setting: "OPENAI_API_KEY",
			Message: "OPENAI_API_KEY is not set: set it to your OpenAI API key (or use the base URL of an OpenAI-compatible server that needs none)"}
	}
	return c, nil
}

func (c *Client) timeout() time.Duration       { return orDefault(c.timeoutD, 60*time.Second) }
func (c *Client) minBackoff() time.Duration    { return orDefault(c.minBackoffD, 500*time.Millisecond) }
func (c *Client) maxBackoff() time.Duration    { return orDefault(c.maxBackoffD, 20*time.Second) }
func (c *Client) maxRetryAfter() time.Duration { return orDefault(c.maxRetryAfterD, 60*time.Second) }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (c *Client) maxRetries() int {
	switch {
	case c.maxRetriesN < 0:
		return 0
	case c.maxRetriesN == 0:
		return 3
	}
	return c.maxRetriesN
}

// modelName returns the model to ask for: the override, or the agent's
// `Provider/model-name` without its provider.
func (c *Client) modelName(agentModel string) string {
	if c.model != "" {
		return c.model
	}
	if _, name, ok := strings.Cut(agentModel, "/"); ok {
		return name
	}
	return agentModel
}

// Complete implements runtime.Model.
func (c *Client) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	body, err := c.encodeRequest(req)
	if err != nil {
		return nil, &runtime.ConfigurationError{Setting: "tools", Message: "cannot encode the request", Err: err}
	}
	data, err := c.post(ctx, body)
	if err != nil {
		return nil, err
	}
	return c.decodeResponse(data)
}

// EncodeRequest returns the JSON request body Complete sends for req.
func (c *Client) EncodeRequest(req *runtime.Request) ([]byte, error) { return c.encodeRequest(req) }

func (c *Client) encodeRequest(req *runtime.Request) ([]byte, error) {
	cr := chatRequest{Model: c.modelName(req.Model), Temperature: req.Temperature}
	cr.Messages = make([]wireMessage, 0, len(req.Messages)+1)
	if req.Instruction != "" {
		cr.Messages = append(cr.Messages, wireMessage{Role: "system", Content: ptr(req.Instruction)})
	}
	legacy := c.mode == FunctionsMode
	// The legacy form has one call per assistant message, each followed by
	// its result: a stored turn with several calls is sent as call, result,
	// call, result. Results are paired with calls by position among the
	// tool messages that follow the turn (an ID picks among them first), so
	// pairing never depends on the IDs being unique.
	var answer map[int]int // tool message index -> call position, legacy only
	var resultFor map[[2]int]int
	if legacy {
		answer, resultFor = pairLegacyResults(req.Messages)
	}
	for i, m := range req.Messages {
		switch m.Role {
		case runtime.RoleUser:
			cr.Messages = append(cr.Messages, wireMessage{Role: "user", Content: ptr(m.Content)})
		case runtime.RoleSystem:
			cr.Messages = append(cr.Messages, wireMessage{Role: "system", Content: ptr(m.Content)})
		case runtime.RoleAssistant:
			wm := wireMessage{Role: "assistant"}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				wm.Content = ptr(m.Content)
			}
			if legacy {
				if len(m.ToolCalls) == 0 {
					cr.Messages = append(cr.Messages, wm)
				}
				for ci, tc := range m.ToolCalls {
					w := wm
					if ci > 0 {
						w.Content = nil
					}
					w.FunctionCall = &wireFunctionArg{Name: tc.Name, Arguments: tc.Arguments}
					cr.Messages = append(cr.Messages, w)
					if ri, ok := resultFor[[2]int{i, ci}]; ok {
						cr.Messages = append(cr.Messages, wireMessage{Role: "function", Name: tc.Name, Content: ptr(req.Messages[ri].Content)})
					}
				}
				continue
			}
			for _, tc := range m.ToolCalls {
				wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: tc.ID, Type: "function",
					Function: wireFunctionArg{Name: tc.Name, Arguments: tc.Arguments}})
			}
			cr.Messages = append(cr.Messages, wm)
		case runtime.RoleTool:
			if legacy {
				if _, paired := answer[i]; !paired {
					cr.Messages = append(cr.Messages, wireMessage{Role: "function", Name: m.Name, Content: ptr(m.Content)})
				}
			} else {
				cr.Messages = append(cr.Messages, wireMessage{Role: "tool", ToolCallID: m.ToolCallID, Content: ptr(m.Content)})
			}
		default:
			return nil, fmt.Errorf("message with unknown role %q", m.Role)
		}
	}
	for _, spec := range req.Tools {
		if legacy {
			e, err := FunctionEntry(spec)
			if err != nil {
				return nil, err
			}
			cr.Functions = append(cr.Functions, e)
		} else {
			e, err := ToolEntry(spec)
			if err != nil {
				return nil, err
			}
			cr.Tools = append(cr.Tools, e)
		}
	}
	if len(req.Tools) > 0 && req.ToolChoice != "" {
		switch req.ToolChoice {
		case "auto", "none", "required":
			if legacy {
				if req.ToolChoice != "required" {
					cr.FunctionCall = req.ToolChoice
				}
			} else {
				cr.ToolChoice = req.ToolChoice
			}
		default:
			if legacy {
				cr.FunctionCall = map[string]string{"name": req.ToolChoice}
			} else {
				cr.ToolChoice = namedChoice{Type: "function", Function: struct {
					Name string `json:"name"`
				}{req.ToolChoice}}
			}
		}
	}
	// No HTML escaping, so the tools entries stay byte-identical to
	// `gramc schema --target openai`.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cr); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func ptr(s string) *string { return &s }

// namedChoice is a tool_choice forcing one function.
type namedChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

func (c *Client) decodeResponse(data []byte) (*runtime.Completion, error) {
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK,
			Message: "malformed response: " + err.Error(), Err: err}
	}
	if len(cr.Choices) == 0 {
		var eb errorBody
		if json.Unmarshal(data, &eb) == nil && eb.Error != nil && eb.Error.Message != "" {
			// Some servers report errors with status 200.
			return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: c.redactString(eb.Error.Message), Type: eb.Error.Type}
		}
		return nil, &runtime.APIError{Provider: "openai", StatusCode: http.StatusOK, Message: "malformed response: no choices"}
	}
	ch := cr.Choices[0]
	msg := runtime.Message{Role: runtime.RoleAssistant}
	if ch.Message.Content != nil {
		msg.Content = *ch.Message.Content
	} else if ch.Message.Refusal != nil {
		msg.Content = *ch.Message.Refusal
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue // other tool kinds are not gram tools
		}
		msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name,
			Arguments: argumentsText(tc.Function.Arguments)})
	}
	if fc := ch.Message.FunctionCall; fc != nil && len(msg.ToolCalls) == 0 {
		msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{Name: fc.Name, Arguments: argumentsText(fc.Arguments)})
	}
	comp := &runtime.Completion{Message: msg}
	if cr.Usage != nil {
		comp.Usage = runtime.Usage{PromptTokens: cr.Usage.PromptTokens,
			CompletionTokens: cr.Usage.CompletionTokens, TotalTokens: cr.Usage.TotalTokens}
	}
	return comp, nil
}

// post sends body to /chat/completions, retrying what may succeed later.
func (c *Client) post(ctx context.Context, body []byte) ([]byte, error) {
	base := c.baseURL
	if base == "" {
		base = DefaultBaseURL
	}
	endpoint := strings.TrimRight(base, "/") + "/chat/completions"
	if c.debug != nil {
		head := "request POST " + redact.URL(endpoint)
		if c.apiKey != "" {
			head += "\nAuthorization: Bearer " + redact.Marker
		}
		c.debug(head, c.redact(body))
	}
	retries := c.maxRetries()
	for attempt := 1; ; attempt++ {
		data, apiErr, retryAfter := c.attempt(ctx, endpoint, body)
		if apiErr == nil {
			return data, nil
		}
		apiErr.Attempts = attempt
		if ctx.Err() != nil {
			return nil, fmt.Errorf("openai: %w", ctx.Err())
		}
		if !apiErr.Retryable || attempt > retries {
			return nil, apiErr
		}
		wait := c.backoff(attempt)
		if retryAfter > 0 {
			wait = min(retryAfter, c.maxRetryAfter())
		}
		if c.onRetry != nil {
			c.onRetry(attempt, wait, apiErr)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("openai: %w", err)
		}
	}
}

// backoff is exponential with jitter: a random duration in [d/2, d] for
// d = MinBackoff·2^(attempt-1), capped at MaxBackoff.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.minBackoff()
	for i := 1; i < attempt && d < c.maxBackoff(); i++ {
		d *= 2
	}
	d = min(d, c.maxBackoff())
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.sleepFn != nil {
		return c.sleepFn(ctx, d)
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

// attempt makes one request; on failure it returns the error and how long
// the server asked to wait.
func (c *Client) attempt(ctx context.Context, endpoint string, body []byte) ([]byte, *runtime.APIError, time.Duration) {
	actx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &runtime.APIError{Provider: "openai", Message: c.redactString(err.Error())}, 0
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := credhttp.Client(c.httpClient).Do(hreq)
	if err != nil {
		msg := c.redactString(err.Error())
		if ctx.Err() == nil && actx.Err() != nil {
			msg = fmt.Sprintf("request timed out after %v", c.timeout())
		}
		return nil, &runtime.APIError{Provider: "openai", Message: "connection error: " + msg,
			Retryable: ctx.Err() == nil, Err: errors.New(msg)}, 0
	}
	defer resp.Body.Close()
	data, err := credhttp.ReadBody(resp.Body, maxResponseBytes)
	if c.debug != nil {
		c.debug(fmt.Sprintf("response %s", resp.Status), c.redact(data))
	}
	if err != nil {
		msg := c.redactString(err.Error())
		return nil, &runtime.APIError{Provider: "openai", StatusCode: resp.StatusCode,
			Message: "reading the response: " + msg, Retryable: ctx.Err() == nil && !errors.Is(err, credhttp.ErrTooLarge), Err: err}, 0
	}
	if resp.StatusCode/100 == 2 {
		return data, nil, 0
	}
	e := &runtime.APIError{Provider: "openai", StatusCode: resp.StatusCode, Retryable: retryableStatus(resp.StatusCode)}
	var eb errorBody
	if json.Unmarshal(data, &eb) == nil && eb.Error != nil && eb.Error.Message != "" {
		e.Message = c.redactString(eb.Error.Message)
		e.Type = eb.Error.Type
		if eb.Error.Code != nil {
			e.Code = c.redactString(fmt.Sprint(eb.Error.Code))
		}
	} else {
		e.Message = http.StatusText(resp.StatusCode)
		if s := strings.TrimSpace(string(data)); s != "" && len(s) < 300 {
			e.Message += ": " + c.redactString(s)
		}
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		e.Message = "unauthorized (check OPENAI_API_KEY): " + e.Message
	case http.StatusNotFound:
		e.Message = "not found (check the model name and the base URL): " + e.Message
	case http.StatusBadRequest:
		e.Message = "bad request: " + e.Message
	}
	return nil, e, retryAfter(resp.Header)
}

func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// retryAfter reads Retry-After (seconds or an HTTP date) or the
// retry-after-ms header OpenAI also sends.
func retryAfter(h http.Header) time.Duration {
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

// redact removes the API key from data where it stands as a whole token
// (internal/redact), so a short key never mangles ordinary text.
func (c *Client) redact(data []byte) []byte { return redact.NewSecret(c.apiKey).Bytes(data) }

func (c *Client) redactString(s string) string { return redact.NewSecret(c.apiKey).String(s) }

// maxResponseBytes bounds a response body; a longer one is an error that
// says so, never a silently cut reply.
const maxResponseBytes = 64 << 20

// pairLegacyResults pairs each assistant turn's calls with the tool
// messages that follow it: for each call, the first unpaired result with
// its ID, else the first unpaired result. It returns, for each paired tool
// message, the call position it answers, and for each (assistant message,
// call) the index of its result.
func pairLegacyResults(msgs []runtime.Message) (answer map[int]int, resultFor map[[2]int]int) {
	answer, resultFor = map[int]int{}, map[[2]int]int{}
	for i, m := range msgs {
		if m.Role != runtime.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == runtime.RoleTool {
			end++
		}
		for ci, tc := range m.ToolCalls {
			pick := -1
			for j := i + 1; j < end; j++ {
				if _, used := answer[j]; !used && msgs[j].ToolCallID == tc.ID && tc.ID != "" {
					pick = j
					break
				}
			}
			for j := i + 1; pick < 0 && j < end; j++ {
				if _, used := answer[j]; !used {
					pick = j
				}
			}
			if pick >= 0 {
				answer[pick] = ci
				resultFor[[2]int{i, ci}] = pick
			}
		}
	}
	return answer, resultFor
}

// OllamaBaseURL is where Ollama serves its OpenAI-compatible API.
const OllamaBaseURL = "http://localhost:11434/v1"

// NewForModel is New for an agent's `Provider/model-name`: OpenAI (or no
// provider) uses OpenAI or OPENAI_BASE_URL; Ollama defaults to
// OllamaBaseURL. Any other provider needs a base URL (an option or
// OPENAI_BASE_URL) of its OpenAI-compatible API; without one it is a
// *runtime.ConfigurationError naming the provider.
func NewForModel(model string, opts ...Option) (*Client, error) {
	probe := &Client{baseURL: os.Getenv("OPENAI_BASE_URL")}
	for _, o := range opts {
		o(probe)
	}
	provider, _, ok := strings.Cut(model, "/")
	if ok && probe.baseURL == "" {
		switch strings.ToLower(provider) {
		case "openai":
		case "ollama":
			opts = append([]Option{WithBaseURL(OllamaBaseURL)}, opts...)
		default:
			return nil, &runtime.ConfigurationError{Setting: "base URL",
				Message: fmt.Sprintf("model %q: provider %s has no built-in endpoint: give the base URL of its OpenAI-compatible API (and its key in OPENAI_API_KEY)", model, provider)}
		}
	}
	return New(opts...)
}
