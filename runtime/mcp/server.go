// Package mcp serves gram tools over the Model Context Protocol, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): any MCP host
// (Claude Desktop, Cursor, an IDE, another agent) lists the tools with the
// schemas gramc emits and calls them, and each call is validated and run
// exactly as runtime.Run runs a model's.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
)

// NewServer returns an MCP server offering the tools specs declares, each
// bound to its implementation in lib (runtime.Bind's rules: a missing or
// differing tool is a *runtime.ToolBindingError). A tool's inputSchema is
// its specification's Schema — the `inputSchema` of `gramc schema --target
// mcp` — and its outputSchema the specification's OutputSchema: any JSON
// Schema for a client of MCP 2026-07-28 or later (SEP-2106), one that
// describes an object for an earlier client, which requires that.
//
// A call's arguments are validated against the schema and given their
// defaults by the runtime's own validator before the implementation runs
// (runtime.BoundAgent.Call); an unknown tool, invalid arguments, an error,
// a panic, a timeout (opts: runtime.WithToolTimeout) or a result that is
// not of the tool's declared return type (runtime.ValidateOutput) is a
// result with isError set and the message the runtime gives a model. A
// tool with an output schema returns its result's JSON value as
// structuredContent too (to an earlier client, only an object). The tool
// list carries a ttlMs of ToolListTTL; a client of 2026-07-28 or later is
// not offered the deprecated logging capability. A title is carried; a deprecated tool has
// "deprecated": true in its _meta, as `gramc schema --target mcp` emits.
func NewServer(name, version string, lib *runtime.ToolLibrary, specs []runtime.ToolSpecification, opts ...runtime.Option) (*sdk.Server, error) {
	return NewServerWithOptions(name, version, lib, specs, ServerOptions{}, opts...)
}

// ServerOptions are what a server says beside its tools. The zero value
// is NewServer's server.
type ServerOptions struct {
	// Instructions are the server's MCP instructions: how a client's
	// model should use the tools (initialize's instructions).
	Instructions string
	// Text, when set, gives the readable text content of a tool's
	// successful result from the result (the JSON text of its declared
	// return type) — for a model to read, where structuredContent keeps
	// the value for typed code; false keeps the result's own text.
	Text func(tool, result string) (string, bool)
}

// NewServerWithOptions is NewServer with the ServerOptions so.
func NewServerWithOptions(name, version string, lib *runtime.ToolLibrary, specs []runtime.ToolSpecification, so ServerOptions, opts ...runtime.Option) (*sdk.Server, error) {
	bound, err := runtime.Bind(runtime.Agent{Name: name, Tools: specs}, lib)
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: version}, &sdk.ServerOptions{
		Instructions: so.Instructions,
		// The tool list never changes while the server runs: a client may
		// keep it (MCP 2026-07-28's ttlMs on list results).
		SetCacheable: func(ctx context.Context, req sdk.Request, c *sdk.Cacheable) {
			c.TTLMs = int(ToolListTTL / time.Millisecond)
		},
	})
	s.AddReceivingMiddleware(byProtocolVersion)
	tp := tracerOf(opts)
	var calls atomic.Int64
	for _, spec := range specs {
		tool := &sdk.Tool{Name: spec.Name, Title: spec.Title, Description: spec.Description, InputSchema: json.RawMessage(spec.Schema)}
		if spec.Deprecated {
			tool.Meta = sdk.Meta{"deprecated": true} // as gramc schema --target mcp emits it
		}
		structured := len(spec.OutputSchema) > 0
		if structured {
			// Any JSON Schema (MCP 2026-07-28, SEP-2106); byProtocolVersion
			// keeps a non-object one from earlier clients.
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
			text := inv.Result
			if so.Text != nil {
				if t, ok := so.Text(spec.Name, inv.Result); ok {
					text = t
				}
			}
			res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
			if structured {
				// The call checked the result against the output schema
				// the tool advertises (runtime.ValidateOutput); its JSON
				// value (a String's text as a JSON string) is the
				// structured content.
				if inv.Value != nil {
					res.StructuredContent = inv.Value // a result given apart from its text
				} else if v, err := runtime.OutputJSON(spec, inv.Result); err == nil {
					res.StructuredContent = v
				}
			}
			return res, nil
		})
	}
	return s, nil
}

// ToolListTTL is how long a client may keep gramc mcp's tool list (its
// ttlMs): the list is fixed when the server starts.
const ToolListTTL = 24 * time.Hour

// newProtocol is the first MCP version whose output schemas and
// structured content may be any JSON Schema and value (SEP-2106), and in
// which the logging capability is deprecated (SEP-2577).
const newProtocol = "2026-07-28"

// byProtocolVersion sends each client what its protocol version allows:
// a client of an earlier version than newProtocol rejects an output
// schema that does not describe an object, and structured content that is
// not one, so it gets neither (the text content carries the result); a
// client of newProtocol or later is not offered the deprecated logging
// capability. To a client of newProtocol or later, server/discover must
// declare what the server answers (SEP-2575): the SDK answers the prompts
// and resources lists (empty, with their caching hints, SEP-2549) whatever
// the capabilities, so they are declared, none of the lists changing
// while the server runs.
func byProtocolVersion(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		v, _ := req.(interface{ ProtocolVersion() string })
		version := ""
		if v != nil {
			version = v.ProtocolVersion()
		}
		old := version < newProtocol
		res, err := next(ctx, method, req)
		if err != nil || res == nil {
			return res, err
		}
		switch r := res.(type) {
		case *sdk.ListToolsResult:
			if !old {
				break
			}
			out := *r
			out.Tools = make([]*sdk.Tool, len(r.Tools))
			for i, t := range r.Tools {
				out.Tools[i] = t
				if raw, ok := t.OutputSchema.(json.RawMessage); ok && !isObjectSchema(raw) {
					c := *t
					c.OutputSchema = nil
					out.Tools[i] = &c
				}
			}
			return &out, nil
		case *sdk.CallToolResult:
			if raw, ok := r.StructuredContent.(json.RawMessage); old && ok && !isObjectJSON(raw) {
				r.StructuredContent = nil
			}
		case *sdk.DiscoverResult:
			if !old && r.Capabilities != nil {
				c := *r.Capabilities
				c.Logging = nil
				if c.Tools != nil {
					c.Tools = &sdk.ToolCapabilities{} // the list is fixed: no listChanged
				}
				if c.Prompts == nil {
					c.Prompts = &sdk.PromptCapabilities{}
				}
				if c.Resources == nil {
					c.Resources = &sdk.ResourceCapabilities{}
				}
				r.Capabilities = &c
			}
		}
		return res, nil
	}
}

// isObjectJSON reports whether a JSON value is an object.
func isObjectJSON(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
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
