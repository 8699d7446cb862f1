package check

import (
	"maps"
	"reflect"
	"slices"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// SourceFile is one file of a package as the front end read it: its
// (possibly partial) tree, which holds its text, and its syntax
// diagnostics. package load reads and parses files; CheckSources checks
// them.
type SourceFile struct {
	AST   *ast.File
	Diags diag.Diagnostics
}

// CheckSources checks files as one package. It returns the package and
// every diagnostic of its files, sorted: the syntax diagnostics and the checker's, except the
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
		pfs[i] = newParsedFile(name, f.AST, f.Diags)
		diags = append(diags, pfs[i].diags...)
	}
	pkg, ds := checkParsedWith(k, dir, pfs)
	diags = append(diags, ds...)
	diags.Sort()
	return pkg, diags
}

type parsedFile struct {
	file   *ast.File
	diags  diag.Diagnostics
	broken bool // has syntax errors
}

// parseSources parses srcs concurrently (syntax.ParseFiles).
func parseSources(srcs []syntax.Source) ([]*parsedFile, diag.Diagnostics) {
	out := make([]*parsedFile, len(srcs))
	var diags diag.Diagnostics
	for i, r := range syntax.ParseFiles(srcs) {
		out[i] = newParsedFile(srcs[i].Name, r.File, r.Diags)
		diags = append(diags, out[i].diags...)
	}
	return out, diags
}

// newParsedFile wraps a parse result.
func newParsedFile(name string, f *ast.File, ds diag.Diagnostics) *parsedFile {
	if f == nil {
		f = &ast.File{Name: name}
	}
	if f.Name == "" {
		f.Name = name
	}
	return &parsedFile{file: f, diags: ds, broken: ds.HasErrors()}
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

// isNil reports whether n is nil or a typed nil pointer (partial trees
// from files with syntax errors may hold them).
func isNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
