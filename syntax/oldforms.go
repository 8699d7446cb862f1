package syntax

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// The old forms: the seeds of gram wrote signatures as text, (name: Text)
// --> IO Text, and records inline, fields: [{name: "a", type: "Text"}].
// Neither is gram, and both end in a generic syntax error where the parser
// gives up; refineOldForms, run on every parse, recognises them there and
// reports what they are (textual-signature, inline-record) with the gram
// to write and the edits that write it. So parse, fmt, check, schema, gen,
// run and the language server report them alike.

// oldTypeNames are the type names of the textual form and the gram type
// each means (check's built-in aliases; oldtypes_test.go proves they
// agree).
var oldTypeNames = map[string]string{
	"Text": "String", "String": "String",
	"Int": "Integer", "Integer": "Integer",
	"Double": "Number", "Float": "Number", "Number": "Number",
	"Bool": "Boolean", "Boolean": "Boolean",
	"Object": "Object", "Array": "Array",
}

var (
	// textualArrowRE finds the old textual signature form: an arrow
	// followed by a bare type instead of a node.
	textualArrowRE = regexp.MustCompile(`(-->|->|==>|→)\s*[A-Za-z]`)
	textualParamRE = regexp.MustCompile(`\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)`)
	inlineFieldsRE = regexp.MustCompile(`\bfields\s*::?\s*\[`)
)

// refineOldForms turns generic syntax errors caused by well-known old forms
// into targeted ones: the textual signature `(name: Text) --> IO Text` and
// the inline record `fields: [{...}]`.
func refineOldForms(src []byte, ds diag.Diagnostics) {
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
	if !ok || !IsSymbol(name) {
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
		if fn == nil || !IsSymbol(fn[1]) {
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
	if name, ok := oldTypeNames[t]; ok {
		return name
	}
	if IsSymbol(t) {
		return t
	}
	return "String"
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
