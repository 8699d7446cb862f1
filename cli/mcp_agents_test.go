package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() {
	// mcpagents COMMAND ARGS... is mcpclient for served agents: with the
	// official Go SDK's client it lists COMMAND's tools, each on three
	// lines ("tool NAME: DESCRIPTION", "  in INPUTSCHEMA", "  out
	// OUTPUTSCHEMA" or "  out none"), then calls each "TOOL JSON" line of
	// its standard input and prints "ok TEXT" or "error TEXT", and
	// "  structured JSON" when the result has structuredContent.
	scriptCommands["mcpagents"] = func() { os.Exit(mcpAgentsMain(os.Args[1:])) }
}

func mcpAgentsMain(args []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	return runMCPScript(ctx, "mcpagents", &sdk.CommandTransport{Command: cmd}, func(t *sdk.Tool) {
		in, _ := json.Marshal(t.InputSchema)
		out := []byte("none")
		if t.OutputSchema != nil {
			out, _ = json.Marshal(t.OutputSchema)
		}
		fmt.Printf("tool %s: %s\n  in %s\n  out %s\n", t.Name, t.Description, in, out)
	}, func(res *sdk.CallToolResult) {
		if res.StructuredContent != nil {
			data, _ := json.Marshal(res.StructuredContent)
			fmt.Printf("  structured %s\n", data)
		}
	})
}
