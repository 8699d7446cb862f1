package syntax

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax/reftree"
)

const fourErrors = `(a)-->
[ok1:Tool {description: "d"} | (x::String)==>(::String)]
(b {k: "unterminated})
[ok2:Tool {description: "d"} | (x::String)==>(::String)]
[oops | (a)--(b) --]
(c)=>(d)
[ok3:Tool {description: "d"} | (x::String)==>(::String)]
# not a comment
`

// TestRecovery: every syntax error of a file is reported, each at its
// place, as go/parser reports past bad code (before, only the first was),
// and the partial tree holds the valid patterns between them (issue 10.4).
func TestRecovery(t *testing.T) {
	f, ds := ParseString("four.gram", fourErrors)
	var at []string
	for _, d := range ds {
		at = append(at, fmt.Sprintf("%d:%d", d.Range.Start.Line, d.Range.Start.Column))
	}
	if got, want := strings.Join(at, " "), "2:1 3:8 5:20 6:4 8:1"; got != want {
		t.Errorf("errors at %s, want %s:\n%v", got, want, ds)
	}
	var names []string
	for _, p := range f.Patterns {
		if sp, ok := p.(*ast.SubjectPattern); ok && sp.Identifier != nil {
			names = append(names, sp.Identifier.Name)
		}
	}
	// oops, whose error is inside its brackets, is kept as far as it
	// parses, as a pattern with an error in a group always was.
	if got := strings.Join(names, " "); got != "ok1 ok2 oops ok3" {
		t.Errorf("the partial tree holds %q, want the three valid tools", got)
	}
	// Positions in the partial tree are the file's.
	for _, p := range f.Patterns {
		if sp, ok := p.(*ast.SubjectPattern); ok && sp.Identifier != nil && sp.Identifier.Name == "ok3" && sp.Pos().Line != 7 {
			t.Errorf("ok3 at line %d, want 7", sp.Pos().Line)
		}
	}
}

// TestRecoveryBounded: a file of nothing but errors stops recovering after
// MaxSyntaxErrors, saying so.
func TestRecoveryBounded(t *testing.T) {
	_, ds := ParseString("many.gram", strings.Repeat("(a)=>(b)\n", 3*MaxSyntaxErrors))
	said := false
	for _, d := range ds {
		said = said || strings.Contains(d.Summary, "too many syntax errors (100)")
	}
	if len(ds) != MaxSyntaxErrors+1 || !said {
		t.Errorf("%d diagnostics, the limit said: %v", len(ds), said)
	}
}

// TestRecoveryPastTheLimit: after MaxSyntaxErrors the parser stops
// reporting but not parsing: the tree holds the patterns after the
// errors too.
func TestRecoveryPastTheLimit(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3*MaxSyntaxErrors; i++ {
		fmt.Fprintf(&b, "junk %d\n[t%d]\n", i, i)
	}
	f, ds := ParseString("many.gram", b.String())
	said := false
	for _, d := range ds {
		said = said || strings.Contains(d.Summary, "too many syntax errors (100); later ones are not reported")
	}
	if len(ds) != MaxSyntaxErrors+1 || !said {
		t.Errorf("%d diagnostics, the limit said: %v", len(ds), said)
	}
	if len(f.Patterns) != 3*MaxSyntaxErrors {
		t.Errorf("%d patterns, want %d", len(f.Patterns), 3*MaxSyntaxErrors)
	}
}

// TestRecoveryWindows: a file with junk lines between its top-level
// patterns recovers to the same tree, positions included, as the file with
// the junk lines blanked, and reports each junk line. The patterns span
// many lines, groups are longer than the first recovery windows, paths
// continue on lines that start with "(", fenced strings hold lines that
// start with "(" or "[", annotations stand on their own lines: what a
// window's end could cut.
func TestRecoveryWindows(t *testing.T) {
	var pats []string
	long := strings.Repeat(`(p::String {description: "a parameter with a long description"})==>`+"\n", 100)
	for i := 0; i < 60; i++ {
		switch i % 6 {
		case 0:
			pats = append(pats, fmt.Sprintf("[long%d:Tool {description: \"d\"} |\n%s(::String)\n]", i, long))
		case 1:
			pats = append(pats, fmt.Sprintf("(a%d)-->\n(b)\n-[r]->\n(c)", i))
		case 2:
			pats = append(pats, fmt.Sprintf("[f%d {text: ```\n(not a node\n[nor a pattern\n```} | (x)]", i))
		case 3:
			pats = append(pats, fmt.Sprintf("@@ann%d:Label\n@k(1)\n(n)-->(m)", i))
		case 4:
			pats = append(pats, fmt.Sprintf("[s%d | (x), (y)] // comment %d", i, i))
		case 5:
			pats = append(pats, fmt.Sprintf("(u%d {k: \"v\"})", i))
		}
	}
	junk := []string{"# hash", "stray words", "(a)=>(b)", "}", "]", "\"unterminated"}
	for seed := int64(0); seed < 8; seed++ {
		r := rand.New(rand.NewSource(seed))
		var src, blanked strings.Builder
		errs := 0
		for i, p := range pats {
			if i > 0 && r.Intn(3) == 0 {
				j := junk[r.Intn(len(junk))]
				src.WriteString(j + "\n")
				blanked.WriteString(strings.Repeat(" ", len(j)) + "\n")
				errs++
			}
			src.WriteString(p + "\n")
			blanked.WriteString(p + "\n")
		}
		f, ds := ParseString("w.gram", src.String())
		want, wantDs := ParseString("w.gram", blanked.String())
		if wantDs.HasErrors() {
			t.Fatal(wantDs)
		}
		if len(ds) != errs {
			t.Errorf("seed %d: %d errors, want %d:\n%v", seed, len(ds), errs, ds)
		}
		if got, want := reftree.Sexp(f), reftree.Sexp(want); got != want {
			t.Errorf("seed %d: the recovered tree differs from the blanked file's:\n%s\nwant\n%s", seed, got, want)
		}
		if len(f.Comments) != len(want.Comments) {
			t.Errorf("seed %d: %d comments, want %d", seed, len(f.Comments), len(want.Comments))
		}
	}
}

// TestRecoveryContinuesPath: a path cut short after its arrow by a broken
// line goes on at the node after the line, as when the line is blank.
func TestRecoveryContinuesPath(t *testing.T) {
	for _, junk := range []string{"# x", "stray words"} {
		src := "[t]\n(a)-->\n" + junk + "\n(b)\n"
		f, ds := ParseString("p.gram", src)
		want, _ := ParseString("p.gram", strings.Replace(src, junk, strings.Repeat(" ", len(junk)), 1))
		if len(ds) != 1 || reftree.Sexp(f) != reftree.Sexp(want) {
			t.Errorf("%q: %v\n%s\nwant\n%s", junk, ds, reftree.Sexp(f), reftree.Sexp(want))
		}
	}
}

// FuzzRecovery: a junk line inserted before a top-level pattern of a valid
// document is one error, at its line, beside the document's own warnings, and the recovered tree is the tree
// of the document with that line blank (positions included), wherever the
// recovery windows fall.
func FuzzRecovery(f *testing.F) {
	for _, in := range trickyInputs {
		f.Add([]byte(in), uint16(0), false)
	}
	for _, path := range conformanceFiles {
		for i, c := range loadCases(f, path) {
			f.Add([]byte(c.Input), uint16(i), i%2 == 0)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, at uint16, hash bool) {
		clean, ds := ParseFile("r.gram", src)
		if ds.HasErrors() || len(clean.Patterns) == 0 {
			return
		}
		start, _ := clean.Patterns[int(at)%len(clean.Patterns)].Offsets()
		if start > 0 && src[start-1] != '\n' {
			return // not at a line start
		}
		junk := "stray words"
		if hash {
			junk = "# hash"
		}
		bad := string(src[:start]) + junk + "\n" + string(src[start:])
		blanked := string(src[:start]) + strings.Repeat(" ", len(junk)) + "\n" + string(src[start:])
		want, wantDs := ParseString("r.gram", blanked)
		if wantDs.HasErrors() {
			return
		}
		got, gotDs := ParseString("r.gram", bad)
		// The document's own warnings (a control character in a string)
		// stay; the junk adds one error.
		errs := gotDs.Errors()
		if len(errs) != 1 || int(errs[0].Range.Start.Offset) != start || len(gotDs)-len(errs) != len(wantDs) {
			t.Fatalf("%q: want one error at offset %d beside the %d warnings of the document without it, got %v", bad, start, len(wantDs), gotDs)
		}
		if g, w := reftree.Sexp(got), reftree.Sexp(want); g != w {
			t.Fatalf("%q: recovered tree\n%s\nwant\n%s", bad, g, w)
		}
	})
}

// TestWindowsOfACleanFile: a file larger than maxWindow is parsed in
// windows (participle holds one window's tokens), and the tree, comments
// included, is the tree of the file parsed as one window, wherever the
// windows fall: in groups and fenced strings whose lines start with "(" or
// "[", in paths that go on at such lines, between annotations and their
// pattern.
func TestWindowsOfACleanFile(t *testing.T) {
	pats := []string{
		"[long:Tool {description: \"d\"} |\n" + strings.Repeat("(p::String {description: \"a parameter with a long description\"})==>\n", 40) + "(::String)\n]",
		"(a)-->\n(b)\n-[r]->\n(c)",
		"[f {text: ```\n(not a node\n[nor a pattern\n```} | (x)]",
		"@@ann:Label\n@k(1)\n(n)-->(m)",
		"[s | (x), (y)] // comment",
		"(u {k: \"v\"})",
	}
	var b strings.Builder
	b.WriteString("{header: 1}\n")
	for i := 0; b.Len() < 3*maxWindow; i++ {
		b.WriteString(pats[i%len(pats)] + "\n")
	}
	text := b.String()
	f, ds := ParseString("big.gram", text)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	src := ast.NewSource(text)
	w := parseWindow("big.gram", src, text, 0, true, true)
	if w.stop >= 0 || len(w.diags) > 0 {
		t.Fatal(w.diags)
	}
	one := &ast.File{Name: "big.gram", Header: w.header, Patterns: w.patterns, Comments: comments(src, w.comments)}
	if got, want := reftree.Sexp(f), reftree.Sexp(one); got != want {
		t.Errorf("the windowed parse differs from the one-window parse")
	}
	if len(f.Patterns) != len(one.Patterns) || len(f.Comments) != len(one.Comments) || f.Header == nil {
		t.Errorf("%d patterns and %d comments, want %d and %d (header %v)", len(f.Patterns), len(f.Comments), len(one.Patterns), len(one.Comments), f.Header != nil)
	}
}
