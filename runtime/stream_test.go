package runtime_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// record collects a run's events as short strings.
func record(out *[]string) runtime.Option {
	return runtime.WithEvents(func(ev runtime.Event) {
		s := fmt.Sprintf("%d %s", ev.Iteration, ev.Kind)
		switch ev.Kind {
		case runtime.EventText:
			s += " " + ev.Text
		case runtime.EventToolCallStart:
			s += fmt.Sprintf(" %d %s", ev.Index, ev.Call.Name)
		case runtime.EventToolCall:
			s += fmt.Sprintf(" %d %s %s %s", ev.Index, ev.Call.ID, ev.Call.Name, ev.Call.Arguments)
		case runtime.EventToolResult:
			s += fmt.Sprintf(" %d %s %s", ev.Index, ev.Invocation.CallID, ev.Invocation.Result)
		case runtime.EventUsage:
			s += fmt.Sprint(" ", ev.Usage.TotalTokens)
		case runtime.EventDone:
			s += " " + ev.Response.Content
		}
		*out = append(*out, s)
	})
}

// streamer is a StreamingModel that streams a scripted answer in pieces.
type streamer struct {
	steps [][]runtime.Event
	n     int
}

func (s *streamer) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	return s.Stream(ctx, req, func(runtime.Event) {})
}

func (s *streamer) Stream(ctx context.Context, req *runtime.Request, emit func(runtime.Event)) (*runtime.Completion, error) {
	steps := s.steps[s.n]
	s.n++
	var msg runtime.Message
	for _, ev := range steps {
		switch ev.Kind {
		case runtime.EventText:
			msg.Content += ev.Text
			emit(ev)
		case runtime.EventToolCall:
			emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: len(msg.ToolCalls), Call: runtime.ToolCall{Name: ev.Call.Name}})
			msg.ToolCalls = append(msg.ToolCalls, ev.Call)
		}
		emit(runtime.Event{Kind: runtime.EventDone}) // not a model's to report: dropped
	}
	return &runtime.Completion{Message: msg, Usage: runtime.Usage{TotalTokens: 7}}, nil
}

func TestEventsStreamed(t *testing.T) {
	m := &streamer{steps: [][]runtime.Event{
		{{Kind: runtime.EventText, Text: "Let me "}, {Kind: runtime.EventText, Text: "greet."},
			{Kind: runtime.EventToolCall, Call: runtime.ToolCall{ID: "a", Name: "sayHello", Arguments: `{"personName":"Al"}`}},
			{Kind: runtime.EventToolCall, Call: runtime.ToolCall{ID: "a", Name: "sayHello", Arguments: ``}}},
		{{Kind: runtime.EventText, Text: "Done"}, {Kind: runtime.EventText, Text: "!"}},
	}}
	var got []string
	resp, err := runtime.Run(context.Background(), m, helloAgent, helloLib(), "hi", nil, record(&got))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 9 {
		sort.Strings(got[5:9])
	}
	want := []string{
		"1 text Let me ", "1 text greet.",
		"1 tool call start 0 sayHello", "1 tool call start 1 sayHello",
		"1 usage 7",
		// Duplicate IDs are replaced before the calls run; concurrent
		// calls report in any order (sorted here).
		`1 tool call 0 call_1_0 sayHello {"personName":"Al"}`, "1 tool call 1 call_1_1 sayHello ",
		"1 tool result 0 call_1_0 Hello, Al!", "1 tool result 1 call_1_1 Hello, world!",
		"2 text Done", "2 text !", "2 usage 7", "2 done Done!",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if resp.Content != "Done!" || resp.Conversation.Messages[1].Content != "Let me greet." {
		t.Errorf("response %+v", resp)
	}
}

func TestEventsFromAModelThatDoesNotStream(t *testing.T) {
	m := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Bo"}`)),
		runtimetest.Say("Hello, Bo!"),
	)
	var got []string
	if _, err := runtime.Run(context.Background(), m, helloAgent, helloLib(), "hi", nil, record(&got)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 tool call start 0 sayHello", "1 usage 0",
		`1 tool call 0 call_1 sayHello {"personName":"Bo"}`, "1 tool result 0 call_1 Hello, Bo!",
		"2 text Hello, Bo!", "2 usage 0", "2 done Hello, Bo!",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
