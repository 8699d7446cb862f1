package lsp

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
)

// A baselineVersion is a package as it was at the baseline revision: what
// gramc diff REV:DIR DIR would compare the edited package with.
type baselineVersion struct {
	pkgs []*check.Package
}

// baselineOf reads the package in dir at revision rev once (until the
// configuration changes). A package that has no version there (new since,
// or not in a repository) has no baseline: the failure is logged once.
func (w *workspace) baselineOf(dir, rev string) *baselineVersion {
	key := dir + "\x00" + rev
	if b, ok := w.baselines[key]; ok {
		return b
	}
	b := &baselineVersion{}
	w.baselines[key] = b
	tmp, err := load.GitExport(dir, rev, ".")
	if err != nil {
		w.log("baseline %s of %s: %s", rev, dir, err)
		return b
	}
	defer os.RemoveAll(tmp)
	pkgs, ds, err := load.Packages([]string{tmp}, nil)
	switch {
	case err != nil:
		w.log("baseline %s of %s: %s", rev, dir, err)
	case ds.HasErrors():
		w.log("baseline %s of %s: the package has errors at that revision; no comparison", rev, dir)
	default:
		b.pkgs = pkgs
	}
	return b
}

func (w *workspace) log(format string, args ...any) {
	if w.logf != nil {
		w.logf("%s", termsafe.Line(fmt.Sprintf(format, args...), 1000))
	}
}

// baselineChanges are the breaking and dangerous changes of cp since the
// baseline revision, as warnings at the new declaration (or, for what was
// removed, at the start of the file that held it).
func (w *workspace) baselineChanges(dir, rev string, cp *check.Package) diag.Diagnostics {
	b := w.baselineOf(dir, rev)
	if b.pkgs == nil {
		return nil
	}
	// A change accepted by a `// gramc:ignore CODE -- reason` comment is
	// not shown, as gramc diff does not report it; a comment that cannot
	// accept one (no reason, no such rule) is gramc diff's error.
	changes, ds := compat.Accept(compat.Compare(b.pkgs, []*check.Package{cp}), []*check.Package{cp})
	for _, c := range changes {
		if c.Severity < compat.Dangerous || c.Accepted {
			continue
		}
		rng := c.New
		if rng.File == "" {
			rng = removedAt(cp, c.Old)
			if rng.File == "" {
				continue
			}
		}
		d := &diag.Diagnostic{Severity: diag.Warning, Code: c.Code, Range: rng,
			Summary: fmt.Sprintf("%s change since %s: %s", c.Severity, rev, c.Message),
			Detail:  fmt.Sprintf("The baseline (gramc.json's or the editor's baseline setting) is %s; gramc diff %s:%s %s shows every change.", rev, rev, filepath.Base(dir), filepath.Base(dir))}
		if c.OldText != "" || c.NewText != "" {
			d.Detail = fmt.Sprintf("Was %s, now %s. ", orNone(c.OldText), orNone(c.NewText)) + d.Detail
		}
		ds = append(ds, d)
	}
	return ds
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// removedAt is where a removal is shown: the start of the package's file
// of the same name as the one that held it, if there still is one.
func removedAt(cp *check.Package, old ast.Range) ast.Range {
	base := filepath.Base(old.File)
	for _, f := range cp.Files {
		if f != nil && filepath.Base(f.Name) == base {
			return ast.Range{File: f.Name, Start: ast.Pos{Line: 1, Column: 1}, End: ast.Pos{Line: 1, Column: 1}}
		}
	}
	return ast.Range{}
}
