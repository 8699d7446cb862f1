package runtimetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// emptyAnswers are 200 answers that hold no answer: no choice, candidate,
// content or output — whole bodies and streams, per provider.
var emptyAnswers = map[string]struct{ whole, stream []string }{
	runtimetest.OpenAI: {
		whole:  []string{`{}`, `{"choices":[]}`, `{"choices":null}`},
		stream: []string{"data: {}\n\ndata: [DONE]\n\n", "data: {\"choices\":[]}\n\ndata: [DONE]\n\n", "data: [DONE]\n\n"},
	},
	runtimetest.OpenAIResponses: {
		whole:  []string{`{}`, `{"object":"response","status":"completed","output":[]}`},
		stream: []string{"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"object\":\"response\",\"status\":\"completed\",\"output\":[]}}\n\n"},
	},
	runtimetest.Anthropic: {
		whole:  []string{`{}`, `{"type":"message","role":"assistant","content":[],"stop_reason":"end_turn"}`},
		stream: []string{"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":0}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"},
	},
	runtimetest.Gemini: {
		whole:  []string{`{}`, `{"candidates":[]}`, `{"candidates":[{"finishReason":"STOP"}]}`},
		stream: []string{"data: {}\n\n", "data: {\"candidates\":[]}\n\n", "data: {\"candidates\":[{\"finishReason\":\"STOP\"}]}\n\n"},
	},
}

// TestEmptyAnswer (issue 20.8): a 200 answer with nothing in it is one
// clear error on every path, whole and streamed, never a success with
// empty output.
func TestEmptyAnswer(t *testing.T) {
	for p, cases := range emptyAnswers {
		for _, stream := range []bool{false, true} {
			bodies := cases.whole
			if stream {
				bodies = cases.stream
			}
			for _, body := range bodies {
				reply := runtimetest.Reply{Body: body, Header: map[string]string{"Content-Type": "application/json"}}
				if stream {
					reply = runtimetest.Reply{SSE: body}
				}
				srv := runtimetest.NewProviderServer(t, p, runtimetest.Replies(reply))
				model, err := newClient(p, srv.URL, &sleeps{}, clientConfig{maxRetries: -1})
				if err != nil {
					t.Fatal(err)
				}
				var opts []runtime.Option
				if stream {
					opts = append(opts, runtime.WithEvents(func(runtime.Event) {}))
				}
				resp, err := runtime.Run(context.Background(), model, helloAgent, library(), "hi", nil, opts...)
				// A body that is not the provider's answer at all (an
				// Anthropic or Responses {} has no type or object) is
				// malformed; anything else empty is an empty answer.
				want := "empty answer: the model sent no text and no tool calls"
				if body == `{}` && (p == runtimetest.Anthropic || p == runtimetest.OpenAIResponses) {
					want = "malformed response"
				}
				if err == nil || !strings.Contains(err.Error(), want) {
					content := ""
					if resp != nil {
						content = resp.Content
					}
					t.Errorf("%s stream=%v %q: err = %v (content %q), want %q", p, stream, body, err, content, want)
				}
			}
		}
	}
}
