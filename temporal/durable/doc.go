// Package durable runs gramc agents on Temporal: when one process is not
// enough.
//
// The agent loop is runtime.Loop, the same deterministic core runtime.Run
// drives, driven here from a Temporal workflow (Workflow). Each model
// request is an activity (ActivityComplete), with Temporal's retry policy
// in place of the provider client's own retries; each tool call is
// validated in the workflow by the bound agent (runtime.BoundAgent.Validate)
// and run as an activity (ActivityCallTool) with a start-to-close timeout
// and heartbeats, and the tool receives an idempotency key (IdempotencyKey)
// made of the workflow ID and the call ID. The conversation lives in the
// workflow's history; the workflow's result is the runtime's Response. A
// run whose history grows long continues as new with its state.
//
// A worker registers the workflow and the activities with Register (from
// Go, binding the tools as runtime.Bind does); a client starts or attaches
// to a run with Start and Result. The gramc-temporal command does both from
// the command line, binding tools to commands as gramc run --tool does.
//
// With Config.Telemetry and TracingInterceptor, a run records the spans
// runtime.Run records (invoke_agent, chat, execute_tool), in one trace
// across the starter, the workflow, its activities and its child
// workflows (tracing.go).
//
// This package lives in its own Go module so that users of the compiler
// and the plain runtime never download Temporal's dependencies.
package durable
