// Command hello runs hello.gram's hello_world_agent with typed Go tools,
// or serves its sayHello tool to MCP hosts.
//
// hello.gram.go is generated from hello.gram (go generate keeps it fresh,
// and `gramc gen --check` in the tests proves it is); tools_impl.go is the
// implementation, started from `gramc gen --stubs`. The agent and the MCP
// server (mcp.go) call the same implementation.
//
// Usage:
//
//	OPENAI_API_KEY=sk-... go run ./examples/hello "Hi, I'm Ada"
//	go run ./examples/hello --mcp    # an MCP server on standard input and output
//
// OPENAI_BASE_URL points the agent at any OpenAI-compatible server instead.
// Register the server in an MCP host as
// {"command": "go", "args": ["run", "github.com/gramc-dev/gramc/examples/hello", "--mcp"]}.
package main

//go:generate go run github.com/gramc-dev/gramc/cmd/gramc gen .

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/openai"
)

func main() {
	var err error
	if args := os.Args[1:]; len(args) == 1 && args[0] == "--mcp" {
		err = serveMCP(context.Background(), os.Stdin, os.Stdout)
	} else {
		err = run(context.Background(), args, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}

// run sends the arguments (or a greeting) to the agent and prints the tool
// calls it made, as `gramc run` shows them, and its answer.
func run(ctx context.Context, args []string, out io.Writer) error {
	input := strings.Join(args, " ")
	if strings.TrimSpace(input) == "" {
		input = "Hello!"
	}
	model, err := openai.New() // OPENAI_API_KEY, OPENAI_BASE_URL
	if err != nil {
		return err
	}
	resp, err := runtime.Run(ctx, model, NewHelloWorldAgent(), NewToolLibrary(ToolsImpl{}), input, nil)
	if err != nil {
		return err
	}
	for _, inv := range resp.Invocations {
		fmt.Fprintf(out, "→ %s %s\n", inv.Tool, inv.Args)
		if inv.Err != nil {
			fmt.Fprintf(out, "← %s failed: %v\n", inv.Tool, inv.Err)
		} else {
			fmt.Fprintf(out, "← %s %s\n", inv.Tool, inv.Result)
		}
	}
	fmt.Fprintln(out, resp.Content)
	return nil
}
