package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// ignorePrefix starts a suppression comment:
//
//	// gramc:ignore CODE[,CODE...] -- reason
const ignorePrefix = "// gramc:ignore"

// ignore is one suppression comment.
type ignore struct {
	file   string
	line   int32 // the line whose diagnostics it suppresses
	codes  []diag.Code
	reason string
	rng    ast.Range
	used   map[diag.Code]bool
}

// IgnoreComment is one `// gramc:ignore CODE[,CODE...] -- reason`
// comment, as gramc diff reads it to accept a change on the declaration
// the comment is on (its own line after code, else the next line).
type IgnoreComment struct {
	Codes  []diag.Code
	Reason string    // the text after "--", trimmed; "" when absent
	Line   int32     // the line the comment applies to
	Range  ast.Range // the comment itself
}

// IgnoreComments returns the suppression comments of f, in source order.
func IgnoreComments(f *ast.File) []IgnoreComment {
	var out []IgnoreComment
	for _, c := range f.Comments {
		if ig := parseIgnore(f, c); ig != nil {
			out = append(out, IgnoreComment{Codes: ig.codes, Reason: ig.reason, Line: ig.line, Range: ig.rng})
		}
	}
	return out
}

// Suppress applies the `// gramc:ignore CODE[,CODE...] -- reason`
// comments of files to ds, as linters' inline suppressions work: a
// comment at the end of a line suppresses the named warnings on that line,
// a comment alone on its line those on the next line. Only warnings can
// be ignored. A comment that suppresses nothing — no such warning there, a
// code that is not in known, or an error — is itself an unused-ignore
// warning, so suppressions do not outlive their reason. The result is
// sorted. Every command and the language server filter diagnostics
// through Suppress, after the checker's and the provider lint's.
func Suppress(files []*ast.File, ds diag.Diagnostics, known []diag.Code) diag.Diagnostics {
	return suppress(files, ds, known, true)
}

// SuppressOnly is Suppress without the unused-ignore warnings: for a
// command that sees only some of the diagnostics (gen, schema and run
// apply the suppressions; check reports the ones that suppress nothing).
func SuppressOnly(files []*ast.File, ds diag.Diagnostics) diag.Diagnostics {
	return suppress(files, ds, nil, false)
}

func suppress(files []*ast.File, ds diag.Diagnostics, known []diag.Code, reportUnused bool) diag.Diagnostics {
	var ignores []*ignore
	for _, f := range files {
		if f == nil {
			continue
		}
		for _, c := range f.Comments {
			if ig := parseIgnore(f, c); ig != nil {
				ignores = append(ignores, ig)
			}
		}
	}
	if len(ignores) == 0 {
		return ds
	}
	type key struct {
		file string
		line int32
	}
	at := map[key][]*ignore{}
	for _, ig := range ignores {
		at[key{ig.file, ig.line}] = append(at[key{ig.file, ig.line}], ig)
	}
	out := ds[:0:0]
	for _, d := range ds {
		suppressed := false
		if info, ok := diag.Lookup(d.Code); ok && info.Stage == diag.StageDiff {
			out = append(out, d) // accepted by compat.Accept, which wants a reason
			continue
		}
		for _, ig := range at[key{d.Range.File, d.Range.Start.Line}] {
			if slices.Contains(ig.codes, d.Code) {
				if d.Severity == diag.Warning {
					ig.used[d.Code] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			out = append(out, d)
		}
	}
	for _, ig := range ignores {
		if !reportUnused {
			break
		}
		for _, code := range ig.codes {
			if ig.used[code] {
				continue
			}
			if info, ok := diag.Lookup(code); ok && info.Stage == diag.StageDiff {
				continue // gramc diff's to judge: it accepts a change, not a warning
			}
			w := &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeUnusedIgnore, Range: ig.rng}
			switch {
			case !slices.Contains(known, code):
				w.Summary = fmt.Sprintf("gramc:ignore names unknown code %s", code)
				w.Detail = "Name the code in brackets at the end of the diagnostic, e.g. // gramc:ignore unknown-property -- reason."
				var names []string
				for _, k := range known {
					names = append(names, string(k))
				}
				if s := suggest.Closest(string(code), names); s != "" {
					w.Summary += suggest.DidYouMean(s)
					w.Suggestion = s
				}
			default:
				w.Summary = fmt.Sprintf("gramc:ignore %s suppresses nothing", code)
				w.Detail = fmt.Sprintf("There is no %s warning on the line it applies to (the comment's own line when code precedes it, else the next line); errors cannot be ignored. Remove the comment.", code)
			}
			out = append(out, w)
		}
	}
	out.Sort()
	return out
}

// parseIgnore reads a suppression comment, or returns nil.
func parseIgnore(f *ast.File, c *ast.Comment) *ignore {
	rest, ok := strings.CutPrefix(c.Text, ignorePrefix)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil
	}
	list, reason, _ := strings.Cut(rest, "--")
	ig := &ignore{file: f.Name, reason: strings.TrimSpace(reason), used: map[diag.Code]bool{}}
	for _, field := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		ig.codes = append(ig.codes, diag.Code(field))
	}
	pos := c.Pos()
	ig.rng = ast.Range{File: f.Name, Start: pos, End: c.End()}
	ig.line = pos.Line
	if alone(c) {
		ig.line++
	}
	if len(ig.codes) == 0 {
		ig.codes = []diag.Code{""} // reported as unknown
	}
	return ig
}

// alone reports whether nothing but white space precedes c on its line.
func alone(c *ast.Comment) bool {
	src := c.Source()
	if src == nil {
		return true
	}
	text := src.Text()
	start, _ := c.Offsets()
	for i := start - 1; i >= 0 && text[i] != '\n'; i-- {
		if text[i] != ' ' && text[i] != '\t' {
			return false
		}
	}
	return true
}
