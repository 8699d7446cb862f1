// Package mcp serves gram tools over the Model Context Protocol, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): any MCP host
// (Claude Desktop, Cursor, an IDE, another agent) lists the tools with the
// schemas gramc emits and calls them, and each call is validated and run
// exactly as runtime.Run runs a model's.
package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
)

// NewServer returns an MCP server offering the tools specs declares, each
// bound to its implementation in lib (runtime.Bind's rules: a missing or
// differing tool is a *runtime.ToolBindingError). A tool's inputSchema is
// its specification's Schema — the `inputSchema` of `gramc schema --target
// mcp` — and its outputSchema the specification's OutputSchema when that
// describes an object (MCP requires one).
//
// A call's arguments are validated against the schema and given their
// defaults by the runtime's own validator before the implementation runs
// (runtime.BoundAgent.Call); an unknown tool, invalid arguments, an error,
// a panic, a timeout (opts: runtime.WithToolTimeout) or a result that is
// not of the tool's declared return type (runtime.ValidateOutput) is a
// result with isError set and the message the runtime gives a model. A
// tool with an object output schema returns its JSON result as
// structuredContent too. A title is carried; a deprecated tool has
// "deprecated": true in its _meta, as `gramc schema --target mcp` emits.
func NewServer(name, version string, lib *runtime.ToolLibrary, specs []runtime.ToolSpecification, opts ...runtime.Option) (*sdk.Server, error) {
	bound, err := runtime.Bind(runtime.Agent{Name: name, Tools: specs}, lib)
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: version}, nil)
	tp := tracerOf(opts)
	var calls atomic.Int64
	for _, spec := range specs {
		tool := &sdk.Tool{Name: spec.Name, Title: spec.Title, Description: spec.Description, InputSchema: json.RawMessage(spec.Schema)}
		if spec.Deprecated {
			tool.Meta = sdk.Meta{"deprecated": true} // as gramc schema --target mcp emits it
		}
		structured := isObjectSchema(spec.OutputSchema)
		if structured {
			tool.OutputSchema = json.RawMessage(spec.OutputSchema)
		}
		s.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args := ""
			if req.Params != nil {
				args = string(req.Params.Arguments)
			}
			id := "mcp_" + strconv.FormatInt(calls.Add(1), 10)
			ctx, end := serverSpan(ctx, tp, req, spec.Name)
			inv := bound.Call(ctx, runtime.ToolCall{ID: id, Name: spec.Name, Arguments: args}, opts...)
			if inv.Err != nil {
				end(true, inv.Err.Error())
			} else {
				end(false, "")
			}
			if inv.Err != nil {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: inv.Err.Error()}}}, nil
			}
			res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: inv.Result}}}
			if structured {
				// The call checked the result against the output schema
				// the tool advertises (runtime.ValidateOutput).
				res.StructuredContent = json.RawMessage(inv.Result)
			}
			return res, nil
		})
	}
	return s, nil
}

// isObjectSchema reports whether a JSON Schema describes an object (or a
// reference to one, which gramc emits for records).
func isObjectSchema(schema json.RawMessage) bool {
	if len(schema) == 0 {
		return false
	}
	var s struct {
		Type any    `json:"type"`
		Ref  string `json:"$ref"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return false
	}
	return s.Type == "object"
}
