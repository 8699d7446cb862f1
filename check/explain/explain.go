// Package explain is what gramc explain prints for a diagnostic code: its
// documentation (package docs), and after the example the message the
// example produces and the fix, a corrected example that checks clean.
// gramc explain and the playground print the same text from here.
package explain

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/syntax"
)

// Text is what gramc explain prints for code, and false when no
// documentation names the code.
func Text(code string) (string, bool) {
	text, ok := docs.Explain(code)
	if !ok {
		return "", false
	}
	return explainExample(diag.Code(code), text).render(text), true
}

// An UnknownCodeError is a code no documentation names.
type UnknownCodeError struct{ Code string }

// maxShownCode bounds how much of an unknown code its error repeats.
const maxShownCode = 128

func (e *UnknownCodeError) Error() string {
	var codes []string
	for _, c := range diag.Codes() {
		codes = append(codes, string(c.Code))
	}
	shown := e.Code
	if len(shown) > maxShownCode {
		shown = shown[:maxShownCode] + "…"
	}
	return fmt.Sprintf("no diagnostic code %q%s (gramc check prints the code of each diagnostic in brackets)",
		shown, suggest.DidYouMean(suggest.Closest(e.Code, codes)))
}

// Lookup is Text, or an *UnknownCodeError that suggests the closest code:
// what gramc explain and the playground print.
func Lookup(code string) (string, error) {
	text, ok := Text(code)
	if !ok {
		return "", &UnknownCodeError{Code: code}
	}
	return text, nil
}

// gramBlock is a ```gram block of an explanation; fixBlock the one after
// a line "The fix:", the documented fix of the example.
var (
	gramBlock = regexp.MustCompile("(?s)```gram\n(.*?)\n```")
	fixBlock  = regexp.MustCompile("(?s)\nThe fix:\n+```gram\n(.*?)\n```")
)

// exampleFile is the name an explanation's example is checked under.
const exampleFile = "example.gram"

// checkExample parses and checks one file's text in memory, as gramc
// check does a one-file package.
func checkExample(src string) diag.Diagnostics {
	res := syntax.ParseFiles([]syntax.Source{{Name: exampleFile, Src: []byte(src)}})
	files := make([]check.SourceFile, len(res))
	for i, r := range res {
		files[i] = check.SourceFile{AST: r.File, Diags: r.Diags}
	}
	pkg, ds := check.CheckSources("", files)
	if pkg != nil {
		ds = check.Suppress(pkg.Files, ds, check.Codes())
	}
	return ds
}

// explained is what gramc explain adds to a code's documentation: the
// message its example produces and the fix — the documented one, or the
// example with the diagnostics' own fixes applied — each fix checking
// clean of the code. example is "" when the documentation has no checker
// example.
type explained struct {
	example, fix string
	messages     []string
	fixNote      string
}

// explainExample checks the example of code's documentation text.
func explainExample(code diag.Code, text string) explained {
	var x explained
	m := gramBlock.FindStringSubmatch(text)
	if m == nil {
		return x
	}
	x.example = m[1]
	ds := checkExample(x.example + "\n")
	var mine diag.Diagnostics
	for _, d := range ds {
		if d.Code == code {
			mine = append(mine, d)
			x.messages = append(x.messages, fmt.Sprintf("%s: %s: %s [%s]", d.Range.Start, d.Severity, d.Summary, d.Code))
		}
	}
	if f := fixBlock.FindStringSubmatch(text); f != nil {
		x.fix, x.fixNote = f[1], "documented"
		return x
	}
	var fixes [][]diag.Edit
	for _, d := range mine {
		if edits := d.Edits(); len(edits) > 0 {
			fixes = append(fixes, edits)
		}
	}
	if len(fixes) == 0 {
		return x
	}
	fixed := diag.ApplyFixes([]byte(x.example+"\n"), fixes)
	if bytes.Equal(fixed, []byte(x.example+"\n")) || hasCode(checkExample(string(fixed)), code) {
		return x
	}
	x.fix, x.fixNote = strings.TrimSuffix(string(fixed), "\n"), "gramc check --fix"
	if diag.FixOf(mine[0]) == diag.FixGuess {
		x.fixNote = "gramc check --fix=all" // a guess, as did-you-mean is
	}
	return x
}

func hasCode(ds diag.Diagnostics, code diag.Code) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// render is the documentation text with the message the example
// produces after the example, and the fix gramc check --fix makes after
// that when the documentation shows none.
func (x explained) render(text string) string {
	loc := gramBlock.FindStringIndex(text)
	if x.example == "" || len(x.messages) == 0 || loc == nil {
		return text
	}
	var b strings.Builder
	b.WriteString(text[:loc[1]])
	b.WriteString("\n\nIt produces:\n\n")
	for _, m := range x.messages {
		b.WriteString("    " + m + "\n")
	}
	if x.fixNote != "documented" && x.fix != "" {
		fmt.Fprintf(&b, "\nThe fix (what %s does):\n\n```gram\n%s\n```\n", x.fixNote, x.fix)
	}
	b.WriteString(strings.TrimPrefix(text[loc[1]:], "\n"))
	return b.String()
}
