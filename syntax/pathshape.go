package syntax

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"
)

// The shape of a path, written once:
//
//	path  = node { arrow node }
//	arrow = open [ "[" subject "]" ] close     (open "-" "<-" "=" "<=" "~" "<~",
//	                                            close of the same line: "-" "->" ...)
//
// readPath is the one function in production that reads it. It reads from
// one of two token sources: the document's coarse tokens, where a node and
// an arrow's subject are whole groups (tokenReader: the document grammar
// delimits a top-level path and records its parts, which the lowering
// builds), and the fine tokens inside a group, where the hand-written
// parser builds the tree as it reads (hpathReader, handparse.go). The
// reference grammar (reference_grammar_test.go, gPath and gArrow) writes
// the shape declaratively; TestReferenceGrammarAgrees and
// FuzzReferenceAgrees hold the parser to the same trees.

// pathReader reads the parts of a path from a token source.
type pathReader interface {
	// node consumes a (node) group, reporting whether one was next.
	node() bool
	// arrowOpen consumes an arrow's opening piece when one is next.
	arrowOpen() (open string, ok bool)
	// arrowSubject consumes an arrow's [subject] group when one is next;
	// false means a group that is not well-formed.
	arrowSubject() bool
	// arrowClose consumes an arrow's closing piece when one is next.
	arrowClose() (close string, ok bool)
	// fail reports what is wrong at the current place.
	fail(p pathProblem, open string)
}

// pathProblem is what can be wrong with a path's shape.
type pathProblem int

const (
	problemTooLong     pathProblem = iota // more than MaxNesting arrows
	problemArrowCut                       // an opening piece without its close
	problemArrowMixed                     // -=>: the pieces use different lines
	problemNodeMissing                    // an arrow not followed by a node
)

// readPath reads a path from r and reports whether its shape held.
func readPath(r pathReader) bool {
	if !r.node() {
		return false
	}
	ok := true
	for arrows := 0; ; arrows++ {
		open, more := r.arrowOpen()
		if !more {
			return ok
		}
		if arrows == MaxNesting {
			r.fail(problemTooLong, open)
			return false
		}
		if !r.arrowSubject() {
			return false
		}
		closePiece, done := r.arrowClose()
		if !done {
			r.fail(problemArrowCut, open)
			return false
		}
		if closePiece[0] != open[len(open)-1] {
			r.fail(problemArrowMixed, open)
			ok = false
		}
		if !r.node() {
			r.fail(problemNodeMissing, open)
			return false
		}
	}
}

func isArrowOpen(v string) bool {
	switch v {
	case "-", "<-", "=", "<=", "~", "<~":
		return true
	}
	return false
}

func isArrowClose(v string) bool {
	switch v {
	case "-", "->", "=", "=>", "~", "~>":
		return true
	}
	return false
}

// pathParts is a top-level path as readPath read it from coarse tokens:
// the index, among the pattern's tokens, of each node group and of each
// arrow's pieces, for the lowering to build (topLowerer.path).
type pathParts struct {
	nodes  []int32
	arrows []arrowPieces
}

// arrowPieces are the indexes of an arrow's pieces; subject and close are
// -1 when absent (close: the arrow was cut short).
type arrowPieces struct{ open, subject, close int32 }

// tokenReader reads a path from the document grammar's tokens, recording
// its parts and reporting each problem at the token where it is.
type tokenReader struct {
	lex   *lexer.PeekingLexer
	first lexer.RawCursor // where the pattern's tokens start
	errs  *[]*parseError
	parts pathParts
	last  *lexer.Token // the piece consumed last
	open  bool         // the path was cut short within or after an arrow
}

// take consumes the next token when ok, returning its index among the
// pattern's tokens (or -1).
func (r *tokenReader) take(ok bool) int32 {
	if !ok {
		return -1
	}
	i := int32(r.lex.RawCursor() - r.first)
	r.last = r.lex.Peek()
	r.lex.Next()
	return i
}

func (r *tokenReader) node() bool {
	i := r.take(r.lex.Peek().Type == tParenGroup)
	if i >= 0 {
		r.parts.nodes = append(r.parts.nodes, i)
	}
	return i >= 0
}

func (r *tokenReader) arrowOpen() (string, bool) {
	t := r.lex.Peek()
	i := r.take(t.Type == tPunct && isArrowOpen(t.Value))
	if i < 0 {
		return "", false
	}
	r.parts.arrows = append(r.parts.arrows, arrowPieces{open: i, subject: -1, close: -1})
	return r.last.Value, true
}

func (r *tokenReader) arrowSubject() bool {
	if i := r.take(r.lex.Peek().Type == tBracketGroup); i >= 0 {
		r.parts.arrows[len(r.parts.arrows)-1].subject = i
	}
	return true
}

func (r *tokenReader) arrowClose() (string, bool) {
	t := r.lex.Peek()
	i := r.take(t.Type == tPunct && isArrowClose(t.Value))
	if i < 0 {
		return "", false
	}
	r.parts.arrows[len(r.parts.arrows)-1].close = i
	return r.last.Value, true
}

func (r *tokenReader) fail(p pathProblem, open string) {
	r.open = r.open || p == problemArrowCut || p == problemNodeMissing
	t := r.lex.Peek()
	var summary, detail string
	switch p {
	case problemTooLong:
		t, summary, detail = r.last, "path too long", pathTooLong
	case problemArrowCut:
		summary, detail = "unexpected "+describe(t), fmt.Sprintf("Expected the rest of the arrow (%q or %q) here.", open[len(open)-1:], open[len(open)-1:]+">")
	case problemArrowMixed:
		t, summary, detail = r.last, "arrow mixes line styles", arrowMixed
	case problemNodeMissing:
		if t.Type == tSymbol {
			summary, detail = "expected a node after the arrow, found "+describe(t), nodeAfterArrow
		} else {
			summary, detail = "unexpected "+describe(t), `Expected a node "(" after the arrow.`
		}
	}
	*r.errs = append(*r.errs, &parseError{start: t.Pos.Offset, end: t.Pos.Offset + len(t.Value), summary: summary, detail: detail})
}
