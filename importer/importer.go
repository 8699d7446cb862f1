// Package importer brings tools a team already has into gram: it reads an
// OpenAPI 3.0 or 3.1 document (JSON or YAML), an MCP tools/list result or
// what gramc schema --target mcp|jsonschema writes, OpenAI tool or
// function definitions (chat, strict, Responses), Anthropic tool
// definitions or a JSON Schema, and writes one formatted gram package.
//
// Every operation or tool of a source becomes a tool. What gram cannot
// hold is dropped or approximated with a positioned warning, each kind
// with its own import-... code (docs/import.md); a document that cannot be
// read is an *Error at its place, and then nothing is written. Before the
// gram is written, each parameter's and field's values are held to the
// checker's own rules (check.CheckParamValues): a value the checker would
// refuse is dropped with a warning at its source, so the output checks;
// the rest of it checks by construction, which the tests hold every
// import's output to. It is written, parsed and formatted once. Output is
// deterministic: the same sources give the same bytes.
package importer

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// MaxSourceBytes bounds one source document (as compat.MaxSnapshotBytes
// bounds a snapshot gramc diff reads).
const MaxSourceBytes = 64 << 20

// maxDepth bounds the nesting of the schemas followed (and of a JSON or YAML
// document): deeper input is an error, never a stack overflow.
const maxDepth = 1000

// tooDeep is what a document nested deeper than maxDepth is told, in JSON
// or YAML alike.
var tooDeep = fmt.Sprintf("nested deeper than %d levels (importer's limit)", maxDepth)

// maxWork bounds the schemas visited in one import (a schema reached
// through several references counts each time): a document whose
// references multiply (a YAML alias bomb, a type using another twice at
// every level) is refused instead of taking exponential time.
const maxWork = 4 << 20

// MaxEnumValues bounds the values of one enumeration gramc import writes:
// an enum or const list of more is dropped (the value is its type, a
// String or an Integer, unrestricted) with a warning naming the limit.
// Each value written costs its text in the gram and, checked, a few
// hundred bytes: a document of millions of them (64 MB of short strings
// is about 7 million) would take gigabytes to write and to check.
const MaxEnumValues = 10000

// MaxEnumValuesTotal bounds the enum values of one import, all
// enumerations together (each within MaxEnumValues): past it, an
// enumeration is dropped as one over MaxEnumValues is, so a document of
// many large enumerations writes and checks in bounded memory too.
const MaxEnumValuesTotal = 100000

// Source is a document to import.
type Source struct {
	// Name is the file's name, or the server for a live server's listing.
	Name string
	Data []byte
	// Server: Data is the tools/list result of a live MCP server
	// ({"tools": [...]}); its places are shown as JSON pointers.
	Server bool
}

// Result is an import's gram package and what could not come along.
type Result struct {
	// Gram is the formatted package.
	Gram []byte
	// Warnings are positioned in the sources, sorted.
	Warnings diag.Diagnostics
	// Kinds says what each source was read as ("OpenAPI 3.1.0", "MCP
	// tools/list", ...), in the order of the sources.
	Kinds []string
}

// Error is a source that cannot be read, at a place in it.
type Error struct {
	At      ast.Range
	Pointer string // the JSON pointer of the place, when known
	Msg     string
}

func (e *Error) Error() string {
	at := e.At.String()
	if e.Pointer != "" && e.At.Start.Line == 0 {
		return fmt.Sprintf("%s: %s (at %s)", at, e.Msg, e.Pointer)
	}
	return fmt.Sprintf("%s: %s", at, e.Msg)
}

// source is a Source being read.
type source struct {
	Source
	text  *ast.Source
	lines []int32 // YAML: offset of each line, to place a line and column
	root  *node
	kind  string
	// strict: OpenAI strict tools, where a required property that
	// admits null is how an optional one is written
	strict bool
}

// fail stops the import with an error at n (recovered in Import).
func (s *source) fail(n *node, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.kind != "" {
		msg += " (the document read as " + s.kind + ")"
	}
	panic(s.errorAt(n, msg))
}

func (s *source) errorAt(n *node, msg string) *Error {
	e := &Error{At: s.at(n), Msg: msg}
	if n != nil {
		e.Pointer = orRoot(n.Pointer())
	}
	return e
}

// at is n's place: its line and column in a file, or only the server.
func (s *source) at(n *node) ast.Range {
	r := ast.Range{File: s.Name}
	if n == nil || s.Server {
		return r
	}
	var p ast.Pos
	switch {
	case n.Line > 0:
		p = s.position(n.Line, n.Col)
	case s.text != nil && n.Off >= 0:
		p = s.text.Position(int(n.Off))
	default:
		return r
	}
	r.Start, r.End = p, p
	return r
}

// position is line and column (in characters) of a YAML source as a Pos
// with its offset.
func (s *source) position(line, col int32) ast.Pos {
	if s.lines == nil {
		s.lines = []int32{0}
		for i, c := range s.Data {
			if c == '\n' {
				s.lines = append(s.lines, int32(i+1))
			}
		}
	}
	p := ast.Pos{Line: line, Column: col}
	if int(line) > len(s.lines) {
		return p
	}
	off := int(s.lines[line-1])
	for c := int32(1); c < col && off < len(s.Data) && s.Data[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(s.Data[off:])
		off += size
	}
	p.Offset = int32(off)
	return p
}

// Import reads the sources and writes their tools and types as one gram
// package. An *Error names a source that cannot be read and its place;
// then there is no result.
func Import(srcs []Source) (res *Result, err error) {
	im := newImporter()
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			res, err = nil, e
		}
	}()
	var kinds []string
	var read []*source
	for _, src := range srcs {
		s := im.read(src)
		kinds = append(kinds, s.kind)
		im.importSource(s)
		read = append(read, s)
	}
	im.sayOpen(read)
	gram, warnings, err := im.write(srcs, kinds)
	if err != nil {
		return nil, err
	}
	warnings = append(im.warnings, warnings...)
	warnings.Sort()
	// A schema read twice (a body's and a response's) says a thing once.
	warnings = slices.CompactFunc(warnings, func(a, b *diag.Diagnostic) bool {
		return a.Range == b.Range && a.Code == b.Code && a.Summary == b.Summary
	})
	return &Result{Gram: gram, Warnings: warnings, Kinds: kinds}, nil
}

// read parses a source: JSON when it starts with { or [, else YAML.
func (im *importer) read(src Source) *source {
	s := &source{Source: src}
	if len(src.Data) > MaxSourceBytes {
		panic(&Error{At: ast.Range{File: src.Name}, Msg: fmt.Sprintf("larger than %d bytes (importer.MaxSourceBytes)", MaxSourceBytes)})
	}
	trimmed := strings.TrimLeft(string(src.Data[:min(len(src.Data), 4096)]), " \t\r\n\ufeff")
	var err error
	if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
		s.text = ast.NewSource(string(src.Data))
		s.root, err = parseJSON(src.Data)
	} else {
		if !utf8.Valid(src.Data) {
			panic(&Error{At: ast.Range{File: src.Name}, Msg: "not JSON, and not YAML: the file is not UTF-8 text"})
		}
		s.root, err = parseYAML(src.Data)
	}
	if err != nil {
		se := err.(*syntaxError)
		e := &Error{At: ast.Range{File: src.Name}, Msg: se.msg}
		if !src.Server {
			var p ast.Pos
			if se.line > 0 {
				p = s.position(se.line, se.col)
			} else if s.text != nil {
				p = s.text.Position(int(se.off))
			}
			e.At.Start, e.At.End = p, p
		}
		panic(e)
	}
	s.kind = im.detect(s)
	return s
}
