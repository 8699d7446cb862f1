package graph

import (
	"bytes"
	"fmt"
	"strings"
)

// Mermaid returns the graph as a Mermaid flowchart, left to right: agents
// as stadiums, tools as boxes, types rounded, enums as hexagons; each
// package a subgraph when there are several. Text is quoted, with
// Mermaid's entity codes for the characters that would end or change it.
func (g *Graph) Mermaid() []byte {
	var b bytes.Buffer
	b.WriteString("flowchart LR\n")
	shapes := [...][2]string{Agent: {"([", "])"}, Tool: {"[", "]"}, Type: {"(", ")"}, Enum: {"{{", "}}"}}
	g.eachPackage(func(pi int, nodes []int, indent string) {
		if indent != "  " {
			fmt.Fprintf(&b, "  subgraph p%d [\"%s\"]\n", pi, mermaidText(g.Packages[pi]))
		}
		for _, i := range nodes {
			n := g.Nodes[i]
			text := mermaidText(n.Name)
			if n.Note != "" {
				text += "<br/>" + mermaidText(n.Note)
			}
			s := shapes[n.Kind]
			fmt.Fprintf(&b, "%s%s%s\"%s\"%s\n", indent, n.ID, s[0], text, s[1])
		}
		if indent != "  " {
			b.WriteString("  end\n")
		}
	})
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", g.Nodes[e.From].ID, mermaidText(e.Label), g.Nodes[e.To].ID)
	}
	// One class per kind, so that the kinds differ in colour too.
	for k := Agent; k <= Enum; k++ {
		var ids []string
		for _, n := range g.Nodes {
			if n.Kind == k {
				ids = append(ids, n.ID)
			}
		}
		if len(ids) > 0 {
			fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s\n", k, fills[k], strokes[k])
			fmt.Fprintf(&b, "  class %s %s\n", strings.Join(ids, ","), k)
		}
	}
	return b.Bytes()
}

// The colours of the kinds, in every format.
var (
	fills   = [...]string{Agent: "#dbeafe", Tool: "#dcfce7", Type: "#fef9c3", Enum: "#fae8ff"}
	strokes = [...]string{Agent: "#1d4ed8", Tool: "#15803d", Type: "#a16207", Enum: "#a21caf"}
)

var mermaidEscaper = strings.NewReplacer(
	"#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "&", "#amp;", "`", "#96;",
	// Mermaid reads %%{…}%% directives anywhere in the text, quoted
	// labels too, before it decodes entity codes.
	"%", "#37;", "'", "#39;",
	"\n", " ", "\r", " ",
)

// mermaidText escapes s for a quoted Mermaid label.
func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

// DOT returns the graph in Graphviz's DOT language, left to right, each
// package a cluster when there are several.
func (g *Graph) DOT() []byte {
	var b bytes.Buffer
	b.WriteString("digraph gram {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=11, style=filled];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	shapes := [...]string{Agent: `shape=box, style="rounded,filled"`, Tool: "shape=box", Type: "shape=ellipse", Enum: "shape=hexagon"}
	g.eachPackage(func(pi int, nodes []int, indent string) {
		if indent != "  " {
			fmt.Fprintf(&b, "  subgraph cluster_%d {\n", pi)
			fmt.Fprintf(&b, "    label=\"%s\";\n", dotText(g.Packages[pi]))
		}
		for _, i := range nodes {
			n := g.Nodes[i]
			label := dotText(n.Name)
			if n.Note != "" {
				label += `\n` + dotText(n.Note)
			}
			fmt.Fprintf(&b, "%s%s [label=\"%s\", %s, fillcolor=\"%s\", color=\"%s\"];\n", indent, n.ID, label, shapes[n.Kind], fills[n.Kind], strokes[n.Kind])
		}
		if indent != "  " {
			b.WriteString("  }\n")
		}
	})
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -> %s [label=\"%s\"];\n", g.Nodes[e.From].ID, g.Nodes[e.To].ID, dotText(e.Label))
	}
	b.WriteString("}\n")
	return b.Bytes()
}

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")

// dotText escapes s for a quoted DOT string.
func dotText(s string) string { return dotEscaper.Replace(s) }

// eachPackage calls f with each package's nodes and the indentation of
// its lines: one package is drawn without a frame ("  "), several each
// in one ("    ").
func (g *Graph) eachPackage(f func(pi int, nodes []int, indent string)) {
	indent := "  "
	if len(g.Packages) > 1 {
		indent = "    "
	}
	for pi := range g.Packages {
		var nodes []int
		for i, n := range g.Nodes {
			if n.Package == pi {
				nodes = append(nodes, i)
			}
		}
		f(pi, nodes, indent)
	}
}
