package gemini

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestNewConfiguration is parallel to anthropic's and openai's: the client
// configured from its row's variables, checked through its internals.
func TestNewConfiguration(t *testing.T) {
	t.Setenv("GOOGLE_API_KEY", "")
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("GEMINI_BASE_URL", "")
	var ce *runtime.ConfigurationError
	if _, err := New(); !errors.As(err, &ce) || ce.Setting != "GEMINI_API_KEY" {
		t.Errorf("no key: %v", err)
	}
	t.Setenv("GEMINI_API_KEY", "gm-key")
	c, err := New()
	if err != nil || c.api.HTTP.APIKey != "gm-key" {
		t.Fatalf("GEMINI_API_KEY: %v", err)
	}
	// As Google's SDKs: GOOGLE_API_KEY wins when both are set.
	t.Setenv("GOOGLE_API_KEY", "google-key")
	c, _ = New()
	if c.api.HTTP.APIKey != "google-key" || c.api.HTTP.KeyEnv != "GOOGLE_API_KEY" {
		t.Errorf("key %q from %s", c.api.HTTP.APIKey, c.api.HTTP.KeyEnv)
	}
	if got := c.endpoint("models/gemini-2.5-flash", true); got != info.BaseURL+"/models/gemini-2.5-flash:streamGenerateContent?alt=sse" {
		t.Errorf("endpoint %q", got)
	}
	// GEMINI_BASE_URL, as OPENAI_BASE_URL and ANTHROPIC_BASE_URL; the
	// option wins; a URL without a scheme names the variable.
	t.Setenv("GEMINI_BASE_URL", "http://proxy.test/v1beta/")
	c, err = New()
	if err != nil || c.endpoint("models/m", false) != "http://proxy.test/v1beta/models/m:generateContent" {
		t.Errorf("from GEMINI_BASE_URL: %v, %q", err, c.endpoint("models/m", false))
	}
	if c, _ = New(clientopt.WithBaseURL("http://other.test")); c.BaseURL() != "http://other.test" {
		t.Errorf("WithBaseURL under GEMINI_BASE_URL: %q", c.BaseURL())
	}
	t.Setenv("GEMINI_BASE_URL", "proxy.test")
	if _, err := New(); !errors.As(err, &ce) || ce.Setting != "GEMINI_BASE_URL" {
		t.Errorf("a base URL without a scheme: %v", err)
	}
}

// TestEncodeResults: results go back one functionResponse per call, in
// call order, each response an object; signatures are echoed; a call
// without a result gets an error response; the id Gemini gave a call goes
// back with the call and its response, an ID gramc generated does not.
func TestEncodeResults(t *testing.T) {
	c, _ := New(clientopt.WithAPIKey("k"))
	body, err := c.EncodeRequest(&runtime.Request{Model: "Gemini/g", Messages: []runtime.Message{
		{Role: runtime.RoleUser, Content: "hi"},
		{Role: runtime.RoleAssistant, Content: "Looking.", ThoughtSignature: "c2lnMA==", ToolCalls: []runtime.ToolCall{
			{ID: "a", Name: "f", Arguments: `{"x":1}`, ThoughtSignature: "c2lnMQ=="},
			{ID: "call_1_0", Name: "g", Arguments: ``, Generated: true},
			{ID: "c", Name: "h", Arguments: `{}`}}},
		{Role: runtime.RoleTool, ToolCallID: "call_1_0", Name: "g", Content: "plain text"},
		{Role: runtime.RoleTool, ToolCallID: "a", Name: "f", Content: `{"t":21.5}`},
	}, ToolChoice: "f", Tools: []runtime.ToolSpecification{{Name: "f", Description: "d", Schema: []byte(`{"type":"object","properties":{}}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` +
		`{"role":"model","parts":[{"text":"Looking.","thoughtSignature":"c2lnMA=="},{"functionCall":{"id":"a","name":"f","args":{"x":1}},"thoughtSignature":"c2lnMQ=="},{"functionCall":{"name":"g","args":{}}},{"functionCall":{"id":"c","name":"h","args":{}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"a","name":"f","response":{"output":{"t":21.5}}}},{"functionResponse":{"name":"g","response":{"output":"plain text"}}},` +
		`{"functionResponse":{"id":"c","name":"h","response":{"error":"error: no result was recorded for this call of h"}}}]}],` +
		`"tools":[{"functionDeclarations":[{"name":"f","description":"d"}]}],"toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["f"]}}}`
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
}

func TestAnswers(t *testing.T) {
	tests := []struct{ name, stream, want string }{
		{"calls with STOP", `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f"},"thoughtSignature":"czE="}]},"finishReason":"STOP"}]}` + "\n\n", `calls [{ f {} czE=}] stop tool_calls`},
		{"thought summary skipped", `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"Hi"}]},"finishReason":"STOP"}]}` + "\n\n", `text "Hi" stop end`},
		{"max tokens", `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"MAX_TOKENS"}]}` + "\n\n", `text "Hi" stop max_tokens`},
		{"blocked prompt", `data: {"promptFeedback":{"blockReason":"SAFETY"}}` + "\n\n", `error gemini: HTTP 200: the prompt was blocked: SAFETY`},
		{"malformed call", `data: {"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}` + "\n\n", `error gemini: HTTP 200: the model produced a malformed function call (finishReason MALFORMED_FUNCTION_CALL)`},
		{"no finish reason", `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}` + "\n\n", `error gemini: HTTP 200: the stream ended before the response was complete (no finishReason)`},
		{"error mid-stream", `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}` + "\n\n" + `data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}` + "\n\n", `error gemini: error in the stream: The model is overloaded.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := runtimetest.NewProviderServer(t, runtimetest.Gemini, runtimetest.Replies(runtimetest.Reply{SSE: tt.stream}))
			c, _ := New(clientopt.WithAPIKey("k"), clientopt.WithBaseURL(srv.URL))
			comp, err := c.Stream(context.Background(), &runtime.Request{Model: "g", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}}, nil)
			var got string
			switch {
			case err != nil:
				got = "error " + err.Error()
			case len(comp.Message.ToolCalls) > 0:
				got = "calls " + strings.TrimSpace(fmtCalls(comp.Message.ToolCalls)) + " stop " + string(comp.StopReason)
			default:
				got = `text "` + comp.Message.Content + `" stop ` + string(comp.StopReason)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func fmtCalls(calls []runtime.ToolCall) string {
	var b strings.Builder
	b.WriteString("[")
	for i, c := range calls {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("{" + c.ID + " " + c.Name + " " + c.Arguments + " " + c.ThoughtSignature + "}")
	}
	b.WriteString("]")
	return b.String()
}
