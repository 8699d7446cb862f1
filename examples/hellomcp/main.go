// Command hellomcp serves hello.gram's sayHello tool to MCP hosts, from
// generated code: hello.gram.go is generated from ../hello/hello.gram
// (go generate keeps it fresh, and the tests prove it is), and the tool
// is the typed method below. That file is ../hello/hello.gram.go again, on
// purpose: a main package cannot import another, and this directory is an
// example a user copies whole. Register it in an MCP host as
// {"command": "go", "args": ["run", "github.com/gramc-dev/gramc/examples/hellomcp"]}.
package main

//go:generate go run github.com/gramc-dev/gramc/cmd/gramc gen -o . --package main ../hello/hello.gram

import (
	"context"
	"log"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

// hello implements the generated Tools interface.
type hello struct{}

// SayHello implements the gram tool "sayHello"; the runtime has validated
// the arguments and filled in the default name.
func (hello) SayHello(ctx context.Context, args SayHelloArgs) (SayHelloResult, error) {
	return "Hello, " + args.PersonName + "!", nil
}

// newServer is the MCP server: the generated specification bound to the
// typed implementation.
func newServer() (*sdk.Server, error) {
	return mcp.NewServer("hello", "1.0.0", NewToolLibrary(hello{}), []runtime.ToolSpecification{SayHelloSpec})
}

func main() {
	srv, err := newServer()
	if err != nil {
		log.Fatal(err)
	}
	// runtime/mcp's stdio transport answers a line that is not JSON-RPC
	// and goes on, where the SDK's StdioTransport would end the session.
	if err := srv.Run(context.Background(), mcp.NewIOTransport(os.Stdin, os.Stdout, log.Printf)); err != nil {
		log.Fatal(err)
	}
}
