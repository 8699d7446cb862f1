package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/gramc-dev/gramc/toolspec"
)

// A run's budget (issue 44.2): the run of the agent Run is given and the
// runs of every agent it calls as a tool, at any depth, draw from one
// budget of model requests, tool calls and tokens. A listed agent runs on
// a share of what its caller has left — an equal share when a response
// calls several at once, keeping one request for the caller to read their
// results — and what it spent is the caller's spend when it ends. So
// siblings share, a tree of agents can never spend more than the root's
// budget, and the decision is the Loop's: runtime.Run and a durable
// engine's workflow obey the same numbers.

// WithMaxRequests sets the run's budget of model requests: the agent's and
// every listed agent's together (0: DefaultMaxRequests).
func WithMaxRequests(n int) Option { return func(o *RunOptions) { o.MaxRequests = n } }

// WithMaxRunToolCalls sets the run's budget of tool calls, its listed
// agents' included (0: DefaultMaxRunToolCalls).
func WithMaxRunToolCalls(n int) Option { return func(o *RunOptions) { o.MaxRunToolCalls = n } }

// WithMaxTokens sets the run's budget of tokens, input and output, its
// listed agents' included; it overrides the agent's maxTokens (0: the
// agent's, and no limit when it declares none). A request's usage is
// known only once it is answered, so the run stops after the request
// that crosses the budget: a run may end up to one answer over it.
func WithMaxTokens(n int) Option { return func(o *RunOptions) { o.MaxTokens = n } }

// Budget is what a run may spend, or has spent: model requests, tool
// calls and tokens.
type Budget struct {
	Requests  int `json:"requests"`
	ToolCalls int `json:"toolCalls"`
	// Tokens are input and output tokens; as a limit, 0 is none.
	Tokens int `json:"tokens,omitempty"`
}

// Spend is what a run spent: its own requests, tool calls and usage and
// those of every agent it ran as a tool (Response.Total).
type Spend struct {
	Requests  int   `json:"requests"`
	ToolCalls int   `json:"toolCalls"`
	Usage     Usage `json:"usage"`
}

// Tokens are the input and output tokens spent.
func (s Spend) Tokens() int { return s.Usage.PromptTokens + s.Usage.CompletionTokens }

// Add adds s2 to s.
func (s *Spend) Add(s2 Spend) {
	s.Requests += s2.Requests
	s.ToolCalls += s2.ToolCalls
	s.Usage.Add(s2.Usage)
}

// BudgetError reports a run that spent its budget of Resource: no more
// model requests (or tool calls, or tokens) for it or any agent it calls.
// Response holds the run up to then.
type BudgetError struct {
	// Resource is "model requests", "tool calls" or "tokens".
	Resource string
	Limit    int
	// Spent is what the run spent of Resource, its listed agents'
	// included.
	Spent int
	// Asked is what the run asked for that would cross the limit (the
	// tool calls of a response), 0 when it asked for nothing more.
	Asked int
	// Share: the limit is a listed agent's share of its caller's budget,
	// not a budget of its own.
	Share    bool
	Response *Response
}

func (e *BudgetError) Error() string {
	whose := "the run's budget"
	if e.Share {
		whose = "this agent's share of the run's budget"
	}
	msg := fmt.Sprintf("%s of %d %s is spent (%d spent, listed agents included", whose, e.Limit, e.Resource, e.Spent)
	if e.Asked > 0 {
		msg += fmt.Sprintf("; the model asked for %d more", e.Asked)
	}
	return msg + ")"
}

// The resources of a BudgetError.
const (
	ResourceRequests  = "model requests"
	ResourceToolCalls = "tool calls"
	ResourceTokens    = "tokens"
)

// rootBudget is the budget of a run no agent called: o's limits, the
// agent's maxTokens, and the defaults.
func rootBudget(agent Agent, o RunOptions) Budget {
	b := Budget{Requests: o.MaxRequests, ToolCalls: o.MaxRunToolCalls, Tokens: o.MaxTokens}
	if b.Requests <= 0 {
		b.Requests = DefaultMaxRequests
	}
	if b.ToolCalls <= 0 {
		b.ToolCalls = DefaultMaxRunToolCalls
	}
	if b.Tokens <= 0 {
		b.Tokens = max(agent.MaxTokens, 0)
	}
	return b
}

// Child is a Loop's decision on the run of a listed agent for one call of
// its pending turn (Loop.Child): the message it is sent, its level in the
// nesting, its iteration limit and its share of the run's budget. It is
// data, so a durable engine hands it to the child workflow that runs the
// agent (NewChildLoop).
type Child struct {
	Agent         string `json:"agent"`
	Input         string `json:"input"`
	Depth         int    `json:"depth"`
	MaxIterations int    `json:"maxIterations"`
	Budget        Budget `json:"budget"`
}

// Spend is the whole share as spent: what a caller charges for a child
// whose run it cannot see (a durable child workflow that ended with no
// Response).
func (c Child) Spend() Spend {
	return Spend{Requests: c.Budget.Requests, ToolCalls: c.Budget.ToolCalls, Usage: Usage{PromptTokens: c.Budget.Tokens}}
}

// outsideRun is the Child decision for a listed agent called outside any
// run (ServeAgent, BoundAgent.Call): a run of its own at level depth, on
// o's budget.
func outsideRun(child Agent, args json.RawMessage, depth int, o RunOptions) (Child, error) {
	if err := nestingError(child, depth); err != nil {
		return Child{}, err
	}
	input, err := listedInput(child, args)
	if err != nil {
		return Child{}, err
	}
	limit := o.MaxIterations
	if limit <= 0 {
		limit = iterationLimit(child)
	}
	return Child{Agent: child.Name, Input: input, Depth: depth, MaxIterations: limit, Budget: rootBudget(child, o)}, nil
}

// nestingError is the error of listed agent child run at level depth of
// the nesting past toolspec.MaxAgentNesting, else nil.
func nestingError(child Agent, depth int) error {
	if depth > toolspec.MaxAgentNesting {
		return fmt.Errorf("agent %s was not run: agents nest %d levels deep here, past the limit of %d", child.Name, depth, toolspec.MaxAgentNesting)
	}
	return nil
}

// iterationLimit is agent's maxIterations, or DefaultMaxIterations.
func iterationLimit(agent Agent) int {
	if agent.MaxIterations > 0 {
		return agent.MaxIterations
	}
	return DefaultMaxIterations
}

// Child decides the run of the listed agent call names, one of the
// pending turn's Run calls, with args its validated arguments: its
// message, its level, its iteration limit (its own maxIterations, never
// more than the caller's requests left) and its share of the budget the
// run has left. An error (past the nesting limit, nothing left to share,
// an input it cannot take) is the call's tool error: the agent is not
// run. Child reads the Loop and changes nothing, so a driver may call it
// from the goroutines that run the turn's calls.
func (l *Loop) Child(call ToolCall, args json.RawMessage) (Child, error) {
	if l.pending == nil {
		return Child{}, fmt.Errorf("runtime: Loop.Child with no tool calls pending")
	}
	child, ok := findListed(l.agent, call.Name)
	if !ok {
		return Child{}, fmt.Errorf("runtime: %s is not an agent %s lists", call.Name, l.agent.Name)
	}
	if err := nestingError(child, l.depth+1); err != nil {
		return Child{}, err
	}
	left := l.limit - l.resp.Iterations
	if left < 1 {
		return Child{}, fmt.Errorf("agent %s was not run: the caller has no model request left to read its result", child.Name)
	}
	share, err := l.share(child)
	if err != nil {
		return Child{}, err
	}
	input, err := listedInput(child, args)
	if err != nil {
		return Child{}, err
	}
	return Child{Agent: child.Name, Input: input, Depth: l.depth + 1, MaxIterations: min(iterationLimit(child), left), Budget: share}, nil
}

// share is a listed agent's share of what the run has left: an equal part
// for each listed agent the pending turn calls, one request kept for the
// caller to read their results; a child's own maxTokens bounds its
// tokens further.
func (l *Loop) share(child Agent) (Budget, error) {
	k := 0
	for _, c := range l.pending.Run {
		if _, ok := findListed(l.agent, c.Name); ok {
			k++
		}
	}
	spent := l.resp.Total
	s := Budget{
		Requests:  (l.budget.Requests - spent.Requests - 1) / k,
		ToolCalls: max(l.budget.ToolCalls-spent.ToolCalls, 0) / k,
	}
	if s.Requests < 1 {
		return Budget{}, fmt.Errorf("agent %s was not run: the run's budget of %d %s has %d left, too few to share among the %d agents this response calls and keep one for the caller",
			child.Name, l.budget.Requests, ResourceRequests, l.budget.Requests-spent.Requests, k)
	}
	if l.budget.Tokens > 0 {
		if s.Tokens = (l.budget.Tokens - spent.Tokens()) / k; s.Tokens < 1 {
			return Budget{}, fmt.Errorf("agent %s was not run: the run's budget of %d %s is spent", child.Name, l.budget.Tokens, ResourceTokens)
		}
	}
	if child.MaxTokens > 0 && (s.Tokens == 0 || child.MaxTokens < s.Tokens) {
		s.Tokens = child.MaxTokens
	}
	return s, nil
}

// overBudget is the run's *BudgetError when spend has reached a limit of
// its budget (requests: no next request; tokens: none left), else nil.
func (l *Loop) overBudget() error {
	spent := l.resp.Total
	switch {
	case spent.Requests >= l.budget.Requests:
		return l.budgetError(ResourceRequests, l.budget.Requests, spent.Requests)
	case l.budget.Tokens > 0 && spent.Tokens() >= l.budget.Tokens:
		return l.budgetError(ResourceTokens, l.budget.Tokens, spent.Tokens())
	}
	return nil
}

func (l *Loop) budgetError(resource string, limit, spent int) *BudgetError {
	return &BudgetError{Resource: resource, Limit: limit, Spent: spent, Share: l.depth > 1, Response: l.resp}
}

func findListed(a Agent, name string) (Agent, bool) {
	for _, c := range a.Agents {
		if c.Name == name {
			return c, true
		}
	}
	return Agent{}, false
}

// Charge counts s as the run's spend: what a listed agent's run spent
// that its Invocation cannot show (a durable child workflow that ended
// with no Response is charged its whole share, Child.Spend).
func (l *Loop) Charge(s Spend) { l.resp.Total.Add(s) }
