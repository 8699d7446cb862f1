package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
)

// Tools returns the tools an MCP server offers, as runtime.Tools that call
// it through session: add them to a ToolLibrary, and runtime.Bind binds an
// agent's declared tools to them like to any implementation — a tool whose
// MCP schema differs from the agent's declaration gets the same named,
// pointed difference as any binding mismatch. A call's result is the text
// of the server's content, for the model, and its structuredContent, when
// there is one, the value (a runtime.ToolResult: checked against the
// declared return type, kept in the invocation's Value); an isError
// result is a tool error with that text.
func Tools(ctx context.Context, session *sdk.ClientSession) ([]runtime.Tool, error) {
	var tools []runtime.Tool
	for t, err := range ListTools(ctx, session) {
		if err != nil {
			return nil, fmt.Errorf("mcp: %w", err)
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: input schema: %w", t.Name, err)
		}
		spec := runtime.ToolSpecification{Name: t.Name, Description: t.Description, Schema: schema}
		if t.OutputSchema != nil {
			if spec.OutputSchema, err = json.Marshal(t.OutputSchema); err != nil {
				return nil, fmt.Errorf("mcp: tool %s: output schema: %w", t.Name, err)
			}
		}
		name := t.Name
		tools = append(tools, runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
			// The trace goes with the call (W3C trace context in _meta).
			res, err := session.CallTool(ctx, &sdk.CallToolParams{Meta: InjectTrace(ctx, nil), Name: name, Arguments: args})
			if err != nil {
				return nil, fmt.Errorf("mcp server: %w", err)
			}
			var text strings.Builder
			for _, c := range res.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					text.WriteString(tc.Text)
				}
			}
			if why := inputRequired(res); why != "" {
				return nil, errors.New(why)
			}
			if res.IsError {
				return nil, errors.New(text.String())
			}
			if res.StructuredContent != nil {
				value, err := json.Marshal(res.StructuredContent)
				if err != nil {
					return nil, fmt.Errorf("mcp server: structuredContent: %w", err)
				}
				if text.Len() == 0 {
					return json.RawMessage(value), nil
				}
				// The model reads the content; the structured content
				// is the value, checked against the declared return
				// type and kept for code (the MCP tools page).
				return runtime.ToolResult{Text: text.String(), Value: value}, nil
			}
			return text.String(), nil
		}})
	}
	return tools, nil
}

// NewClient returns the MCP client gramc connects to servers with: it
// declares no capability to answer a server's requests (elicitation,
// sampling), and does not try to answer a server's input_required result
// itself, which Tools reports as the tool's error instead.
func NewClient(name, version string) *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: name, Version: version},
		&sdk.ClientOptions{MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}})
}

// maxAskedText bounds what inputRequired quotes of each request.
const maxAskedText = 200

// inputRequired says what an input_required result asks for ("" for any
// other result).
func inputRequired(res *sdk.CallToolResult) string {
	if !res.NeedsInput() && len(res.InputRequests) == 0 && res.RequestState == "" {
		return ""
	}
	ids := make([]string, 0, len(res.InputRequests))
	for id := range res.InputRequests {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var asked []string
	for _, id := range ids {
		var what string
		switch p := res.InputRequests[id].(type) {
		case *sdk.ElicitParams:
			what = "elicitation/create"
			if p.Message != "" {
				what += " " + strconv.Quote(cut(p.Message, maxAskedText))
			}
		case *sdk.CreateMessageParams, *sdk.CreateMessageWithToolsParams:
			what = "sampling/createMessage"
		case *sdk.ListRootsParams:
			what = "roots/list"
		default:
			what = fmt.Sprintf("a request gramc does not know (%T)", p)
		}
		asked = append(asked, strconv.Quote(cut(id, maxAskedText))+": "+what)
	}
	if len(asked) == 0 {
		asked = append(asked, "nothing named (only a request state to send back)")
	}
	return "the MCP server asked for input gramc does not give (input_required): " + strings.Join(asked, "; ")
}

// cut shortens s to at most n bytes, at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ListTools lists session's tools page by page, as the SDK's
// ClientSession.Tools does, but a server that names a cursor it named
// before — a listing that would never end — is an error naming the
// cursor, at once. Errors are "tools/list: ...".
func ListTools(ctx context.Context, session *sdk.ClientSession) iter.Seq2[*sdk.Tool, error] {
	return func(yield func(*sdk.Tool, error) bool) {
		seen := map[string]bool{}
		params := &sdk.ListToolsParams{}
		for {
			res, err := session.ListTools(ctx, params)
			if err != nil {
				yield(nil, fmt.Errorf("tools/list: %w", err))
				return
			}
			for _, t := range res.Tools {
				if !yield(t, nil) {
					return
				}
			}
			if res.NextCursor == "" {
				return
			}
			if seen[res.NextCursor] {
				yield(nil, fmt.Errorf("tools/list: the server repeated its cursor %q (a listing that never ends)", shortCursor(res.NextCursor)))
				return
			}
			seen[res.NextCursor] = true
			params = &sdk.ListToolsParams{Cursor: res.NextCursor}
		}
	}
}

// shortCursor is a cursor to name in an error: at most its first 100
// bytes (%q escapes what a terminal would act on).
func shortCursor(c string) string {
	if len(c) > 100 {
		return c[:100] + "..."
	}
	return c
}
