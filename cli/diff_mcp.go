package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// maxListedTools bounds the tools read from a live server's tools/list
// (its pages included).
const maxListedTools = 100000

// listMCP lists the tools of a live MCP server, a command run over stdio
// (without API keys in its environment, as gramc run --mcp runs it) or a
// streamable HTTP URL, within timeout, and reads the listing as a
// snapshot: the OLD version of gramc diff --against-mcp. Its positions are
// in the listing as JSON ({"tools": [...]}), named by server, with the
// JSON pointer of each.
func listMCP(e *env, server string, timeout time.Duration) (*compat.Snapshot, error) {
	data, err := mcpToolList(server, timeout, "--against-mcp")
	if err != nil {
		return nil, err
	}
	snap, err := compat.ReadSnapshot(server, data)
	if err != nil {
		return nil, mcpFailure("--against-mcp", server, err)
	}
	return snap, nil
}

// mcpToolList returns the tools/list of a live MCP server (every page, at
// most maxListedTools tools) as JSON, {"tools": [...]}, within timeout;
// flag names the server's flag in errors (--against-mcp, --mcp).
func mcpToolList(server string, timeout time.Duration, flag string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	logs := &tailBuffer{max: 4096} // a command's standard error, shown when listing fails
	t, cmd := mcpTransport(server, logs, time.Second)
	if cmd != nil {
		// What the command starts goes when the session does (sh -c 'srv &',
		// a server that forks), after the SDK's own close.
		defer toolcmd.KillGroup(cmd)
	}
	fail := func(err error) error {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			err = fmt.Errorf("no tool list within %s (--mcp-timeout)", timeout)
		}
		if s := strings.TrimSpace(logs.String()); s != "" {
			err = fmt.Errorf("%w; the server wrote:\n%s", err, termsafe.Text(s, 4096))
		}
		return mcpFailure(flag, server, err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "gramc", Version: versionString()}, nil)
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fail(err)
	}
	defer session.Close()
	var tools []*sdk.Tool
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fail(fmt.Errorf("tools/list: %w", err))
		}
		if len(tools) == maxListedTools {
			return nil, fail(fmt.Errorf("more than %d tools listed (the limit)", maxListedTools))
		}
		tools = append(tools, tool)
	}
	data, err := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	if err != nil {
		return nil, fail(err)
	}
	return data, nil
}

func mcpFailure(flag, server string, err error) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf("%s %s: %w", flag, termsafe.Line(server, 200), err)}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
