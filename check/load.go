package check

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// Load finds, parses and checks the packages named by paths, which work like
// the go command's patterns: .gram files named together form one package, a
// directory is a package (its .gram files), and "dir/..." is every
// directory under dir that holds .gram files (skipping testdata and names
// starting with "." or "_", as the go command does, below dir). No paths
// means "./...".
//
// Files are parsed concurrently. A file with a syntax error is reported and
// the rest of its package is still checked; its own declarations are used
// to resolve references from other files, but further diagnostics inside it
// wait until its syntax is fixed. The returned error is for I/O problems
// only (a missing path, an unreadable file); every problem in the sources
// is a diagnostic. Diagnostics of all packages are sorted by position.
func Load(paths []string) ([]*Package, diag.Diagnostics, error) {
	if len(paths) == 0 {
		paths = []string{"./..."}
	}
	type unit struct {
		dir   string
		files []string
	}
	var units []unit
	var named []string
	// A directory or file named twice, however spelt (dir, ./dir/,
	// dir/...), is loaded once: twice would declare everything twice.
	seenDir := map[string]bool{}
	seenFile := map[string]bool{}
	addDir := func(dir string, files []string) {
		if seenDir[filepath.Clean(dir)] || len(files) == 0 {
			return
		}
		seenDir[filepath.Clean(dir)] = true
		units = append(units, unit{dir: dir, files: files})
	}
	for _, p := range paths {
		if root, ok := strings.CutSuffix(p, "..."); ok {
			root = strings.TrimSuffix(root, "/")
			if root == "" || root == "." {
				root = "."
			}
			dirs, err := walkDirs(root)
			if err != nil {
				return nil, nil, err
			}
			for _, d := range dirs {
				addDir(d.dir, d.files)
			}
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot load %s: %w", p, err)
		}
		if !fi.IsDir() {
			if !seenFile[filepath.Clean(p)] {
				seenFile[filepath.Clean(p)] = true
				named = append(named, p)
			}
			continue
		}
		files, err := gramFiles(p)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("no .gram files in %s", p)
		}
		addDir(filepath.Clean(p), files)
	}
	if len(named) > 0 {
		units = append(units, unit{files: named})
	}

	// Parse every file of every package concurrently.
	var all []string
	for _, u := range units {
		all = append(all, u.files...)
	}
	parsed, diags, err := parseFiles(all)
	if err != nil {
		return nil, nil, err
	}
	// Check the packages concurrently too; each checker has its own state.
	pkgs := make([]*Package, len(units))
	pkgDiags := make([]diag.Diagnostics, len(units))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	i := 0
	for k, u := range units {
		files := parsed[i : i+len(u.files)]
		i += len(u.files)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			pkgs[k], pkgDiags[k] = checkParsed(u.dir, files)
		}()
	}
	wg.Wait()
	for _, ds := range pkgDiags {
		diags = append(diags, ds...)
	}
	diags.Sort()
	return pkgs, diags, nil
}

type parsedFile struct {
	file   *ast.File
	src    []byte
	diags  diag.Diagnostics
	broken bool // has syntax errors
}

type dirFiles struct {
	dir   string
	files []string
}

// walkDirs returns the directories under root (root included) that hold
// .gram files, in lexical order.
func walkDirs(root string) ([]dirFiles, error) {
	var out []dirFiles
	root = followRootLink(root)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("cannot walk %s: %w", path, err)
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			name := d.Name()
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
		}
		files, err := gramFiles(path)
		if err != nil {
			return err
		}
		if len(files) > 0 {
			out = append(out, dirFiles{dir: path, files: files})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// followRootLink returns root so that filepath.WalkDir walks the directory
// a symbolic link at root points to (as the go command does for
// "link/..."); links below root are not followed.
func followRootLink(root string) string {
	if fi, err := os.Lstat(root); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return root
	}
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		return root + string(filepath.Separator)
	}
	return root
}

// gramFiles lists the .gram files of dir, sorted.
func gramFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read directory %s: %w", dir, err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".gram") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	return files, nil
}

// parseFiles reads files and parses them concurrently (syntax.ParseFiles).
func parseFiles(names []string) ([]*parsedFile, diag.Diagnostics, error) {
	srcs := make([]syntax.Source, len(names))
	var errs []error
	for i, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot read %s: %w", name, err))
			continue
		}
		srcs[i] = syntax.Source{Name: name, Src: src}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	out, diags := parseSources(srcs)
	return out, diags, nil
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
	asts := make([]*ast.File, len(files))
	broken := map[string]bool{}
	for i, f := range files {
		asts[i] = f.file
		if f.broken {
			broken[f.file.Name] = true
		}
	}
	pkg, ds := CheckFiles(dir, asts)
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
		if d.Code != CodeSyntax {
			continue
		}
		line := lineAt(src, int(d.Range.Start.Offset))
		// A signature split after its arrow puts the error on the next line.
		if ls := lineStart(src, int(d.Range.Start.Offset)); ls > 0 {
			prev := strings.TrimRight(lineAt(src, ls-1), " \t\r")
			if strings.HasSuffix(prev, ">") || strings.HasSuffix(prev, "→") {
				line = prev + " " + strings.TrimSpace(line)
			}
		}
		switch {
		case inlineFieldsRE.MatchString(line):
			d.Code = CodeInlineRecord
			d.Detail = "The parser says: " + d.Summary + ". " +
				"gram arrays hold scalars only, so a record cannot be written inline as fields: [{...}]. " +
				"Declare it once at the top level and use its name as the type:\n" +
				"    [Person:Type {description: \"...\"} | (name::String), (age::Integer)]\n" +
				"    ... (person::Person) ..."
			d.Summary = "inline record fields are not gram; declare a :Type"
		case textualArrowRE.MatchString(line):
			d.Code = CodeTextualSignature
			d.Detail = "The parser says: " + d.Summary + ". " +
				"This is the old textual signature form. In gram every parameter and the return type is a node, " +
				"joined by ==>, and types are JSON types (no IO or Maybe). Write: " + gramForm(line)
			d.Summary = "textual signature is not gram"
			d.Suggestion = gramForm(line)
		}
	}
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
	if k, ok := builtinTypes[t]; ok && t != "Text" {
		return k.String()
	}
	if t == "Text" {
		return "String"
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
