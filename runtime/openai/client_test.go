package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestNewConfiguration is parallel to anthropic's and gemini's: the client
// configured from its row's variables (and a local server's needing no
// key).
func TestNewConfiguration(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	_, err := openai.New()
	var ce *runtime.ConfigurationError
	if !errors.As(err, &ce) || ce.Setting != "OPENAI_API_KEY" || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "export OPENAI_API_KEY=") {
		t.Errorf("missing key: %v", err)
	}
	// A compatible server needs no key.
	if _, err := openai.New(clientopt.WithBaseURL("http://localhost:11434/v1")); err != nil {
		t.Errorf("local server without a key: %v", err)
	}
	if _, err := openai.New(clientopt.WithBaseURL("localhost:11434")); !errors.As(err, &ce) || ce.Setting != "OPENAI_BASE_URL" {
		t.Errorf("base URL without a scheme: %v", err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-env")
	t.Setenv("OPENAI_BASE_URL", "http://example.test/v1")
	c, err := openai.New()
	if err != nil || c.BaseURL() != "http://example.test/v1" {
		t.Errorf("from the environment: %+v, %v", c, err)
	}
}

const secret = "sk-test-secret-123"

func TestAPIKeyNeverLeaks(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies())
	srv.APIKey = "sk-the-right-one"
	var debug bytes.Buffer
	c, _ := client(t, srv, clientopt.WithDebugWriter(&debug))
	_, err := run(t, c, "hi", nil)
	var ae *runtime.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 || ae.Retryable {
		t.Fatalf("err = %v", err)
	}
	// The fake, like OpenAI, quotes the key it got in its message.
	if !strings.Contains(err.Error(), "Incorrect API key provided") || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("401 error lacks the provider's message or the hint: %v", err)
	}
	for what, s := range map[string]string{"error": err.Error(), "provider message": ae.Message, "debug": debug.String()} {
		if strings.Contains(s, secret) {
			t.Errorf("the API key appears in the %s: %s", what, s)
		}
	}
	if !strings.Contains(debug.String(), "[REDACTED]") || !strings.Contains(debug.String(), `"model":"gpt-4o-mini"`) ||
		!strings.Contains(debug.String(), "401") {
		t.Errorf("debug dump lacks the redacted request and response:\n%s", debug.String())
	}
}

func TestClearErrors(t *testing.T) {
	tests := []struct {
		status    int
		msg       string
		want      string
		retryable bool
	}{
		{404, "The model `gpt-9` does not exist or you do not have access to it.", "not found (check the model name and the base URL): The model `gpt-9` does not exist", false},
		{400, "Invalid schema for function 'sayHello'.", "bad request: Invalid schema for function 'sayHello'.", false},
		{408, "timeout", "HTTP 408", true},
		{409, "conflict", "HTTP 409", true},
		{503, "overloaded", "HTTP 503", true},
	}
	for _, tt := range tests {
		srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, func(*runtimetest.Turn, int) runtimetest.Reply {
			return runtimetest.ErrorReply(tt.status, tt.msg)
		})
		c, _ := client(t, srv, clientopt.WithMaxRetries(1))
		_, err := run(t, c, "hi", nil)
		var ae *runtime.APIError
		if !errors.As(err, &ae) || ae.StatusCode != tt.status || ae.Retryable != tt.retryable || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("status %d: err = %v (retryable %v)", tt.status, err, ae != nil && ae.Retryable)
		}
		wantReqs := 1
		if tt.retryable {
			wantReqs = 2
		}
		if n := len(srv.Chats()); n != wantReqs {
			t.Errorf("status %d: %d requests, want %d", tt.status, n, wantReqs)
		}
	}
}

func TestNonJSONErrorBody(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html>bad gateway</html>"))
	}))
	defer hs.Close()
	c, err := openai.New(clientopt.WithBaseURL(hs.URL), clientopt.WithMaxRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), &runtime.Request{Model: "m", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}})
	if err == nil || !strings.Contains(err.Error(), "HTTP 502: Bad Gateway: <html>bad gateway</html>") {
		t.Errorf("err = %v", err)
	}
}

func TestConnectionErrorRetried(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	url := hs.URL
	hs.Close() // nothing listens there now
	s := &sleeps{}
	c, err := openai.New(clientopt.WithBaseURL(url), clientopt.WithAPIKey(secret), clientopt.WithSleep(s.Sleep), clientopt.WithMaxRetries(2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), &runtime.Request{Model: "m", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}})
	var ae *runtime.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 0 || !ae.Retryable || ae.Attempts != 3 || len(s.Waits()) != 2 {
		t.Errorf("err = %v (%d sleeps)", err, len(s.Waits()))
	}
	if strings.Contains(err.Error(), secret) {
		t.Error("key in a connection error")
	}
}

func TestRequestTimeout(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(runtimetest.Reply{Hang: true}, runtimetest.TextReply("second try")))
	c, s := client(t, srv, clientopt.WithTimeout(30*time.Millisecond))
	resp, err := run(t, c, "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "second try" || len(s.Waits()) != 1 {
		t.Errorf("content %q after %d retries", resp.Content, len(s.Waits()))
	}
}

func TestRetryAfterForms(t *testing.T) {
	for _, h := range []map[string]string{
		{"Retry-After": "0.25"},
		{"Retry-After-Ms": "250"},
		{"Retry-After": time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)},
		{"Retry-After": "86400"}, // capped
	} {
		srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, func(_ *runtimetest.Turn, n int) runtimetest.Reply {
			if n == 1 {
				r := runtimetest.ErrorReply(429, "slow down")
				r.Header = h
				return r
			}
			return runtimetest.TextReply("ok")
		})
		c, s := client(t, srv)
		if _, err := run(t, c, "hi", nil); err != nil {
			t.Fatal(err)
		}
		if len(s.Waits()) != 1 {
			t.Fatalf("%v: %d sleeps", h, len(s.Waits()))
		}
		d := s.Waits()[0]
		switch {
		case h["Retry-After"] == "86400":
			if d != 60*time.Second {
				t.Errorf("%v: slept %v, want the 60s cap", h, d)
			}
		case strings.Contains(h["Retry-After"], "GMT"):
			if d <= 0 || d > 3*time.Second {
				t.Errorf("%v: slept %v", h, d)
			}
		default:
			if d != 250*time.Millisecond {
				t.Errorf("%v: slept %v, want 250ms", h, d)
			}
		}
	}
}

func TestSleepHonoursContext(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, func(*runtimetest.Turn, int) runtimetest.Reply {
		r := runtimetest.ErrorReply(429, "slow down")
		r.Header = map[string]string{"Retry-After": "30"}
		return r
	})
	c, err := openai.New(clientopt.WithBaseURL(srv.URL), clientopt.WithAPIKey(secret)) // the real sleep
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = runtime.Run(ctx, c, helloAgent, runtimetest.HelloGoodbyeLibrary(), "hi", nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}

func TestToolEntry(t *testing.T) {
	spec := runtime.ToolSpecification{Name: "f", Description: "a <b> & \"c\"\n\u2028",
		Schema: json.RawMessage("{ \"type\": \"object\",\n \"properties\": {} }"), Strict: true}
	got, err := openai.ToolEntry(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"function","function":{"name":"f","description":"a <b> & \"c\"\n\u2028","parameters":{"type":"object","properties":{}},"strict":true}}`
	if string(got) != want {
		t.Errorf("ToolEntry =\n%s\nwant\n%s", got, want)
	}
	fe, _ := openai.FunctionEntry(spec)
	if want := `{"name":"f","description":"a <b> & \"c\"\n\u2028","parameters":{"type":"object","properties":{}}}`; string(fe) != want {
		t.Errorf("FunctionEntry = %s", fe)
	}
	if _, err := openai.ToolEntry(runtime.ToolSpecification{Name: "x", Schema: json.RawMessage(`[`)}); err == nil {
		t.Error("invalid schema accepted")
	}
	// The request body keeps the entries byte for byte.
	c := newClient(t)
	body, err := c.EncodeRequest(&runtime.Request{Model: "OpenAI/gpt-4o", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}, Tools: []runtime.ToolSpecification{spec}, ToolChoice: "f"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(body, []byte(want)) {
		t.Errorf("request body does not contain the entry:\n%s", body)
	}
	if !bytes.Contains(body, []byte(`"tool_choice":{"type":"function","function":{"name":"f"}}`)) || !bytes.Contains(body, []byte(`"model":"gpt-4o"`)) {
		t.Errorf("request body: %s", body)
	}
	if err := runtimetest.ValidateRequest(body); err != nil {
		t.Errorf("request body is not a valid CreateChatCompletionRequest: %v", err)
	}
}

func TestModelOverride(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(runtimetest.TextReply("hi")))
	c, _ := client(t, srv, clientopt.WithModel("llama3.1:8b"))
	if _, err := run(t, c, "hi", nil); err != nil {
		t.Fatal(err)
	}
	if m := srv.Chats()[0].Model; m != "llama3.1:8b" {
		t.Errorf("model = %q", m)
	}
}

// TestLegacyFunctions: with --functions, a stored turn of several calls
// goes as call, result, call, result, and results follow their own calls
// even when a stored conversation repeats an ID (issue 12.6).
func TestLegacyFunctions(t *testing.T) {
	tests := []struct {
		name     string
		messages []runtime.Message
		want     string
		validate bool // against OpenAI's published request schema
	}{
		{"several calls interleave", []runtime.Message{
			{Role: runtime.RoleUser, Content: "hi"},
			{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "a", Name: "f", Arguments: "{}"}, {ID: "b", Name: "g", Arguments: "{}"}}},
			{Role: runtime.RoleTool, ToolCallID: "a", Name: "f", Content: "ra"},
			{Role: runtime.RoleTool, ToolCallID: "b", Name: "g", Content: "rb"},
		}, `"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}},{"role":"function","content":"ra","name":"f"},{"role":"assistant","content":null,"function_call":{"name":"g","arguments":"{}"}},{"role":"function","content":"rb","name":"g"}]`, true},
		{"pairs by position", []runtime.Message{
			{Role: runtime.RoleUser, Content: "hi"},
			{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "x", Name: "f", Arguments: "{}"}, {ID: "x", Name: "g", Arguments: "{}"}}},
			{Role: runtime.RoleTool, ToolCallID: "x", Name: "f", Content: "rf"},
			{Role: runtime.RoleTool, ToolCallID: "x", Name: "g", Content: "rg"},
			{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "x", Name: "h", Arguments: "{}"}}},
			{Role: runtime.RoleTool, ToolCallID: "x", Name: "h", Content: "rh"},
		}, `{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}},{"role":"function","content":"rf","name":"f"},{"role":"assistant","content":null,"function_call":{"name":"g","arguments":"{}"}},{"role":"function","content":"rg","name":"g"},{"role":"assistant","content":null,"function_call":{"name":"h","arguments":"{}"}},{"role":"function","content":"rh","name":"h"}]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, openai.WithMode(openai.FunctionsMode))
			body, err := c.EncodeRequest(&runtime.Request{Model: "m", Messages: tt.messages})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), tt.want) {
				t.Errorf("body %s\nwant %s", body, tt.want)
			}
			if !tt.validate {
				return
			}
			if err := runtimetest.ValidateRequest(body); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestNewFor: a row of the provider table whose client is OpenAI's gives
// the client its address, key variables and key header.
func TestNewFor(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ollama, _ := provider.Lookup("Ollama")
	c, err := openai.NewFor(ollama)
	if err != nil || c.BaseURL() != ollama.BaseURL {
		t.Errorf("Ollama: %+v, %v", c, err)
	}
	var ce *runtime.ConfigurationError
	if _, err := openai.New(); !errors.As(err, &ce) || ce.Setting != "OPENAI_API_KEY" {
		t.Errorf("OpenAI without a key: %v", err)
	}
	row := provider.Info{Name: "Acme", KeyEnv: []string{"ACME_KEY"}, KeyHeader: "X-Acme-Key", Client: provider.OpenAI}
	if _, err := openai.NewFor(row); !errors.As(err, &ce) || !strings.Contains(err.Error(), "provider Acme has no built-in endpoint") {
		t.Errorf("a row without an address: %v", err)
	}
}

func TestErrorBodyWithStatus200(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(runtimetest.Reply{Body: `{"error":{"message":"model is loading","type":"server_error"}}`}))
	c, _ := client(t, srv)
	_, err := run(t, c, "hi", nil)
	var ae *runtime.APIError
	if !errors.As(err, &ae) || ae.Message != "model is loading" {
		t.Errorf("err = %v", err)
	}
	srv = runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(runtimetest.Reply{Body: `{"id":"x","choices":[]}`}))
	c, _ = client(t, srv)
	if _, err := run(t, c, "hi", nil); err == nil || !strings.Contains(err.Error(), "empty answer: the model sent no text and no tool calls") {
		t.Errorf("err = %v", err)
	}
}

// newClient is a client for encoding tests (it sends nothing).
func newClient(t *testing.T, opts ...openai.Option) *openai.Client {
	t.Helper()
	c, err := openai.New(append([]openai.Option{clientopt.WithBaseURL("http://example.test/v1"), clientopt.WithAPIKey("k")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
