package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
	"github.com/gramc-dev/gramc/runtime/internal/sse"
)

// chatChunk is one chat.completion.chunk of a stream (only what gramc
// reads).
type chatChunk struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content      *string          `json:"content"`
			Refusal      *string          `json:"refusal"`
			ToolCalls    []chunkToolCall  `json:"tool_calls"`
			FunctionCall *chunkToolCallFn `json:"function_call"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
}

type chunkToolCall struct {
	// Index is a pointer: servers omit it (or send -1) and a missing
	// index is not index 0.
	Index    *int            `json:"index"`
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function chunkToolCallFn `json:"function"`
}

type chunkToolCallFn struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// calls accumulates streamed tool calls: fragments join the call with
// their index, never "the last call"; a fragment without an index (or
// with index -1) joins the call with its ID, or starts a new call when it
// names one, and only a bare arguments fragment without either continues
// the call it follows.
type calls struct {
	list    []*partialCall
	byIndex map[int]*partialCall
	byID    map[string]*partialCall
	skipped []int // the list positions of skip calls, ascending
	emit    func(runtime.Event)
}

type partialCall struct {
	id, name string
	args     bytes.Buffer
	at       int // position in list
	started  bool
	skip     bool // not a function call (another tool type)
}

func newCalls(emit func(runtime.Event)) *calls {
	return &calls{byIndex: map[int]*partialCall{}, byID: map[string]*partialCall{}, emit: emit}
}

// add applies one fragment.
func (cs *calls) add(index *int, id, typ, name string, args json.RawMessage) {
	var pc *partialCall
	switch {
	case index != nil && *index >= 0:
		pc = cs.byIndex[*index]
		if pc == nil {
			pc = cs.start()
			cs.byIndex[*index] = pc
		}
	case id != "" && cs.byID[id] != nil:
		pc = cs.byID[id]
	case id != "" || name != "" || len(cs.list) == 0:
		pc = cs.start()
	default:
		pc = cs.list[len(cs.list)-1]
	}
	if id != "" && pc.id == "" {
		pc.id = id
		cs.byID[id] = pc
	}
	if typ != "" && typ != "function" && !pc.skip {
		pc.skip = true
		i := sort.SearchInts(cs.skipped, pc.at)
		cs.skipped = slices.Insert(cs.skipped, i, pc.at)
	}
	// Some servers repeat the name in every fragment: it is the name,
	// not a piece of it.
	if name != "" && pc.name == "" {
		pc.name = name
	}
	appendArguments(&pc.args, args)
	if !pc.started && pc.name != "" && !pc.skip {
		pc.started = true
		if cs.emit != nil {
			cs.emit(runtime.Event{Kind: runtime.EventToolCallStart, Index: cs.position(pc), Call: runtime.ToolCall{ID: pc.id, Name: pc.name}})
		}
	}
}

func (cs *calls) start() *partialCall {
	pc := &partialCall{at: len(cs.list)}
	cs.list = append(cs.list, pc)
	return pc
}

// position is pc's index among the function calls: its place in the list
// less the other tools' calls before it. It is O(log n), so that an
// answer of n calls costs O(n log n), not O(n²) (issue 20.6).
func (cs *calls) position(pc *partialCall) int {
	return pc.at - sort.SearchInts(cs.skipped, pc.at)
}

// appendArguments adds an arguments fragment: normally a JSON string
// holding a piece of the arguments text; some servers send the object.
func appendArguments(b *bytes.Buffer, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			b.WriteString(s)
			return
		}
	}
	b.Write(raw)
}

// toolCalls returns the finished function calls; empty arguments mean
// no arguments, sent back as {}.
func (cs *calls) toolCalls() []runtime.ToolCall {
	var out []runtime.ToolCall
	for _, pc := range cs.list {
		if pc.skip {
			continue
		}
		args := pc.args.String()
		if len(bytes.TrimSpace(pc.args.Bytes())) == 0 {
			args = "{}"
		}
		out = append(out, runtime.ToolCall{ID: pc.id, Name: pc.name, Arguments: args})
	}
	return out
}

// decodeStream reads a Chat Completions stream to its end.
func (c *Client) decodeStream(ctx context.Context, body io.Reader, emit func(runtime.Event)) (*runtime.Completion, error) {
	dec := sse.NewDecoder(body, apihttp.StreamLimits)
	var text, refusal bytes.Buffer
	cs := newCalls(emit)
	var legacy *partialCall
	comp := &runtime.Completion{}
	finished, done := false, false
	for n := 1; ; n++ {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, c.streamError(ctx, err)
		}
		c.api.HTTP.DebugData("event", ev.Data)
		data := bytes.TrimSpace(ev.Data)
		if string(data) == "[DONE]" {
			done = true
			break
		}
		if ev.Type == "error" || bytes.Contains(data, []byte(`"error"`)) {
			if e, ok := c.api.HTTP.BodyError(0, data); ok {
				e.Message = "error in the stream: " + e.Message
				return nil, e
			}
		}
		var chunk chatChunk
		if err := json.Unmarshal(data, &chunk); err != nil {
			return nil, &runtime.APIError{Provider: "openai", StatusCode: 200,
				Message: "malformed stream event " + strconv.Itoa(n) + ": " + err.Error(), Err: err}
		}
		if chunk.Usage != nil {
			comp.Usage = chunk.Usage.usage()
		}
		if comp.ResponseID == "" {
			comp.ResponseID, comp.ResponseModel = chunk.ID, chunk.Model
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // gramc asks for one choice
			}
			d := ch.Delta
			if d.Content != nil && *d.Content != "" {
				text.WriteString(*d.Content)
				if emit != nil {
					emit(runtime.Event{Kind: runtime.EventText, Text: *d.Content})
				}
			}
			if d.Refusal != nil && *d.Refusal != "" {
				refusal.WriteString(*d.Refusal)
				if emit != nil {
					emit(runtime.Event{Kind: runtime.EventText, Text: *d.Refusal})
				}
			}
			for _, tc := range d.ToolCalls {
				cs.add(tc.Index, tc.ID, tc.Type, tc.Function.Name, tc.Function.Arguments)
			}
			if fc := d.FunctionCall; fc != nil {
				if legacy == nil {
					zero := 0
					cs.add(&zero, "", "", fc.Name, fc.Arguments)
					legacy = cs.list[len(cs.list)-1]
				} else {
					appendArguments(&legacy.args, fc.Arguments)
					if legacy.name == "" {
						legacy.name = fc.Name
					}
				}
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finished = true
				comp.StopReason = stopReasons.Of(*ch.FinishReason)
			}
		}
	}
	if !done && !finished {
		return nil, c.api.HTTP.Incomplete("no finish_reason and no [DONE]")
	}
	msg := runtime.Message{Role: runtime.RoleAssistant, Content: text.String()}
	if msg.Content == "" && refusal.Len() > 0 {
		msg.Content = refusal.String()
		comp.StopReason = runtime.StopRefusal
	}
	msg.ToolCalls = cs.toolCalls()
	for _, tc := range msg.ToolCalls {
		if tc.Name == "" {
			return nil, &runtime.APIError{Provider: "openai", StatusCode: 200, Message: "malformed stream: a tool call without a name"}
		}
	}
	comp.Message = msg
	return comp, nil
}

func (c *Client) streamError(ctx context.Context, err error) error {
	return c.api.HTTP.StreamError(ctx, err)
}
