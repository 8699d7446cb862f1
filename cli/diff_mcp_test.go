package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/compat"
)

// TestListMCP: a live server's tools/list, over streamable HTTP, read as
// the OLD version: a parameter made required is found, positioned in the
// listing with its pointer.
//
// Parallel to runtime/mcp's TestInputRequired: the same go-sdk server
// with a tool, here served over streamable HTTP to gramc diff's lister.
func TestListMCP(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "w", Description: "W", InputSchema: json.RawMessage(`{"type":"object","properties":{"days":{"type":"integer","maximum":14}},"additionalProperties":false}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	e := &env{stdout: io.Discard, stderr: io.Discard}
	snap, err := listMCP(t.Context(), ts.URL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/t.gram", []byte("[w:Tool {description: \"W\"} | (days::Integer {range: 1..14})==>(::String)]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newPkgs, _, _, err := loadVersion(t.Context(), e, dir)
	if err != nil {
		t.Fatal(err)
	}
	changes := compat.Compare(snap.Packages, newPkgs)
	if len(changes) != 2 {
		t.Fatalf("%+v", changes)
	}
	for _, c := range changes {
		if c.Code == compat.ParamNowRequired {
			if ptr, ok := snap.Pointer(c.Old); !ok || ptr != "/tools/0/inputSchema/properties/days" || c.Old.File != ts.URL {
				t.Errorf("old %v, pointer %q", c.Old, ptr)
			}
			return
		}
	}
	t.Errorf("no %s in %+v", compat.ParamNowRequired, changes)
}

// silentServer is the URL of an HTTP server that never answers (until
// the test ends).
func silentServer(t *testing.T) string {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(release) })
	return ts.URL
}

// TestListMCPTimeout: a server that does not answer is given up after
// the timeout, which the error names.
func TestListMCPTimeout(t *testing.T) {
	_, err := listMCP(t.Context(), silentServer(t), 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no tool list within 200ms (--mcp-timeout)") {
		t.Errorf("%v", err)
	}
}

// TestListMCPEndsWithItsContext: the listing runs under the command's
// context (cobra's cmd.Context()), so a caller that ends it ends the
// listing at once, well before --mcp-timeout, and the error says it was
// cancelled, not that the server was slow.
func TestListMCPEndsWithItsContext(t *testing.T) {
	url := silentServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := listMCP(ctx, url, time.Hour)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || strings.Contains(err.Error(), "--mcp-timeout") {
			t.Errorf("listing under a cancelled context: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the listing went on after its context ended")
	}
}
