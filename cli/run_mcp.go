package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// connectMCP connects to the MCP servers of gramc run --mcp — a command
// run as a subprocess (stdio, without API keys in its environment) or a
// streamable HTTP URL — and returns their tools, bound by name to the
// agent's declarations, and a function that closes the sessions.
func connectMCP(ctx context.Context, e *env, servers []string) ([]runtime.Tool, func(), error) {
	var sessions []*sdk.ClientSession
	var commands []*exec.Cmd
	closeAll := func() {
		for _, s := range sessions {
			s.Close()
		}
		// What a server command started goes when its session does (sh -c
		// 'srv &', a server that forks), after the SDK's own close.
		for _, cmd := range commands {
			toolcmd.KillGroup(cmd)
		}
	}
	var tools []runtime.Tool
	client := sdk.NewClient(&sdk.Implementation{Name: "gramc", Version: versionString()}, nil)
	for _, server := range servers {
		var t sdk.Transport
		if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
			t = &sdk.StreamableClientTransport{Endpoint: server}
		} else {
			cmd := exec.Command("sh", "-c", server)
			cmd.Env = toolcmd.ToolEnv(os.Environ())
			cmd.Stderr = e.stderr
			toolcmd.NewProcessGroup(cmd)
			commands = append(commands, cmd)
			t = &sdk.CommandTransport{Command: cmd}
		}
		s, err := client.Connect(ctx, t, nil)
		if err != nil {
			closeAll()
			return nil, func() {}, &exitError{code: ExitUsage, err: fmt.Errorf("--mcp %s: %w", server, err)}
		}
		sessions = append(sessions, s)
		ts, err := mcp.Tools(ctx, s)
		if err != nil {
			closeAll()
			return nil, func() {}, &exitError{code: ExitUsage, err: fmt.Errorf("--mcp %s: %w", server, err)}
		}
		tools = append(tools, ts...)
	}
	return tools, closeAll, nil
}
