package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax/internal/lexical"
)

// MaxNesting is the deepest nesting of brackets, parentheses and braces the
// parser accepts. The scanner counts open brackets as it produces tokens and
// stops with a positioned error past this depth, so that deeply nested input
// ("[[[[...", 10^6 deep) is rejected in linear time before the recursive
// parser could exhaust the stack. Real gram documents nest a handful of
// levels; 1000 leaves ample room.
const MaxNesting = 1000

// Token types produced by the scanner. Punctuation tokens all have type
// tPunct and are told apart by their text, which is what participle's
// literal matches ("(", "-->", ...) compare.
const (
	tPunct lexer.TokenType = iota + 1
	tSymbol
	tInteger
	tDecimal
	tHex
	tOctal
	tMeasurement
	tSQString // 'single'
	tDQString // "double"
	tBTString // `backtick`
	tFenced   // ```\n...``` or ```tag\n...```
	tTagged   // tag`...`
	// Coarse tokens: a whole balanced group, parsed by the hand-written
	// parser (handparse.go) inside participle's top-level grammar.
	tParenGroup   // (...)
	tBracketGroup // [...]
	tBraceGroup   // {...}
)

// tokenNames returns participle's names of the token types.
func tokenNames() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":          lexer.EOF,
		"Punct":        tPunct,
		"Symbol":       tSymbol,
		"Integer":      tInteger,
		"Decimal":      tDecimal,
		"Hex":          tHex,
		"Octal":        tOctal,
		"Measurement":  tMeasurement,
		"SQString":     tSQString,
		"DQString":     tDQString,
		"BTString":     tBTString,
		"Fenced":       tFenced,
		"Tagged":       tTagged,
		"ParenGroup":   tParenGroup,
		"BracketGroup": tBracketGroup,
		"BraceGroup":   tBraceGroup,
	}
}

// scanError is a lexical error at a byte offset of the source.
type scanError struct {
	offset  int
	end     int // end of the offending text (>= offset)
	summary string
	detail  string
	// related, when relatedMsg is set, is the offset of another place
	// that explains the error (a stray closer, where a new pattern starts).
	related    int
	relatedMsg string
	code       diag.Code // "" means diag.CodeSyntax
	suggestion string
}

func (e *scanError) Error() string { return e.summary }

// comment is a `//` comment seen by the scanner (comments never reach the
// parser; they are attached to the tree afterwards).
type comment struct {
	start, end int // byte offsets; end excludes the line terminator
}

// scanner turns gram source into tokens. It is hand-written because gram's
// lexical rules depend on longest matches between overlapping number forms
// (10kg, 0x1F, 017, 1..5) and because a generic regexp lexer is far too slow
// for large documents.
type scanner struct {
	src      string
	filename string
	base     int // offset of src in the file (inner scanners scan one group)
	off      int // offset in src
	depth    int
	coarse   bool // yield whole bracketed groups as single tokens
	inner    bool // scanning inside a group: no comments, no opener stack

	tokStart int   // coarse scanners: offset of the token being scanned
	opens    []int // offsets of the open brackets, innermost last
	comments []comment
	err      *scanError

	// fineRun counts the coarse scanner's tokens since the last group: no
	// gram construct needs MaxTokensWithoutGroup of them in a row, so the
	// scanner stops there (truncated is where) instead of handing
	// participle, which takes every token of a file before it parses, an
	// unbounded list (9 MB of "-->" took 1.2 GB before the error at 1:1).
	fineRun   int
	truncated int // offset in the file where the scanner stopped, or -1

	// file is the whole file's Source when src is a window of it (base >
	// 0), for the lines that error messages name.
	file *ast.Source
	// reachedEnd is set when a token (a group, a string) ran into the end
	// of src: parseRecovering then knows a window of the file cut it.
	reachedEnd bool
}

// MaxTokensWithoutGroup bounds the tokens in a row outside any (...),
// [...] or {...} group that a file may hold: paths, annotations and
// labels always reach a group long before.
const MaxTokensWithoutGroup = 1 << 16

// newScanner returns a scanner of a whole file yielding fine tokens.
func newScanner(filename, src string) *scanner {
	s := &scanner{src: src, filename: filename}
	s.skipBOM()
	return s
}

// newCoarseScanner returns a scanner of a whole file that yields each
// balanced (...), [...] or {...} group as one token.
func newCoarseScanner(filename, src string) *scanner {
	s := &scanner{src: src, filename: filename, coarse: true, truncated: -1}
	s.skipBOM()
	return s
}

// newWindowScanner is newCoarseScanner for src, the window of file's text
// that starts at offset base (parseRecovering parses a file in windows
// after a syntax error). Tokens, comments and errors carry file offsets.
func newWindowScanner(filename string, file *ast.Source, src string, base int) *scanner {
	if base == 0 {
		return newCoarseScanner(filename, src)
	}
	return &scanner{src: src, filename: filename, coarse: true, truncated: -1, base: base, file: file}
}

// byteOrderMark is U+FEFF encoded in UTF-8.
const byteOrderMark = "\uFEFF"

// skipBOM passes over a byte-order mark at the start of a file, which some
// editors write: like white space it separates nothing (but it is still one
// character in columns, which ast.Source counts).
func (s *scanner) skipBOM() {
	if strings.HasPrefix(s.src, byteOrderMark) {
		s.off = len(byteOrderMark)
	}
}

// initInner prepares s to scan the text of the group token t.
func (s *scanner) initInner(t *lexer.Token) {
	*s = scanner{src: t.Value, filename: t.Pos.Filename, base: t.Pos.Offset, inner: true}
}

// pos is the position of the scanner in the file. It is a byte offset
// only: tokens carry no lines or columns, which the file's ast.Source works
// out when a node or an error needs them.
func (s *scanner) pos() lexer.Position {
	return lexer.Position{Filename: s.filename, Offset: s.base + s.off}
}

// position returns the line and column of src[off] (error messages only).
// Only coarse scanners, of a whole file or of a window of it, scan groups
// and report these.
func (s *scanner) position(off int) ast.Pos {
	if s.file != nil {
		return s.file.Position(s.base + off)
	}
	return ast.NewSource(s.src).Position(off)
}

func (s *scanner) fail(off, end int, summary, detail string) (lexer.Token, error) {
	if s.err == nil {
		s.err = &scanError{offset: s.base + off, end: s.base + end, summary: summary, detail: detail}
	}
	return lexer.Token{}, s.err
}

// Next implements lexer.Lexer.
func (s *scanner) Next() (lexer.Token, error) {
	if !s.coarse {
		return s.fine()
	}
	t, err := s.coarseNext()
	if err == nil {
		s.count(&t)
	}
	return t, err
}

// count counts the coarse token t against MaxTokensWithoutGroup.
func (s *scanner) count(t *lexer.Token) {
	if t.Type == tBracketGroup || t.Type == tBraceGroup || t.Type == tParenGroup {
		s.fineRun = 0
	} else {
		s.fineRun++
	}
}

// skip passes over the white space and comments before a token and
// reports whether the scanner can go on (it stops at its first error).
func (s *scanner) skip() bool {
	if s.err == nil {
		s.skipSpace()
	}
	return s.err == nil
}

func (s *scanner) coarseNext() (lexer.Token, error) {
	if !s.skip() {
		return lexer.Token{}, s.err
	}
	s.tokStart = s.off
	if s.off >= len(s.src) {
		return lexer.Token{Type: lexer.EOF, Pos: s.pos()}, nil
	}
	if s.fineRun >= MaxTokensWithoutGroup && !s.inner {
		// Stop here; parseWindow reports the limit if the parser gets
		// this far (it usually fails much earlier, at the first token
		// that does not fit).
		if s.truncated < 0 {
			s.truncated = s.base + s.off
		}
		return lexer.Token{Type: lexer.EOF, Pos: s.pos()}, nil
	}
	var typ lexer.TokenType
	switch s.src[s.off] {
	case '(':
		typ = tParenGroup
	case '[':
		typ = tBracketGroup
	case '{':
		typ = tBraceGroup
	default:
		return s.fine()
	}
	return s.group(typ)
}

// group scans a balanced group starting at s.off and returns it as one
// token of type typ. It only looks at what decides where the group ends:
// brackets (counted against MaxNesting), strings and comments (recorded);
// everything else is checked when the group itself is parsed.
func (s *scanner) group(typ lexer.TokenType) (lexer.Token, error) {
	src := s.src
	start, pos, depth0 := s.off, s.pos(), s.depth
	newPattern := -1 // where a new top-level pattern seems to start, if it does
	// atLineStart reports whether src[i] is the first character of a line.
	atLineStart := func(i int) bool { return i == 0 || src[i-1] == '\n' }
	i := s.off
	for i < len(src) {
		c := src[i]
		switch c {
		case '(', '[', '{':
			s.depth++
			s.opens = append(s.opens, i)
			if s.depth > MaxNesting {
				return s.fail(i, i+1, "nesting too deep",
					"Brackets, parentheses and braces may nest at most 1000 levels deep. Flatten the structure, for example by naming inner patterns and referring to them by identifier.")
			}
			if newPattern < 0 && i > start && atLineStart(i) {
				newPattern = i
			}
			i++
		case ')', ']', '}':
			o := s.opens[len(s.opens)-1]
			open := src[o]
			if want := closerByte(open); c != want {
				at := s.position(i)
				w, op, cl := string(want), string(open), string(c)
				s.fail(o, o+1, fmt.Sprintf("missing %q to close this %q", w, op),
					fmt.Sprintf("A %q at line %d, column %d closes a bracket before this %q is closed. Add %q where this %q should end, or remove the stray %q.", cl, at.Line, at.Column, op, w, op, cl))
				s.err.related, s.err.relatedMsg = s.base+i, fmt.Sprintf("this %q closes the bracket", cl)
				return lexer.Token{}, s.err
			}
			i++
			s.depth--
			s.opens = s.opens[:len(s.opens)-1]
			if s.depth == depth0 {
				s.off = i
				return lexer.Token{Type: typ, Value: src[start:i], Pos: pos}, nil
			}
		case '\'', '"', '`':
			var end int
			var ok bool
			if c == '`' && hasPrefixAt(src, i, "```") {
				end, ok = s.fenced(i)
			} else {
				end, ok = s.quoted(i, c)
			}
			if !ok {
				return lexer.Token{}, s.err
			}
			i = end
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				end, nul := lexical.CommentEnd(src, i)
				if nul >= 0 {
					return s.nulByte(nul, "comment")
				}
				textEnd := end
				if textEnd > i && src[textEnd-1] == '\r' {
					textEnd--
				}
				if !s.inner {
					s.comments = append(s.comments, comment{start: s.base + i, end: s.base + textEnd})
				}
				i = end
				continue
			}
			i++
		case '@':
			if newPattern < 0 && i > start && atLineStart(i) {
				newPattern = i
			}
			i++
		default:
			i++
		}
	}
	s.off = i
	return s.unclosed(newPattern)
}

// unclosed reports the innermost bracket left open at the end of the file;
// newPattern is where a new top-level pattern seems to start (or -1).
func (s *scanner) unclosed(newPattern int) (lexer.Token, error) {
	s.reachedEnd = true
	o := s.opens[len(s.opens)-1]
	open := s.src[o : o+1]
	close := map[string]string{"(": ")", "[": "]", "{": "}"}[open]
	detail := fmt.Sprintf("The file ends before the %q opened here is closed. Add %q after its last element.", open, close)
	if newPattern >= 0 {
		detail = fmt.Sprintf("The %q opened here is never closed; a new pattern seems to start at line %d. Add %q after the last element of this one.", open, s.position(newPattern).Line, close)
	}
	if c := hiddenCloser(s.src, o, close); c != "" {
		detail += " " + c
	}
	s.err = &scanError{offset: s.base + o, end: s.base + o + 1,
		summary: fmt.Sprintf("missing %q to close this %q", close, open), detail: detail}
	if newPattern >= 0 {
		s.err.related, s.err.relatedMsg = s.base+newPattern, "a new pattern starts here"
	}
	return lexer.Token{}, s.err
}

// fine yields the next fine-grained token.
func (s *scanner) fine() (lexer.Token, error) {
	if !s.skip() {
		return lexer.Token{}, s.err
	}
	if s.off >= len(s.src) {
		return lexer.Token{Type: lexer.EOF, Pos: s.pos()}, nil
	}
	src := s.src
	start := s.off
	pos := s.pos()
	c := src[start]
	typ := tPunct
	n := 0 // length of an ASCII, single-line token
	switch {
	case c == '(' || c == '[' || c == '{':
		s.depth++
		if !s.inner {
			s.opens = append(s.opens, start)
		}
		if s.depth > MaxNesting {
			return s.fail(start, start+1, "nesting too deep",
				"Brackets, parentheses and braces may nest at most 1000 levels deep. Flatten the structure, for example by naming inner patterns and referring to them by identifier.")
		}
		n = 1
	case c == ')' || c == ']' || c == '}':
		if s.depth > 0 {
			s.depth--
			if !s.inner {
				s.opens = s.opens[:len(s.opens)-1]
			}
		}
		n = 1
	case c == ',' || c == '|':
		n = 1
	case c == ':':
		n = 1
		if start+1 < len(src) && src[start+1] == ':' {
			n = 2
		}
	case c == '@':
		n = 1
		if start+1 < len(src) && src[start+1] == '@' {
			n = 2
		}
	case c == '.':
		switch {
		case hasPrefixAt(src, start, "..."):
			n = 3
		case hasPrefixAt(src, start, ".."):
			n = 2
		default:
			return s.fail(start, start+1, "unexpected \".\"",
				"A dot may only appear in a decimal number (2.5), in a range (1..5, 1..., ...5) or inside a symbol or string.")
		}
	case c == '-':
		if start+1 < len(src) && isDigit(src[start+1]) {
			typ, n = s.number(start)
			break
		}
		n = 1
		if start+1 < len(src) && src[start+1] == '>' {
			n = 2
		}
	case c == '=' || c == '~':
		n = 1
		if start+1 < len(src) && src[start+1] == '>' {
			n = 2
		}
	case c == '<':
		if start+1 < len(src) && (src[start+1] == '-' || src[start+1] == '=' || src[start+1] == '~') {
			n = 2
		} else {
			return s.fail(start, start+1, "unexpected \"<\"",
				"\"<\" only starts a left or bidirectional arrow such as <--, <==, <~~ or <-[r]->.")
		}
	case isDigit(c):
		typ, n = s.number(start)
	case isSymbolStart(c):
		n = 1
		for start+n < len(src) && isSymbolChar(src[start+n]) {
			n++
		}
		typ = tSymbol
		// tag`content`: a tagged string. As in the reference grammar the
		// opening backtick is a token of its own, so whitespace (line
		// breaks included) may separate it from the tag; "true" and
		// "false" are booleans there, never tags.
		if start+n < len(src) && (src[start+n] == '`' || src[start+n] <= ' ') {
			if q := lexical.SkipGap(src, start+n, true); q < len(src) && src[q] == '`' && !hasPrefixAt(src, q, "```") && !isBoolWord(src[start:start+n]) {
				end, ok := s.quoted(q, '`')
				if !ok {
					return lexer.Token{}, s.err
				}
				typ = tTagged
				n = end - start
			}
		}
	case c == '\'' || c == '"' || c == '`':
		if c == '`' && hasPrefixAt(src, start, "```") {
			end, ok := s.fenced(start)
			if !ok {
				return lexer.Token{}, s.err
			}
			s.off = end
			return lexer.Token{Type: tFenced, Value: src[start:end], Pos: pos}, nil
		}
		end, ok := s.quoted(start, c)
		if !ok {
			return lexer.Token{}, s.err
		}
		switch c {
		case '\'':
			typ = tSQString
		case '"':
			typ = tDQString
		default:
			typ = tBTString
		}
		// Quoted strings never contain newlines, but may contain
		// multi-byte runes.
		s.off = end
		return lexer.Token{Type: typ, Value: src[start:end], Pos: pos}, nil
	default:
		r, size := utf8.DecodeRuneInString(src[start:])
		if r == utf8.RuneError && size <= 1 {
			return s.fail(start, start+1, "invalid UTF-8 encoding",
				"gram files must be UTF-8 encoded text.")
		}
		if r == '#' {
			// A comment in another language's style.
			t, err := s.fail(start, start+1, `"#" does not start a comment; comments start with //`,
				"gram has line comments only, written // comment, to the end of the line.")
			s.err.code, s.err.suggestion = diag.CodeHashComment, "//"
			return t, err
		}
		return s.fail(start, start+size, "unexpected character "+quoteRune(r),
			"This character cannot appear here. Outside strings, gram uses letters, digits, _ and the punctuation of patterns, records and arrows; put free text in a quoted string.")
	}
	if s.err != nil {
		return lexer.Token{}, s.err
	}
	s.off = start + n
	return lexer.Token{Type: typ, Value: src[start : start+n], Pos: pos}, nil
}

// skipSpace skips whitespace and records comments.
func (s *scanner) skipSpace() {
	src := s.src
	for s.off < len(src) {
		switch c := src[s.off]; c {
		case ' ', '\t', '\r', '\f', '\v', '\n':
			s.off++
		case '/':
			if s.off+1 < len(src) && src[s.off+1] == '/' {
				start := s.off
				end, nul := lexical.CommentEnd(src, start)
				if nul >= 0 {
					s.nulByte(nul, "comment")
					return
				}
				textEnd := end
				if textEnd > start && src[textEnd-1] == '\r' {
					textEnd--
				}
				if !s.inner {
					s.comments = append(s.comments, comment{start: s.base + start, end: s.base + textEnd})
				}
				s.off = end
				continue
			}
			s.fail(s.off, s.off+1, "unexpected \"/\"",
				"A comment starts with two slashes: // comment.")
			return
		default:
			return
		}
	}
}

// number scans the longest numeric token at start, following the reference
// grammar's token rules: integer -?(0|[1-9]\d*), decimal -?(0|[1-9]\d*)\.\d+,
// hexadecimal 0x[0-9a-fA-F]+, octal 0[0-7]+ and measurement
// -?(0|[1-9]\d*)[a-zA-Z]+. On equal lengths the earlier rule wins (hex
// before measurement), as in tree-sitter.
func (s *scanner) number(start int) (lexer.TokenType, int) {
	src := s.src
	q := start
	neg := src[q] == '-'
	if neg {
		q++
	}
	intEnd := q + 1
	if src[q] != '0' {
		for intEnd < len(src) && isDigit(src[intEnd]) {
			intEnd++
		}
	}
	typ, end := tInteger, intEnd
	if intEnd+1 < len(src) && src[intEnd] == '.' && isDigit(src[intEnd+1]) {
		e := intEnd + 1
		for e < len(src) && isDigit(src[e]) {
			e++
		}
		if e > end {
			typ, end = tDecimal, e
		}
	}
	if !neg && src[q] == '0' && q+2 < len(src) && src[q+1] == 'x' && isHexDigit(src[q+2]) {
		e := q + 2
		for e < len(src) && isHexDigit(src[e]) {
			e++
		}
		if e > end {
			typ, end = tHex, e
		}
	}
	if !neg && src[q] == '0' && q+1 < len(src) && isOctalDigit(src[q+1]) {
		e := q + 1
		for e < len(src) && isOctalDigit(src[e]) {
			e++
		}
		if e > end {
			typ, end = tOctal, e
		}
	}
	if intEnd < len(src) && isLetter(src[intEnd]) {
		e := intEnd
		for e < len(src) && isLetter(src[e]) {
			e++
		}
		if e > end {
			typ, end = tMeasurement, e
		}
	}
	return typ, end - start
}

// quoted scans a string quoted with q starting at start and returns the
// offset just past its closing quote. The text of the string is on one
// line; whitespace may follow it before the closing quote (see below).
// Escapes allowed are those of the reference grammar: \\ \/ \b \f \n \r
// \t and the quote itself.
func (s *scanner) quoted(start int, q byte) (int, bool) {
	src := s.src
	i := start + 1
	for i < len(src) {
		c := src[i]
		switch c {
		case 0:
			s.nulByte(i, "string")
			return 0, false
		case q:
			if s.leadingComment(start+1, i) {
				return 0, false
			}
			return i + 1, true
		case '\n':
			// The closing quote is a token of its own in the reference
			// grammar, so whitespace (line breaks included) may stand
			// between the string's text, which ends at the line break,
			// and the closing quote.
			j := lexical.SkipGap(src, i, true)
			if j < len(src) && src[j] == q {
				return j + 1, true
			}
			s.reachedEnd = s.reachedEnd || j >= len(src)
			s.unterminated(start, q)
			return 0, false
		case '\\':
			if i+1 >= len(src) {
				s.reachedEnd = true
				s.unterminated(start, q)
				return 0, false
			}
			switch e := src[i+1]; e {
			case '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				if e != q {
					s.fail(i, i+2, "invalid escape sequence \""+src[i:i+2]+"\" in string",
						"The escapes allowed in a "+quoteName(q)+" string are \\\\ \\/ \\b \\f \\n \\r \\t and \\"+string(q)+". Write a backslash as \\\\.")
					return 0, false
				}
			}
			i += 2
		default:
			i++
		}
	}
	s.reachedEnd = true
	s.unterminated(start, q)
	return 0, false
}

func (s *scanner) unterminated(start int, q byte) {
	s.fail(start, start+1, "unterminated string",
		"This "+quoteName(q)+" string has no closing "+string(q)+" on the same line. Close it with "+string(q)+", or use a fenced string (``` on its own line, then the text, then ```) for text that spans lines.")
}

// fenced scans a fenced string (```\n...``` or ```tag\n...```) starting at
// start and returns the offset just past the closing fence. As in the
// reference grammar the opening fence, the tag and the line break are
// separate tokens: spaces, tabs and carriage returns may stand between them
// (so ```md\r\n opens a fence), but the line break itself may not be
// skipped.
func (s *scanner) fenced(start int) (int, bool) {
	src := s.src
	_, nl := lexical.FenceHeader(src, start)
	if nl < 0 {
		s.reachedEnd = s.reachedEnd || !strings.Contains(src[start:], "\n")
		return 0, s.failFalse(start, start+3, "fenced string must start a new line",
			"After the opening ``` (and an optional tag such as ```md) the text of a fenced string starts on the next line. Put a line break after the opening fence.")
	}
	i := nl + 1
	for i < len(src) {
		if src[i] == 0 {
			s.nulByte(i, "string")
			return 0, false
		}
		if src[i] == '`' && hasPrefixAt(src, i, "```") {
			if c := fenceLeadingComment(src, nl, i); c >= 0 {
				return 0, s.failFalse(c, c+2, "a fenced string cannot begin with a // line that holds the closing fence",
					"In gram a // at the start of a fenced string's text (after any blank space) begins a comment that runs to the end of its line; here that line also holds the closing ```, which the comment swallows. Put the closing ``` on its own line.")
			}
			return i + 3, true
		}
		i++
	}
	s.reachedEnd = true
	return 0, s.failFalse(start, start+3, "unterminated fenced string",
		"This fenced string has no closing ```. End it with ``` after its last line.")
}

// leadingComment reports (and records as the error) a string whose text,
// src[from:to], begins with optional spaces and "//" while the string
// closes on the same line. The reference lexer reads the longest token
// there, and a comment from "//" to the end of the line is longer than the
// string's text, so it swallows the closing quote.
func (s *scanner) leadingComment(from, to int) bool {
	i := from
	for i < to && (s.src[i] == ' ' || s.src[i] == '\t' || s.src[i] == '\r' || s.src[i] == '\f' || s.src[i] == '\v') {
		i++
	}
	if !hasPrefixAt(s.src[:to], i, "//") {
		return false
	}
	s.fail(i, i+2, "a string's text cannot begin with //",
		"In gram a // at the start of a string's text (after any spaces) begins a comment that runs to the end of the line, swallowing the closing quote. Put another character first, or escape the slash: \\/.")
	return true
}

// fenceLeadingComment returns the offset of a "//" that begins the text of
// a fenced string (after the header's line break at nl and any whitespace)
// when the closing fence at close is on the same line, or -1. The reference
// lexer then reads a comment, which is longer than the text, up to the end
// of that line.
func fenceLeadingComment(src string, nl, close int) int {
	i := lexical.SkipGap(src, nl+1, true)
	if i >= close || !hasPrefixAt(src, i, "//") {
		return -1
	}
	if strings.IndexByte(src[i:close], '\n') >= 0 {
		return -1
	}
	return i
}

// nulByte reports a NUL byte at off inside a comment or string.
func (s *scanner) nulByte(off int, what string) (lexer.Token, error) {
	return s.fail(off, off+1, "NUL byte in "+what,
		"A NUL byte (U+0000) ends a "+what+" in gram and cannot appear in a document. Remove it.")
}

// isBoolWord reports whether a symbol-shaped word is a boolean literal.
func isBoolWord(w string) bool { return w == "true" || w == "false" }

func (s *scanner) failFalse(off, end int, summary, detail string) bool {
	s.fail(off, end, summary, detail)
	return false
}

// closerByte returns the bracket that closes open.
func closerByte(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

func hasPrefixAt(s string, i int, p string) bool {
	return len(s)-i >= len(p) && s[i:i+len(p)] == p
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isOctalDigit(c byte) bool { return '0' <= c && c <= '7' }
func isHexDigit(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}
func isLetter(c byte) bool      { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isSymbolStart(c byte) bool { return isLetter(c) || c == '_' }
func isSymbolChar(c byte) bool {
	return isSymbolStart(c) || isDigit(c) || c == '.' || c == '-' || c == '@'
}

func quoteName(q byte) string {
	switch q {
	case '\'':
		return "single-quoted"
	case '"':
		return "double-quoted"
	}
	return "backtick-quoted"
}

func quoteRune(r rune) string {
	if r < 0x20 || r == 0x7f {
		return "U+" + hex4(r)
	}
	return "\"" + string(r) + "\""
}

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	b := []byte{digits[r>>12&0xF], digits[r>>8&0xF], digits[r>>4&0xF], digits[r&0xF]}
	return string(b)
}
