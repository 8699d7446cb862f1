package durable

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/runtime"
)

// Agents as tools (LANGUAGE.md §2.5), durably: a listed agent the model
// calls runs as a child workflow of the caller's (the same WorkflowName,
// its ID the caller's and the call's, "WORKFLOW/CALL"), so its model
// requests and tool calls are activities of its own history, visible on
// their own and replayed after a crash like the caller's. Its result is
// the caller's tool result and its failure a tool error, as in
// runtime.Run; the iteration budget (runtime.ListedIterations) and the
// nesting limit (runtime.MaxAgentNesting) flow down through its Input.

// addListed serves the agents the configured agents list (and theirs):
// each runs as a child workflow under its own name, on the Model cfg
// gives it. An agent configured or listed twice is served once.
func (w *Worker) addListed() error {
	var walk func(b *runtime.BoundAgent, depth int) error
	walk = func(b *runtime.BoundAgent, depth int) error {
		if depth >= runtime.MaxAgentNesting {
			return nil // Bind refuses deeper nestings
		}
		for _, a := range b.Agent.Agents {
			child, ok := b.Listed(a.Name)
			if !ok {
				continue
			}
			if _, served := w.agents[a.Name]; !served {
				m, err := w.cfg.Model(child.Agent)
				if err != nil {
					return fmt.Errorf("durable: agent %s (listed by %s): %w", a.Name, b.Agent.Name, err)
				}
				w.agents[a.Name], w.models[a.Name] = child, m
			}
			if err := walk(child, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, b := range w.cfg.Agents {
		if err := walk(b, 1); err != nil {
			return err
		}
	}
	return nil
}

// startChild starts the child workflow that runs listed agent child for
// call (its validated args), or, when it cannot run (past the nesting
// limit, no model request left, an input it cannot take), sets inv's
// tool error and returns nil.
func (w *Worker) startChild(ctx workflow.Context, in Input, l *runtime.Loop, child *runtime.BoundAgent, call runtime.ToolCall, args json.RawMessage, inv *runtime.Invocation) workflow.Future {
	fail := func(err error) workflow.Future {
		inv.Err = &runtime.ToolCallError{Tool: call.Name, Kind: runtime.ToolFailed, Message: fmt.Sprintf("tool %s failed: %v", call.Name, err), Err: err}
		return nil
	}
	level := max(in.Depth, 1) + 1
	if err := runtime.ListedNesting(child.Agent, level); err != nil {
		return fail(err)
	}
	limit, err := runtime.ListedIterations(child.Agent, l.Limit()-l.Response().Iterations)
	if err != nil {
		return fail(err)
	}
	input, err := runtime.ListedInput(child.Agent, args)
	if err != nil {
		return fail(err)
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID + "/" + call.ID,
	})
	return workflow.ExecuteChildWorkflow(cctx, WorkflowName, Input{
		Agent: child.Agent.Name, Input: input, MaxIterations: limit, MaxToolCalls: in.MaxToolCalls, Depth: level,
	})
}

// childResult waits for a listed agent's child workflow and records its
// run in inv: its result, or its failure as a tool error (the partial
// run of one that hit its iteration limit kept too).
func childResult(ctx workflow.Context, f workflow.Future, inv *runtime.Invocation) {
	var resp runtime.Response
	err := f.Get(ctx, &resp)
	if err == nil {
		inv.Result, inv.Agent = runtime.ListedResult(&resp), &resp
		return
	}
	msg := err.Error()
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		msg = app.Message()
		if app.Type() == string(ErrIterationLimit) && app.HasDetails() {
			var partial runtime.Response
			if app.Details(&partial) == nil {
				inv.Agent = &partial
			}
		}
	}
	inv.Err = &runtime.ToolCallError{Tool: inv.Tool, Kind: runtime.ToolFailed,
		Message: fmt.Sprintf("tool %s failed: agent %s: %s", inv.Tool, inv.Tool, msg), Err: err}
}
