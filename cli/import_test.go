package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gramc-dev/gramc/diag"
)

// The scripts of gramc import read the real documents kept with the
// importer's test data ($IMPORTDATA), and talk to an MCP server written
// with the official go-sdk (sdkserver), as a team's own server would be.
func init() {
	scriptCommands["sdkserver"] = sdkServer
	scriptCommands["listmcp"] = func() { os.Exit(listMCPMain(os.Args[1])) }
	scriptSetups = append(scriptSetups, func(env *testscript.Env) error {
		dir, err := filepath.Abs("../importer/testdata/thirdparty")
		if err != nil {
			return err
		}
		env.Setenv("IMPORTDATA", dir)
		return nil
	})
}

// forecastIn and forecastOut are the typed arguments and result of the
// SDK server's tool: the SDK writes their schemas (google/jsonschema-go),
// not gramc.
type forecastIn struct {
	City string   `json:"city" jsonschema:"the city, e.g. Paris"`
	Days int      `json:"days,omitempty" jsonschema:"how many days ahead"`
	Tags []string `json:"tags,omitempty"`
	At   place    `json:"at,omitempty" jsonschema:"where exactly"`
}

type place struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

type forecastOut struct {
	Summary string  `json:"summary" jsonschema:"one line"`
	High    float64 `json:"high"`
	Low     float64 `json:"low,omitempty"`
}

type echoIn struct {
	Text string `json:"text"`
}

// sdkServer is a stdio MCP server made with the go-sdk: three tools, one
// with an output schema, listed one page a tool (the client follows the
// cursor; gramc import keeps the pages' order).
func sdkServer() {
	s := sdk.NewServer(&sdk.Implementation{Name: "sdkserver", Version: "1"}, &sdk.ServerOptions{PageSize: 1})
	sdk.AddTool(s, &sdk.Tool{Name: "forecast", Description: "The weather ahead", Title: "Forecast"},
		func(ctx context.Context, _ *sdk.CallToolRequest, in forecastIn) (*sdk.CallToolResult, forecastOut, error) {
			return nil, forecastOut{Summary: "sun", High: 20}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "echo.text", Description: "Echoes"},
		func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "zeta", Description: "Listed last"},
		func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Text}}}, nil, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// TestImportWarningsBounded: gramc import prints its warnings as every
// command prints diagnostics: at most diag.MaxSameCode of a code in a
// source, then one counting the rest, all of them with -e; the count line
// counts them all either way.
func TestImportWarningsBounded(t *testing.T) {
	var props []string
	for i := range diag.MaxSameCode + 3 {
		props = append(props, fmt.Sprintf(`"p%d":{}`, i))
	}
	src := filepath.Join(t.TempDir(), "wide.json")
	doc := `{"type":"object","additionalProperties":false,"properties":{"r":{"type":"object","additionalProperties":false,"properties":{` + strings.Join(props, ",") + `}}}}`
	if err := os.WriteFile(src, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		shown int
		rest  string // the line counting the rest, if any
	}{
		{[]string{"import", src}, diag.MaxSameCode + 1, "3 more warnings of code import-untyped in this file are not reported (the first 1000 are; -e reports all)"},
		{[]string{"import", "-e", src}, diag.MaxSameCode + 3, ""},
	} {
		code, _, stderr := runGramc(t, "", tc.args...)
		if code != 0 || strings.Count(stderr, "[import-untyped]") != tc.shown || !strings.HasSuffix(stderr, "\n1003 warnings\nby code: import-untyped 1003 (--disable CODE turns one off)\n") {
			t.Errorf("gramc %s: exit %d, %d import-untyped shown, want %d; the end: %q", strings.Join(tc.args, " "), code, strings.Count(stderr, "[import-untyped]"), tc.shown, stderr[max(0, len(stderr)-200):])
		}
		if !strings.Contains(stderr, tc.rest) {
			t.Errorf("gramc %s: no line counts the rest", strings.Join(tc.args, " "))
		}
	}
}

// listMCPMain is a stdio MCP server made with the go-sdk that lists the
// tools of a JSON file ({"tools": [{name, description, inputSchema,
// outputSchema?}, ...]}) as they are written: a server whose schemas are
// not gramc's.
func listMCPMain(file string) int {
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "listmcp:", err)
		return 2
	}
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		fmt.Fprintln(os.Stderr, "listmcp:", err)
		return 2
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "listmcp", Version: "1"}, nil)
	for _, tool := range list.Tools {
		t := &sdk.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema}
		if tool.OutputSchema != nil {
			t.OutputSchema = tool.OutputSchema
		}
		srv.AddTool(t, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	}
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}
