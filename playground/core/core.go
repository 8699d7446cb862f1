// Package core is the playground's compiler: what the page's WebAssembly
// module (playground/wasm) exposes as globalThis.gramc, without syscall/js,
// so that it is tested as ordinary Go (CUE's playground/impl_test.go does
// the same).
//
// A package is a map from file names to their text, as if the files were
// named together on gramc's command line (gramc check a.gram b.gram): one
// package, the files in the order of their names. Every function gives
// the bytes the matching command prints, through the same code the CLI
// calls: gramc check's pipeline itself (load.Diagnostics, the loader
// reading Files as its file system), the diagnostic writers, the
// emitters; the parity test in playground/site runs both on every example
// and conformance file, and so guards what lies between them: the
// WebAssembly boundary.
//
// Only the compiler is linked: the loader reads nothing but Files, and no
// network or runtime provider is linked (layers_test.go and
// TestWasmLinksOnlyTheCompiler hold it).
package core

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/check/explain"
	"github.com/gramc-dev/gramc/codegen/golang"
	"github.com/gramc-dev/gramc/codegen/graph"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/codegen/typescript"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

// The limits of one request: a visitor's package, not a repository. A
// request over one is refused with an error naming it.
const (
	MaxFiles     = 64
	MaxTotalSize = 4 << 20 // bytes of all files together
	MaxNameSize  = 128     // bytes of a file name
)

// Error is a request the CLI would refuse: Text is exactly what the CLI
// prints on standard error for it (its diagnostics, with source excerpts
// and the count line, or a usage message).
type Error struct {
	Text string
	// Diagnostics are the diagnostics Text shows, if any.
	Diagnostics diag.Diagnostics
}

func (e *Error) Error() string { return e.Text }

// usage is an Error for a request the CLI would refuse as usage.
func usage(format string, args ...any) *Error {
	return &Error{Text: fmt.Sprintf(format, args...)}
}

// Files is a package: file names and their text.
type Files map[string]string

// names returns the file names in order, after checking the limits and
// that each is a plain .gram file name.
func (fs Files) names() ([]string, error) {
	if len(fs) == 0 {
		return nil, usage("no files: a package needs at least one .gram file")
	}
	if len(fs) > MaxFiles {
		return nil, usage("%d files: over the playground's limit of %d files (MaxFiles)", len(fs), MaxFiles)
	}
	total := 0
	names := make([]string, 0, len(fs))
	for name, text := range fs {
		total += len(text)
		switch {
		case len(name) > MaxNameSize:
			return nil, usage("a file name of %d bytes: over the limit of %d bytes (MaxNameSize)", len(name), MaxNameSize)
		case !strings.HasSuffix(name, ".gram") || len(name) == len(".gram"):
			return nil, usage("file name %q: want a name ending in .gram", safeName(name))
		case strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, "."):
			return nil, usage("file name %q: want a plain name, without a directory or a leading dot", safeName(name))
		case strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
			return nil, usage("file name %q: a control character", safeName(name))
		}
		names = append(names, name)
	}
	if total > MaxTotalSize {
		return nil, usage("%d bytes of files: over the playground's limit of %d MiB (MaxTotalSize)", total, MaxTotalSize>>20)
	}
	slices.Sort(names)
	return names, nil
}

// safeName is a name for a message: cut, and quoted by %q.
func safeName(s string) string {
	if len(s) > MaxNameSize {
		return s[:MaxNameSize] + "…"
	}
	return s
}

// config is how the loader reads the package: from the files alone.
func (fs Files) config(lean bool) *load.Config {
	return &load.Config{FS: fs, DiagnosticsOnly: lean}
}

// render is how the page shows diagnostics: as gramc check does when its
// output is not a terminal, without -e (the page has no -e, so the
// diagnostic counting those left out names none).
func render(format string) diag.RenderOptions { return diag.RenderOptions{Format: format} }

// text is diagnostics as the CLI prints them on standard error when it is
// not a terminal: diag.Render's text, bounded, and the count line.
func (fs Files) text(ds diag.Diagnostics) string {
	var b bytes.Buffer
	o := render("text")
	o.Text.ReadFile = fs.config(false).ReadSource
	diag.Render(&b, ds, o) //nolint:errcheck // a buffer
	return b.String()
}

// check is gramc check's pipeline on the files named together
// (load.Diagnostics), written to w (nil: not written) in format.
func (fs Files) check(w io.Writer, format string) (diag.Diagnostics, error) {
	names, err := fs.names()
	if err != nil {
		return nil, err
	}
	rep, err := load.Diagnostics(w, names, fs.config(true), load.CheckOptions{}, render(format))
	if err != nil {
		return nil, err
	}
	return render(format).Shown(rep.Diagnostics), nil
}

// Check returns what gramc check --format json prints for the files: a
// JSON array of their diagnostics, "[]\n" when there are none. They are
// scoped by the files' gramc:ignore comments, an unused one reported, and
// at most diag.MaxSameCode of a code in a file are reported, so a pasted
// file of a million mistakes is a page of a thousand, and Fixes, which
// follows Check's array, stays as short.
func Check(fs Files) ([]byte, error) {
	var b bytes.Buffer
	if _, err := fs.check(&b, "json"); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Fix is what the page offers for one diagnostic of Check's array.
type Fix struct {
	// Kind is "exact", "guess" or "" (none): docs/diagnostics.md's
	// "Fixes".
	Kind string `json:"kind"`
	// File is the file the fix edits, Text that file after the fix.
	File string `json:"file,omitempty"`
	Text string `json:"text,omitempty"`
}

// Fixes returns, for each diagnostic of Check's array in its order, the
// fix gramc check --fix (--fix=all for a guess) would apply, as the file's
// new text.
func Fixes(fs Files) ([]Fix, error) {
	ds, err := fs.check(nil, "json")
	if err != nil {
		return nil, err
	}
	out := make([]Fix, len(ds))
	for i, d := range ds {
		kind := diag.FixOf(d)
		edits := d.Edits()
		if kind == diag.FixNone || len(edits) == 0 {
			continue
		}
		name := edits[0].Range.File
		src, ok := fs[name]
		if !ok {
			continue
		}
		fixed := diag.ApplyFixes([]byte(src), [][]diag.Edit{edits})
		if string(fixed) == src {
			continue
		}
		out[i] = Fix{Kind: fixKinds[kind], File: name, Text: string(fixed)}
	}
	return out, nil
}

var fixKinds = map[diag.FixKind]string{diag.FixExact: "exact", diag.FixGuess: "guess"}

// Format returns what gramc fmt prints for each file. A file with syntax
// errors is not formatted: the error's Text is what gramc fmt prints on
// standard error for each such file, in name order.
func Format(fs Files) (map[string]string, error) {
	names, err := fs.names()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var problems strings.Builder
	var all diag.Diagnostics
	for _, name := range names {
		res, ds := syntax.FormatSource(name, []byte(fs[name]))
		if ds.HasErrors() {
			problems.WriteString(fs.text(ds.Errors()))
			all = append(all, ds.Errors()...)
			continue
		}
		out[name] = string(res)
	}
	if problems.Len() > 0 {
		return nil, &Error{Text: problems.String(), Diagnostics: all}
	}
	return out, nil
}

// checked is the package for a command that goes on with it (schema,
// gen, graph): its diagnostics scoped as those commands scope them, and
// an Error with their text when there is an error among them. The
// warnings are returned too (the CLI prints them on standard error).
func (fs Files) checked() (*check.Package, diag.Diagnostics, error) {
	names, err := fs.names()
	if err != nil {
		return nil, nil, err
	}
	rep, err := load.Check(names, fs.config(false), load.CheckOptions{Partial: true})
	if err != nil {
		return nil, nil, err
	}
	pkg, ds := rep.Packages[0], rep.Diagnostics
	if ds.HasErrors() {
		return nil, nil, &Error{Text: fs.text(ds), Diagnostics: ds}
	}
	return pkg, ds, nil
}

// Schema returns what gramc schema --target target prints: target is a
// target, a comma-separated list or "all", as --target takes.
func Schema(fs Files, target string) (string, error) {
	targets, err := schema.ParseTargets(target)
	if err != nil {
		return "", usage("--target: %v", err)
	}
	pkg, warnings, err := fs.checked()
	if err != nil {
		return "", err
	}
	// Every tool the provider would reject, not only the first, after the
	// check's warnings, as gramc schema prints them.
	if lint := schema.Lint(&check.Package{Tools: pkg.Tools}, targets).Errors(); len(lint) > 0 {
		return "", &Error{Text: fs.text(warnings) + fs.text(lint), Diagnostics: lint}
	}
	out, err := schema.EmitTargets(pkg.Tools, targets)
	if err != nil {
		return "", &Error{Text: err.Error()}
	}
	return string(out), nil
}

// Generated is what gramc gen gives for a package.
type Generated struct {
	// Files are the files gramc gen -o DIR writes into an empty DIR:
	// file name to source.
	Files map[string]string
	// Names are the names of Files in the order gramc gen writes them
	// (for TypeScript: types.ts, mcp.ts, index.ts, tools.d.ts).
	Names []string
	// Warnings is what gramc gen prints on standard error about the
	// names it chose (a gram name whose Go or TypeScript name is taken
	// gets a numeric suffix: gen-name-collision), after the check's own
	// warnings: the text writer's diagnostics and the count line, ""
	// when there are none.
	Warnings string
	// Diagnostics are the warnings Warnings shows.
	Diagnostics diag.Diagnostics
}

// The languages Gen generates, as gramc gen --lang names them.
const (
	LangGo         = "go"
	LangTypeScript = "ts"
)

// Gen returns the files gramc gen writes for the package (its Go file,
// named after the package), as gramc gen -o DIR writes them into an
// empty DIR, and the warnings it prints on the way.
func Gen(fs Files) (*Generated, error) { return GenLang(fs, LangGo) }

// GenLang is Gen for a language, as gramc gen --lang lang -o DIR: "go"
// (or "", the default) or "ts", whose files are those of
// codegen/typescript (FileNames).
func GenLang(fs Files, lang string) (*Generated, error) {
	var generate func(*check.Package, func(*diag.Diagnostic), func(string) (io.Writer, error)) error
	switch lang {
	case LangGo, "":
		generate = func(pkg *check.Package, report func(*diag.Diagnostic), open func(string) (io.Writer, error)) error {
			return golang.GenerateTo(golang.Request{Package: pkg, Report: report}, open)
		}
	case LangTypeScript:
		generate = func(pkg *check.Package, report func(*diag.Diagnostic), open func(string) (io.Writer, error)) error {
			return typescript.GenerateTo(typescript.Request{Package: pkg, Report: report}, open)
		}
	default:
		// gramc gen's own words for an unknown --lang.
		return nil, usage("--lang %q: the languages are go and ts", termsafe.Line(lang, 40))
	}
	pkg, _, err := fs.checked()
	if err != nil {
		return nil, err
	}
	var warnings diag.Diagnostics
	bufs := map[string]*bytes.Buffer{}
	var names []string
	err = generate(pkg, func(d *diag.Diagnostic) { warnings = append(warnings, d) }, func(name string) (io.Writer, error) {
		if _, ok := bufs[name]; !ok {
			names = append(names, name)
		}
		bufs[name] = &bytes.Buffer{}
		return bufs[name], nil
	})
	if err != nil {
		return nil, &Error{Text: fmt.Sprintf("package %s: %v", pkg.Name, err)}
	}
	// Scoped by the files' gramc:ignore comments, as gramc gen scopes them.
	warnings = check.SuppressOnly(pkg.Files, warnings)
	warnings.Sort()
	out := &Generated{Files: map[string]string{}, Names: names, Warnings: fs.text(warnings), Diagnostics: warnings}
	for name, b := range bufs {
		out.Files[name] = b.String()
	}
	return out, nil
}

// Graph returns what gramc graph --format format prints. Parallel to
// Schema: each command reads its flag as the CLI does, then checks.
func Graph(fs Files, format string) (string, error) {
	if !slices.Contains(graph.FormatNames(), format) {
		return "", usage("%s", suggest.UnknownValue("--format", format, graph.FormatNames(), "formats"))
	}
	pkg, _, err := fs.checked()
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := graph.Write(&b, []*check.Package{pkg}, graph.Format(format)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Explain returns what gramc explain code prints.
func Explain(code string) (string, error) {
	text, err := explain.Lookup(code)
	if err != nil {
		return "", usage("%s", err)
	}
	return text, nil
}

// Targets returns the names of gramc schema's targets, in the
// registry's order.
func Targets() []string {
	var out []string
	for _, t := range schema.Targets() {
		out = append(out, string(t))
	}
	return out
}
