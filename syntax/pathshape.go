package syntax

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The shape of a path at the coarse level, written once:
//
//	path  = node { arrow node }
//	arrow = open [ "[" subject "]" ] close     (open "-" "<-" "=" "<=" "~" "<~",
//	                                            close of the same line: "-" "->" ...)
//
// The coarse scanner follows it to gather a run of well-formed patterns
// (runReader: it only needs to know whether the shape holds), the document
// grammar to delimit one pattern and say what is wrong with it
// (tokenReader), and the lowering to split a run into its patterns
// (runTokReader, topgrammar.go). The group parser (handparse.go,
// hparser.path) follows the same shape inside brackets while it builds the
// tree of each group, and the reference grammar (reference_grammar_test.go,
// gPath and gArrow) writes it declaratively; TestReferenceGrammarAgrees and
// FuzzReferenceAgrees hold them to the same trees.

// pathReader reads the parts of a path from one of the two coarse token
// sources.
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

// tokenReader reads a path from the document grammar's tokens, reporting
// each problem at the token where it is.
type tokenReader struct {
	lex  *lexer.PeekingLexer
	errs *[]*parseError
	last *lexer.Token // the piece consumed last
	open bool         // the path was cut short within or after an arrow
}

func (r *tokenReader) take(ok bool) bool {
	if ok {
		r.last = r.lex.Peek()
		r.lex.Next()
	}
	return ok
}

func (r *tokenReader) node() bool { return r.take(r.lex.Peek().Type == tParenGroup) }

func (r *tokenReader) arrowOpen() (string, bool) {
	t := r.lex.Peek()
	if !r.take(t.Type == tPunct && isArrowOpen(t.Value)) {
		return "", false
	}
	return r.last.Value, true
}

func (r *tokenReader) arrowSubject() bool {
	if r.lex.Peek().Type == tBracketGroup {
		r.lex.Next()
	}
	return true
}

func (r *tokenReader) arrowClose() (string, bool) {
	t := r.lex.Peek()
	if !r.take(t.Type == tPunct && isArrowClose(t.Value)) {
		return "", false
	}
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
		t, summary, detail = r.last, "arrow mixes line styles",
			"An arrow is drawn with one kind of line: -->, ==> or ~~> (and -[r]->, =[r]=>, ~[r]~>). Use the same character on both sides."
	case problemNodeMissing:
		if t.Type == tSymbol {
			summary, detail = "expected a node after the arrow, found "+describe(t), nodeAfterArrow
		} else {
			summary, detail = "unexpected "+describe(t), `Expected a node "(" after the arrow.`
		}
	}
	*r.errs = append(*r.errs, &parseError{start: t.Pos.Offset, end: t.Pos.Offset + len(t.Value), summary: summary, detail: detail})
}

// runReader reads a path from the coarse scanner's text for a run,
// recording its groups and pieces; it reports no errors (a path that does
// not hold ends the run, and the grammar then reports it).
type runReader struct{ s *scanner }

func (r runReader) node() bool {
	s := r.s
	if s.skipSpace(); s.err != nil || s.off >= len(s.src) || s.src[s.off] != '(' {
		return false
	}
	return s.runGroup(tParenGroup)
}

func (r runReader) arrowOpen() (string, bool) {
	s := r.s
	end := s.save()
	if s.skipSpace(); s.err != nil {
		return "", false
	}
	if s.off >= len(s.src) || !strings.ContainsRune("-<=~", rune(s.src[s.off])) {
		s.restore(end)
		return "", false
	}
	open, err := s.fine()
	if err != nil || open.Type != tPunct || !isArrowOpen(open.Value) {
		s.restore(end)
		return "", false
	}
	s.runPiece(&open)
	return open.Value, true
}

func (r runReader) arrowSubject() bool {
	s := r.s
	if s.skipSpace(); s.err != nil {
		return false
	}
	return s.off >= len(s.src) || s.src[s.off] != '[' || s.runGroup(tBracketGroup)
}

func (r runReader) arrowClose() (string, bool) {
	c, err := r.s.fine()
	if err != nil || c.Type != tPunct || !isArrowClose(c.Value) {
		return "", false
	}
	r.s.runPiece(&c)
	return c.Value, true
}

func (r runReader) fail(pathProblem, string) {}
