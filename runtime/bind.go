package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/internal/suggest"
)

// BoundAgent is an agent whose every tool is resolved to an implementation
// with a compiled argument validator. It is immutable and safe for
// concurrent runs.
type BoundAgent struct {
	Agent Agent
	tools map[string]*boundTool
	names []string // the agent's tool names, in listed order
	// agents are the agents it lists, bound, by name (agenttool.go).
	agents map[string]*BoundAgent
}

type boundTool struct {
	tool  Tool
	args  *argSchema
	index int
}

// Bind resolves every tool agent lists in lib. A tool that is missing, has
// no implementation, or whose specification differs from the agent's (name,
// description or schema, compared as JSON values) is a *ToolBindingError
// naming the tool and the difference.
//
// The agents it lists (Agent.Agents) are bound from the same lib, each
// to run in place of the tool that bears its name (agenttool.go), at most
// toolspec.MaxAgentNesting levels deep.
func Bind(agent Agent, lib *ToolLibrary) (*BoundAgent, error) { return bind(agent, lib, 1) }

// bind is Bind for an agent at level depth of a nesting of agents.
func bind(agent Agent, lib *ToolLibrary, depth int) (*BoundAgent, error) {
	b := &BoundAgent{Agent: agent, tools: make(map[string]*boundTool, len(agent.Tools))}
	agents, err := bindListed(b, lib, depth)
	if err != nil {
		return nil, err
	}
	b.agents = agents
	for i, spec := range agent.Tools {
		if _, dup := b.tools[spec.Name]; dup {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: spec.Name, Difference: "listed twice by the agent"}
		}
		t, ok := lib.Lookup(spec.Name)
		if child, listed := agents[spec.Name]; listed {
			t, ok = Tool{Spec: spec, Func: agentTool(child, RunOptions{}, depth+1)}, true
		}
		if !ok {
			d := "not in the library" + suggest.Hint(spec.Name, lib.Names(), "library's tools")
			return nil, &ToolBindingError{Agent: agent.Name, Tool: spec.Name, Difference: d}
		}
		if t.Func == nil {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: spec.Name, Difference: "the library's tool has no implementation (nil Func)"}
		}
		if d := specDifference(spec, t.Spec); d != "" {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: spec.Name, Difference: d}
		}
		as, err := argSchemaOf(spec)
		if err != nil {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: spec.Name, Difference: "invalid argument schema: " + err.Error()}
		}
		b.tools[spec.Name] = &boundTool{tool: t, args: as, index: i}
		b.names = append(b.names, spec.Name)
	}
	return b, nil
}

// specDifference describes how the library specification lib differs from
// the agent's specification want ("" when they match). Names and
// descriptions compare exactly; schemas compare as JSON values, so
// formatting and key order do not matter.
func specDifference(want, lib ToolSpecification) string {
	if want.Name != lib.Name {
		return fmt.Sprintf("name differs: agent %q, library %q", want.Name, lib.Name)
	}
	if want.Description != lib.Description {
		return fmt.Sprintf("description differs: agent %q, library %q", want.Description, lib.Description)
	}
	if bytes.Equal(want.Schema, lib.Schema) {
		return ""
	}
	a, errA := decodeJSON(want.Schema)
	l, errL := decodeJSON(lib.Schema)
	if std := want.StandardSchema(); want.Strict && errL == nil && !bytes.Equal(std, want.Schema) {
		// A strict tool's Schema is OpenAI's strict form; a tool served
		// over MCP (gramc mcp, a generated TypeScript server) has its
		// standard form, the mcp target's inputSchema: the same tool.
		if s, err := decodeJSON(std); err == nil {
			if _, differ := FirstDifference(s, l); !differ {
				return ""
			}
		}
	}
	switch {
	case errA != nil:
		return "agent schema is not valid JSON: " + errA.Error()
	case errL != nil:
		return "library schema is not valid JSON: " + errL.Error()
	}
	if d := jsonDiff("", a, l); d != "" {
		return "schema differs " + d
	}
	return ""
}

func decodeJSON(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil // an absent schema
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// jsonDiff returns where a and b first differ, as "at <JSON pointer>: ...".
func jsonDiff(ptr string, a, b any) string {
	d, ok := FirstDifference(a, b)
	if !ok {
		return ""
	}
	where := ptr + d.Pointer
	if where == "" {
		where = "/"
	}
	switch {
	case d.Lengths:
		return fmt.Sprintf("at %s: agent has %d items, library %d", where, d.A, d.B)
	case d.A == Absent:
		return fmt.Sprintf("at %s: only the library has it (%s)", where, short(d.B))
	case d.B == Absent:
		return fmt.Sprintf("at %s: only the agent has it (%s)", where, short(d.A))
	}
	return fmt.Sprintf("at %s: agent %s, library %s", where, short(d.A), short(d.B))
}

type absent struct{}

// Absent stands in a Difference for the value a side does not have.
var Absent any = absent{}

// Difference is where two JSON values first differ.
type Difference struct {
	// Pointer is the place, as a JSON pointer ("" for the root).
	Pointer string
	// A and B are the values there (Absent for a member one side lacks);
	// when Lengths is set, the two arrays' lengths.
	A, B    any
	Lengths bool
}

// FirstDifference finds where two decoded JSON values first differ
// (members in key order, numbers compared by value); ok is false when they
// are equal. The runtime's binding reports a schema mismatch with it, and a
// cassette's replay a request that differs from its recording.
func FirstDifference(a, b any) (d Difference, ok bool) {
	return firstDifference("", a, b)
}

func firstDifference(ptr string, a, b any) (Difference, bool) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, inA := av[k]
			y, inB := bv[k]
			p := ptr + "/" + escapePointer(k)
			switch {
			case !inA:
				return Difference{Pointer: p, A: Absent, B: y}, true
			case !inB:
				return Difference{Pointer: p, A: x, B: Absent}, true
			}
			if d, ok := firstDifference(p, x, y); ok {
				return d, true
			}
		}
		return Difference{}, false
	case []any:
		bv, ok := b.([]any)
		if !ok {
			break
		}
		for i := 0; i < len(av) && i < len(bv); i++ {
			if d, ok := firstDifference(ptr+"/"+strconv.Itoa(i), av[i], bv[i]); ok {
				return d, true
			}
		}
		if len(av) != len(bv) {
			return Difference{Pointer: ptr, A: len(av), B: len(bv), Lengths: true}, true
		}
		return Difference{}, false
	case json.Number:
		if bv, ok := b.(json.Number); ok && numbersEqual(av, bv) {
			return Difference{}, false
		}
	default:
		if a == b {
			return Difference{}, false
		}
	}
	return Difference{Pointer: ptr, A: a, B: b}, true
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, err1 := a.Float64()
	y, err2 := b.Float64()
	return err1 == nil && err2 == nil && x == y
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func short(v any) string {
	if v == nil {
		return "null"
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(data) > 60 {
		return string(data[:57]) + "..."
	}
	return string(data)
}
