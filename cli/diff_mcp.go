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
	"github.com/gramc-dev/gramc/runtime/mcp"
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
	// A signal while the server starts or lists ends the listing and kills
	// the server's process group at once.
	sctx, interrupted, stopSignals := stopOnSignal(context.Background(), nil)
	defer stopSignals()
	ctx, cancel := context.WithTimeout(sctx, timeout)
	defer cancel()
	logs := &tailBuffer{max: 4096} // a command's standard error, shown when listing fails
	t, cmd := mcpTransport(sctx, server, logs, time.Second)
	if cmd != nil {
		// What the command starts goes when the session does (sh -c 'srv &',
		// a server that forks), after the SDK's own close.
		defer toolcmd.KillGroup(cmd)
	}
	fail := func(err error) error {
		if sctx.Err() != nil {
			return interrupted(err)
		}
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			err = fmt.Errorf("no tool list within %s (--mcp-timeout)", timeout)
		}
		err = mcp.ClientError(t, err)
		if s := strings.TrimSpace(logs.String()); s != "" {
			err = fmt.Errorf("%w; the server wrote:\n%s", err, termsafe.Text(s, 4096))
		}
		return &exitError{code: ExitUsage, err: fmt.Errorf("--against-mcp %s: %w", termsafe.Line(server, 200), err)}
	}
	client := mcp.NewClient("gramc diff", versionString())
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
	snap, err := compat.ReadSnapshot(server, data)
	if err != nil {
		return nil, fail(err)
	}
	return snap, nil
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
