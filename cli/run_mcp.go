package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

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
		t, cmd := mcpTransport(server, e.stderr, 0)
		if cmd != nil {
			commands = append(commands, cmd)
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

// mcpTransport is the transport to an MCP server as gramc's flags name
// one: a streamable HTTP URL, or a shell command run over stdio without
// API keys in its environment, in a process group of its own (cmd: the
// caller kills the group, toolcmd.KillGroup, when the session is closed),
// its standard error to stderr, given terminate to exit once its input
// is closed (0: the SDK's default).
func mcpTransport(server string, stderr io.Writer, terminate time.Duration) (t sdk.Transport, cmd *exec.Cmd) {
	if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
		return &sdk.StreamableClientTransport{Endpoint: server}, nil
	}
	cmd = exec.Command("sh", "-c", server)
	cmd.Env = toolcmd.ToolEnv(os.Environ())
	cmd.Stderr = stderr
	toolcmd.NewProcessGroup(cmd)
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: terminate}, cmd
}
