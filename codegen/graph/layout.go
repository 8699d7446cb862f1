package graph

import (
	"cmp"
	"slices"
)

// The SVG is laid out in layers, left to right, as Graphviz's dot lays a
// graph out (Gansner et al., "A Technique for Drawing Directed Graphs",
// 1993): the edges of cycles are turned round so that every edge points
// right; each node gets a layer by the longest path from a node nothing
// points at; an edge longer than one layer passes through a dummy node in
// each layer between, and its label is one such dummy, as wide and high
// as its text (dot's label nodes), in a layer of labels between two
// layers of nodes, so that no label can overlap a node or another label;
// sweeps by the barycentre of the neighbours order each layer, keeping
// the order with the fewest crossings; and positions down each layer are
// the nearest to the mean of the neighbours' that keep the layer's order
// and gaps (a least-squares fit, solved exactly by pooling adjacent
// violators). Every step is a pure function of the graph, so the picture
// is the same bytes every time.

// lnode is a node of the layout: a node of the graph, a label of an edge
// or a point an edge passes through.
type lnode struct {
	node  int // the graph's node, or -1
	edge  int // a dummy's edge, or -1
	label bool
	w, h  float64 // the room it takes
	layer int
	y     float64 // its centre, down the layer
	x     float64 // its centre, across
}

// layout is the graph's picture before it is printed.
type layout struct {
	nodes    []lnode
	layers   [][]int // lnode indexes, top to bottom
	chains   [][]int // per edge (not a loop): lnode indexes from its left end to its right end
	reversed []bool  // per edge: drawn right to left (it closes a cycle)
	loops    [][]int // per graph node: its edges to itself
	widths   []float64
	xs       []float64 // each layer's left side
}

// The layout's geometry, in pixels.
const (
	nodeGap   = 18 // between two nodes of a layer
	labelGap  = 6  // between a label or a point and its neighbours
	layerGap  = 22 // between two layers
	labelPadX = 4  // each side of a label's text
	pointSize = 6  // the room a point of a long edge takes
	loopDepth = 12 // how far a node's loop reaches below it, beside its labels
	sweeps    = 12 // sweeps of the ordering, at most
)

// labelWidth is the room an edge's label takes across.
func labelWidth(s string) float64 { return textWidth(s)*edgeFont/fontSize + 2*labelPadX }

// layOut lays g out; boxW and boxH are a node's box.
func layOut(g *Graph, boxW, boxH func(i int) float64) *layout {
	n := len(g.Nodes)
	l := &layout{reversed: make([]bool, len(g.Edges)), loops: make([][]int, n), chains: make([][]int, len(g.Edges))}
	for i := range n {
		l.nodes = append(l.nodes, lnode{node: i, edge: -1, w: boxW(i), h: boxH(i)})
	}
	for k, e := range g.Edges {
		if e.From == e.To {
			l.loops[e.From] = append(l.loops[e.From], k)
		}
	}
	// A node's loops hang below its box: each a curve through its label.
	for i, ks := range l.loops {
		for _, k := range ks {
			l.nodes[i].h += lineHeight + labelGap
			l.nodes[i].w = max(l.nodes[i].w, labelWidth(g.Edges[k].Label)+2*loopDepth)
		}
		if len(ks) > 0 {
			l.nodes[i].h += loopDepth
		}
	}
	l.breakCycles(g)
	rank := l.rank(g)
	// Nodes in even layers; an edge's label in the odd layer after its
	// left end; points in the layers after that, to its right end.
	for i := range n {
		l.nodes[i].layer = 2 * rank[i]
	}
	for k, e := range g.Edges {
		from, to, ok := l.ends(k, e)
		if !ok {
			continue
		}
		chain := []int{from}
		for layer := 2*rank[from] + 1; layer < 2*rank[to]; layer++ {
			d := lnode{node: -1, edge: k, layer: layer, w: pointSize, h: pointSize}
			if layer == 2*rank[from]+1 {
				d.label, d.w, d.h = true, labelWidth(e.Label), lineHeight
			}
			l.nodes = append(l.nodes, d)
			chain = append(chain, len(l.nodes)-1)
		}
		l.chains[k] = append(chain, to)
	}
	nl := 0
	for _, v := range l.nodes {
		nl = max(nl, v.layer+1)
	}
	l.layers = make([][]int, nl)
	for i, v := range l.nodes {
		l.layers[v.layer] = append(l.layers[v.layer], i)
	}
	l.order()
	l.place()
	return l
}

// breakCycles marks the edges to turn round so that none closes a cycle:
// those a depth-first walk, in declaration order, finds pointing back
// to a node on its path.
func (l *layout) breakCycles(g *Graph) {
	n := len(g.Nodes)
	outs := make([][]int, n)
	for k, e := range g.Edges {
		if e.From != e.To {
			outs[e.From] = append(outs[e.From], k)
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]int, n)
	type frame struct{ v, next int }
	for root := range n {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{v: root}}
		state[root] = onPath
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(outs[f.v]) {
				k := outs[f.v][f.next]
				f.next++
				switch to := g.Edges[k].To; state[to] {
				case unseen:
					state[to] = onPath
					stack = append(stack, frame{v: to})
				case onPath:
					l.reversed[k] = true
				}
				continue
			}
			state[f.v] = done
			stack = stack[:len(stack)-1]
		}
	}
}

// ends are edge k's ends as the layers run, left to right (reversed
// when breaking cycles turned it); ok is false for a loop, which stays
// beside its node.
func (l *layout) ends(k int, e Edge) (from, to int, ok bool) {
	if e.From == e.To {
		return 0, 0, false
	}
	if l.reversed[k] {
		return e.To, e.From, true
	}
	return e.From, e.To, true
}

// rank is each node's layer (counting nodes only): the longest path to it
// from a node nothing points at, with the cycles broken.
func (l *layout) rank(g *Graph) []int {
	n := len(g.Nodes)
	outs := make([][]int, n)
	indeg := make([]int, n)
	for k, e := range g.Edges {
		from, to, ok := l.ends(k, e)
		if !ok {
			continue
		}
		outs[from] = append(outs[from], to)
		indeg[to]++
	}
	rank := make([]int, n)
	var queue []int
	for i := range n {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range outs[v] {
			rank[w] = max(rank[w], rank[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return rank
}

// neighbours are, per lnode, the lnodes it is joined to in the layer
// before (left) and after (right).
func (l *layout) neighbours() (left, right [][]int) {
	left, right = make([][]int, len(l.nodes)), make([][]int, len(l.nodes))
	for _, c := range l.chains {
		for i := 1; i < len(c); i++ {
			right[c[i-1]] = append(right[c[i-1]], c[i])
			left[c[i]] = append(left[c[i]], c[i-1])
		}
	}
	return left, right
}

// order orders each layer: declaration order first (a node before the
// dummies of its edges), then sweeps right and left placing each lnode at
// the mean position of its neighbours in the layer swept from, keeping
// the order with the fewest crossings.
func (l *layout) order() {
	left, right := l.neighbours()
	pos := make([]float64, len(l.nodes))
	set := func() {
		for _, layer := range l.layers {
			for p, v := range layer {
				pos[v] = float64(p)
			}
		}
	}
	sweep := func(from int, step int, nbrs [][]int) {
		for li := from; li >= 0 && li < len(l.layers); li += step {
			layer := l.layers[li]
			key := make(map[int]float64, len(layer))
			for _, v := range layer {
				key[v] = pos[v]
				if len(nbrs[v]) > 0 {
					s := 0.0
					for _, u := range nbrs[v] {
						s += pos[u]
					}
					key[v] = s / float64(len(nbrs[v]))
				}
			}
			slices.SortStableFunc(layer, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
			for p, v := range layer {
				pos[v] = float64(p)
			}
		}
	}
	set()
	// The first placement: a layer after the first follows the layer
	// before it.
	sweep(1, 1, left)
	best, bestOrder := l.crossings(pos, right), l.snapshot()
	for i := 0; i < sweeps && best > 0; i++ {
		if i%2 == 0 {
			sweep(len(l.layers)-2, -1, right)
		} else {
			sweep(1, 1, left)
		}
		if c := l.crossings(pos, right); c < best {
			best, bestOrder = c, l.snapshot()
		}
	}
	l.layers = bestOrder
}

func (l *layout) snapshot() [][]int {
	out := make([][]int, len(l.layers))
	for i, layer := range l.layers {
		out[i] = slices.Clone(layer)
	}
	return out
}

// crossings counts the crossings of the segments between each two
// adjacent layers: the inversions of their right ends' positions once
// sorted by their left ends' (Barth, Jünger and Mutzel's bilayer count,
// with a Fenwick tree: time E log V).
func (l *layout) crossings(pos []float64, right [][]int) int {
	total := 0
	for li := 0; li+1 < len(l.layers); li++ {
		type seg struct{ a, b int }
		var segs []seg
		for _, v := range l.layers[li] {
			for _, w := range right[v] {
				segs = append(segs, seg{int(pos[v]), int(pos[w])})
			}
		}
		slices.SortFunc(segs, func(x, y seg) int {
			if c := cmp.Compare(x.a, y.a); c != 0 {
				return c
			}
			return cmp.Compare(x.b, y.b)
		})
		n := len(l.layers[li+1])
		tree := make([]int, n+1)
		seen := 0
		for _, s := range segs {
			// Segments seen before with a right end after s's cross it.
			le := 0
			for i := s.b + 1; i > 0; i -= i & -i {
				le += tree[i]
			}
			total += seen - le
			for i := s.b + 1; i <= n; i += i & -i {
				tree[i]++
			}
			seen++
		}
	}
	return total
}

// place sets each lnode's centre: across, the middle of its layer's
// column; down, sweeps that move each lnode towards the mean of its
// neighbours' centres, as near as the layer's order and gaps allow.
func (l *layout) place() {
	l.widths = make([]float64, len(l.layers))
	l.xs = make([]float64, len(l.layers))
	x := float64(margin)
	for li, layer := range l.layers {
		for _, v := range layer {
			l.widths[li] = max(l.widths[li], l.nodes[v].w)
		}
		l.xs[li] = x
		for _, v := range layer {
			l.nodes[v].x = x + l.widths[li]/2
		}
		x += l.widths[li] + layerGap
	}
	gap := func(a, b int) float64 {
		g := float64(nodeGap)
		if l.nodes[a].node < 0 || l.nodes[b].node < 0 {
			g = labelGap
		}
		return (l.nodes[a].h+l.nodes[b].h)/2 + g
	}
	// Packed from the top, in order.
	for _, layer := range l.layers {
		y := float64(margin)
		for i, v := range layer {
			if i > 0 {
				y += gap(layer[i-1], v)
			} else {
				y += l.nodes[v].h / 2
			}
			l.nodes[v].y = y
		}
	}
	left, right := l.neighbours()
	fit := func(li int, nbrs ...[][]int) {
		layer := l.layers[li]
		want := make([]float64, len(layer))
		for i, v := range layer {
			s, k := 0.0, 0
			for _, nb := range nbrs {
				for _, u := range nb[v] {
					s, k = s+l.nodes[u].y, k+1
				}
			}
			want[i] = l.nodes[v].y
			if k > 0 {
				want[i] = s / float64(k)
			}
		}
		seps := make([]float64, len(layer))
		for i := 1; i < len(layer); i++ {
			seps[i] = gap(layer[i-1], layer[i])
		}
		for i, y := range fitInOrder(want, seps) {
			l.nodes[layer[i]].y = y
		}
	}
	for i := 0; i < 8; i++ {
		switch i % 3 {
		case 0:
			for li := 1; li < len(l.layers); li++ {
				fit(li, left)
			}
		case 1:
			for li := len(l.layers) - 2; li >= 0; li-- {
				fit(li, right)
			}
		default:
			for li := range l.layers {
				fit(li, left, right)
			}
		}
	}
	// The top at the margin.
	top := 0.0
	first := true
	for _, v := range l.nodes {
		if t := v.y - v.h/2; first || t < top {
			top, first = t, false
		}
	}
	for i := range l.nodes {
		l.nodes[i].y += float64(margin) - top
	}
}

// fitInOrder returns the positions p nearest to want (least squares) with
// p[i] >= p[i-1] + seps[i]: pooling adjacent violators over want less
// the running sum of the gaps.
func fitInOrder(want, seps []float64) []float64 {
	n := len(want)
	off := make([]float64, n)
	for i := 1; i < n; i++ {
		off[i] = off[i-1] + seps[i]
	}
	type block struct {
		sum   float64
		count int
	}
	var blocks []block
	for i := range n {
		blocks = append(blocks, block{want[i] - off[i], 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/float64(a.count) <= b.sum/float64(b.count) {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{a.sum + b.sum, a.count + b.count})
		}
	}
	out := make([]float64, 0, n)
	for _, b := range blocks {
		m := b.sum / float64(b.count)
		for range b.count {
			out = append(out, m+off[len(out)])
		}
	}
	return out
}
