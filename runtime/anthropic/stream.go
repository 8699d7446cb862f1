package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
	"github.com/gramc-dev/gramc/runtime/internal/sse"
)

// streamEvent is one event of a Messages stream (only what gramc reads).
type streamEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		ID    string     `json:"id"`
		Model string     `json:"model"`
		Usage *wireUsage `json:"usage"`
	} `json:"message"`
	ContentBlock *struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *wireUsage `json:"usage"`
}

// streamBlock is a content block being streamed.
type streamBlock struct {
	typ, id, name string
	text          strings.Builder
	input         bytes.Buffer
	startInput    json.RawMessage
	call          int // position among the tool_use blocks
}

// decodeStream reads a Messages stream to its message_stop.
func (c *Client) decodeStream(ctx context.Context, body io.Reader, emit func(runtime.Event)) (*runtime.Completion, error) {
	dec := sse.NewDecoder(body, apihttp.StreamLimits)
	blocks := map[int]*streamBlock{}
	comp := &runtime.Completion{}
	var usage wireUsage
	calls := 0
	malformed := func(format string, args ...any) error {
		return &runtime.APIError{Provider: "anthropic", StatusCode: http.StatusOK, Message: "malformed stream: " + fmt.Sprintf(format, args...)}
	}
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return nil, c.api.HTTP.Incomplete("no message_stop")
		}
		if err != nil {
			return nil, c.api.HTTP.StreamError(ctx, err)
		}
		c.api.HTTP.DebugData("event "+ev.Type, ev.Data)
		var se streamEvent
		if err := json.Unmarshal(ev.Data, &se); err != nil {
			return nil, malformed("event %q: %v", ev.Type, err)
		}
		switch se.Type {
		case "error":
			if e, ok := c.api.HTTP.BodyError(0, ev.Data); ok {
				e.Message = "error in the stream: " + e.Message
				return nil, e
			}
			return nil, malformed("an error event without a message")
		case "message_start":
			if se.Message != nil && se.Message.Usage != nil {
				usage = *se.Message.Usage
			}
			if se.Message != nil {
				comp.ResponseID, comp.ResponseModel = se.Message.ID, se.Message.Model
			}
		case "content_block_start":
			if se.ContentBlock == nil {
				return nil, malformed("content_block_start without a content_block")
			}
			if blocks[se.Index] != nil {
				return nil, malformed("content block %d started twice", se.Index)
			}
			b := &streamBlock{typ: se.ContentBlock.Type, id: se.ContentBlock.ID, name: se.ContentBlock.Name, startInput: se.ContentBlock.Input}
			blocks[se.Index] = b
			switch b.typ {
			case "text":
				if se.ContentBlock.Text != "" {
					b.text.WriteString(se.ContentBlock.Text)
					if emit != nil {
						emit(runtime.Event{Kind: runtime.EventText, Text: se.ContentBlock.Text})
					}
				}
			case "tool_use":
				b.call = calls
				calls++
				if emit != nil {
					emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: b.call, Call: runtime.ToolCall{ID: b.id, Name: b.name}})
				}
			}
		case "content_block_delta":
			b := blocks[se.Index]
			if b == nil || se.Delta == nil {
				return nil, malformed("a delta for content block %d, which was not started", se.Index)
			}
			switch se.Delta.Type {
			case "text_delta":
				b.text.WriteString(se.Delta.Text)
				if emit != nil && se.Delta.Text != "" {
					emit(runtime.Event{Kind: runtime.EventText, Text: se.Delta.Text})
				}
			case "input_json_delta":
				b.input.WriteString(se.Delta.PartialJSON)
			}
			// thinking_delta, signature_delta, citations_delta: not
			// part of the answer gramc keeps.
		case "message_delta":
			if se.Delta != nil && se.Delta.StopReason != "" {
				comp.StopReason = stopReasons.Of(se.Delta.StopReason)
			}
			if se.Usage != nil {
				// Cumulative output tokens.
				usage.OutputTokens = se.Usage.OutputTokens
				if se.Usage.InputTokens > 0 {
					usage.InputTokens = se.Usage.InputTokens
				}
			}
		case "message_stop":
			comp.Message = assemble(blocks)
			comp.Usage = usage.usage()
			return comp, nil
		}
		// ping, content_block_stop and unknown events need nothing.
	}
}

// assemble builds the message from its blocks, in index order.
func assemble(blocks map[int]*streamBlock) runtime.Message {
	idx := make([]int, 0, len(blocks))
	for i := range blocks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	msg := runtime.Message{Role: runtime.RoleAssistant}
	var text strings.Builder
	for _, i := range idx {
		b := blocks[i]
		switch b.typ {
		case "text":
			text.WriteString(b.text.String())
		case "tool_use":
			args := b.input.String()
			if strings.TrimSpace(args) == "" {
				// No deltas: the input is the one the block started with
				// (a server that sends it whole), or none at all.
				args = "{}"
				if s := bytes.TrimSpace(b.startInput); len(s) > 0 && string(s) != "null" {
					args = string(s)
				}
			}
			msg.ToolCalls = append(msg.ToolCalls, runtime.ToolCall{ID: b.id, Name: b.name, Arguments: args})
		}
	}
	msg.Content = text.String()
	return msg
}
