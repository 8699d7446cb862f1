package check

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// SourceFile is one file of a package as the front end read it: its text,
// its (possibly partial) tree and its syntax diagnostics. package load
// reads and parses files; CheckSources checks them.
type SourceFile struct {
	Src   []byte
	AST   *ast.File
	Diags diag.Diagnostics
}

// CheckSources checks files as one package. It returns the package and
// every diagnostic of its files, sorted: the syntax diagnostics (with
// targeted help for the old textual forms) and the checker's, except the
// checker's inside a file with syntax errors (its tree is partial, so they
// would be noise; its declarations still resolve references from the other
// files).
func CheckSources(dir string, files []SourceFile) (*Package, diag.Diagnostics) {
	return checkSources(nil, dir, files)
}

// checkSources is CheckSources, reusing and recording work in k unless k
// is nil.
func checkSources(k *Cache, dir string, files []SourceFile) (*Package, diag.Diagnostics) {
	pfs := make([]*parsedFile, len(files))
	var diags diag.Diagnostics
	for i, f := range files {
		name := ""
		if f.AST != nil {
			name = f.AST.Name
		}
		pfs[i] = newParsedFile(name, f.Src, f.AST, f.Diags)
		diags = append(diags, pfs[i].diags...)
	}
	pkg, ds := checkParsedWith(k, dir, pfs)
	diags = append(diags, ds...)
	diags.Sort()
	return pkg, diags
}

type parsedFile struct {
	file   *ast.File
	src    []byte
	diags  diag.Diagnostics
	broken bool // has syntax errors
}

// parseSources parses srcs concurrently (syntax.ParseFiles).
func parseSources(srcs []syntax.Source) ([]*parsedFile, diag.Diagnostics) {
	out := make([]*parsedFile, len(srcs))
	var diags diag.Diagnostics
	for i, r := range syntax.ParseFiles(srcs) {
		out[i] = newParsedFile(srcs[i].Name, srcs[i].Src, r.File, r.Diags)
		diags = append(diags, out[i].diags...)
	}
	return out, diags
}

// newParsedFile wraps a parse result, refining syntax diagnostics with the
// checker's targeted help for old forms.
func newParsedFile(name string, src []byte, f *ast.File, ds diag.Diagnostics) *parsedFile {
	if f == nil {
		f = &ast.File{Name: name}
	}
	if f.Name == "" {
		f.Name = name
	}
	refineSyntax(src, ds)
	return &parsedFile{file: f, src: src, diags: ds, broken: ds.HasErrors()}
}

// checkParsed checks parsed files as one package, dropping checker
// diagnostics inside files that have syntax errors (their trees are
// partial, so such diagnostics would be noise).
func checkParsed(dir string, files []*parsedFile) (*Package, diag.Diagnostics) {
	return checkParsedWith(nil, dir, files)
}

// checkParsedWith is checkParsed, reusing and recording work in k unless k
// is nil.
func checkParsedWith(k *Cache, dir string, files []*parsedFile) (*Package, diag.Diagnostics) {
	asts := make([]*ast.File, len(files))
	broken := map[string]bool{}
	for i, f := range files {
		asts[i] = f.file
		if f.broken {
			broken[f.file.Name] = true
		}
	}
	var pkg *Package
	var ds diag.Diagnostics
	if k != nil {
		pkg, ds = k.checkFiles(dir, asts, broken)
	} else {
		pkg, ds = CheckFiles(dir, asts)
	}
	if len(broken) == 0 {
		return pkg, ds
	}
	kept := ds[:0]
	for _, d := range ds {
		if !broken[d.Range.File] {
			kept = append(kept, d)
		}
	}
	return pkg, kept
}

// LoadSource parses and checks one in-memory file as a package (for tests,
// fuzzing and tools that hold the text already).
func LoadSource(name string, src []byte) (*Package, diag.Diagnostics) {
	return LoadSources(map[string][]byte{name: src})
}

// LoadSources parses (concurrently) and checks in-memory files as one
// package; the keys are the file names, taken in sorted order as Load
// takes a directory's files.
func LoadSources(files map[string][]byte) (*Package, diag.Diagnostics) {
	names := slices.Sorted(maps.Keys(files))
	srcs := make([]syntax.Source, len(names))
	for i, name := range names {
		srcs[i] = syntax.Source{Name: name, Src: files[name]}
	}
	pfs, diags := parseSources(srcs)
	pkg, ds := checkParsed("", pfs)
	out := append(diags, ds...)
	out.Sort()
	return pkg, out
}

var (
	// textualArrowRE finds the old textual signature form: an arrow
	// followed by a bare type instead of a node.
	textualArrowRE = regexp.MustCompile(`(-->|->|==>|→)\s*[A-Za-z]`)
	textualParamRE = regexp.MustCompile(`\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)`)
	inlineFieldsRE = regexp.MustCompile(`\bfields\s*::?\s*\[`)
)

// refineSyntax turns generic syntax errors caused by well-known old forms
// into targeted ones: the textual signature `(name: Text) --> IO Text` and
// the inline record `fields: [{...}]`.
func refineSyntax(src []byte, ds diag.Diagnostics) {
	for _, d := range ds {
		if d.Code != diag.CodeSyntax && d.Code != diag.CodeWrongArrow {
			continue // a wrong arrow may be part of a textual signature
		}
		line := lineAt(src, int(d.Range.Start.Offset))
		from := lineStart(src, int(d.Range.Start.Offset)) // where the signature's text starts
		// A signature split after its arrow puts the error on the next line.
		if ls := from; ls > 0 {
			prev := strings.TrimRight(lineAt(src, ls-1), " \t\r")
			if strings.HasSuffix(prev, ">") || strings.HasSuffix(prev, "→") {
				line = prev + " " + strings.TrimSpace(line)
				from = lineStart(src, ls-1)
			}
		}
		switch {
		case inlineFieldsRE.MatchString(line):
			d.Code = diag.CodeInlineRecord
			d.Detail = "The parser says: " + d.Summary + ". " +
				"gram arrays hold scalars only, so a record cannot be written inline as fields: [{...}]. " +
				"Declare it once at the top level and use its name as the type:\n" +
				"    [Person:Type {description: \"...\"} | (name::String), (age::Integer)]\n" +
				"    ... (person::Person) ..."
			d.Summary = "inline record fields are not gram; declare a :Type"
			if d.Fix = inlineRecordEdits(src, d.Range.File, int(d.Range.Start.Offset)); d.Fix != nil {
				d.Suggestion = d.Fix[1].NewText
			}
		case textualArrowRE.MatchString(line):
			d.Code = diag.CodeTextualSignature
			d.Detail = "The parser says: " + d.Summary + ". " +
				"This is the old textual signature form. In gram every parameter and the return type is a node, " +
				"joined by ==>, and types are JSON types (no IO or Maybe). Write: " + gramForm(line)
			d.Summary = "textual signature is not gram"
			d.Suggestion = gramForm(line)
			if d.Fix = signatureEdit(src, d.Range.File, from, int(d.Range.Start.Offset), d.Suggestion); d.Fix == nil {
				d.Suggestion = "" // the form is in Detail; there is no edit to apply
			}
		}
	}
}

// inlineRecordEdits turns the inline record around offset at, written
// (name::Object {fields: [{name: "a", type: "Text"}, ...], ...}), into a
// :Type declared just before the top-level pattern holding it and a node
// that uses it: [Name:Type | (a::String), ...] and (name::Name {...}).
// nil when the text is not that shape.
func inlineRecordEdits(src []byte, file string, at int) []diag.Edit {
	ls := lineStart(src, at)
	loc := inlineFieldsRE.FindIndex(src[ls:])
	if loc == nil {
		return nil
	}
	fieldsAt := ls + loc[0]
	recOpen := openerBefore(src, fieldsAt, '{')
	if recOpen < 0 {
		return nil
	}
	nodeOpen := openerBefore(src, recOpen, '(')
	arrOpen := ls + loc[1] - 1
	arrClose, recClose := closerOf(src, arrOpen), closerOf(src, recOpen)
	if nodeOpen < 0 || arrClose < 0 || recClose < 0 {
		return nil
	}
	nodeClose := recClose + 1
	for nodeClose < len(src) && (src[nodeClose] == ' ' || src[nodeClose] == '\t') {
		nodeClose++
	}
	if nodeClose >= len(src) || src[nodeClose] != ')' {
		return nil
	}
	head := string(src[nodeOpen+1 : recOpen])
	name, _, ok := strings.Cut(head, ":")
	name = strings.TrimSpace(name)
	if !ok || !syntax.IsSymbol(name) {
		return nil
	}
	typeName := strings.ToUpper(name[:1]) + name[1:]
	var fields []string
	for i := arrOpen + 1; i < arrClose; i++ {
		if src[i] != '{' {
			continue
		}
		end := closerOf(src, i)
		if end < 0 || end > arrClose {
			return nil
		}
		chunk := string(src[i:end])
		fn, ft := inlineFieldRE("name").FindStringSubmatch(chunk), inlineFieldRE("type").FindStringSubmatch(chunk)
		if fn == nil || !syntax.IsSymbol(fn[1]) {
			return nil
		}
		typ := "String"
		if ft != nil {
			typ = gramType(ft[1])
		}
		fields = append(fields, "("+fn[1]+"::"+typ+")")
		i = end
	}
	if len(fields) == 0 {
		return nil
	}
	// The record without its fields entry.
	rest := string(src[recOpen+1:fieldsAt]) + string(src[arrClose+1:recClose])
	rest = strings.Trim(strings.TrimSpace(rest), ",")
	node := "(" + name + "::" + typeName + ")"
	if rest = strings.TrimSpace(rest); rest != "" {
		node = "(" + name + "::" + typeName + " {" + rest + "})"
	}
	top := topLevelStart(src, nodeOpen)
	if top < 0 {
		return nil
	}
	decl := "[" + typeName + ":Type | " + strings.Join(fields, ", ") + "]\n"
	span := func(s, e int) ast.Range {
		return ast.Range{File: file, Start: ast.Pos{Offset: int32(s)}, End: ast.Pos{Offset: int32(e)}}
	}
	return []diag.Edit{
		{Range: span(top, top), NewText: decl},
		{Range: span(nodeOpen, nodeClose+1), NewText: node},
	}
}

func inlineFieldRE(key string) *regexp.Regexp {
	return regexp.MustCompile(`\b` + key + `\s*::?\s*"([^"]*)"`)
}

// openerBefore finds the unclosed bracket open before off, or -1.
func openerBefore(src []byte, off int, open byte) int {
	depth := 0
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				if src[i] == open {
					return i
				}
				return -1
			}
			depth--
		}
	}
	return -1
}

// closerOf finds the bracket that closes the one at open (strings
// skipped), or -1.
func closerOf(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// topLevelStart is the start of the line of the top-level pattern that
// holds off (strings and comments skipped), or -1.
func topLevelStart(src []byte, off int) int {
	depth, start := 0, -1
	for i := 0; i < off && i < len(src); i++ {
		switch c := src[i]; c {
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			if depth == 0 {
				start = i
			}
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	if depth <= 0 || start < 0 {
		return -1
	}
	return lineStart(src, start)
}

// signatureEdit replaces the textual signature that starts on the line at
// from (after a "|" when the tool's header shares the line) and ends on the
// line holding at (before a closing "]" or ",", or a comment), with the
// gram form; nil when the signature goes on past that line.
func signatureEdit(src []byte, file string, from, at int, gram string) []diag.Edit {
	end := at
	for end < len(src) && src[end] != '\n' {
		end++
	}
	text := string(src[from:end])
	if c := strings.Index(text, "//"); c >= 0 {
		text = text[:c] // a comment after the signature stays
	}
	if t := strings.TrimRight(text, " \t\r"); strings.HasSuffix(t, ">") || strings.HasSuffix(t, "→") {
		return nil // the signature goes on below: no whole edit is known
	}
	start := 0
	if bar := strings.LastIndex(text[:min(len(text), at-from+1)], "|"); bar >= 0 {
		start = bar + 1
	}
	for start < len(text) && (text[start] == ' ' || text[start] == '\t') {
		start++
	}
	stop := len(text)
	for stop > start && strings.ContainsRune(" \t\r,]", rune(text[stop-1])) {
		stop--
	}
	if stop <= start {
		return nil
	}
	r := ast.Range{File: file, Start: ast.Pos{Offset: int32(from + start)}, End: ast.Pos{Offset: int32(from + stop)}}
	return []diag.Edit{{Range: r, NewText: gram}}
}

// gramForm rewrites a textual signature line into gram, as well as it can.
func gramForm(line string) string {
	parts := regexp.MustCompile(`\s*(?:-->|->|==>|→)\s*`).Split(strings.TrimSpace(line), -1)
	var nodes []string
	for i, p := range parts {
		p = strings.TrimSpace(strings.TrimRight(p, ",]"))
		if m := textualParamRE.FindStringSubmatch(p); m != nil {
			nodes = append(nodes, "("+m[1]+"::"+gramType(m[2])+")")
			continue
		}
		fields := strings.Fields(strings.Trim(p, "()"))
		for len(fields) > 1 && (fields[0] == "IO" || fields[0] == "Maybe") {
			fields = fields[1:]
		}
		typ := "String"
		if len(fields) > 0 {
			typ = gramType(fields[len(fields)-1])
		}
		if i == len(parts)-1 {
			nodes = append(nodes, "(::"+typ+")")
		} else {
			nodes = append(nodes, "(name"+fmt.Sprint(i+1)+"::"+typ+")")
		}
	}
	if len(nodes) < 2 {
		return "(name::String)==>(::String)"
	}
	return strings.Join(nodes, "==>")
}

func gramType(t string) string {
	if k, ok := builtinTypes[t]; ok {
		return k.String() // the canonical name of an alias
	}
	if syntax.IsSymbol(t) {
		return t
	}
	return "String"
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	if off > len(src) {
		off = len(src)
	}
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// lineAt returns the source line holding byte offset off.
func lineAt(src []byte, off int) string {
	if off < 0 || off > len(src) {
		return ""
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := off
	for end < len(src) && src[end] != '\n' {
		end++
	}
	return string(src[start:end])
}

// isNil reports whether n is nil or a typed nil pointer (partial trees
// from files with syntax errors may hold them).
func isNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
