package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

// TestContentForTheModel: a server's readable text (ServerOptions.Text)
// and instructions reach the client; as a client, the model is given the
// content and the structured content is the value, checked against the
// declared return type and kept in the invocation (the MCP tools page:
// clients prefer content for the model and do not forward both).
func TestContentForTheModel(t *testing.T) {
	spec := runtime.ToolSpecification{Name: "count", Description: "Counts",
		Schema:       json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		return map[string]int{"n": 3}, nil
	}})
	srv, err := mcp.NewServerWithOptions("counter", "test", lib, []runtime.ToolSpecification{spec}, mcp.ServerOptions{
		Instructions: "Count with count.",
		Text: func(tool, result string) (string, bool) {
			return tool + " says " + result, true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := serveInMemory(t, srv, sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil), nil)
	if got := cs.InitializeResult().Instructions; got != "Count with count." {
		t.Errorf("instructions %q", got)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "count", Arguments: map[string]any{"word": "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; text != `count says {"n":3}` {
		t.Errorf("content %q", text)
	}
	if data, _ := json.Marshal(res.StructuredContent); string(data) != `{"n":3}` {
		t.Errorf("structuredContent %s", data)
	}

	// The client side: an agent bound to the server's tool.
	tools, err := mcp.Tools(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := runtime.Bind(runtime.Agent{Name: "a", Tools: []runtime.ToolSpecification{spec}}, runtime.NewToolLibrary(tools...))
	if err != nil {
		t.Fatal(err)
	}
	inv := bound.Call(context.Background(), runtime.ToolCall{ID: "1", Name: "count", Arguments: `{"word":"abc"}`})
	if inv.Err != nil {
		t.Fatal(inv.Err)
	}
	if inv.Result != `count says {"n":3}` || string(inv.Value) != `{"n":3}` {
		t.Errorf("the model was sent %q and the value kept is %s; want the content and the structured content", inv.Result, inv.Value)
	}
}
