package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() {
	// mcpburst N COMMAND ARGS... calls the "TOOL JSON" line of its
	// standard input N times at once on COMMAND's MCP server (the official
	// Go SDK's client over stdio) and prints "ok K" and "error K", the
	// counts of each outcome, then every distinct error text once,
	// "error-text TEXT", sorted.
	scriptCommands["mcpburst"] = func() { os.Exit(mcpBurstMain(os.Args[1:])) }
}

func mcpBurstMain(args []string) int {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpburst: N:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stderr = os.Stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "mcpburst", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpburst: connect:", err)
		return 1
	}
	defer cs.Close()
	input, _ := os.ReadFile("/dev/stdin")
	name, arguments, _ := strings.Cut(strings.TrimSpace(string(input)), " ")
	var mu sync.Mutex
	counts := map[string]int{}
	texts := map[string]bool{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(arguments)})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				counts["protocol-error"]++
				texts[err.Error()] = true
			case res.IsError:
				counts["error"]++
				for _, c := range res.Content {
					if tc, ok := c.(*sdk.TextContent); ok {
						texts[tc.Text] = true
					}
				}
			default:
				counts["ok"]++
			}
		})
	}
	wg.Wait()
	fmt.Printf("ok %d\nerror %d\n", counts["ok"], counts["error"]+counts["protocol-error"])
	var sorted []string
	for t := range texts {
		sorted = append(sorted, t)
	}
	slices.Sort(sorted)
	for _, t := range sorted {
		fmt.Printf("error-text %s\n", t)
	}
	return 0
}
