package load

import (
	"io"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

// CheckOptions are the steps a command adds to Check's, each run at its
// place in the pipeline; the zero value adds none (the playground's).
type CheckOptions struct {
	// Partial is for a command that reports only part of the diagnostics
	// and goes on with the packages (gramc schema, gen, run): a
	// gramc:ignore comment that suppresses nothing is not reported
	// (check.SuppressOnly), as it may suppress what another command
	// reports.
	Partial bool
	// Amend runs on the checked packages and their diagnostics before
	// the warnings are scoped: gramc check applies --fix (which loads the
	// fixed files again) and --target's lint there.
	Amend func([]*check.Package, diag.Diagnostics) ([]*check.Package, diag.Diagnostics, error)
	// Configure runs on the scoped diagnostics: gramc check applies
	// gramc.json and --disable there, and adds gramc.json's own
	// diagnostics.
	Configure func(diag.Diagnostics) diag.Diagnostics
}

// A Report is what Check found: the packages, and every diagnostic of
// them (scoped, configured, sorted; not bounded).
type Report struct {
	Packages    []*check.Package
	Diagnostics diag.Diagnostics
}

// Check is the front of gramc's diagnostics pipeline: the packages
// patterns name loaded and checked (Packages, through cfg: from cfg.FS
// when it is set), amended, their warnings scoped by the files'
// gramc:ignore comments (an unused one reported unless opts.Partial),
// configured and sorted. The error is Packages' or Amend's.
func Check(patterns []string, cfg *Config, opts CheckOptions) (*Report, error) {
	pkgs, ds, err := Packages(patterns, cfg)
	if err != nil {
		return nil, err
	}
	if opts.Amend != nil {
		if pkgs, ds, err = opts.Amend(pkgs, ds); err != nil {
			return nil, err
		}
	}
	var files []*ast.File
	for _, p := range pkgs {
		if p != nil {
			files = append(files, p.Files...)
		}
	}
	if opts.Partial {
		ds = check.SuppressOnly(files, ds)
	} else {
		ds = check.Suppress(files, ds, diag.KnownCodes())
	}
	if opts.Configure != nil {
		ds = opts.Configure(ds)
	}
	ds.Sort()
	return &Report{Packages: pkgs, Diagnostics: ds}, nil
}

// Diagnostics is gramc check's pipeline from files to its output: Check,
// then the diagnostics bounded and written to w in render's format
// (diag.Render), the source excerpts of text read through cfg (its FS
// and overlay) unless render.Text.ReadFile says otherwise. gramc check
// and the playground's Check both call it, so the command line and the
// page give the same bytes by construction; a nil w writes nothing.
func Diagnostics(w io.Writer, patterns []string, cfg *Config, opts CheckOptions, render diag.RenderOptions) (*Report, error) {
	rep, err := Check(patterns, cfg, opts)
	if err != nil || w == nil {
		return rep, err
	}
	if render.Text.ReadFile == nil {
		render.Text.ReadFile = cfg.ReadSource
	}
	return rep, diag.Render(w, rep.Diagnostics, render)
}
