package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
)

// Tools returns the tools an MCP server offers, as runtime.Tools that call
// it through session: add them to a ToolLibrary, and runtime.Bind binds an
// agent's declared tools to them like to any implementation — a tool whose
// MCP schema differs from the agent's declaration gets the same named,
// pointed difference as any binding mismatch. A call's result is the text
// of the server's content; an isError result is a tool error with that
// text.
func Tools(ctx context.Context, session *sdk.ClientSession) ([]runtime.Tool, error) {
	var tools []runtime.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcp: tools/list: %w", err)
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
			if res.IsError {
				return nil, errors.New(text.String())
			}
			if text.Len() == 0 && res.StructuredContent != nil {
				return res.StructuredContent, nil
			}
			return text.String(), nil
		}})
	}
	return tools, nil
}
