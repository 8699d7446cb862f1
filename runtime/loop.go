package runtime

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/provider"
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
	agent Agent
	// depth is the run's level in a nesting of agents (1: no agent
	// called it); budget what it may spend, its listed agents included.
	depth        int
	budget       Budget
	limit        int
	maxToolCalls int
	req          Request
	resp         *Response
	// pending is the turn Receive returned whose results Record awaits.
	pending *Turn
	// out holds a typed agent's answer to its output type; nil for an
	// agent that answers text.
	out *outputCheck
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
	// Refused are the calls the loop answered itself, not to be run:
	// those beyond the per-response limit (a *ToolCallError of kind
	// TooManyCalls) and a final-answer call that is not a value of the
	// output type (kind InvalidArguments); they follow Run in call order
	// (the first has index len(Run)).
	Refused []Invocation
	// Repair is a repair turn's reason: the model's answer was not a value
	// of the agent's output type, and the next request sends it back with
	// this validation error ("" for any other turn). A repair turn of a
	// text answer has nothing to run: Record(nil) continues it.
	Repair string
}

// NewLoop starts a run of agent on input after conv (nil for a new
// conversation; conv is not modified). o supplies the limits
// (MaxIterations, MaxToolCalls and the run's budget); zero values take the
// agent's and the package's defaults. A typed agent's input is validated
// first (AgentMessage): a bad input is a *ValidationError and nothing is
// sent.
func NewLoop(agent Agent, input string, conv *Conversation, o RunOptions) (*Loop, error) {
	l, err := newLoop(agent, o)
	if err != nil {
		return nil, err
	}
	return l.start(input, conv)
}

// NewChildLoop starts the run of a listed agent its caller's Loop decided
// (Loop.Child): c's message in a fresh conversation, at c's level, within
// c's iteration limit and share of the budget. o supplies MaxToolCalls.
func NewChildLoop(agent Agent, c Child, o RunOptions) (*Loop, error) {
	l, err := newChildLoop(agent, c, o)
	if err != nil {
		return nil, err
	}
	return l.start(c.Input, nil)
}

func newChildLoop(agent Agent, c Child, o RunOptions) (*Loop, error) {
	if agent.Name != c.Agent {
		return nil, &ValidationError{Field: "agent", Message: fmt.Sprintf("the decision is for agent %s, not %s", c.Agent, agent.Name)}
	}
	o.MaxIterations = c.MaxIterations
	l, err := newLoop(agent, o)
	if err != nil {
		return nil, err
	}
	l.depth, l.budget = c.Depth, c.Budget
	return l, nil
}

// start sends input after conv.
func (l *Loop) start(input string, conv *Conversation) (*Loop, error) {
	if strings.TrimSpace(input) == "" {
		return nil, &ValidationError{Field: "input", Message: "the message is empty"}
	}
	message, err := AgentMessage(l.agent, input)
	if err != nil {
		return nil, err
	}
	c := conv.Clone()
	if c == nil {
		c = &Conversation{}
	}
	c.Append(Message{Role: RoleUser, Content: message})
	l.resp.Conversation = c
	return l, nil
}

// newLoop is a Loop for agent before its conversation is set.
func newLoop(agent Agent, o RunOptions) (*Loop, error) {
	limit := o.MaxIterations
	if limit <= 0 {
		limit = iterationLimit(agent)
	}
	maxCalls := o.MaxToolCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxToolCalls
	}
	out, err := newOutputCheck(agent)
	if err != nil {
		return nil, err
	}
	l := &Loop{
		agent:        agent,
		depth:        1,
		budget:       rootBudget(agent, o),
		limit:        limit,
		maxToolCalls: maxCalls,
		out:          out,
		req: Request{
			Model:       agent.Model,
			Instruction: agent.Instruction,
			Tools:       agent.Tools,
			Temperature: agent.Temperature,
			ToolChoice:  agent.ToolChoice,
		},
		resp: &Response{},
	}
	if out != nil {
		l.resp.OutputMode = out.mode
		switch out.mode {
		case provider.OutputNative:
			l.req.Output = &out.format
		case provider.OutputTool:
			// The final-answer tool joins the agent's; the model must
			// call a tool each turn, and without tools of its own that
			// one.
			l.req.Tools = append(agent.Tools[:len(agent.Tools):len(agent.Tools)], out.finalToolSpec())
			l.req.ToolChoice = "required"
			if len(agent.Tools) == 0 {
				l.req.ToolChoice = out.tool
			}
		case provider.OutputPrompted:
			l.req.Instruction += out.promptedInstruction()
		}
	}
	return l, nil
}

// ResumeLoop continues a run from resp, the Response of a Loop between
// turns (after Record, before Next): a durable engine that starts afresh
// with a long run's state (Temporal's continue-as-new) resumes it here.
// agent, o and c (nil for a run no agent called) must be those the run
// started with.
func ResumeLoop(agent Agent, resp *Response, o RunOptions, c *Child) (*Loop, error) {
	if resp == nil || resp.Conversation == nil || len(resp.Conversation.Messages) == 0 {
		return nil, &ValidationError{Field: "response", Message: "there is no conversation to resume"}
	}
	var l *Loop
	var err error
	if c != nil {
		l, err = newChildLoop(agent, *c, o)
	} else {
		l, err = newLoop(agent, o)
	}
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
// *IterationLimitError when the run has made its last allowed request, or
// a *BudgetError when the run (its listed agents included) has spent its
// budget of requests or tokens. The
// request's Messages alias the conversation: read them before the next
// Receive.
func (l *Loop) Next() (*Request, error) {
	if l.pending != nil {
		return nil, fmt.Errorf("runtime: Loop.Next before Record of iteration %d's tool results", l.pending.Iteration)
	}
	if l.resp.Iterations >= l.limit {
		return nil, &IterationLimitError{Limit: l.limit, Response: l.resp}
	}
	if err := l.overBudget(); err != nil {
		return nil, err
	}
	req := l.req
	req.Messages = l.resp.Conversation.Messages
	return &req, nil
}

// Failed counts a model request that returned an error instead of a
// completion, so the Response's Iterations says how many were made.
func (l *Loop) Failed() { l.resp.Iterations++; l.resp.Total.Requests++ }

// Receive takes the model's completion of the request Next returned and
// decides the turn: done when it holds no tool calls, otherwise the calls
// to run and those refused. Calls get unique IDs (see ensureCallIDs) before
// the assistant message joins the conversation. A turn that is not the
// answer is a *BudgetError, its calls not run, when the request crossed
// the run's budget of tokens or its calls would cross the budget of tool
// calls.
func (l *Loop) Receive(comp *Completion) (Turn, error) {
	t, err := l.receive(comp)
	if err != nil || t.Done {
		return t, err
	}
	spent := &l.resp.Total
	if l.budget.Tokens > 0 && spent.Tokens() >= l.budget.Tokens {
		l.pending = nil
		return Turn{}, l.budgetError(ResourceTokens, l.budget.Tokens, spent.Tokens())
	}
	if spent.ToolCalls+len(t.Run) > l.budget.ToolCalls {
		l.pending = nil
		e := l.budgetError(ResourceToolCalls, l.budget.ToolCalls, spent.ToolCalls)
		e.Asked = len(t.Run)
		return Turn{}, e
	}
	spent.ToolCalls += len(t.Run)
	return t, nil
}

func (l *Loop) receive(comp *Completion) (Turn, error) {
	l.resp.Iterations++
	l.resp.Total.Requests++
	if comp == nil {
		return Turn{}, &APIError{Message: "the model returned no completion and no error"}
	}
	msg := comp.Message
	msg.Role = RoleAssistant
	if msg.Content == "" && len(msg.ToolCalls) == 0 && comp.StopReason == StopRefusal && l.out != nil {
		return Turn{}, &OutputError{Type: l.out.typ, Message: "(no text)", Refused: true, Repairs: l.resp.Repairs, Response: l.resp}
	}
	if msg.Content == "" && len(msg.ToolCalls) == 0 {
		// The provider is the Model's, which the agent's model name may
		// not be (gramc run --model): name none rather than a wrong one.
		return Turn{}, EmptyAnswer("", comp.StopReason)
	}
	l.resp.Usage.Add(comp.Usage)
	l.resp.Total.Usage.Add(comp.Usage)
	l.resp.StopReason = comp.StopReason
	c := l.resp.Conversation
	ensureCallIDs(c.Messages, msg.ToolCalls, l.resp.Iterations)
	c.Append(msg)
	t := Turn{Iteration: l.resp.Iterations}
	if l.out != nil {
		return l.receiveTyped(t, msg, comp.StopReason)
	}
	if len(msg.ToolCalls) == 0 {
		l.resp.Content = msg.Content
		t.Done = true
		return t, nil
	}
	return l.runCalls(t, msg.ToolCalls, nil), nil
}

// runCalls is a turn that runs calls (those beyond the per-response limit
// refused) after the invocations the loop already answered.
func (l *Loop) runCalls(t Turn, calls []ToolCall, answered []Invocation) Turn {
	t.Run = calls
	if len(calls) > l.maxToolCalls {
		t.Run = calls[:l.maxToolCalls]
		for _, call := range calls[l.maxToolCalls:] {
			t.Refused = append(t.Refused, Invocation{CallID: call.ID, Tool: call.Name, Args: rawArgs(call.Arguments),
				Err: &ToolCallError{Tool: call.Name, Kind: TooManyCalls, Message: fmt.Sprintf(
					"tool %s was not run: the response asked for %d tool calls and at most %d run per response; call it again in a later response", call.Name, len(calls), l.maxToolCalls)}})
		}
	}
	t.Refused = append(t.Refused, answered...)
	l.pending = &t
	return t
}

// Record takes the invocations of the pending turn's Run calls, in call
// order, and sends each result (or its error's message) back to the model
// in the next request, followed by the refused calls' answers. What a
// listed agent's run spent (its Invocation's Agent.Total) is the run's
// spend too.
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
	for _, inv := range invs {
		if inv.Agent != nil {
			l.resp.Total.Add(inv.Agent.Total)
		}
	}
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

// receiveTyped decides a typed agent's turn (docs/language.md §2.6): a text
// answer (native, prompted) or a final-answer call (tool mode) that is a
// value of the output type ends the run with it; one that is not is sent
// back with the validation error while repair turns remain, and is an
// *OutputError when they are spent; a refusal is an *OutputError at once.
func (l *Loop) receiveTyped(t Turn, msg Message, stop StopReason) (Turn, error) {
	out := l.out
	if len(msg.ToolCalls) == 0 && stop == StopRefusal {
		return t, &OutputError{Type: out.typ, Raw: msg.Content, Message: msg.Content, Refused: true, Repairs: l.resp.Repairs, Response: l.resp}
	}
	if out.mode == provider.OutputTool {
		return l.receiveFinalCall(t, msg)
	}
	if len(msg.ToolCalls) > 0 {
		return l.runCalls(t, msg.ToolCalls, nil), nil
	}
	a := out.check(msg.Content, out.mode == provider.OutputPrompted)
	if a.err == nil {
		l.finish(a)
		t.Done = true
		return t, nil
	}
	if err := l.spend(msg.Content, a.err); err != nil {
		return t, err
	}
	t.Repair = a.err.Error()
	l.resp.Conversation.Append(Message{Role: RoleUser, Content: fmt.Sprintf(
		"Your answer is not a valid %s: %s. Answer again with only the JSON value, nothing else.", out.typ, a.err)})
	l.pending = &t
	return t, nil
}

// receiveFinalCall decides a tool-mode turn: the final-answer call, when
// its arguments are a value of the output type, ends the run (the other
// calls of the response are answered as not run, so the conversation
// stays well formed); an invalid one is answered with the validation
// error beside the other calls, which run.
func (l *Loop) receiveFinalCall(t Turn, msg Message) (Turn, error) {
	out := l.out
	if len(msg.ToolCalls) == 0 {
		err := fmt.Errorf("the answer must be given by calling the tool %s, not as text", out.tool)
		if serr := l.spend(msg.Content, err); serr != nil {
			return t, serr
		}
		t.Repair = err.Error()
		l.resp.Conversation.Append(Message{Role: RoleUser, Content: fmt.Sprintf(
			"Give your final answer by calling the tool %s with a %s as its arguments.", out.tool, out.typ)})
		l.pending = &t
		return t, nil
	}
	var others []ToolCall
	var finals []ToolCall
	for _, call := range msg.ToolCalls {
		if call.Name == out.tool {
			finals = append(finals, call)
			continue
		}
		others = append(others, call)
	}
	if len(finals) == 0 {
		return l.runCalls(t, others, nil), nil
	}
	final := finals[0]
	a := out.check(final.Arguments, false)
	if a.err == nil && len(finals) > 1 {
		// Several final answers in one response: the run ends only on
		// one value; several different ones are sent back.
		for _, f := range finals[1:] {
			if b := out.check(f.Arguments, false); b.err != nil || !bytes.Equal(b.value, a.value) {
				a.err = fmt.Errorf("the response called %s %d times with different answers; call it once", out.tool, len(finals))
				break
			}
		}
	}
	if a.err == nil {
		l.finish(a)
		c := l.resp.Conversation
		for _, call := range msg.ToolCalls {
			content := "not run: the final answer ended the run"
			if call.Name == out.tool {
				content = "accepted"
			}
			c.Append(Message{Role: RoleTool, ToolCallID: call.ID, Name: call.Name, Content: content})
		}
		t.Done = true
		return t, nil
	}
	if err := l.spend(final.Arguments, a.err); err != nil {
		return t, err
	}
	t.Repair = a.err.Error()
	// Every final-answer call is answered with why the answer was not
	// taken (none is run as a tool: that would tell the model, falsely,
	// that the tool does not exist).
	var answered []Invocation
	for _, f := range finals {
		answered = append(answered, Invocation{CallID: f.ID, Tool: f.Name, Args: rawArgs(f.Arguments),
			Err: &ToolCallError{Tool: f.Name, Kind: InvalidArguments, Message: fmt.Sprintf(
				"invalid final answer: %v; call %s again with a valid %s", a.err, out.tool, out.typ)}})
	}
	return l.runCalls(t, others, answered), nil
}

// spend counts a repair turn, or, when none is left, is the run's
// *OutputError carrying the raw answer.
//
// An answer over maxAnswerBytes is never sent back to be repaired: each
// repair request would carry it again (a 60 MB answer with outputRetries
// 9 made 2.7 GB of requests), so it is the run's *OutputError at once.
func (l *Loop) spend(raw string, cause error) error {
	if l.resp.Repairs >= l.out.retries || len(raw) > maxAnswerBytes {
		return &OutputError{Type: l.out.typ, Raw: raw, Message: cause.Error(), Repairs: l.resp.Repairs, Response: l.resp}
	}
	l.resp.Repairs++
	return nil
}

// finish records a typed run's value.
func (l *Loop) finish(a answer) {
	l.resp.Value = a.value
	l.resp.Content = string(a.value)
	l.resp.Lenient = a.lenient
}

// FirstRequest is the request the first turn of a run of agent sends,
// without its conversation (Messages is nil): the model, the instruction
// (with a prompted output's schema), the tools (with a final-answer
// tool), the tool choice and the structured-output format. gramc schema
// --agent --request prints it as each provider's client encodes it.
func FirstRequest(agent Agent) (*Request, error) {
	l, err := newLoop(agent, RunOptions{})
	if err != nil {
		return nil, err
	}
	req := l.req
	return &req, nil
}
