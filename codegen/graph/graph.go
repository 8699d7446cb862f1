// Package graph draws checked gram packages: their agents, the tools and
// agents each agent lists, and the declared types and enums those tools
// and typed agents take and return, as a directed graph whose edges are
// labelled by role ("uses", a parameter's name, "returns", a field's
// name). gramc graph prints it
// and the playground shows it.
//
// Three writers share one Graph: Mermaid (what GitHub renders in a
// Markdown file), DOT (for Graphviz) and SVG (a picture that needs
// neither, laid out here in layers as Graphviz's dot would, labels
// included: layout.go). Like every emitter it is a pure
// function of the checked model, and its output is byte-stable: nodes and
// edges keep declaration order.
package graph

import (
	"fmt"
	"io"
	"slices"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// Format is an output format of gramc graph.
type Format string

// The formats.
const (
	Mermaid Format = "mermaid"
	DOT     Format = "dot"
	SVG     Format = "svg"
)

// Formats returns every format, the default first.
func Formats() []Format { return []Format{Mermaid, DOT, SVG} }

// FormatNames returns every format's name, the default first: the values
// gramc graph --format takes.
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return names
}

// Kind is what a node stands for.
type Kind int

// The kinds of node, in the order of the SVG's columns.
const (
	Agent Kind = iota
	Tool
	Type
	Enum
)

var kindNames = [...]string{Agent: "agent", Tool: "tool", Type: "type", Enum: "enum"}

// String returns the kind's lower-case name.
func (k Kind) String() string { return kindNames[k] }

// Node is one declaration.
type Node struct {
	// ID is the node's identifier in Mermaid and DOT: "n" and its index,
	// so that no declaration name (Mermaid's "end", a name with a
	// quote) needs escaping there.
	ID   string
	Kind Kind
	// Name is the declaration's name; Note a second line (an agent's
	// model, an enum's values), or "".
	Name, Note string
	// Package is the index of the node's package in Graph.Packages.
	Package int
}

// Edge is a relation between two nodes.
type Edge struct {
	From, To int // indexes in Graph.Nodes
	// Label is the role: "uses" (an agent's tool or agent), a parameter's name
	// (a tool takes the type), "returns", or a field's name (a type
	// holds another); "[]" follows it when the type is an array's
	// element.
	Label string
}

// Graph is the picture of one or more packages.
type Graph struct {
	Packages []string // the packages' names
	Nodes    []Node
	Edges    []Edge
}

// maxNote bounds a node's second line (an enum's values): a picture, not
// a listing.
const maxNote = 40

// Build draws pkgs. Each package's agents, tools, types and enums become
// nodes in declaration order (a tool declared inline in an agent is a
// tool like any other); edges go from an agent to the tools and agents
// it lists, from a tool or a typed agent (one with a signature) to the
// declared types and enums of its parameters and result, and from a type
// to those of its fields. Built-in types
// (String, Integer, ...) are not drawn: they would connect everything.
func Build(pkgs []*check.Package) *Graph {
	g := &Graph{}
	for pi, p := range pkgs {
		if p == nil {
			continue
		}
		g.Packages = append(g.Packages, p.Name)
		pi = len(g.Packages) - 1
		tools := map[*check.Tool]int{}
		types := map[*check.TypeDecl]int{}
		enums := map[*check.Enum]int{}
		add := func(k Kind, name, note string) int {
			g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("n%d", len(g.Nodes)), Kind: k, Name: name, Note: note, Package: pi})
			return len(g.Nodes) - 1
		}
		agents := make([]int, len(p.Agents))
		for i, a := range p.Agents {
			agents[i] = add(Agent, a.Name, a.Model)
		}
		addTool := func(t *check.Tool) int {
			if n, ok := tools[t]; ok {
				return n
			}
			tools[t] = add(Tool, t.Name, "")
			return tools[t]
		}
		for _, t := range p.Tools {
			addTool(t)
		}
		for _, a := range p.Agents {
			for _, t := range a.Tools {
				addTool(t)
			}
		}
		for _, d := range p.Types {
			types[d] = add(Type, d.Name, "")
		}
		for _, e := range p.Enums {
			enums[e] = add(Enum, e.Name, enumNote(e))
		}
		// target is the node a type refers to, and whether through an
		// array; ok is false for a built-in type.
		target := func(t *check.Type) (n int, array, ok bool) {
			for t != nil && t.Kind == check.Array {
				t, array = t.Elem, true
			}
			switch {
			case t == nil:
			case t.Kind == check.Record && t.Decl != nil:
				n, ok = types[t.Decl]
			case t.Kind == check.EnumKind && t.Enum != nil:
				n, ok = enums[t.Enum]
			}
			return n, array, ok
		}
		edge := func(from int, t *check.Type, label string) {
			to, array, ok := target(t)
			if !ok {
				return
			}
			if array {
				label += " []"
			}
			g.Edges = append(g.Edges, Edge{From: from, To: to, Label: label})
		}
		agentNode := map[*check.Agent]int{}
		for i, a := range p.Agents {
			agentNode[a] = agents[i]
		}
		for i, a := range p.Agents {
			for _, t := range a.Tools {
				g.Edges = append(g.Edges, Edge{From: agents[i], To: tools[t], Label: "uses"})
			}
			for _, b := range a.Agents {
				if n, ok := agentNode[b]; ok {
					g.Edges = append(g.Edges, Edge{From: agents[i], To: n, Label: "uses"})
				}
			}
			// A typed agent takes and returns types as a tool does.
			if a.HasSignature && a.Signature != nil {
				for _, prm := range a.Signature.Params {
					edge(agents[i], prm.Type, prm.Name)
				}
				edge(agents[i], a.Signature.Result, "returns")
			}
		}
		// Tools in node order: the package's, then those only an agent
		// lists.
		var ts []*check.Tool
		for t := range tools {
			ts = append(ts, t)
		}
		slices.SortFunc(ts, func(a, b *check.Tool) int { return tools[a] - tools[b] })
		for _, t := range ts {
			for _, prm := range t.Params {
				edge(tools[t], prm.Type, prm.Name)
			}
			edge(tools[t], t.Result, "returns")
		}
		for _, d := range p.Types {
			for _, f := range d.Fields {
				edge(types[d], f.Type, f.Name)
			}
		}
	}
	return g
}

// enumNote is an enum's values, cut at maxNote characters.
func enumNote(e *check.Enum) string {
	s := ""
	for i, v := range e.Values {
		if i > 0 {
			s += " | "
		}
		s += fmt.Sprint(v)
		if len([]rune(s)) > maxNote {
			return string([]rune(s)[:maxNote]) + "…"
		}
	}
	return s
}

// Write writes the picture of pkgs in format f.
func Write(w io.Writer, pkgs []*check.Package, f Format) error {
	g := Build(pkgs)
	var out []byte
	switch f {
	case Mermaid:
		out = g.Mermaid()
	case DOT:
		out = g.DOT()
	case SVG:
		out = g.SVG()
	default:
		return fmt.Errorf("%s", suggest.UnknownValue("format", string(f), FormatNames(), "formats"))
	}
	_, err := w.Write(out)
	return err
}
