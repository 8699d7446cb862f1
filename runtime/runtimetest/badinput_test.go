package runtimetest_test

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	gramrt "github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// Bad input from a provider's stream: a clear error (or, for duplicate
// call IDs, tool results the model can use), bounded memory, never a hang
// or a panic.

// badStreams are, per provider, a stream cut in the middle of an event and
// one whose text holds invalid UTF-8.
var badStreams = map[string]struct{ cut, invalidUTF8 string }{
	runtimetest.OpenAI: {
		cut:         "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choi",
		invalidUTF8: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\xffb\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
	},
	runtimetest.OpenAIResponses: {
		cut: "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"Hel\"}\n\ndata: {\"ty",
		invalidUTF8: "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"a\xffb\"}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"object\":\"response\",\"status\":\"completed\",\"output\":[]}}\n\n",
	},
	runtimetest.Anthropic: {
		cut: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"conte",
		invalidUTF8: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\xffb\"}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	},
	runtimetest.Gemini: {
		cut:         "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hel\"}]}}]}\n\ndata: {\"cand",
		invalidUTF8: "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"a\xffb\"}]},\"finishReason\":\"STOP\"}]}\n\n",
	},
}

// streamed runs the hello agent streamed against a fake that answers the
// first request with reply.
func streamed(t *testing.T, provider string, reply runtimetest.Reply, cfg clientConfig) (*gramrt.Response, error) {
	h := &harness{t: t, provider: provider, stream: true}
	srv := h.server(runtimetest.Replies(reply))
	c, _ := h.client(srv, cfg)
	return h.run(context.Background(), c, library(), "hi", nil, srv)
}

func eachProvider(t *testing.T, f func(t *testing.T, provider string)) {
	for _, p := range runtimetest.Providers() {
		t.Run(p, func(t *testing.T) { f(t, p) })
	}
}

func TestStreamCutMidEvent(t *testing.T) {
	eachProvider(t, func(t *testing.T, p string) {
		_, err := streamed(t, p, runtimetest.Reply{SSE: badStreams[p].cut}, clientConfig{})
		var ae *gramrt.APIError
		if !errors.As(err, &ae) || !strings.Contains(ae.Message, "the stream was cut off in the middle of an event") || ae.Retryable {
			t.Errorf("err = %v", err)
		}
	})
}

func TestStreamInvalidUTF8(t *testing.T) {
	eachProvider(t, func(t *testing.T, p string) {
		resp, err := streamed(t, p, runtimetest.Reply{SSE: badStreams[p].invalidUTF8}, clientConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Content != "a\uFFFDb" {
			t.Errorf("content %q, want the invalid byte replaced", resp.Content)
		}
	})
}

// endless writes comments (keep-alives) until the client goes away.
func endless(every time.Duration) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := []byte(strings.Repeat(": keep-alive\n\n", 1024))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if every > 0 {
				time.Sleep(every)
			}
		}
	}
}

func TestEndlessStream(t *testing.T) {
	eachProvider(t, func(t *testing.T, p string) {
		// As fast as it goes: the stream limit ends it.
		_, err := streamed(t, p, runtimetest.Reply{Write: endless(0)}, clientConfig{})
		var ae *gramrt.APIError
		if !errors.As(err, &ae) || !strings.Contains(ae.Message, "the stream is too large") || !strings.Contains(ae.Message, "stream limit") {
			t.Errorf("fast: err = %v", err)
		}
		// Slowly, never silent for the request timeout: the stream
		// timeout ends it, and says so.
		_, err = streamed(t, p, runtimetest.Reply{Write: endless(5 * time.Millisecond)}, clientConfig{timeout: 200 * time.Millisecond, streamTimeout: 300 * time.Millisecond, maxRetries: -1})
		if !errors.As(err, &ae) || !strings.Contains(ae.Message, "past its time limit of 300ms (the stream timeout)") {
			t.Errorf("slow: err = %v", err)
		}
	})
}

func TestHundredMegabyteEvent(t *testing.T) {
	eachProvider(t, func(t *testing.T, p string) {
		big := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: {\"x\":\""))
			chunk := []byte(strings.Repeat("x", 1<<20))
			for i := 0; i < 100 && r.Context().Err() == nil; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			w.Write([]byte("\"}\n\n"))
		}
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := streamed(t, p, runtimetest.Reply{Write: big}, clientConfig{})
		var ae *gramrt.APIError
		if !errors.As(err, &ae) || !strings.Contains(ae.Message, "line limit") {
			t.Errorf("err = %v", err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("allocated %d MB reading a 100 MB event", grew>>20)
		}
	})
}

// TestDuplicateToolCallIDs: two calls of one answer with the same ID both
// run, and their results go back under distinct IDs (each fake refuses a
// repeated ID).
func TestDuplicateToolCallIDs(t *testing.T) {
	forEach(t, func(h *harness) {
		t := h.t
		srv := h.server(runtimetest.Replies(
			runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{
				{ID: "call_dup", Name: "sayHello", Arguments: `{"personName":"Ann"}`},
				{ID: "call_dup", Name: "sayGoodbye", Arguments: `{"personName":"Bob"}`}}},
			runtimetest.TextReply("done"),
		))
		c, _ := h.client(srv, clientConfig{})
		resp, err := h.run(context.Background(), c, library(), "hi", nil, srv)
		if err != nil {
			t.Fatal(err)
		}
		inv := resp.Invocations
		if len(inv) != 2 || inv[0].Result != "Hello, Ann!" || inv[1].Result != "Goodbye, Bob!" || inv[0].CallID == inv[1].CallID {
			t.Errorf("invocations %+v", inv)
		}
	})
}

// TestStreamRequestAnsweredWhole: a server that ignores stream: true and
// answers with the whole JSON response is read as that answer, reported
// as events all the same.
func TestStreamRequestAnsweredWhole(t *testing.T) {
	eachProvider(t, func(t *testing.T, p string) {
		var text strings.Builder
		h := &harness{t: t, provider: p, stream: true}
		srv := h.server(runtimetest.Replies(runtimetest.Reply{Body: string(recordRoundTrip(t, p, false).answer)}))
		c, _ := h.client(srv, clientConfig{})
		resp, err := gramrt.Run(context.Background(), c, helloAgent, library(), "hi", nil, gramrt.WithEvents(func(ev gramrt.Event) {
			if ev.Kind == gramrt.EventText {
				text.WriteString(ev.Text)
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Content != "Hello, Alice!" || text.String() != "Hello, Alice!" {
			t.Errorf("content %q, text events %q", resp.Content, text.String())
		}
	})
}
