package runtime_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// Canned wire responses: a tool call, then the text answer.
const (
	benchToolCall = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"sayHello","arguments":"{\"personName\":\"Alice\"}"}}]},"finish_reason":"tool_calls","logprobs":null}],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}`
	benchAnswer   = `{"id":"chatcmpl-2","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Hello, Alice!","refusal":null},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":70,"completion_tokens":5,"total_tokens":75}}`
)

// BenchmarkRoundTrip measures one tool round trip through the runtime and
// the OpenAI client against a loopback server: request, tool call
// (argument parsing, validation, defaults, execution), result request,
// answer. The server answers from canned bytes so the figure is the
// runtime's overhead plus loopback HTTP.
func BenchmarkRoundTrip(b *testing.B) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(body), `"role":"tool"`) {
			io.WriteString(w, benchAnswer)
		} else {
			io.WriteString(w, benchToolCall)
		}
	}))
	defer hs.Close()
	c, err := openai.New(clientopt.WithBaseURL(hs.URL+"/v1"), clientopt.WithAPIKey("sk-bench"))
	if err != nil {
		b.Fatal(err)
	}
	bound, err := runtime.Bind(helloAgent, helloLib())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := bound.Run(ctx, c, "Hello, I am Alice", nil)
		if err != nil || resp.Content != "Hello, Alice!" {
			b.Fatalf("%v %+v", err, resp)
		}
	}
}

// BenchmarkRunScripted is the runtime's own share of a round trip: the same
// exchange with a scripted in-process model (no HTTP, no JSON wire).
func BenchmarkRunScripted(b *testing.B) {
	bound, err := runtime.Bind(helloAgent, helloLib())
	if err != nil {
		b.Fatal(err)
	}
	call := runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Alice"}`))
	answer := runtimetest.Say("Hello, Alice!")
	model := runtime.ModelFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
		if req.Messages[len(req.Messages)-1].Role == runtime.RoleTool {
			return answer(req)
		}
		return call(req)
	})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := bound.Run(ctx, model, "Hello, I am Alice", nil); err != nil {
			b.Fatal(err)
		}
	}
}
