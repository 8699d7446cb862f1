package check

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// loadSource parses and checks one in-memory file as a package.
func loadSource(name string, src []byte) (*Package, diag.Diagnostics) {
	return loadSources(map[string][]byte{name: src})
}

// loadSources parses and checks in-memory files as one package, the keys
// being the file names, as package load does with a directory's files:
// syntax.ParseFiles, then CheckSources.
func loadSources(files map[string][]byte) (*Package, diag.Diagnostics) {
	names := slices.Sorted(maps.Keys(files))
	srcs := make([]syntax.Source, len(names))
	for i, name := range names {
		srcs[i] = syntax.Source{Name: name, Src: files[name]}
	}
	parsed := make([]SourceFile, len(srcs))
	for i, r := range syntax.ParseFiles(srcs) {
		parsed[i] = SourceFile{AST: r.File, Diags: r.Diags}
	}
	return CheckSources("", parsed)
}

// loadPaths loads test inputs from disk: a file is a package of its own, a
// directory a package of its .gram files, and "dir/..." every directory
// below dir with .gram files (skipping testdata). Package load does this
// for gramc; check's own tests cannot import it (load imports check).
func loadPaths(paths ...string) ([]*Package, diag.Diagnostics, error) {
	var pkgs []*Package
	var all diag.Diagnostics
	add := func(dir string, names []string) error {
		files := map[string][]byte{}
		for _, n := range names {
			src, err := os.ReadFile(n)
			if err != nil {
				return err
			}
			files[n] = src
		}
		pkg, ds := loadSources(files)
		ds = Suppress(pkg.Files, ds, Codes())
		pkg.Dir = dir
		pkgs = append(pkgs, pkg)
		all = append(all, ds...)
		return nil
	}
	gramFiles := func(dir string) []string {
		m, _ := filepath.Glob(filepath.Join(dir, "*.gram"))
		slices.Sort(m)
		return m
	}
	for _, p := range paths {
		if root, ok := strings.CutSuffix(p, "/..."); ok {
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || !d.IsDir() {
					return err
				}
				if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), "_") || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				if files := gramFiles(path); len(files) > 0 {
					return add(path, files)
				}
				return nil
			})
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if fi.IsDir() {
			err = add(filepath.Clean(p), gramFiles(p))
		} else {
			err = add("", []string{p})
		}
		if err != nil {
			return nil, nil, err
		}
	}
	all.Sort()
	return pkgs, all, nil
}
