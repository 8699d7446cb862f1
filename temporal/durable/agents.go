package durable

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/runtime"
)

// Agents as tools (docs/language.md §2.5), durably: a listed agent the
// model calls runs as a child workflow of the caller's (the same
// WorkflowName, its ID the caller's and the call's, "WORKFLOW/CALL"), so
// its model requests and tool calls are activities of its own history,
// visible on their own and replayed after a crash like the caller's. Its
// result is the caller's tool result and its failure a tool error, as in
// runtime.Run. What it may spend — its level, its iteration limit, its
// share of the run's budget — is the caller's Loop's decision
// (runtime.Loop.Child), carried in its Input; what it spent is the
// caller's spend when it ends.

// addListed serves the agents the configured agents list (and theirs):
// each runs as a child workflow under its own name, on the Model cfg
// gives it. An agent configured or listed twice is served once.
func (w *Worker) addListed() error {
	var walk func(b *runtime.BoundAgent) error
	walk = func(b *runtime.BoundAgent) error {
		for _, child := range b.Subagents() {
			name := child.Agent.Name
			if _, served := w.agents[name]; !served {
				m, err := w.cfg.Model(child.Agent)
				if err != nil {
					return fmt.Errorf("durable: agent %s (listed by %s): %w", name, b.Agent.Name, err)
				}
				w.agents[name], w.models[name] = child, m
			}
			if err := walk(child); err != nil {
				return err
			}
		}
		return nil
	}
	for _, b := range w.cfg.Agents {
		if err := walk(b); err != nil {
			return err
		}
	}
	return nil
}

// startChild starts the child workflow that runs the listed agent of
// call (its validated args) as the Loop decides, or, when the Loop
// decides it may not run (past the nesting limit, nothing left to share,
// an input it cannot take), sets inv's tool error and returns nils.
func (w *Worker) startChild(ctx workflow.Context, in Input, l *runtime.Loop, call runtime.ToolCall, args json.RawMessage, inv *runtime.Invocation) (workflow.Future, *runtime.Child) {
	c, err := l.Child(call, args)
	if err != nil {
		inv.Err = &runtime.ToolCallError{Tool: call.Name, Kind: runtime.ToolFailed, Message: fmt.Sprintf("tool %s failed: %v", call.Name, err), Err: err}
		return nil, nil
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID + "/" + call.ID,
	})
	return workflow.ExecuteChildWorkflow(cctx, WorkflowName, Input{
		Agent: c.Agent, Input: c.Input, MaxToolCalls: in.MaxToolCalls, Child: &c,
	}), &c
}

// childResult waits for a listed agent's child workflow and records its
// run in inv: its result, or its failure as a tool error, with the run
// so far when the failure carries it. A child whose run cannot be seen
// (it ended with no Response) is charged its whole share.
func childResult(ctx workflow.Context, f workflow.Future, l *runtime.Loop, c runtime.Child, inv *runtime.Invocation) {
	var resp runtime.Response
	err := f.Get(ctx, &resp)
	if err == nil {
		inv.Result, inv.Agent = resp.ToolResult(), &resp
		return
	}
	msg := err.Error()
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		msg = app.Message()
		var partial runtime.Response
		if app.HasDetails() && app.Details(&partial) == nil {
			inv.Agent = &partial
		}
	}
	if inv.Agent == nil {
		l.Charge(c.Spend())
	}
	inv.Err = &runtime.ToolCallError{Tool: inv.Tool, Kind: runtime.ToolFailed,
		Message: fmt.Sprintf("tool %s failed: agent %s: %s", inv.Tool, inv.Tool, msg), Err: err}
}
