package runtime

import (
	"context"
	"sync"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of events, in the order a run reports them: per model
// request, text deltas and tool-call starts as the answer arrives, then
// the response's usage, then each complete tool call as it is about to run
// and each result as it ends; and once, at the end, the final response.
const (
	// EventText: Text is the next piece of the model's text.
	EventText EventKind = iota + 1
	// EventToolCallStart: the model began a tool call. Call.Name is set
	// (Call.ID is the provider's, if it sent one yet); Index is the
	// call's position in the response.
	EventToolCallStart
	// EventUsage: Usage is the tokens of one model response.
	EventUsage
	// EventToolCall: Call is a complete tool call, its arguments text
	// whole and its ID final, about to be run.
	EventToolCall
	// EventToolResult: Invocation is a finished tool call (its Err set
	// when it failed: the model is sent the error).
	EventToolResult
	// EventDone: Response is the run's final response.
	EventDone
	// EventRepair: a typed agent's answer was not a value of its output
	// type and is sent back; Text is the validation error (a repair turn,
	// docs/language.md §2.6).
	EventRepair
)

// String returns the kind's name, e.g. "text".
func (k EventKind) String() string {
	switch k {
	case EventText:
		return "text"
	case EventToolCallStart:
		return "tool call start"
	case EventUsage:
		return "usage"
	case EventToolCall:
		return "tool call"
	case EventToolResult:
		return "tool result"
	case EventDone:
		return "done"
	case EventRepair:
		return "repair"
	}
	return "unknown event"
}

// Event is one step of a run as it happens, reported to the function
// given with WithEvents. Only the fields of its Kind are set.
type Event struct {
	Kind EventKind
	// Iteration counts the model requests of the run from 1.
	Iteration int
	// Index is a tool call's position in the model's response
	// (EventToolCallStart, EventToolCall, EventToolResult).
	Index      int
	Text       string
	Call       ToolCall
	Usage      Usage
	Invocation Invocation
	Response   *Response
	// Agent is the path of listed agents an event comes from, outermost
	// first ("triage"); nil for the run's own agent. A listed agent's
	// tool calls and results are its caller's events too (agenttool.go).
	Agent []string
}

// StreamingModel is a Model that reports its answer as it arrives. When a
// run has an event function (WithEvents), Run calls Stream instead of
// Complete; a Model that does not stream still works, its whole answer
// reported as one EventText and its calls' starts at once.
type StreamingModel interface {
	Model
	// Stream is Complete that calls emit, on the calling goroutine and
	// never after it returns, with EventText and EventToolCallStart
	// events as the answer arrives. The Completion it returns is the
	// whole answer, exactly what Complete would have returned.
	Stream(ctx context.Context, req *Request, emit func(Event)) (*Completion, error)
}

// WithEvents streams the run: f is called with each Event as it happens.
// Calls are serialised (tool calls that run concurrently report their
// results one at a time), so f needs no locking; the run waits for f, so
// it should be quick.
//
// An event function rather than an iterator: Run keeps one signature and
// its contract (the partial *Response with every error, the error types
// of errors.As), a caller adds streaming to an existing Run call with one
// option, and events from concurrent tool calls need no channel or
// goroutine between the run and the caller.
func WithEvents(f func(Event)) Option { return func(o *RunOptions) { o.OnEvent = f } }

// events serialises a run's events.
type events struct {
	mu sync.Mutex
	f  func(Event)
}

func (e *events) on() bool { return e != nil && e.f != nil }

func (e *events) emit(ev Event) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.f(ev)
}

// complete asks model for the next answer, streamed when the run has an
// event function and the model can stream.
func (e *events) complete(ctx context.Context, model Model, req *Request, iter int) (*Completion, error) {
	if !e.on() {
		return model.Complete(ctx, req)
	}
	sm, ok := model.(StreamingModel)
	if !ok {
		comp, err := model.Complete(ctx, req)
		if err == nil {
			if comp.Message.Content != "" {
				e.emit(Event{Kind: EventText, Iteration: iter, Text: comp.Message.Content})
			}
			for i, c := range comp.Message.ToolCalls {
				e.emit(Event{Kind: EventToolCallStart, Iteration: iter, Index: i, Call: ToolCall{ID: c.ID, Name: c.Name}})
			}
		}
		return comp, err
	}
	return sm.Stream(ctx, req, func(ev Event) {
		if ev.Kind != EventText && ev.Kind != EventToolCallStart {
			return // a model reports only what it streams
		}
		ev.Iteration = iter
		e.emit(ev)
	})
}
