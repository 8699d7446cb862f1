package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/internal/termsafe"
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
func listMCP(ctx context.Context, server string, timeout time.Duration) (*compat.Snapshot, error) {
	data, err := mcpToolList(ctx, server, timeout, "--against-mcp", "gramc diff")
	if err != nil {
		return nil, err
	}
	snap, err := compat.ReadSnapshot(server, data)
	if err != nil {
		return nil, mcpFailure("--against-mcp", server, err)
	}
	return snap, nil
}

// mcpFailure is the error of listing server's tools, given with flag.
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
