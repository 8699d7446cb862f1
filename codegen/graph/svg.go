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
	charWidth  = 7.2
	padX       = 10
	lineHeight = 15
	rowGap     = 16
	colGap     = 120 // room for an edge's label between two columns
	margin     = 16
	loopReach  = 48 // how far an edge within a column bulges to the right
)

// box is a node's place.
type box struct {
	x, y, w, h float64
	col        int
}

func (b box) midY() float64  { return b.y + b.h/2 }
func (b box) right() float64 { return b.x + b.w }

// SVG returns the graph as a standalone SVG picture that needs no
// renderer: a column of agents, one of tools, one of types and enums,
// nodes in declaration order, edges as curves labelled by role. Everything is in
// attributes (no style sheet, no script), so the picture can be inlined
// into a page safely.
func (g *Graph) SVG() []byte {
	// Columns, left to right, of the kinds that have nodes: agents,
	// tools, then types and enums together (fields of a type are edges
	// within the column).
	column := func(k Kind) Kind { return min(k, Type) }
	colOf := map[Kind]int{}
	ncols := 0
	for k := Agent; k <= Type; k++ {
		if slices.ContainsFunc(g.Nodes, func(n Node) bool { return column(n.Kind) == k }) {
			colOf[k] = ncols
			ncols++
		}
	}
	colOf[Enum] = colOf[Type]
	widths := make([]float64, ncols)
	for _, n := range g.Nodes {
		widths[colOf[n.Kind]] = max(widths[colOf[n.Kind]], textWidth(n.Name)+2*padX, textWidth(n.Note)+2*padX)
	}
	xs := make([]float64, ncols)
	x := float64(margin)
	for c, w := range widths {
		xs[c] = x
		x += w + colGap
	}
	// Rows: declaration order in the first column; in the others, by the
	// mean row of the nodes pointing at a node (one barycentre pass, so
	// that edges cross less), declaration order breaking ties.
	cols := make([][]int, ncols)
	for i, n := range g.Nodes {
		cols[colOf[n.Kind]] = append(cols[colOf[n.Kind]], i)
	}
	row := make([]float64, len(g.Nodes))
	for c, nodes := range cols {
		if c > 0 {
			key := make(map[int]float64, len(nodes))
			for _, i := range nodes {
				sum, k := 0.0, 0
				for _, e := range g.Edges {
					if e.To == i && colOf[g.Nodes[e.From].Kind] < c {
						sum, k = sum+row[e.From], k+1
					}
				}
				key[i] = float64(len(g.Nodes)) + float64(i) // no predecessor: after the others
				if k > 0 {
					key[i] = sum / float64(k)
				}
			}
			slices.SortStableFunc(nodes, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
		}
		for r, i := range nodes {
			row[i] = float64(r)
		}
	}
	boxes := make([]box, len(g.Nodes))
	height := float64(margin)
	for c, nodes := range cols {
		y := float64(margin)
		for _, i := range nodes {
			h := float64(lineHeight + 12)
			if g.Nodes[i].Note != "" {
				h += lineHeight
			}
			boxes[i] = box{x: xs[c], y: y, w: widths[c], h: h, col: c}
			y += h + rowGap
		}
		height = max(height, y)
	}
	// Ports: the edges leaving (entering) a node's side are spread along
	// it, so that their curves and labels part.
	outs, ins := map[int][]int{}, map[int][]int{}
	for k, e := range g.Edges {
		outs[e.From] = append(outs[e.From], k)
		ins[e.To] = append(ins[e.To], k)
	}
	port := func(b box, list []int, k int) float64 {
		i := slices.Index(list, k)
		return b.y + b.h*float64(i+1)/float64(len(list)+1)
	}
	width := float64(margin)
	if len(xs) > 0 {
		width = xs[len(xs)-1] + widths[len(widths)-1] + loopReach + 4*charWidth + margin
	}
	height += margin - rowGap

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="%d">`+"\n",
		num(width), num(height), num(width), num(height), fontSize)
	b.WriteString(`<defs><marker id="gramc-graph-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#555"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(width), num(height))
	// Edges first, so that nodes cover their ends.
	for k, e := range g.Edges {
		from, to := boxes[e.From], boxes[e.To]
		sy, ey := port(from, outs[e.From], k), port(to, ins[e.To], k)
		var path string
		var lx, ly float64
		switch {
		case e.From == e.To:
			sx, y := from.right(), from.midY()
			path = fmt.Sprintf("M%s,%sC%s,%s %s,%s %s,%s", num(sx), num(y-5), num(sx+loopReach), num(y-28), num(sx+loopReach), num(y+28), num(sx), num(y+5))
			lx, ly = sx+loopReach*0.8, y
		case to.col > from.col:
			sx, ex := from.right(), to.x
			dx := (ex - sx) / 2
			path = fmt.Sprintf("M%s,%sC%s,%s %s,%s %s,%s", num(sx), num(sy), num(sx+dx), num(sy), num(ex-dx), num(ey), num(ex), num(ey))
			lx, ly = (sx+ex)/2, (sy+ey)/2
		default:
			// Within a column (a type's field of another type), or
			// backwards: a curve on the right of the column.
			sx, ex := from.right(), to.right()
			reach := min(loopReach+(max(sy, ey)-min(sy, ey))/6, 2*loopReach)
			path = fmt.Sprintf("M%s,%sC%s,%s %s,%s %s,%s", num(sx), num(sy), num(sx+reach), num(sy), num(ex+reach), num(ey), num(ex), num(ey))
			lx, ly = max(sx, ex)+reach*0.75, (sy+ey)/2
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="#555" stroke-width="1.2" marker-end="url(#gramc-graph-arrow)"/>`+"\n", path)
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" font-size="%d" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
			num(lx), num(ly), fontSize-1, xmlText(e.Label))
	}
	for i, n := range g.Nodes {
		bx := boxes[i]
		rx := map[Kind]float64{Agent: bx.h / 2, Tool: 2, Type: 10, Enum: 6}[n.Kind]
		fmt.Fprintf(&b, `<g class="%s"><title>%s %s</title>`, n.Kind, n.Kind, xmlText(n.Name))
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
