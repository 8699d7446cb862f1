package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// connectMCP connects to the MCP servers of gramc run --mcp — a command
// run as a subprocess (stdio, without API keys in its environment) or a
// streamable HTTP URL — and returns their tools, bound by name to the
// agent's declarations, and a function that closes the sessions. Each
// server has timeout to start and list its tools; a server that fails,
// or ctx's end (a signal), closes every session opened so far and kills
// the commands' process groups.
func connectMCP(ctx context.Context, e *env, servers []string, timeout time.Duration, pass []string) ([]runtime.Tool, func(), error) {
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
	client := mcp.NewClient("gramc", versionString())
	for _, server := range servers {
		t, cmd := mcpTransport(ctx, server, e.stderr, 0, pass...)
		if cmd != nil {
			commands = append(commands, cmd)
		}
		ts, s, err := connectOne(ctx, client, t, timeout)
		if s != nil {
			sessions = append(sessions, s)
		}
		if err != nil {
			closeAll()
			// A command that never started a session is killed here.
			return nil, func() {}, &exitError{code: ExitUsage, err: fmt.Errorf("--mcp %s: %w", termsafe.Line(server, 200), err)}
		}
		tools = append(tools, ts...)
	}
	return tools, closeAll, nil
}

// connectOne opens a session on t and lists its tools within timeout.
func connectOne(ctx context.Context, client *sdk.Client, t sdk.Transport, timeout time.Duration) ([]runtime.Tool, *sdk.ClientSession, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	bounded := func(err error) error {
		if ctx.Err() == nil && cctx.Err() != nil {
			err = fmt.Errorf("no tool list within %s (--mcp-timeout)", timeout)
		}
		return mcp.ClientError(t, err)
	}
	s, err := client.Connect(cctx, t, nil)
	if err != nil {
		return nil, nil, bounded(err)
	}
	ts, err := mcp.Tools(cctx, s)
	if err != nil {
		return nil, s, bounded(err)
	}
	// The tools call the server later, with their own contexts.
	established(t)
	return ts, s, nil
}

// mcpTransport is the transport to an MCP server as gramc's flags name
// one: a streamable HTTP URL (every response bounded), or a shell command
// run over stdio without credentials in its environment (but those named
// in pass: toolcmd.ToolEnv), in a process group
// of its own (cmd: the caller kills the group, toolcmd.KillGroup, when
// the session is closed; the end of ctx, a signal, kills it at once), its
// standard error to stderr, given terminate to exit once its input is
// closed (0: the SDK's default).
func mcpTransport(ctx context.Context, server string, stderr io.Writer, terminate time.Duration, pass ...string) (t sdk.Transport, cmd *exec.Cmd) {
	if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
		return mcp.NewHTTPClientTransport(server), nil
	}
	cmd = exec.Command("sh", "-c", server)
	cmd.Env = toolcmd.ToolEnv(os.Environ(), pass...)
	cmd.Stderr = stderr
	toolcmd.NewProcessGroup(cmd)
	return &killOnDone{Transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: terminate}, ctx: ctx, cmd: cmd}, cmd
}

// killOnDone is a command's transport that kills the command's process
// group when ctx ends, or the context of connecting does before the
// session is established: without waiting for a session to close, a
// server that has not answered initialize yet included.
type killOnDone struct {
	sdk.Transport
	ctx context.Context
	cmd *exec.Cmd

	mu          sync.Mutex
	stopConnect func() bool
}

func (k *killOnDone) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := k.Transport.Connect(ctx)
	if err == nil {
		// Registered once the command has started (cmd.Process is set).
		kill := func() { toolcmd.KillGroup(k.cmd) }
		context.AfterFunc(k.ctx, kill)
		k.mu.Lock()
		k.stopConnect = context.AfterFunc(ctx, kill)
		k.mu.Unlock()
	}
	return c, err
}

// established says that the session is up and its tools listed: the end
// of the context it was connected with no longer kills the command.
func established(t sdk.Transport) {
	if k, ok := t.(*killOnDone); ok {
		k.mu.Lock()
		if k.stopConnect != nil {
			k.stopConnect()
		}
		k.mu.Unlock()
	}
}
