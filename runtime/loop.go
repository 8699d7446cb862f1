package runtime

import (
	"fmt"
	"strings"
)

// Loop is the agent loop's decisions and nothing else: what to send the
// model next, which of its tool calls to run, what to answer the calls it
// may not make, and when the run is over. It does no I/O, reads no clock,
// starts no goroutine and draws no random number, so the same completions
// and tool results always lead to the same requests and the same Response.
//
// Run drives a Loop with a Model and goroutines. A durable engine drives
// the same Loop from a workflow (the gramc temporal module runs each model
// request and each tool call as an activity), where every decision must
// replay identically after a crash: there is one agent loop, not a copy
// per engine.
//
// The driver's cycle is:
//
//	for {
//		req, err := l.Next()           // *IterationLimitError when spent
//		comp := <ask the model req>
//		turn, err := l.Receive(comp)   // turn.Done: l.Response() is the answer
//		invs := <run turn.Run, in order or concurrently>
//		l.Record(invs)                 // results for turn.Run, in call order
//	}
type Loop struct {
	limit        int
	maxToolCalls int
	req          Request
	resp         *Response
	// pending is the turn Receive returned whose results Record awaits.
	pending *Turn
}

// Turn is the loop's decision on one completion.
type Turn struct {
	// Iteration is the model request this turn answers (1 for the first).
	Iteration int
	// Done: the model answered in text and the run is over; Loop.Response
	// holds the answer.
	Done bool
	// Run are the tool calls to run, in call order, each with a unique ID
	// in the conversation.
	Run []ToolCall
	// Refused are the calls beyond the per-response limit, already
	// answered with a *ToolCallError of kind TooManyCalls; they follow Run
	// in call order (the first has index len(Run)).
	Refused []Invocation
}

// NewLoop starts a run of agent on input after conv (nil for a new
// conversation; conv is not modified). o supplies MaxIterations and
// MaxToolCalls; zero values take the agent's and the package's defaults.
func NewLoop(agent Agent, input string, conv *Conversation, o RunOptions) (*Loop, error) {
	if strings.TrimSpace(input) == "" {
		return nil, &ValidationError{Field: "input", Message: "the message is empty"}
	}
	limit := o.MaxIterations
	if limit <= 0 {
		limit = agent.MaxIterations
	}
	if limit <= 0 {
		limit = DefaultMaxIterations
	}
	maxCalls := o.MaxToolCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxToolCalls
	}
	c := conv.Clone()
	if c == nil {
		c = &Conversation{}
	}
	c.Append(Message{Role: RoleUser, Content: input})
	return &Loop{
		limit:        limit,
		maxToolCalls: maxCalls,
		req: Request{
			Model:       agent.Model,
			Instruction: agent.Instruction,
			Tools:       agent.Tools,
			Temperature: agent.Temperature,
			ToolChoice:  agent.ToolChoice,
		},
		resp: &Response{Conversation: c},
	}, nil
}

// ResumeLoop continues a run from resp, the Response of a Loop between
// turns (after Record, before Next): a durable engine that starts afresh
// with a long run's state (Temporal's continue-as-new) resumes it here.
// agent and o must be those the run started with.
func ResumeLoop(agent Agent, resp *Response, o RunOptions) (*Loop, error) {
	if resp == nil || resp.Conversation == nil || len(resp.Conversation.Messages) == 0 {
		return nil, &ValidationError{Field: "response", Message: "there is no conversation to resume"}
	}
	l, err := NewLoop(agent, "resume", nil, o)
	if err != nil {
		return nil, err
	}
	l.resp = resp
	return l, nil
}

// Limit is the run's iteration limit.
func (l *Loop) Limit() int { return l.limit }

// Response is the run so far: the whole answer once a turn is Done, the
// partial exchange otherwise.
func (l *Loop) Response() *Response { return l.resp }

// Next returns the request for the next model call, or an
// *IterationLimitError when the run has made its last allowed request. The
// request's Messages alias the conversation: read them before the next
// Receive.
func (l *Loop) Next() (*Request, error) {
	if l.pending != nil {
		return nil, fmt.Errorf("runtime: Loop.Next before Record of iteration %d's tool results", l.pending.Iteration)
	}
	if l.resp.Iterations >= l.limit {
		return nil, &IterationLimitError{Limit: l.limit, Response: l.resp}
	}
	req := l.req
	req.Messages = l.resp.Conversation.Messages
	return &req, nil
}

// Failed counts a model request that returned an error instead of a
// completion, so the Response's Iterations says how many were made.
func (l *Loop) Failed() { l.resp.Iterations++ }

// Receive takes the model's completion of the request Next returned and
// decides the turn: done when it holds no tool calls, otherwise the calls
// to run and those refused. Calls get unique IDs (see ensureCallIDs) before
// the assistant message joins the conversation.
func (l *Loop) Receive(comp *Completion) (Turn, error) {
	l.resp.Iterations++
	if comp == nil {
		return Turn{}, &APIError{Message: "the model returned no completion and no error"}
	}
	msg := comp.Message
	msg.Role = RoleAssistant
	if msg.Content == "" && len(msg.ToolCalls) == 0 {
		// The provider is the Model's, which the agent's model name may
		// not be (gramc run --model): name none rather than a wrong one.
		return Turn{}, EmptyAnswer("", comp.StopReason)
	}
	l.resp.Usage.Add(comp.Usage)
	l.resp.StopReason = comp.StopReason
	c := l.resp.Conversation
	ensureCallIDs(c.Messages, msg.ToolCalls, l.resp.Iterations)
	c.Append(msg)
	t := Turn{Iteration: l.resp.Iterations}
	if len(msg.ToolCalls) == 0 {
		l.resp.Content = msg.Content
		t.Done = true
		return t, nil
	}
	calls := msg.ToolCalls
	t.Run = calls
	if len(calls) > l.maxToolCalls {
		t.Run = calls[:l.maxToolCalls]
		for _, call := range calls[l.maxToolCalls:] {
			t.Refused = append(t.Refused, Invocation{CallID: call.ID, Tool: call.Name, Args: rawArgs(call.Arguments),
				Err: &ToolCallError{Tool: call.Name, Kind: TooManyCalls, Message: fmt.Sprintf(
					"tool %s was not run: the response asked for %d tool calls and at most %d run per response; call it again in a later response", call.Name, len(calls), l.maxToolCalls)}})
		}
	}
	l.pending = &t
	return t, nil
}

// Record takes the invocations of the pending turn's Run calls, in call
// order, and sends each result (or its error's message) back to the model
// in the next request, followed by the refused calls' answers.
func (l *Loop) Record(invs []Invocation) error {
	t := l.pending
	if t == nil {
		return fmt.Errorf("runtime: Loop.Record with no tool calls pending")
	}
	if len(invs) != len(t.Run) {
		return fmt.Errorf("runtime: Loop.Record got %d results for %d tool calls", len(invs), len(t.Run))
	}
	for i, inv := range invs {
		if inv.CallID != t.Run[i].ID {
			return fmt.Errorf("runtime: Loop.Record result %d answers call %q, want %q", i, inv.CallID, t.Run[i].ID)
		}
	}
	l.pending = nil
	all := append(invs[:len(invs):len(invs)], t.Refused...)
	c := l.resp.Conversation
	for _, inv := range all {
		content := inv.Result
		if inv.Err != nil {
			content = "error: " + inv.Err.Error()
		}
		c.Append(Message{Role: RoleTool, ToolCallID: inv.CallID, Name: inv.Tool, Content: content, IsError: inv.Err != nil})
	}
	l.resp.Invocations = append(l.resp.Invocations, all...)
	return nil
}
