package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/syntax"
)

// A dataset (gramc eval --cases FILE.jsonl) is one case per line: the
// properties of a :Test as a JSON object (docs/language.md §2.5), with
// its expected calls as "calls" and their order as "callOrder":
//
//	{"agent": "triage", "input": "The site is down", "answerContains": "urgent",
//	 "calls": [{"tool": "lookupCustomer", "args": {"id": "C-1"}, "returns": {"plan": "pro"}}]}
//
// Each case is checked exactly as a :Test is: it is written as one,
// into a file of its own placed on the line of its case, and the package
// is checked with it, so every diagnostic of a case is at its FILE:LINE.

// Case is one line of a dataset.
type Case struct {
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	Agent          string          `json:"agent"`
	Input          json.RawMessage `json:"input"`
	Answer         json.RawMessage `json:"answer"`
	AnswerContains json.RawMessage `json:"answerContains"`
	AnswerMatches  *string         `json:"answerMatches"`
	Results        *string         `json:"results"`
	CallOrder      *string         `json:"callOrder"`
	Calls          []CaseCall      `json:"calls"`
}

// CaseCall is an expected call of a case.
type CaseCall struct {
	Tool    string                     `json:"tool"`
	Args    map[string]json.RawMessage `json:"args"`
	Returns json.RawMessage            `json:"returns"`
}

// Dataset limits: a line, the lines of a file, and the file.
const (
	MaxCaseBytes    = 1 << 20
	MaxCases        = 100_000
	MaxDatasetBytes = 256 << 20
)

// DatasetError is a dataset's problems, each at FILE:LINE.
type DatasetError struct{ Problems []string }

func (e *DatasetError) Error() string { return strings.Join(e.Problems, "\n") }

// datasetLine is a case's gram declaration and the line it came from.
type datasetLine struct {
	line int
	decl string
	name string
}

// ReadDataset reads the cases of a JSONL file named file and checks
// each as a :Test of pkg. It returns the tests, named FILE:LINE unless
// a case names itself, or a *DatasetError naming every bad line.
func ReadDataset(file string, r io.Reader, pkg *check.Package) ([]*check.Test, error) {
	lines, problems := parseDataset(file, r)
	if len(lines) == 0 && len(problems) == 0 {
		return nil, &DatasetError{[]string{file + ": no cases"}}
	}
	tests, ds := checkCases(file, lines, pkg)
	for _, d := range ds {
		if d.Severity == diag.Error {
			problems = append(problems, fmt.Sprintf("%s:%d: %s", file, d.Range.Start.Line, caseMessage(d)))
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, byLine)
		return nil, &DatasetError{problems}
	}
	return tests, nil
}

// byLine orders FILE:LINE: messages by their line.
func byLine(a, b string) int {
	var la, lb int
	fmt.Sscanf(a[strings.LastIndex(a[:strings.Index(a, ": ")], ":")+1:], "%d", &la)
	fmt.Sscanf(b[strings.LastIndex(b[:strings.Index(b, ": ")], ":")+1:], "%d", &lb)
	return la - lb
}

// caseMessage is a diagnostic as a case's problem: its summary, detail
// and code, without the column of a declaration the user never wrote.
func caseMessage(d *diag.Diagnostic) string {
	msg := d.Summary
	if d.Detail != "" {
		msg += ": " + d.Detail
	}
	return fmt.Sprintf("%s [%s]", msg, d.Code)
}

// parseDataset turns each non-blank line into a :Test declaration.
func parseDataset(file string, r io.Reader) ([]datasetLine, []string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxCaseBytes)
	var lines []datasetLine
	var problems []string
	n := 0
	for sc.Scan() {
		n++
		if n > MaxCases {
			problems = append(problems, fmt.Sprintf("%s:%d: more than %d cases", file, n, MaxCases))
			break
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		decl, name, err := caseDeclaration(text, n)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %v", file, n, err))
			continue
		}
		lines = append(lines, datasetLine{line: n, decl: decl, name: name})
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Sprintf("%s:%d: %v (a case is limited to %d bytes)", file, n+1, err, MaxCaseBytes))
	}
	return lines, problems
}

var backtickEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`")

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// caseDeclaration is the :Test declaration of one line's case, on one
// line, and the name the report gives it.
func caseDeclaration(text []byte, line int) (string, string, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var c Case
	if err := dec.Decode(&c); err != nil {
		return "", "", fmt.Errorf("not a case (a JSON object with the properties of a :Test): %v%s", err, fieldHint(err))
	}
	if dec.More() {
		return "", "", fmt.Errorf("more than one JSON value on the line")
	}
	ident := fmt.Sprintf("case_%d", line)
	if c.Name != "" {
		if !identifier.MatchString(c.Name) {
			return "", "", fmt.Errorf("name %q: a test's name is a name (letters, digits, _)", c.Name)
		}
		ident = c.Name
	}
	var w gramWriter
	w.props(c)
	w.calls(c.Calls)
	if w.err != nil {
		return "", "", w.err
	}
	return "[" + ident + ":Test {" + w.b.String(), c.Name, nil
}

// caseFields are the fields of a case.
var caseFields = []string{"name", "description", "agent", "input", "answer", "answerContains", "answerMatches", "results", "callOrder", "calls", "tool", "args", "returns"}

// fieldHint is "; did you mean …?" for an unknown field.
func fieldHint(err error) string {
	_, field, ok := strings.Cut(err.Error(), "unknown field ")
	if !ok {
		return ""
	}
	return suggest.Hint(strings.Trim(field, `"`), caseFields, "fields")
}

// checkCases checks the cases as :Tests of pkg: a file of pkg's
// directory named file, each declaration on its line.
func checkCases(file string, lines []datasetLine, pkg *check.Package) ([]*check.Test, diag.Diagnostics) {
	var src strings.Builder
	at := 1
	for _, l := range lines {
		for ; at < l.line; at++ {
			src.WriteByte('\n')
		}
		src.WriteString(l.decl)
	}
	src.WriteByte('\n')
	files := make([]check.SourceFile, 0, len(pkg.Files)+1)
	for _, f := range pkg.Files {
		files = append(files, check.SourceFile{AST: f})
	}
	parsed := syntax.ParseFiles([]syntax.Source{{Name: file, Text: src.String()}})[0]
	files = append(files, check.SourceFile{AST: parsed.File, Diags: parsed.Diags})
	checked, ds := check.CheckSources(pkg.Dir, files)
	var caseDiags diag.Diagnostics
	for _, d := range ds {
		if d.Range.File == file {
			caseDiags = append(caseDiags, d)
		}
	}
	names := map[int]string{}
	for _, l := range lines {
		names[l.line] = l.name
	}
	var tests []*check.Test
	for _, t := range checked.Tests {
		if t.Range.File != file {
			continue
		}
		t.Name = names[int(t.Range.Start.Line)]
		if t.Name == "" {
			t.Name = fmt.Sprintf("%s:%d", file, t.Range.Start.Line)
		}
		tests = append(tests, t)
	}
	return tests, caseDiags
}

// gramWriter writes a case's properties and calls in gram's syntax
// (docs/language.md §1): scalars as literals, maps and arrays of
// scalars as gram's, anything more as a json`…` literal, which a test
// takes wherever it takes a value (§2.5).
type gramWriter struct {
	b   strings.Builder
	err error
}

func (w *gramWriter) props(c Case) {
	w.prop("agent", gramString(c.Agent))
	if c.Description != "" {
		w.prop("description", gramString(c.Description))
	}
	w.rawProp("input", c.Input)
	w.rawProp("answer", c.Answer)
	w.rawProp("answerContains", c.AnswerContains)
	if c.AnswerMatches != nil {
		w.prop("answerMatches", gramString(*c.AnswerMatches))
	}
	if c.Results != nil {
		w.prop("results", gramString(*c.Results))
	}
	if c.CallOrder != nil {
		w.prop("calls", gramString(*c.CallOrder))
	}
	w.b.WriteString("}")
}

func (w *gramWriter) prop(key, value string) {
	if !strings.HasSuffix(w.b.String(), "{") && w.b.Len() > 0 {
		w.b.WriteString(", ")
	}
	w.b.WriteString(key + ": " + value)
}

func (w *gramWriter) rawProp(key string, v json.RawMessage) {
	if v == nil {
		return
	}
	w.prop(key, w.value(key, v))
}

func (w *gramWriter) calls(calls []CaseCall) {
	if len(calls) == 0 {
		w.b.WriteString("]")
		return
	}
	w.b.WriteString(" |")
	for i, c := range calls {
		if i > 0 {
			w.b.WriteString(",")
		}
		w.b.WriteString(" (::Call {tool: " + gramString(c.Tool))
		if len(c.Args) > 0 {
			w.b.WriteString(", args: {")
			for j, k := range slices.Sorted(maps.Keys(c.Args)) {
				if !identifier.MatchString(k) {
					w.fail(fmt.Errorf("calls[%d].args: %q is not a parameter's name", i, k))
				}
				if j > 0 {
					w.b.WriteString(", ")
				}
				w.b.WriteString(k + ": " + w.value(fmt.Sprintf("calls[%d].args.%s", i, k), c.Args[k]))
			}
			w.b.WriteString("}")
		}
		if c.Returns != nil {
			w.b.WriteString(", returns: " + w.value(fmt.Sprintf("calls[%d].returns", i), c.Returns))
		}
		w.b.WriteString("})")
	}
	w.b.WriteString("]")
}

func (w *gramWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// value is a JSON value in gram: a scalar as its literal, a non-empty
// array of scalars or a map of scalars as gram's, anything else as a
// json`…` literal.
func (w *gramWriter) value(where string, raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		w.fail(fmt.Errorf("%s: %v", where, err))
		return `""`
	}
	if s, ok := scalar(v); ok {
		return s
	}
	if v == nil {
		w.fail(fmt.Errorf("%s: null is not a value a test can give", where))
		return `""`
	}
	if s, ok := scalarArray(v); ok {
		return s
	}
	if s, ok := scalarMap(v); ok {
		return s
	}
	// A backtick string's escapes (§1) are \\ and \` among others: the
	// JSON text is its value with those two escaped.
	return "json`" + backtickEscaper.Replace(string(bytes.TrimSpace(raw))) + "`"
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return gramString(v), true
	case json.Number:
		return v.String(), true
	case bool:
		return fmt.Sprint(v), true
	}
	return "", false
}

func scalarArray(v any) (string, bool) {
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return "", false
	}
	parts := make([]string, len(a))
	for i, x := range a {
		s, ok := scalar(x)
		if !ok {
			return "", false
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

func scalarMap(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return "", false
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := scalar(m[k])
		if !ok || !identifier.MatchString(k) {
			return "", false
		}
		parts = append(parts, k+": "+s)
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}

// gramString is s as a gram string literal, as the formatter writes one.
func gramString(s string) string { return syntax.Quote(s, '"') }
