package syntax

import (
	"sync"

	"github.com/gramc-dev/gramc/ast"
)

// slabSize is how many values of one type an arena allocates at a time.
const slabSize = 128

// slab hands out values of T from chunks of slabSize, so that a large
// document costs one allocation per slabSize nodes instead of one per node.
// A chunk stays alive while any value in it is referenced; since a parsed
// tree is kept or dropped as a whole, little memory is held needlessly.
type slab[T any] []T

func (s *slab[T]) new() *T {
	if len(*s) == 0 {
		*s = make([]T, slabSize)
	}
	p := &(*s)[0]
	*s = (*s)[1:]
	return p
}

// clone copies src into memory from the slab (with capacity len(src), so
// appending to the result never writes into the slab).
func (s *slab[T]) clone(src []T) []T {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > len(*s) {
		if n > slabSize/4 {
			out := make([]T, n)
			copy(out, src)
			return out
		}
		*s = make([]T, slabSize)
	}
	out := (*s)[:n:n]
	copy(out, src)
	*s = (*s)[n:]
	return out
}

// arena allocates the ast nodes of the hand-written parser. Arenas are
// pooled: a group takes one, parses, and puts it back, so consecutive
// groups (of one file or of concurrent parses) share chunks.
type arena struct {
	nodes    slab[ast.NodePattern]
	subjects slab[ast.SubjectPattern]
	rels     slab[ast.RelationshipPattern]
	arrows   slab[ast.Arrow]
	ids      slab[ast.Identifier]
	refs     slab[ast.PatternReference]
	labels   slab[ast.Label]
	records  slab[ast.Record]
	props    slab[ast.Property]
	numbers  slab[ast.Number]
	strings  slab[ast.String]
	symbols  slab[ast.Symbol]
	bools    slab[ast.Boolean]

	patterns slab[ast.Pattern]
	values   slab[ast.Value]

	// Stacks collecting the children of the nodes being parsed; a node
	// appends its children, clones them out and truncates back, so nested
	// nodes share one stack.
	labelStack []ast.Label
	propStack  []ast.Property
	patStack   []ast.Pattern
	valStack   []ast.Value
}

var arenaPool = sync.Pool{New: func() any { return new(arena) }}
