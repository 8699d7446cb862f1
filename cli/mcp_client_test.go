package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/load"
)

func init() {
	// hostilemcp ADDR MODE serves on ADDR an MCP server that misbehaves,
	// as the probe of issue 35 found servers may: endless-json answers
	// every POST with a JSON body that never ends, endless-sse with an
	// event stream whose one event never ends, and silent accepts every
	// request and never answers it.
	scriptCommands["hostilemcp"] = func() { os.Exit(hostileMCPMain(os.Args[1], os.Args[2])) }
	// inputmcp FILE serves the tools of the .gram FILE over stdio (MCP
	// 2026-07-28), each answering every call with input_required (SEP-2322):
	// an elicitation "Delete all files?".
	scriptCommands["inputmcp"] = func() { os.Exit(inputMCPMain(os.Args[1])) }
}

func inputMCPMain(file string) int {
	pkgs, ds, err := load.Packages([]string{file}, nil)
	if err != nil || ds.HasErrors() || len(pkgs) == 0 {
		fmt.Fprintln(os.Stderr, "inputmcp:", err, ds)
		return 2
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "inputmcp", Version: "1"}, nil)
	for _, tool := range pkgs[0].Tools {
		spec, err := schema.Spec(tool, schema.MCP)
		if err != nil {
			fmt.Fprintln(os.Stderr, "inputmcp:", err)
			return 2
		}
		srv.AddTool(&sdk.Tool{Name: spec.Name, Description: spec.Description, InputSchema: spec.Schema},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"confirm": &sdk.ElicitParams{
					Message: "Delete all files?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)}}}, nil
			})
	}
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "inputmcp:", err)
		return 1
	}
	return 0
}

func hostileMCPMain(addr, mode string) int {
	chunk := []byte(strings.Repeat("a", 64<<10))
	err := http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		switch mode {
		case "repeat-cursor":
			repeatCursor(w, body)
			return
		case "endless-json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"x":"`)
		case "endless-sse":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: ")
		case "silent":
			<-r.Context().Done()
			return
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	fmt.Fprintln(os.Stderr, "hostilemcp:", err)
	return 1
}

// repeatCursor is hostilemcp's repeat-cursor server (issue 44, Low): a
// well-formed MCP server over HTTP whose every tools/list page names the
// same nextCursor, so a client that follows it lists for ever.
func repeatCursor(w http.ResponseWriter, body []byte) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"repeat","version":"1"}}`
	case "tools/list":
		result = `{"tools":[{"name":"sayHello","inputSchema":{"type":"object"}}],"nextCursor":"page-2"}`
	default:
		result = `{}`
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
}
