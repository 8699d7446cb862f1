package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/load/git"
)

// A baselineVersion is a package as it was at the baseline revision: what
// gramc diff REV:DIR DIR would compare the edited package with. It is read
// off the request path: until the read ends (ready), the package is shown
// without a baseline.
type baselineVersion struct {
	ready bool
	pkgs  []*check.Package
}

// baselineTimeout bounds the read of one package at a baseline revision.
const baselineTimeout = 20 * time.Second

// baselineOf returns the package in dir at revision rev, starting its read
// the first time it is asked for (until the configuration changes). The
// repository is the one whose work tree holds the workspace folder of dir
// (git.OpenRepo: never one git would discover inside the work tree). A
// package that has no version there (new since, or not in a repository)
// has no baseline: the failure is logged once. A change of configuration
// cancels the reads in flight (dropBaselines).
func (w *workspace) baselineOf(dir, rev string) *baselineVersion {
	key := dir + "\x00" + rev
	if b, ok := w.baselines[key]; ok {
		return b
	}
	b := &baselineVersion{}
	w.baselines[key] = b
	if w.baselineCtx == nil {
		w.baselineCtx, w.baselineStop = context.WithCancel(context.Background())
	}
	ctx, root, done := w.baselineCtx, w.folderOf(dir), w.baselineDone
	go func() {
		ctx, cancel := context.WithTimeout(ctx, baselineTimeout)
		defer cancel()
		pkgs, err := readBaseline(ctx, root, dir, rev)
		if ctx.Err() == context.Canceled {
			return // superseded
		}
		apply := func() {
			if w.baselines[key] != b {
				return // superseded
			}
			if err != nil {
				w.log("baseline %s of %s: %s", rev, dir, err)
			}
			b.pkgs, b.ready = pkgs, true
		}
		if done != nil {
			done(dir, apply)
		}
	}()
	return b
}

// readBaseline reads the package in dir at rev from the repository holding
// root.
func readBaseline(ctx context.Context, root, dir, rev string) ([]*check.Package, error) {
	repo, err := git.OpenRepo(ctx, root)
	if err != nil {
		return nil, err
	}
	treePath, err := repo.PackagePath(dir)
	if err != nil {
		return nil, err
	}
	x, err := repo.Export(ctx, rev, treePath)
	if err != nil {
		return nil, err
	}
	defer x.Remove()
	pkgs, ds, err := load.Packages([]string{x.Dir}, nil)
	switch {
	case err != nil:
		return nil, err
	case ds.HasErrors():
		return nil, errors.New("the package has errors at that revision; no comparison")
	}
	return pkgs, nil
}

// dropBaselines forgets every baseline and cancels the reads in flight.
func (w *workspace) dropBaselines() {
	if w.baselineStop != nil {
		w.baselineStop()
		w.baselineCtx, w.baselineStop = nil, nil
	}
	clear(w.baselines)
}

// folderOf is the workspace folder that holds dir, or dir itself.
func (w *workspace) folderOf(dir string) string {
	best := ""
	for _, f := range w.folders {
		if (dir == f || strings.HasPrefix(dir, f+string(filepath.Separator))) && len(f) > len(best) {
			best = f
		}
	}
	if best == "" {
		return dir
	}
	return best
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
	if !b.ready || b.pkgs == nil {
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
