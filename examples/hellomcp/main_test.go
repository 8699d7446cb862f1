package main

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServe: an MCP client lists the generated tool and calls it; the
// default name is filled in by the runtime before the method runs.
func TestServe(t *testing.T) {
	srv, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	// Connected as runtime/mcp's BenchmarkMCPCall connects (the SDK's
	// in-memory transports), spelt out so that the example stands alone.
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "sayHello" {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	for args, want := range map[string]string{`{"personName":"Ada"}`: "Hello, Ada!", `{}`: "Hello, world!"} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "sayHello", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != want {
			t.Errorf("sayHello %s: %v %+v", args, err, res)
		}
	}
}
