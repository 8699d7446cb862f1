package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/golang"
	"github.com/gramc-dev/gramc/codegen/typescript"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

func init() { register(newGenCmd) }

// genOptions are gramc gen's flags.
type genOptions struct {
	out     string // -o: output directory
	pkgName string // --package: Go package name
	stubs   bool   // --stubs: also write tools_impl.go when missing
	check   bool   // --check: report stale files instead of writing
	lang    string // --lang: go or ts
}

func newGenCmd(e *env) *cobra.Command {
	var opts genOptions
	cmd := &cobra.Command{
		Use:   "gen [--lang go|ts] [-o DIR] [--package NAME] [--stubs] [--check] [path ...]",
		Short: "Generate typed Go or TypeScript code for gram tools, types and agents",
		Long: `Gen generates one Go file, <package>.gram.go, per gram package: a struct
per :Type, a named type with constants per :Enum, and per tool an arguments
struct, a result type, a typed function type, its runtime.ToolSpecification
and a constructor binding a typed function to it; a Tools interface with
NewToolLibrary; and a constructor per agent. See docs/codegen.md.

Paths are gram files (named together they form one package), directories,
or patterns ending in "/..." (default "."). Each file is written to the
package's directory, or to -o DIR (only with a single package).

The Go package name is --package, else the package of the Go files already
in the output directory (so //go:generate needs no flag), else the gram
package name.

  --stubs  also write tools_impl.go, a type implementing Tools whose methods
           return "not implemented", but only when that file does not exist:
           user code is never overwritten.
  --check  write nothing; exit 1 if a generated file is missing or differs
           from what gen would write, printing which (for CI).

With --lang ts, gen writes TypeScript instead, four files per package:
types.ts (an interface or union per type and enum, every tool's arguments
and result, every agent's input and output, each with a Zod 4 schema, and
the registries toolSchemas, typeSchemas and agentSchemas), mcp.ts
(ToolsImpl, registerTools for the MCP TypeScript SDK's McpServer, a typed
client per agent), index.ts (both) and tools.d.ts (the tools as code mode
sees them). --package and --stubs are Go's only.

Exit status: 0 on success, 1 for check errors or stale files, 2 for usage
or I/O errors.`,
		Example: `  gramc gen weather.gram
  gramc gen -o internal/weather --package weather ./tools
  gramc gen --stubs .
  gramc gen --check ./...
  gramc gen --lang ts -o web/src/weather ./weather
  //go:generate gramc gen hello.gram`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGen(e, opts, args)
		},
	}
	f := cmd.Flags()
	addDisableFlag(cmd, e)
	f.StringVarP(&opts.out, "output", "o", "", "write the generated files to `DIR`")
	f.StringVar(&opts.pkgName, "package", "", "Go package `NAME` of the generated code")
	f.BoolVar(&opts.stubs, "stubs", false, "also write tools_impl.go when it does not exist")
	f.BoolVar(&opts.check, "check", false, "report stale generated files instead of writing them")
	f.StringVar(&opts.lang, "lang", "go", "the language to generate: `go` or ts (TypeScript)")
	return cmd
}

func runGen(e *env, opts genOptions, args []string) error {
	switch opts.lang {
	case "go":
	case "ts":
		if opts.pkgName != "" || opts.stubs {
			return usageErrorf("--package and --stubs are for Go (--lang go); TypeScript has neither")
		}
	default:
		return usageErrorf("--lang %q: the languages are go and ts", termsafe.Line(opts.lang, 40))
	}
	if opts.pkgName != "" && (!token.IsIdentifier(opts.pkgName) || opts.pkgName == "_") {
		return usageErrorf("--package %q is not a valid Go package name", opts.pkgName)
	}
	pkgs, err := loadSomePackages(e, args, ".")
	if err != nil {
		return err
	}
	if opts.out != "" && len(pkgs) > 1 {
		var names []string
		for _, p := range pkgs {
			names = append(names, p.Name)
		}
		return usageErrorf("-o takes a single package, but the paths hold %d (%s); run gen once per package", len(pkgs), strings.Join(names, ", "))
	}
	stale := false
	for _, pkg := range pkgs {
		if pkg.Name == "" && pkg.Dir != "" {
			// The checker leaves "." and ".." unnamed; name the package
			// after the real directory so `gen .` (as go:generate runs it)
			// writes the same file as `gen path/to/dir`.
			if abs, err := filepath.Abs(pkg.Dir); err == nil {
				pkg.Name = filepath.Base(abs)
			}
		}
		dir := opts.out
		if dir == "" {
			dir = packageDir(pkg)
		}
		goPkg := opts.pkgName
		if goPkg == "" {
			goPkg = existingGoPackage(dir)
		}
		var warnings diag.Diagnostics
		out := &genOutput{e: e, dir: dir, check: opts.check}
		report := func(d *diag.Diagnostic) { warnings = append(warnings, d) }
		var err error
		if opts.lang == "ts" {
			err = typescript.GenerateTo(typescript.Request{Package: pkg, Report: report}, out.open)
		} else {
			err = golang.GenerateTo(golang.Request{
				Package:     pkg,
				PackageName: goPkg,
				Stubs:       opts.stubs && !opts.check,
				Report:      report,
			}, out.open)
		}
		printDiagnostics(e, check.SuppressOnly(pkg.Files, warnings))
		if err == nil {
			err = out.finish()
		}
		if err != nil {
			out.discard()
			var xe *exitError
			if errors.As(err, &xe) {
				return xe
			}
			return &exitError{code: ExitProblem, err: fmt.Errorf("package %s: %w", pkg.Name, err)}
		}
		stale = stale || out.stale
	}
	if stale {
		return exitCode(ExitProblem)
	}
	return nil
}

// genOutput receives the files gen generates, streamed (golang.GenerateTo):
// into a temporary file beside each destination, renamed over it when the
// whole file is written (a reader or a crash never sees half a file); or,
// with --check, compared with the file on disk as it is generated.
type genOutput struct {
	e     *env
	dir   string
	check bool
	stale bool
	files []*genFile
}

type genFile struct {
	path string
	tmp  *os.File
	buf  *bufio.Writer
	cmp  *compareWriter
}

func (o *genOutput) open(name string) (io.Writer, error) {
	path := filepath.Join(o.dir, name)
	if name == golang.StubsFileName {
		if _, err := os.Stat(path); err == nil {
			fmt.Fprintf(o.e.stderr, "gramc gen: %s exists; not overwritten\n", path)
			return nil, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, &exitError{code: ExitUsage, err: err}
		}
	}
	if o.check {
		old, _, err := regular.Open(path) // a FIFO is refused, not waited on
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(o.e.stdout, "%s: missing (run gramc gen)\n", path)
			o.stale = true
			return nil, nil
		}
		if err != nil {
			return nil, &exitError{code: ExitUsage, err: err}
		}
		f := &genFile{path: path, cmp: &compareWriter{r: bufio.NewReader(old), c: old}}
		o.files = append(o.files, f)
		return f.cmp, nil
	}
	if name != golang.StubsFileName {
		if err := refuseHandWritten(path); err != nil {
			return nil, &exitError{code: ExitProblem, err: err}
		}
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return nil, &exitError{code: ExitUsage, err: err}
	}
	tmp, err := os.CreateTemp(o.dir, ".gramc-gen-*")
	if err != nil {
		return nil, &exitError{code: ExitUsage, err: err}
	}
	f := &genFile{path: path, tmp: tmp, buf: bufio.NewWriterSize(tmp, 256<<10)}
	o.files = append(o.files, f)
	return f.buf, nil
}

// finish renames the written files into place, or reports the stale ones.
func (o *genOutput) finish() error {
	for _, f := range o.files {
		if f.cmp != nil {
			if !f.cmp.same() {
				fmt.Fprintf(o.e.stdout, "%s: stale (run gramc gen)\n", f.path)
				o.stale = true
			}
			f.cmp.c.Close()
			continue
		}
		err := f.buf.Flush()
		if err == nil {
			err = f.tmp.Chmod(0o644)
		}
		if cerr := f.tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.tmp.Name(), f.path)
		}
		if err != nil {
			return &exitError{code: ExitUsage, err: err}
		}
		f.tmp = nil
	}
	return nil
}

// discard removes what a failed generation wrote.
func (o *genOutput) discard() {
	for _, f := range o.files {
		if f.tmp != nil {
			f.tmp.Close()
			os.Remove(f.tmp.Name())
		}
		if f.cmp != nil {
			f.cmp.c.Close()
		}
	}
}

// compareWriter compares what is written with a reader's bytes.
type compareWriter struct {
	r    *bufio.Reader
	c    io.Closer
	diff bool
	buf  []byte
}

func (w *compareWriter) Write(p []byte) (int, error) {
	if !w.diff {
		if cap(w.buf) < len(p) {
			w.buf = make([]byte, len(p))
		}
		b := w.buf[:len(p)]
		if _, err := io.ReadFull(w.r, b); err != nil || !bytes.Equal(b, p) {
			w.diff = true
		}
	}
	return len(p), nil
}

// same reports whether everything written matched and the reader is at
// its end.
func (w *compareWriter) same() bool {
	if w.diff {
		return false
	}
	_, err := w.r.ReadByte()
	return err == io.EOF
}

// generatedRE is Go's convention for a generated file
// (https://go.dev/s/generatedcode): a line of this form before the package
// clause.
var generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// refuseHandWritten returns an error when path exists and is not a
// generated file: gen never overwrites code a person wrote.
func refuseHandWritten(path string) error {
	f, _, err := regular.Open(path) // a FIFO or a device is not overwritten either
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if i := bytes.Index(head, []byte("\npackage ")); i >= 0 {
		head = head[:i]
	}
	if generatedRE.Match(head) {
		return nil
	}
	return fmt.Errorf("%s exists and was not generated (it has no \"// Code generated ... DO NOT EDIT.\" line); not overwritten: rename it, or delete it to let gen write the file", path)
}

// packageDir is where a package's generated file goes by default: its
// directory, or the directory of its first file.
func packageDir(pkg *check.Package) string {
	if pkg.Dir != "" {
		return pkg.Dir
	}
	for _, f := range pkg.Files {
		if f != nil && f.Name != "" {
			return filepath.Dir(f.Name)
		}
	}
	return "."
}

// existingGoPackage returns the package name of the hand-written Go files in
// dir (the first in name order, ignoring tests and generated files), or "".
// Only regular files are read, and only their first packageClauseBytes: a
// package clause further down is not looked for.
func existingGoPackage(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, ent := range entries {
		n := ent.Name()
		if ent.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, ".gram.go") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	for _, n := range names {
		src, err := readHead(filepath.Join(dir, n), packageClauseBytes)
		if err != nil || bytes.HasPrefix(src, []byte(golang.Header)) {
			continue
		}
		f, err := parser.ParseFile(fset, n, src, parser.PackageClauseOnly)
		if err == nil && f.Name != nil && f.Name.Name != "_" {
			return f.Name.Name
		}
	}
	return ""
}

// packageClauseBytes bounds how much of a Go file existingGoPackage reads
// to find its package clause (after the file's comments).
const packageClauseBytes = 64 << 10

// readHead returns at most n bytes from the start of the regular file
// path.
func readHead(path string, n int64) ([]byte, error) {
	f, _, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
