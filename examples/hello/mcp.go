package main

import (
	"context"
	"io"
	"log"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

// newServer is the MCP server of `hello --mcp`: the generated
// specification bound to the same typed implementation the agent calls.
func newServer() (*sdk.Server, error) {
	return mcp.NewServer("hello", "1.0.0", NewToolLibrary(ToolsImpl{}), []runtime.ToolSpecification{SayHelloSpec})
}

// serveMCP serves sayHello to an MCP host over in and out until the host
// ends the session. runtime/mcp's stdio transport answers a line that is
// not JSON-RPC and goes on, where the SDK's StdioTransport would end the
// session; log lines go to standard error, never to out.
func serveMCP(ctx context.Context, in io.Reader, out io.Writer) error {
	srv, err := newServer()
	if err != nil {
		return err
	}
	return srv.Run(ctx, mcp.NewIOTransport(in, out, log.Printf))
}
