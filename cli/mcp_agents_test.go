package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "mcpagents", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpagents: connect:", err)
		return 1
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpagents: tools/list:", err)
		return 1
	}
	for _, t := range tools.Tools {
		in, _ := json.Marshal(t.InputSchema)
		out := []byte("none")
		if t.OutputSchema != nil {
			out, _ = json.Marshal(t.OutputSchema)
		}
		fmt.Printf("tool %s: %s\n  in %s\n  out %s\n", t.Name, t.Description, in, out)
	}
	input, _ := os.ReadFile("/dev/stdin")
	for _, line := range strings.Split(strings.TrimSpace(string(input)), "\n") {
		name, arguments, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(arguments)})
		if err != nil {
			fmt.Printf("protocol-error %v\n", err)
			continue
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		kind := "ok"
		if res.IsError {
			kind = "error"
		}
		fmt.Printf("%s %s\n", kind, text.String())
		if res.StructuredContent != nil {
			data, _ := json.Marshal(res.StructuredContent)
			fmt.Printf("  structured %s\n", data)
		}
	}
	return 0
}
