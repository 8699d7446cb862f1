package runtimetest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// canned are, per provider, the wire answers of one tool round trip: a
// tool call, then (once the request holds the marker of a tool result)
// the text answer, streamed and whole. A provider's two streams are
// parallel: one event sequence of its protocol, for a tool_use block and
// for a text block.
var canned = map[string]struct {
	marker                              string
	call, answer, callStream, answerSSE string
}{
	runtimetest.OpenAI: {
		marker: `"role":"tool"`,
		call:   `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"sayHello","arguments":"{\"personName\":\"Alice\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}`,
		answer: `{"id":"c2","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hello, Alice!"},"finish_reason":"stop"}],"usage":{"prompt_tokens":70,"completion_tokens":5,"total_tokens":75}}`,
		callStream: `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"sayHello","arguments":""}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"personName\""}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\"Alice\"}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}

data: [DONE]

`,
		answerSSE: `data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello, "},"finish_reason":null}]}

data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Alice!"},"finish_reason":"stop"}]}

data: [DONE]

`,
	},
	runtimetest.OpenAIResponses: {
		marker: `function_call_output`,
		call:   `{"id":"r1","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"sayHello","arguments":"{\"personName\":\"Alice\"}","status":"completed"}],"usage":{"input_tokens":50,"output_tokens":10,"total_tokens":60}}`,
		answer: `{"id":"r2","object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Hello, Alice!","annotations":[]}]}],"usage":{"input_tokens":70,"output_tokens":5,"total_tokens":75}}`,
		callStream: `event: response.output_item.added
data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"sayHello","arguments":""}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":"{\"personName\":\"Alice\"}"}

event: response.completed
data: {"type":"response.completed","response":{"id":"r1","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"sayHello","arguments":"{\"personName\":\"Alice\"}","status":"completed"}],"usage":{"input_tokens":50,"output_tokens":10,"total_tokens":60}}}

`,
		answerSSE: `event: response.output_text.delta
data: {"type":"response.output_text.delta","output_index":0,"item_id":"m1","content_index":0,"delta":"Hello, Alice!"}

event: response.completed
data: {"type":"response.completed","response":{"id":"r2","object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Hello, Alice!","annotations":[]}]}],"usage":{"input_tokens":70,"output_tokens":5,"total_tokens":75}}}

`,
	},
	runtimetest.Anthropic: {
		marker: `"tool_result"`,
		call:   `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"sayHello","input":{"personName":"Alice"}}],"stop_reason":"tool_use","usage":{"input_tokens":50,"output_tokens":10}}`,
		answer: `{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hello, Alice!"}],"stop_reason":"end_turn","usage":{"input_tokens":70,"output_tokens":5}}`,
		callStream: `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":50,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"sayHello","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"personName\""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":":\"Alice\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":10}}

event: message_stop
data: {"type":"message_stop"}

`,
		answerSSE: `event: message_start
data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":70,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello, Alice!"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}

event: message_stop
data: {"type":"message_stop"}

`,
	},
	runtimetest.Gemini: {
		marker: `"functionResponse"`,
		call:   `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"sayHello","args":{"personName":"Alice"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60}}`,
		answer: `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello, Alice!"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":70,"candidatesTokenCount":5,"totalTokenCount":75}}`,
		callStream: `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"sayHello","args":{"personName":"Alice"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60}}

`,
		answerSSE: `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello, "}]},"index":0}]}

data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Alice!"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":70,"candidatesTokenCount":5,"totalTokenCount":75}}

`,
	},
}

// BenchmarkStreamedRoundTrip measures one tool round trip, per provider,
// streamed and not, through the runtime and the provider's client against
// a loopback server answering from canned bytes: request, tool call
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
				c := canned[p]
				marker := []byte(c.marker)
				hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					answered := bytes.Contains(body, marker)
					if stream {
						w.Header().Set("Content-Type", "text/event-stream")
						if answered {
							io.WriteString(w, c.answerSSE)
						} else {
							io.WriteString(w, c.callStream)
						}
						return
					}
					w.Header().Set("Content-Type", "application/json")
					if answered {
						io.WriteString(w, c.answer)
					} else {
						io.WriteString(w, c.call)
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
