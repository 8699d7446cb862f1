package graph

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The SVG's geometry, in pixels: a monospace font of fontSize whose
// characters are charWidth wide (0.6 em, as the common monospace fonts
// have), so that a box fits its text without measuring it.
const (
	fontSize   = 12
	edgeFont   = fontSize - 1 // an edge's label
	charWidth  = 7.2
	padX       = 10
	lineHeight = 15
	margin     = 16
)

// SVG returns the graph as a standalone SVG picture that needs no
// renderer, laid out in layers left to right as Graphviz's dot would
// (layout.go): agents first, then what each uses, edges as curves
// labelled by role, no label over a node or another label. Everything is
// in attributes (no style sheet, no script), so the picture can be
// inlined into a page safely.
func (g *Graph) SVG() []byte {
	boxH := func(i int) float64 {
		if g.Nodes[i].Note != "" {
			return 2*lineHeight + 12
		}
		return lineHeight + 12
	}
	boxW := func(i int) float64 {
		return max(textWidth(g.Nodes[i].Name), textWidth(g.Nodes[i].Note)) + 2*padX
	}
	l := layOut(g, boxW, boxH)
	// A node's box: centred across its room, at the top of it (its loops
	// hang below).
	type rect struct{ x, y, w, h float64 }
	box := func(i int) rect {
		v := l.nodes[i]
		return rect{v.x - boxW(i)/2, v.y - v.h/2, boxW(i), boxH(i)}
	}
	width, height := float64(margin), float64(margin)
	for _, v := range l.nodes {
		width = max(width, v.x+v.w/2+margin)
		height = max(height, v.y+v.h/2+margin)
	}
	// Ports: the edges leaving (entering) a node's side are spread along
	// it in the order of where they go (come from), so that they part
	// without crossing there.
	type end struct {
		edge int
		toY  float64
	}
	outs, ins := map[int][]end{}, map[int][]end{}
	for k, c := range l.chains {
		if c == nil {
			continue
		}
		outs[c[0]] = append(outs[c[0]], end{k, l.nodes[c[1]].y})
		ins[c[len(c)-1]] = append(ins[c[len(c)-1]], end{k, l.nodes[c[len(c)-2]].y})
	}
	portAt := map[[2]int]int{} // {node, edge} -> the edge's place on the node's side
	for _, m := range []map[int][]end{outs, ins} {
		for i, list := range m {
			slices.SortStableFunc(list, func(a, b end) int { return cmp.Compare(a.toY, b.toY) })
			for at, e := range list {
				portAt[[2]int{i, e.edge}] = at
			}
		}
	}
	port := func(list []end, i int, k int) float64 {
		at := portAt[[2]int{i, k}]
		b := box(i)
		return b.y + b.h*float64(at+1)/float64(len(list)+1)
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="%d">`+"\n",
		num(width), num(height), num(width), num(height), fontSize)
	b.WriteString(`<defs><marker id="gramc-graph-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#555"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(width), num(height))
	label := func(x, y float64, text string) {
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" font-size="%d" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">%s</text>`,
			num(x), num(y), edgeFont, xmlText(text))
	}
	// Edges first, so that nodes cover their ends; each a group of its
	// curve and its label.
	for k, e := range g.Edges {
		b.WriteString(`<g class="edge">`)
		if e.From == e.To {
			bx := box(e.From)
			cx, bottom := bx.x+bx.w/2, bx.y+bx.h
			at := slices.Index(l.loops[e.From], k)
			y := bottom + loopDepth + float64(at)*(lineHeight+labelGap) + lineHeight/2
			half, s := labelWidth(e.Label)/2, 8+4*float64(at)
			fmt.Fprintf(&b, `<path d="M%s,%sQ%s,%s %s,%sL%s,%sQ%s,%s %s,%s" fill="none" stroke="#555" stroke-width="1.2" marker-end="url(#gramc-graph-arrow)"/>`,
				num(cx+s), num(bottom), num(cx+s), num(y), num(cx+half), num(y), num(cx-half), num(y), num(cx-s), num(y), num(cx-s), num(bottom))
			label(cx, y, e.Label)
			b.WriteString("</g>\n")
			continue
		}
		c := l.chains[k]
		type pt struct{ x, y float64 }
		first, last := box(c[0]), box(c[len(c)-1])
		pts := []pt{{first.x + first.w, port(outs[c[0]], c[0], k)}}
		var lx, ly float64
		for _, d := range c[1 : len(c)-1] {
			// Straight across the layer of a label or a point: the edge
			// keeps to its place in the layer's order.
			v := l.nodes[d]
			pts = append(pts, pt{l.xs[v.layer], v.y}, pt{l.xs[v.layer] + l.widths[v.layer], v.y})
			if v.label {
				lx, ly = v.x, v.y
			}
		}
		pts = append(pts, pt{last.x, port(ins[c[len(c)-1]], c[len(c)-1], k)})
		if l.reversed[k] {
			slices.Reverse(pts)
		}
		var d strings.Builder
		fmt.Fprintf(&d, "M%s,%s", num(pts[0].x), num(pts[0].y))
		for i := 1; i < len(pts); i++ {
			p, q := pts[i-1], pts[i]
			dx := (q.x - p.x) / 2
			fmt.Fprintf(&d, "C%s,%s %s,%s %s,%s", num(p.x+dx), num(p.y), num(q.x-dx), num(q.y), num(q.x), num(q.y))
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="#555" stroke-width="1.2" marker-end="url(#gramc-graph-arrow)"/>`, d.String())
		label(lx, ly, e.Label)
		b.WriteString("</g>\n")
	}
	for i, n := range g.Nodes {
		bx := box(i)
		rx := map[Kind]float64{Agent: bx.h / 2, Tool: 2, Type: 10, Enum: 6}[n.Kind]
		fmt.Fprintf(&b, `<g class="node %s"><title>%s %s</title>`, n.Kind, n.Kind, xmlText(n.Name))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="%s" stroke-width="1.5"/>`,
			num(bx.x), num(bx.y), num(bx.w), num(bx.h), num(rx), fills[n.Kind], strokes[n.Kind])
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" font-weight="bold">%s</text>`, num(bx.x+bx.w/2), num(bx.y+6+lineHeight-3), xmlText(n.Name))
		if n.Note != "" {
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#444">%s</text>`, num(bx.x+bx.w/2), num(bx.y+6+2*lineHeight-3), xmlText(n.Note))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// textWidth is the width of s in the picture's font.
func textWidth(s string) float64 { return float64(utf8.RuneCountInString(s)) * charWidth }

// num prints a coordinate with at most one decimal, the same on every
// platform.
func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// xmlText escapes s for SVG text and attributes; characters XML cannot
// hold (controls other than tab, newline and return) become U+FFFD.
func xmlText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return utf8.RuneError
		}
		return r
	}, s)
	return xmlEscaper.Replace(s)
}
