package syntax

import (
	"bytes"
	"fmt"
	"math"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// codeSyntax is the diagnostic code of a syntax error the parser has no
// more specific code for (diag's registry lists the others).
const codeSyntax = diag.CodeSyntax

// ParseFile parses one gram document. It always returns a non-nil file:
// on syntax errors the file holds what could be parsed and the diagnostics
// (code "syntax") say what is wrong and how to fix it. Comments are kept in
// File.Comments in source order.
func ParseFile(filename string, src []byte) (*ast.File, diag.Diagnostics) {
	if len(src) > MaxFileSize {
		return tooLarge(filename, len(src)) // before a copy of it
	}
	return ParseString(filename, string(src))
}

// ParseString is ParseFile for source held in a string. The tree's strings
// share text's memory, so a caller that reads a file straight into a
// string (as package load does) holds one copy of the source rather than two.
func ParseString(filename, text string) (*ast.File, diag.Diagnostics) {
	if len(text) > MaxFileSize {
		return tooLarge(filename, len(text))
	}
	src := ast.NewSource(text)
	f, ds := parseRecovering(filename, src, text)
	if len(ds) > 0 {
		refineOldForms([]byte(text), ds)
	}
	if u := unsafeCharacters(filename, src, text); len(u) > 0 {
		ds = append(ds, u...)
		ds.Sort()
	}
	return f, ds
}

// MaxSyntaxErrors bounds the syntax errors reported for one file. Past it
// the parser still recovers, so the file holds every pattern that parses,
// but reports no more errors.
const MaxSyntaxErrors = 100

// minWindow is the smallest window of a file parseRecovering parses after
// a syntax error, maxWindow the largest it grows to while the file parses
// cleanly (see there): participle holds every token of a window at once,
// so a bounded window bounds that memory however large the file.
const (
	minWindow = 64
	maxWindow = 256 << 10
)

// parseRecovering parses text and, after a syntax error, carries on at the
// next top-level pattern, as go/parser advances past bad code: every
// syntax error of a file is reported (up to MaxSyntaxErrors), and the file
// holds every pattern that parses, those after the errors included. Its
// cost is linear in the file's size, however many errors it has.
//
// A file without errors is parsed in one go. After an error the parser
// blanks the broken region — from the last line at or before the error
// that starts a top-level pattern, to the next such line after it (a line
// whose first character is '[', '(', '@' or '{'; see brokenRegion) — by
// spaces, newlines kept, so that offsets, lines and columns stay the
// file's. What precedes the region is final: the patterns that end before
// it, the comments and errors before it. The parse then resumes, in the
// same pass, where the first pattern not yet final starts (usually the
// region's end), over a window of the text that ends at a line starting
// with '(' or '[' (where no pattern can go on: a path continues only with
// an arrow, and annotations end at their pattern). A window that cuts a
// group, a string or a pattern short shows it (an error at its end, or
// the scanner reaching its end inside a token), and is parsed again twice
// as long. Windows grow while they parse cleanly and shrink to the
// distance between errors, so each byte is scanned a small constant number
// of times.
func parseRecovering(filename string, src *ast.Source, text string) (*ast.File, diag.Diagnostics) {
	f := &ast.File{Name: filename, Span: src.Span(0, len(text))}
	r := recovery{size: len(text), seen: map[string]bool{}}
	settled, size := 0, maxWindow // text[:settled] is final
	for {
		var limit int
		if r.work == nil {
			limit = cutLine(text, settled+size)
		} else {
			limit = cutLine(r.work, settled+size)
		}
		seg := text[settled:limit] // the file's text, shared
		if settled < r.blankedTo {
			// The window holds a blanked region: a copy, which the
			// tree's strings keep (only this window's).
			seg = string(r.work[settled:limit])
		}
		w := parseWindow(filename, src, seg, settled, r.header == nil && len(r.patterns) == 0, true)
		if limit < len(text) && w.cut(limit) {
			size *= 2
			continue
		}
		r.add(w.diags)
		if w.stop < 0 {
			r.take(&w, limit)
			if limit == len(text) {
				break
			}
			settled, size = limit, min(size*2, maxWindow)
			continue
		}
		if r.work == nil {
			// The first error: from here on the broken regions are
			// blanked in a copy of the text.
			r.work = []byte(text)
		}
		r.stops++
		if r.stops == MaxSyntaxErrors {
			r.add(diag.Diagnostics{{
				Severity: diag.Error,
				Code:     codeSyntax,
				Summary:  fmt.Sprintf("too many syntax errors (%d); later ones are not reported", MaxSyntaxErrors),
				Detail:   "Fix the errors above first.",
				Range:    ast.Range{File: filename, Start: src.Position(w.stop), End: src.Position(w.stop)},
			}})
			r.quiet = true
		}
		from, to, ok := brokenRegion(r.work, w.stop)
		if !ok {
			// Nothing left to blank (not reached: the error is at a
			// token, which a region holds): keep what parsed.
			r.take(&w, len(text))
			r.add(w.prefixDiags)
			break
		}
		// Keep what ends before the region; what of it was final but
		// reaches into it is not.
		for n := len(r.patterns); n > 0 && int(r.ends[n-1].end) > from; n-- {
			r.patterns, r.ends = r.patterns[:n-1], r.ends[:n-1]
		}
		if r.header != nil && r.headerEnd > from {
			r.header = nil
		}
		last := settled
		if from < settled {
			last = 0
		}
		r.take(&w, from)
		if n := len(r.patterns); n > 0 && r.ends[n-1].open {
			// A path cut short after an arrow: a node after the
			// region may continue it, as when the whole file is parsed
			// with the region blank.
			start, _ := r.patterns[n-1].Offsets()
			last = min(last, start)
			r.patterns, r.ends = r.patterns[:n-1], r.ends[:n-1]
		}
		if n := len(r.patterns); n > 0 {
			last = max(last, int(r.ends[n-1].end))
		} else if r.header != nil {
			last = max(last, r.headerEnd)
		}
		// Resume at the first token after what is kept: it may start a
		// pattern that reaches into the region, which is parsed again
		// with the region blank, as the whole file would be.
		next := skipTrivia(r.work, last, from)
		before := next // comments and errors before it are final
		r.blankedTo = max(r.blankedTo, to)
		if next == from {
			// Nothing reaches into the region: resume after it.
			next = to
		}
		for len(r.comments) > 0 && r.comments[len(r.comments)-1].start >= before {
			r.comments = r.comments[:len(r.comments)-1]
		}
		for _, c := range w.comments {
			if c.start < before {
				r.comments = append(r.comments, c)
			}
		}
		for _, d := range w.prefixDiags {
			if int(d.Range.Start.Offset) < before {
				r.add(diag.Diagnostics{d})
			}
		}
		size = max(minWindow, w.stop-settled)
		settled = next
	}
	f.Header, f.Patterns, f.Comments = r.header, r.patterns, comments(src, r.comments)
	r.diags.Sort()
	return f, r.diags
}

// recovery is what parseRecovering has made final.
type recovery struct {
	work      []byte // the file's text, broken regions blanked (from the first error)
	size      int    // the file's size
	header    *ast.Record
	headerEnd int
	patterns  []ast.Pattern
	ends      []patEnd // where the tokens of each of patterns end
	comments  []comment
	diags     diag.Diagnostics
	seen      map[string]bool // the diagnostics reported, by offset and summary
	// blankedTo is where the last blanked region ends: windows after it
	// are the file's text.
	blankedTo int
	stops     int  // errors that stopped a window's parse
	quiet     bool // MaxSyntaxErrors reached
}

// add reports ds, each once: a pattern parsed again after a region is
// blanked reports its errors again.
func (r *recovery) add(ds diag.Diagnostics) {
	for _, d := range ds {
		if r.quiet {
			return
		}
		key := fmt.Sprint(d.Range.Start.Offset, d.Summary)
		if !r.seen[key] {
			r.seen[key] = true
			r.diags = append(r.diags, d)
		}
	}
}

// take makes final w's header and patterns that end at or before upTo,
// and w's comments when w is taken whole (upTo is the window's end).
func (r *recovery) take(w *window, upTo int) {
	if w.header != nil && w.headerEnd <= upTo {
		r.header, r.headerEnd = w.header, w.headerEnd
	}
	for i, p := range w.patterns {
		if int(w.ends[i].end) > upTo {
			break
		}
		r.patterns = append(r.patterns, p)
		r.ends = append(r.ends, w.ends[i])
	}
	if w.stop < 0 || upTo == r.size {
		r.comments = append(r.comments, w.comments...)
	}
}

// brokenRegion finds the broken region of the error at stop and blanks it
// in text, most likely first: the pattern before an error at the first
// token of a pattern line (a dangling arrow, an unclosed path: this line
// may be fine); junk at the start of a line (a "#" comment, a stray word)
// up to the next pattern line; else the pattern holding the error up to
// the next one. The first region that still has text is blanked, so each
// call blanks something; ok is false when none has.
func brokenRegion(text []byte, stop int) (from, to int, ok bool) {
	type region struct{ from, to int }
	var regions []region
	ls := lineStart(text, stop)
	if stop > 0 && patternStart(text, stop) == stop {
		regions = append(regions, region{patternStart(text, stop-1), stop})
	}
	if firstOnLine(text, ls, stop) && !startsPattern(text, stop) {
		regions = append(regions, region{ls, nextPatternStart(text, stop)})
	}
	regions = append(regions, region{patternStart(text, stop), nextPatternStart(text, stop)})
	for _, r := range regions {
		if blank(text, r.from, r.to) {
			return r.from, r.to, true
		}
	}
	return 0, 0, false
}

// cutLine is where a window that should reach at least to off ends: the
// start of the first line at or after off that starts with '(' or '[', or
// the end of text.
func cutLine[T ~string | ~[]byte](text T, off int) int {
	for i := max(off, 1); i < len(text); i++ {
		if text[i-1] == '\n' && (text[i] == '(' || text[i] == '[') {
			return i
		}
	}
	return len(text)
}

// skipTrivia returns the offset of the first byte of text[from:to] that is
// not white space or part of a // comment (a byte-order mark at the start
// of the file included), or to.
func skipTrivia(text []byte, from, to int) int {
	i := from
	if i == 0 && bytes.HasPrefix(text, []byte(byteOrderMark)) {
		i = len(byteOrderMark)
	}
	for i < to {
		switch text[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
			i++
		case '/':
			if i+1 >= len(text) || text[i+1] != '/' {
				return i
			}
			nl := bytes.IndexByte(text[i:], '\n')
			if nl < 0 {
				return to
			}
			i += nl
		default:
			return i
		}
	}
	return to
}

// startsPattern reports whether the line at text[i:] starts a top-level
// pattern: its first character opens a node, a subject pattern, an
// annotation or the header.
func startsPattern[T ~string | ~[]byte](text T, i int) bool {
	return i < len(text) && (text[i] == '[' || text[i] == '(' || text[i] == '@' || text[i] == '{')
}

// blank replaces text[from:to] by spaces, keeping line breaks, and
// reports whether anything changed.
func blank(text []byte, from, to int) bool {
	changed := false
	for i := from; i < to && i < len(text); i++ {
		if text[i] != '\n' && text[i] != ' ' {
			text[i] = ' '
			changed = true
		}
	}
	return changed
}

// lineStart is the offset of the start of off's line.
func lineStart[T ~string | ~[]byte](text T, off int) int {
	off = min(off, len(text))
	for off > 0 && text[off-1] != '\n' {
		off--
	}
	return off
}

// firstOnLine reports whether only white space stands between the line
// start ls and off.
func firstOnLine[T ~string | ~[]byte](text T, ls, off int) bool {
	for i := ls; i < off && i < len(text); i++ {
		if text[i] != ' ' && text[i] != '\t' && text[i] != '\r' {
			return false
		}
	}
	return true
}

// patternStart is the start of the last line at or before off that starts
// a top-level pattern (0 when none does).
func patternStart[T ~string | ~[]byte](text T, off int) int {
	off = min(off, len(text))
	for i := off; i > 0; i-- {
		if text[i-1] == '\n' && startsPattern(text, i) && i <= off {
			return i
		}
	}
	return 0
}

// nextPatternStart is the start of the first line after off's line that
// starts a top-level pattern (len(text) when none does).
func nextPatternStart[T ~string | ~[]byte](text T, off int) int {
	for i := off; i < len(text); i++ {
		if text[i] == '\n' && startsPattern(text, i+1) {
			return i + 1
		}
	}
	return len(text)
}

// tooLarge is the result for a source over MaxFileSize bytes.
func tooLarge(filename string, size int) (*ast.File, diag.Diagnostics) {
	return &ast.File{Name: filename}, diag.Diagnostics{{
		Severity: diag.Error,
		Code:     codeSyntax,
		Summary:  "file too large",
		Detail:   fmt.Sprintf("A gram file may hold at most %d bytes (positions are 32-bit); this one has %d. Split it into several files of one package.", MaxFileSize, size),
		Range:    ast.Range{File: filename, Start: ast.Pos{Line: 1, Column: 1}, End: ast.Pos{Line: 1, Column: 1}},
	}}
}

// MaxFileSize is the largest source ParseFile accepts: ast positions are
// 32-bit.
const MaxFileSize = math.MaxInt32

// window is the parse of a window of a file's text (parseWindow).
type window struct {
	header    *ast.Record
	headerEnd int // where the header's group ends
	patterns  []ast.Pattern
	ends      []patEnd // where the tokens of each of patterns end
	comments  []comment
	diags     diag.Diagnostics
	// stop is the offset of the error that stopped the parse, or -1 when
	// the parse reached the window's end (errors inside groups do not
	// stop it).
	stop int
	// reachedEnd: the scanner ran into the window's end inside a token.
	reachedEnd bool
	// prefixDiags are the errors inside the patterns before a lexical
	// error (the patterns parsed from the window's prefix): reported for
	// those of them that are kept, the others are parsed again.
	prefixDiags diag.Diagnostics
}

// cut reports whether the window, which ends at offset limit before the
// end of the file, may have cut a token or a pattern short: the scanner
// reached its end inside a token, or an error is at its end.
func (w *window) cut(limit int) bool {
	if w.reachedEnd || w.stop >= limit {
		return true
	}
	for _, d := range w.diags {
		if int(d.Range.Start.Offset) >= limit {
			return true
		}
	}
	return false
}

// parseWindow parses text, the window of src's text that starts at offset
// base: the whole text, or a part of it after an error (parseRecovering),
// or a prefix of either. header says whether a record may start it (only
// at the start of the file). With partial, a lexical error (which stops
// the scanner) still yields the patterns before the construct it is in.
func parseWindow(filename string, src *ast.Source, text string, base int, header, partial bool) (w window) {
	w.stop = -1
	sc := newWindowScanner(filename, src, text, base)
	peek, err := lexer.Upgrade(sc)
	w.reachedEnd = sc.reachedEnd
	var g *docFile
	if err == nil {
		if header {
			g, err = topGrammar.ParseFromLexer(peek)
		} else {
			var b *docBody
			b, err = bodyGrammar.ParseFromLexer(peek)
			if b != nil {
				g = &docFile{Patterns: b.Patterns}
			}
		}
	} else if partial && sc.tokStart > 0 {
		prefix := parseWindow(filename, src, text[:sc.tokStart], base, header, false)
		w.header, w.headerEnd, w.patterns, w.ends = prefix.header, prefix.headerEnd, prefix.patterns, prefix.ends
		// The errors of the patterns before the one the lexical error
		// is in (what the prefix's end may have cut is reported when
		// the rest is parsed again).
		upTo := base + sc.tokStart
		if prefix.stop >= 0 {
			upTo = min(upTo, prefix.stop)
		}
		for _, d := range prefix.diags {
			if int(d.Range.Start.Offset) < upTo {
				w.prefixDiags = append(w.prefixDiags, d)
			}
		}
	}
	if g != nil && g.Patterns != nil && g.Patterns.stop != nil {
		// Where the sequence of patterns stopped: participle, which then
		// finds tokens left, reports the same place in its words.
		err = g.Patterns.stop
	}
	if g != nil {
		f := &ast.File{}
		l := topLowerer{src: src, peek: peek}
		l.file(g, f)
		w.header, w.patterns, w.ends = f.Header, f.Patterns, l.ends
		if g.Header != nil {
			w.headerEnd = g.Header.tok.Pos.Offset + len(g.Header.tok.Value)
		}
		for _, e := range l.errs {
			code := e.code
			if code == "" {
				code = codeSyntax
			}
			w.diags = append(w.diags, &diag.Diagnostic{
				Severity:   diag.Error,
				Code:       code,
				Summary:    e.summary,
				Detail:     e.detail,
				Suggestion: e.suggestion,
				Range:      ast.Range{File: filename, Start: src.Position(e.start), End: src.Position(e.end)},
			})
		}
	}
	w.comments = sc.comments
	if sc.truncated >= 0 && (err == nil || syntaxError(filename, src, text, base, err).Range.Start.Offset >= int32(sc.truncated)) {
		// The parser reached where the scanner stopped: say why.
		err = nil
		w.diags = append(w.diags, &diag.Diagnostic{
			Severity: diag.Error,
			Code:     codeSyntax,
			Summary:  fmt.Sprintf("more than %d tokens in a row outside any (...), [...] or {...} group", MaxTokensWithoutGroup),
			Detail:   "gramc stops reading the file here: no gram construct needs that many tokens without a group, and holding them all would take unbounded memory. Split the pattern, or check the file is gram.",
			Range:    ast.Range{File: filename, Start: src.Position(sc.truncated), End: src.Position(sc.truncated)},
		})
	}
	if err != nil {
		d := syntaxError(filename, src, text, base, err)
		w.stop = int(d.Range.Start.Offset)
		// A parser error after an error inside a group of the same
		// top-level pattern is most likely a consequence of it; report
		// only the first.
		if !hasErrorFrom(w.diags, base+patternStart(text, w.stop-base)) {
			w.diags = append(w.diags, d)
		}
	}
	w.diags.Sort()
	return w
}

// hasErrorFrom reports whether ds has an error at or after offset from.
func hasErrorFrom(ds diag.Diagnostics, from int) bool {
	for _, d := range ds {
		if int(d.Range.Start.Offset) >= from {
			return true
		}
	}
	return false
}

// comments converts the scanner's comments to ast comments.
func comments(src *ast.Source, cs []comment) []*ast.Comment {
	text := src.Text()
	out := make([]*ast.Comment, len(cs))
	nodes := make([]ast.Comment, len(cs))
	for i, c := range cs {
		nodes[i] = ast.Comment{Text: text[c.start:c.end], Span: src.Span(c.start, c.end)}
		out[i] = &nodes[i]
	}
	return out
}
