package runtimetest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// manyCalls is a reply asking for n tool calls.
func manyCalls(n int) runtimetest.Reply {
	calls := make([]runtimetest.FakeCall, n)
	for i := range calls {
		calls[i] = runtimetest.FakeCall{ID: fmt.Sprintf("call_%d", i), Name: "sayHello", Arguments: fmt.Sprintf(`{"personName":"p%d"}`, i)}
	}
	return runtimetest.Reply{ToolCalls: calls}
}

// BenchmarkManyToolCalls decodes one answer holding n tool calls, per
// provider, whole and streamed (issue 20.6: 100k calls took 9-29 s, the
// cost quadratic in n). The ns/call metric must stay flat as n grows.
// Run: go test ./runtime/runtimetest -run '^$' -bench ManyToolCalls -benchtime 1x
func BenchmarkManyToolCalls(b *testing.B) {
	for _, p := range runtimetest.Providers() {
		for _, stream := range []bool{false, true} {
			for _, n := range []int{1000, 10000, 40000} {
				name := fmt.Sprintf("%s/stream=%v/calls=%d", p, stream, n)
				b.Run(name, func(b *testing.B) {
					reply := manyCalls(n)
					srv := runtimetest.NewProviderServer(b, p, func(*runtimetest.Turn, int) runtimetest.Reply { return reply })
					model := fakeClient(b, p, srv.URL)
					req := &runtime.Request{Model: "m", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}, Tools: helloAgent.Tools}
					for b.Loop() {
						var comp *runtime.Completion
						var err error
						if sm, ok := model.(runtime.StreamingModel); ok && stream {
							comp, err = sm.Stream(context.Background(), req, func(runtime.Event) {})
						} else {
							comp, err = model.Complete(context.Background(), req)
						}
						if err != nil {
							b.Fatal(err)
						}
						if len(comp.Message.ToolCalls) != n {
							b.Fatalf("%d calls, want %d", len(comp.Message.ToolCalls), n)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/call")
				})
			}
		}
	}
}

// BenchmarkRunManyToolCalls is BenchmarkManyToolCalls through the
// runtime's loop, streamed with events: the answer's n calls (64 run, the
// rest answered "not run"), their results sent back, the final answer.
// ns/call must stay flat as n grows.
// Run: go test ./runtime/runtimetest -run '^$' -bench RunManyToolCalls -benchtime 1x
func BenchmarkRunManyToolCalls(b *testing.B) {
	for _, p := range runtimetest.Providers() {
		for _, n := range []int{1000, 10000, 40000} {
			b.Run(fmt.Sprintf("%s/calls=%d", p, n), func(b *testing.B) {
				reply := manyCalls(n)
				srv := runtimetest.NewProviderServer(b, p, func(t *runtimetest.Turn, _ int) runtimetest.Reply {
					if t.Last().Role == runtime.RoleTool {
						return runtimetest.Reply{Text: "done"}
					}
					return reply
				})
				model, bound := boundHello(b, p, srv.URL)
				events := 0
				for b.Loop() {
					resp, err := bound.Run(context.Background(), model, "hi", nil, runtime.WithEvents(func(runtime.Event) { events++ }))
					if err != nil || resp.Content != "done" || len(resp.Invocations) != n {
						b.Fatalf("%v %d invocations", err, len(resp.Invocations))
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/call")
			})
		}
	}
}

// TestCancelDuringManyCalls (issue 20.6): a run cancelled while a streamed
// answer of many tool calls is being decoded stops decoding it — it does
// not read the rest of the answer first — and returns the context's error.
func TestCancelDuringManyCalls(t *testing.T) {
	const n = 20000
	for _, p := range runtimetest.Providers() {
		t.Run(p, func(t *testing.T) {
			reply := manyCalls(n)
			srv := runtimetest.NewProviderServer(t, p, func(*runtimetest.Turn, int) runtimetest.Reply { return reply })
			model, bound := boundHello(t, p, srv.URL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			starts := 0
			_, err := bound.Run(ctx, model, "hi", nil, runtime.WithEvents(func(ev runtime.Event) {
				if ev.Kind == runtime.EventToolCallStart {
					starts++
					if starts == 10 {
						cancel()
					}
				}
			}))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if starts >= n {
				t.Errorf("the whole answer (%d calls) was decoded after the cancellation", starts)
			}
		})
	}
}
