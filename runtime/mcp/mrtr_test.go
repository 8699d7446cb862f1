package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime/mcp"
)

// TestInputRequired: a server's input_required result (MCP 2026-07-28,
// SEP-2322) is a tool error naming what the server asked, never an empty
// result for the model (issue 35.4) — also when it names nothing and
// only carries a request state. The server is the SDK's own, built by
// hand as cli's TestListMCP builds one: gramc's never answers this way.
func TestInputRequired(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "del", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{
			"confirm": &sdk.ElicitParams{Message: "Delete all files?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)},
			"model":   &sdk.CreateMessageParams{MaxTokens: 10, Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "hi"}}}},
		}}, nil
	})
	srv.AddTool(&sdk.Tool{Name: "state", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{RequestState: "opaque"}, nil
	})
	cs := serveInMemory(t, srv, mcp.NewClient("gramc", "test"), nil)
	tools, err := mcp.Tools(context.Background(), cs)
	if err != nil || len(tools) != 2 {
		t.Fatal(tools, err)
	}
	for _, tool := range tools {
		res, err := tool.Func(context.Background(), json.RawMessage(`{}`))
		if err == nil {
			t.Fatalf("%s: result %q, want the input the server asked for as an error", tool.Spec.Name, res)
		}
		msg := err.Error()
		want := []string{"the MCP server asked for input gramc does not give (input_required)"}
		if tool.Spec.Name == "del" {
			want = append(want, `"confirm": elicitation/create "Delete all files?"`, `"model": sampling/createMessage`)
		} else {
			want = append(want, "nothing named")
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q, want %q in it", tool.Spec.Name, msg, w)
			}
		}
	}
}
