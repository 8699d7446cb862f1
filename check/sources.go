package check

import (
	"reflect"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
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
	return checkSources(nil, dir, files, false)
}

// Diagnose returns exactly the diagnostics CheckSources(dir, files)
// returns, in the same order, for a caller that reads nothing else of
// the check (gramc check): on the way it lets go of what it no longer
// needs — the files' patterns once the declarations are collected, each
// tool's tree once the tool is checked, and, when the package has no
// test to read them, each tool's parameters and types once they are
// lowered — so that a package of many tools costs a fraction of its
// model and trees at once.
//
// It consumes the files' trees: afterwards each file holds its name,
// span and comments only (what Suppress reads). The package returned
// holds Dir, Name and those Files, no declarations.
func Diagnose(dir string, files []SourceFile) (*Package, diag.Diagnostics) {
	return checkSources(nil, dir, files, true)
}

// checkSources is CheckSources (Diagnose when lean), reusing and
// recording work in k unless k is nil.
func checkSources(k *Cache, dir string, files []SourceFile, lean bool) (*Package, diag.Diagnostics) {
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
	pkg, ds := checkParsedWith(k, dir, pfs, lean)
	diags = append(diags, ds...)
	diags.Sort()
	return pkg, diags
}

type parsedFile struct {
	file   *ast.File
	diags  diag.Diagnostics
	broken bool // has syntax errors
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

// checkParsedWith checks parsed files as one package, dropping checker
// diagnostics inside files that have syntax errors (their trees are
// partial, so such diagnostics would be noise), reusing and recording work
// in k unless k is nil (lean: see Diagnose; not with a Cache).
func checkParsedWith(k *Cache, dir string, files []*parsedFile, lean bool) (*Package, diag.Diagnostics) {
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
		pkg, ds = checkTrees(dir, asts, lean)
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

// isNil reports whether n is nil or a typed nil pointer (partial trees
// from files with syntax errors may hold them).
func isNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
