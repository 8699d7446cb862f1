package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServe: `hello --mcp` met by an MCP client over its standard input
// and output (pipes here): the client lists the generated tool and calls
// it; the default name is filled in by the runtime before the method runs,
// and the session ends when the host closes the server's input.
func TestServe(t *testing.T) {
	ctx := context.Background()
	hostToServer, serverIn := io.Pipe()
	serverToHost, serverOut := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- serveMCP(ctx, hostToServer, serverOut)
		serverOut.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: serverToHost, Writer: serverIn}, nil)
	if err != nil {
		t.Fatal(err)
	}
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
	cs.Close()
	if err := <-served; err != nil {
		t.Errorf("serveMCP after the host closed: %v", err)
	}
}
