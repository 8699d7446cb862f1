package runtimetest_test

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// toolResultMarker is, per provider, what a request holds once it
// carries a tool's result.
var toolResultMarker = map[string]string{
	runtimetest.OpenAI:          `"role":"tool"`,
	runtimetest.OpenAIResponses: `function_call_output`,
	runtimetest.Anthropic:       `"tool_result"`,
	runtimetest.Gemini:          `"functionResponse"`,
}

// roundTrip is the wire of the hello agent's tool round trip: the body
// answering with the tool call, and the body of the text answer that
// follows the tool's result.
type roundTrip struct{ call, answer []byte }

// recordRoundTrip runs the hello agent's tool round trip on provider p,
// streamed or not, against the repository's fake of p (which checks each
// request against p's rules) and returns the fake's two answers.
func recordRoundTrip(tb testing.TB, p string, stream bool) roundTrip {
	tb.Helper()
	fake := runtimetest.NewProviderServer(tb, p, runtimetest.Replies(
		runtimetest.ToolCallsReply(runtimetest.FakeCall{Name: "sayHello", Arguments: `{"personName":"Alice"}`}),
		runtimetest.TextReply("Hello, Alice!"),
	))
	var (
		mu     sync.Mutex // the handler's goroutines append, the caller reads
		bodies [][]byte
	)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		fake.Fake.ServeHTTP(rec, r)
		mu.Lock()
		bodies = append(bodies, rec.Body.Bytes())
		mu.Unlock()
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer hs.Close()
	model, bound := boundHello(tb, p, hs.URL+runtimetest.BasePath(p))
	var opts []runtime.Option
	if stream {
		opts = append(opts, runtime.WithEvents(func(runtime.Event) {}))
	}
	resp, err := bound.Run(context.Background(), model, "Hello, I am Alice", nil, opts...)
	mu.Lock()
	defer mu.Unlock()
	if err != nil || resp.Content != "Hello, Alice!" || len(bodies) != 2 {
		tb.Fatalf("recording the round trip on %s: %v, %d answers", p, err, len(bodies))
	}
	return roundTrip{call: bodies[0], answer: bodies[1]}
}

// BenchmarkStreamedRoundTrip measures one tool round trip, per provider,
// streamed and not, through the runtime and the provider's client against
// a loopback server answering with the bytes the repository's fake of the
// provider sent for the same round trip: request, tool call
// (arguments parsed, validated, defaulted, run), result request, answer.
// The figure is the runtime's and the client's overhead plus loopback
// HTTP (compare BenchmarkRoundTrip in package runtime).
func BenchmarkStreamedRoundTrip(b *testing.B) {
	for _, p := range runtimetest.Providers() {
		for _, stream := range []bool{false, true} {
			name := p
			if stream {
				name += "/stream"
			}
			b.Run(name, func(b *testing.B) {
				wire := recordRoundTrip(b, p, stream)
				marker := []byte(toolResultMarker[p])
				hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					if stream {
						w.Header().Set("Content-Type", "text/event-stream")
					} else {
						w.Header().Set("Content-Type", "application/json")
					}
					if bytes.Contains(body, marker) {
						w.Write(wire.answer)
					} else {
						w.Write(wire.call)
					}
				}))
				defer hs.Close()
				model, bound := boundHello(b, p, hs.URL+runtimetest.BasePath(p))
				var opts []runtime.Option
				text := 0
				if stream {
					opts = append(opts, runtime.WithEvents(func(ev runtime.Event) {
						if ev.Kind == runtime.EventText {
							text += len(ev.Text)
						}
					}))
				}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					resp, err := bound.Run(ctx, model, "Hello, I am Alice", nil, opts...)
					if err != nil || resp.Content != "Hello, Alice!" || len(resp.Invocations) != 1 || resp.Invocations[0].Err != nil {
						b.Fatalf("%v %+v", err, resp)
					}
				}
				if stream && text == 0 {
					b.Fatal("no text events")
				}
			})
		}
	}
}
