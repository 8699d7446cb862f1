package runtimetest_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestRecorderAsRun (issue 49.8): a run driven by hand through a Loop
// and a runtime.Recorder, piece by piece as package durable drives one
// (the agent's span, then a chat span per model request and an
// execute_tool span per call), records the spans runtime.Run records:
// the same names, kinds, parents and attributes (IDs aside), a rejected
// call's error status and event included.
func TestRecorderAsRun(t *testing.T) {
	replies := func() runtimetest.Policy {
		return runtimetest.Replies(
			runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{call("sayHello", `{"personName":"Ada"}`), call("sayHello", `{"personName":7}`)}},
			runtimetest.Reply{Text: "Hello, Ada!"})
	}
	record := func(drive func(model runtime.Model, opts []runtime.Option)) []string {
		srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, replies())
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		drive(fakeClient(t, runtimetest.OpenAI, srv.URL), []runtime.Option{runtime.WithTracerProvider(tp), runtime.WithContentCapture(true)})
		return spanShapes(exp.GetSpans())
	}
	want := record(func(model runtime.Model, opts []runtime.Option) {
		if _, err := runtime.Run(context.Background(), model, helloAgent, library(), "Hi, I am Ada", nil, opts...); err != nil {
			t.Fatal(err)
		}
	})
	got := record(func(model runtime.Model, opts []runtime.Option) {
		b, err := runtime.Bind(helloAgent, library())
		if err != nil {
			t.Fatal(err)
		}
		rec := runtime.NewRecorder(helloAgent, opts...)
		l, err := runtime.NewLoop(helloAgent, "Hi, I am Ada", nil, runtime.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, end := rec.StartAgent(context.Background(), helloAgent)
		for {
			req, err := l.Next()
			if err != nil {
				t.Fatal(err)
			}
			cctx, done := rec.StartChat(ctx, req)
			comp, err := model.Complete(cctx, req)
			done(comp, err)
			if err != nil {
				t.Fatal(err)
			}
			turn, err := l.Receive(comp)
			if err != nil {
				t.Fatal(err)
			}
			if turn.Done {
				break
			}
			var invs []runtime.Invocation
			for _, call := range turn.Run {
				tctx, done := rec.StartTool(ctx, b, call)
				inv := runtime.Invocation{CallID: call.ID, Tool: call.Name}
				if args, tce := b.Validate(call); tce != nil {
					inv.Err = tce
				} else if res, tce := b.Invoke(tctx, call.Name, args, time.Minute); tce != nil {
					inv.Err = tce
				} else {
					inv.Args, inv.Result = args, res
				}
				done(inv)
				invs = append(invs, inv)
			}
			if err := l.Record(invs); err != nil {
				t.Fatal(err)
			}
		}
		end(l.Response(), nil)
	})
	if len(want) != 5 {
		t.Fatalf("runtime.Run recorded %d spans; want 5 (the agent, 2 chats, 2 calls):\n%v", len(want), want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the recorder's spans differ from runtime.Run's (-Run +recorder):\n%s", diff)
	}
	if runtime.NewRecorder(helloAgent) != nil {
		t.Error("a recorder with no provider records")
	}
}

// spanShapes are spans as a comparison sees them: name, kind, parent's
// name, attributes (IDs left out), status and events, sorted.
func spanShapes(spans tracetest.SpanStubs) []string {
	names := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext.SpanID().String()] = s.Name
	}
	var out []string
	for _, s := range spans {
		line := fmt.Sprintf("%s (%v) <- %q; status %v", s.Name, s.SpanKind, names[s.Parent.SpanID().String()], s.Status.Code)
		for _, a := range s.Attributes {
			switch a.Key {
			case "gen_ai.response.id", "gen_ai.tool.call.id":
				continue
			}
			line += fmt.Sprintf(" %s=%s", a.Key, a.Value.Emit())
		}
		for _, e := range s.Events {
			line += " event " + e.Name
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}
