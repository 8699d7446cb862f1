package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/config"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

// A file is one .gram file of the workspace as last read from disk or
// edited in the client. Its key is its cleaned file-system path, or the URI
// itself for a document that is not a file (an unsaved "untitled:" buffer).
type file struct {
	key     string
	uri     uri.URI
	text    string // shared with the syntax tree's Source and the mapper
	version int32  // the client's version while open
	open    bool

	// Made lazily and reset by every change of text: the syntax
	// diagnostics (parsed says they are the text's), the syntax tree (kept
	// only for a file of at most keepTreeBytes) and the position mapper.
	parsed bool
	ast    *ast.File
	diags  diag.Diagnostics
	m      *mapper
}

// keepTreeBytes is the largest file whose syntax tree the server keeps.
// A tree costs about seven bytes per byte of text. Keeping the trees of
// small files lets an edit parse only its own file and reuse the others'
// lowering (check.Cache). A larger file's tree is let go once its package
// is checked and its index built, so the server holds its text, the
// checked model and the index; the few requests that read a tree (range
// formatting, folding ranges, the check of a rename) parse the text again.
// A package with such a file is checked whole after every change, as the
// cache would keep the tree.
var keepTreeBytes = 1 << 20 // a variable for TestScriptsKeepingNoTree

func (f *file) setText(text string) {
	f.text, f.parsed, f.ast, f.diags, f.m = text, false, nil, nil, nil
}

// large reports whether the file's tree is not kept (keepTreeBytes).
func (f *file) large() bool { return len(f.text) > keepTreeBytes }

// prepare makes the file's syntax diagnostics and position mapper ready.
func (f *file) prepare(enc encoding) {
	if !f.parsed {
		f.syntax()
	}
	if f.m == nil {
		f.m = newMapper(f.text, enc)
	}
}

// syntax returns the file's syntax tree: the kept one, or one parsed now.
func (f *file) syntax() *ast.File {
	if f.ast != nil {
		return f.ast
	}
	t, ds := syntax.ParseString(f.key, f.text)
	f.setSyntax(t, ds)
	return t
}

// setSyntax records a parse of the file's text.
func (f *file) setSyntax(t *ast.File, ds diag.Diagnostics) {
	f.diags, f.parsed = ds, true
	if !f.large() {
		f.ast = t
	}
}

// A pkg is one gram package: the .gram files of a directory, or a lone
// file outside every workspace folder. It is one namespace, so a change to
// any of its files re-checks all of it (the unchanged files are not
// re-parsed).
type pkg struct {
	key   string // the directory, or the lone file's key
	dir   string // "" for a lone file
	files []*file

	result *result // nil when a file changed since the last check
	// cache keeps the lowering of the files that did not change, so a
	// re-check after an edit costs about the changed file.
	cache check.Cache
	// shown are the files whose last published diagnostics were not
	// empty: they must be published again (perhaps empty) after a check.
	shown map[string]bool
}

// result is one check of a package: the model, every diagnostic as
// `gramc check` would print it, and the index the requests navigate.
type result struct {
	pkg     *check.Package
	byFile  map[string]diag.Diagnostics
	idxOnce sync.Once
	idx     *index // built on first use, by a request or by the warm-up after publishing
}

// workspace is the server's model of the user's files. Every method must be
// called with the server's lock held.
type workspace struct {
	enc     encoding
	folders []string // absolute, cleaned
	files   map[string]*file
	pkgs    map[string]*pkg
	targets []schema.Target
	known   []diag.Code
	// configs caches each package directory's gramc.json (nil: none),
	// dropped when one changes (configChanged).
	configs map[string]*config.Config
	// baseline is the editor's baseline setting (a git revision; "" to
	// take gramc.json's); baselines caches each package's version at a
	// revision, dropped with the configurations.
	baseline  string
	baselines map[string]*baselineVersion
	// baselineCtx is the context of the baseline reads of the current
	// configuration, baselineStop its cancel; baselineDone runs apply
	// under the server's lock when a read ends, and has the packages of
	// dir checked again.
	baselineCtx  context.Context
	baselineStop context.CancelFunc
	baselineDone func(dir string, apply func())
	// untrusted is the editor's word that it does not trust the
	// workspace: no baseline is read (git is never run).
	untrusted bool
	// logf reports what the editor cannot show (a bad gramc.json).
	logf func(format string, args ...any)
}

// configOf is the project configuration that applies to the package in
// dir: the gramc.json found from dir up, read once until one changes.
func (w *workspace) configOf(dir string) *config.Config {
	if c, ok := w.configs[dir]; ok {
		return c
	}
	var c *config.Config
	if path := config.Find(dir); path != "" {
		var ds diag.Diagnostics
		c, ds = config.Load(path)
		for _, d := range ds {
			if w.logf != nil {
				w.logf("%s: %s", d.Range, d.Summary)
			}
		}
	}
	w.configs[dir] = c
	return c
}

// targetsOf are the provider targets of the package in dir: the editor's
// targets setting, else its gramc.json's. Diagnostics and hover follow
// the same ones.
func (w *workspace) targetsOf(dir string) []schema.Target {
	if len(w.targets) > 0 {
		return w.targets
	}
	if cfg := w.configOf(dir); cfg != nil {
		return cfg.Targets
	}
	return nil
}

// configChanged forgets every package's configuration and marks every
// package for checking again.
func (w *workspace) configChanged() []*pkg {
	clear(w.configs)
	w.dropBaselines()
	var out []*pkg
	for _, p := range w.pkgs {
		p.result = nil
		out = append(out, p)
	}
	return out
}

func newWorkspace() *workspace {
	var known []diag.Code
	for _, c := range diag.Codes() {
		known = append(known, c.Code)
	}
	return &workspace{files: map[string]*file{}, pkgs: map[string]*pkg{}, known: known, configs: map[string]*config.Config{}, baselines: map[string]*baselineVersion{}}
}

// keyOf is the file key of a document URI.
func keyOf(u uri.URI) string {
	if u.IsFile() {
		if p := u.FsPath(); p != "" {
			return filepath.Clean(p)
		}
	}
	return string(u)
}

// uriOf is the URI of a file key.
func uriOf(key string) uri.URI {
	if filepath.IsAbs(key) {
		return uri.File(key)
	}
	return uri.URI(key)
}

// inFolder reports whether path lies in one of the workspace folders.
func (w *workspace) inFolder(path string) bool {
	for _, f := range w.folders {
		if path == f || strings.HasPrefix(path, f+string(filepath.Separator)) || f == string(filepath.Separator) {
			return true
		}
	}
	return false
}

// loadFolder reads every package under a workspace folder through the
// loader, as `gramc check folder/...` would. Documents already open keep
// their text. An entry that cannot be walked (an unreadable subdirectory)
// leaves the rest loaded; the error says which, for the log.
func (w *workspace) loadFolder(dir string) error {
	dir = filepath.Clean(dir)
	if !slices.Contains(w.folders, dir) {
		w.folders = append(w.folders, dir)
	}
	units, problems, err := load.Expand([]string{filepath.Join(dir, "...")}, nil)
	if err != nil {
		// A folder without .gram files is not an error for an editor.
		return nil
	}
	var errs []error
	for _, p := range problems {
		errs = append(errs, errors.New(p.Summary+": "+p.Detail))
	}
	for _, u := range units {
		if u.Dir == "" {
			continue
		}
		w.loadDir(filepath.Clean(u.Dir), u.Files)
	}
	return errors.Join(errs...)
}

// loadDir makes (or refreshes) the package of dir from the given files.
func (w *workspace) loadDir(dir string, paths []string) *pkg {
	p := w.pkgs[dir]
	if p == nil {
		p = &pkg{key: dir, dir: dir, shown: map[string]bool{}}
		w.pkgs[dir] = p
	}
	for _, path := range paths {
		key := filepath.Clean(path)
		if f := w.files[key]; f != nil {
			if !slices.Contains(p.files, f) {
				p.files = append(p.files, f)
			}
			continue
		}
		text, err := load.ReadText(key, load.DefaultMaxFileSize)
		if err != nil {
			continue // reported when the file is opened; a watched change retries
		}
		f := &file{key: key, uri: uriOf(key), text: text}
		w.files[key] = f
		p.files = append(p.files, f)
	}
	p.sort()
	p.result = nil
	return p
}

func (p *pkg) sort() {
	slices.SortFunc(p.files, func(a, b *file) int { return strings.Compare(a.key, b.key) })
}

// pkgOf returns the package a file belongs to, making one if needed: the
// package of its directory when that lies in a workspace folder (read from
// disk with the other files there), else a package of the file alone.
func (w *workspace) pkgOf(f *file) *pkg {
	dir := filepath.Dir(f.key)
	if filepath.IsAbs(f.key) && w.inFolder(f.key) {
		if p := w.pkgs[dir]; p != nil {
			if !slices.Contains(p.files, f) {
				p.files = append(p.files, f)
				p.sort()
				p.result = nil
			}
			return p
		}
		var paths []string
		if units, _, err := load.Expand([]string{dir}, nil); err == nil && len(units) == 1 {
			paths = units[0].Files
		}
		w.files[f.key] = f
		return w.loadDir(dir, append(paths, f.key))
	}
	if p := w.pkgs[f.key]; p != nil {
		return p
	}
	p := &pkg{key: f.key, files: []*file{f}, shown: map[string]bool{}}
	w.pkgs[f.key] = p
	return p
}

// packageOf returns the package holding the file with key, or nil.
func (w *workspace) packageOf(key string) *pkg {
	f := w.files[key]
	if f == nil {
		return nil
	}
	if p := w.pkgs[filepath.Dir(key)]; p != nil && slices.Contains(p.files, f) {
		return p
	}
	return w.pkgs[key]
}

// open records a document the client opened. It returns the package to
// re-check.
func (w *workspace) open(u uri.URI, version int32, text string) (*pkg, error) {
	if len(text) > load.DefaultMaxFileSize {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit of a .gram file", u, len(text), load.DefaultMaxFileSize)
	}
	// Copies: strings decoded from a message may share its memory, which
	// must not live as long as the document.
	u, text = uri.URI(strings.Clone(string(u))), strings.Clone(text)
	key := keyOf(u)
	f := w.files[key]
	if f == nil {
		f = &file{key: key, uri: u}
		w.files[key] = f
	}
	f.uri, f.open, f.version = u, true, version
	f.setText(text)
	p := w.pkgOf(f)
	p.result = nil
	return p, nil
}

// change replaces an open document's text.
func (w *workspace) change(u uri.URI, version int32, text string) (*pkg, error) {
	if len(text) > load.DefaultMaxFileSize {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit of a .gram file", u, len(text), load.DefaultMaxFileSize)
	}
	f := w.files[keyOf(u)]
	if f == nil || !f.open {
		return nil, fmt.Errorf("%s is not open", u)
	}
	f.version = version
	f.setText(text)
	p := w.packageOf(f.key)
	p.result = nil
	return p, nil
}

// close records that the client closed a document: a file in a workspace
// folder goes back to its text on disk (or leaves its package when it is
// not on disk); a lone file leaves the workspace. It returns the package to
// re-check (nil when none is left) and whether the file is gone, so that
// its diagnostics are cleared.
func (w *workspace) close(u uri.URI) (*pkg, *file) {
	key := keyOf(u)
	f := w.files[key]
	if f == nil {
		return nil, nil
	}
	p := w.packageOf(key)
	f.open = false
	if p != nil && p.dir != "" {
		if text, err := load.ReadText(key, load.DefaultMaxFileSize); err == nil {
			f.setText(text)
			p.result = nil
			return p, nil
		}
	}
	w.remove(f)
	if p != nil && len(p.files) > 0 {
		return p, f
	}
	return nil, f
}

// remove takes a file out of the workspace.
func (w *workspace) remove(f *file) {
	if p := w.packageOf(f.key); p != nil {
		p.files = slices.DeleteFunc(p.files, func(g *file) bool { return g == f })
		p.result = nil
		if len(p.files) == 0 {
			delete(w.pkgs, p.key)
		}
	}
	delete(w.files, f.key)
}

// diskChanged takes a watched-file event: a file created, changed or
// deleted on disk. Open documents keep the client's text. It returns the
// package to re-check and a file that left the workspace, if any.
func (w *workspace) diskChanged(key string, deleted bool) (*pkg, *file) {
	if filepath.Ext(key) != ".gram" {
		return nil, nil
	}
	f := w.files[key]
	if f != nil && f.open {
		return nil, nil
	}
	if deleted {
		if f == nil {
			return nil, nil
		}
		p := w.packageOf(key)
		w.remove(f)
		if p != nil && len(p.files) > 0 {
			return p, f
		}
		return nil, f
	}
	if !w.inFolder(key) {
		return nil, nil
	}
	text, err := load.ReadText(key, load.DefaultMaxFileSize)
	if err != nil {
		return nil, nil
	}
	if f != nil {
		f.setText(text)
		p := w.packageOf(key)
		p.result = nil
		return p, nil
	}
	return w.loadDir(filepath.Dir(key), []string{key}), nil
}

// check returns the package's current result, checking it if a file
// changed: only the changed files are parsed again.
func (w *workspace) check(p *pkg) *result {
	if p.result != nil {
		return p.result
	}
	files := make([]*ast.File, len(p.files))
	var stale []int
	for i, f := range p.files {
		if files[i] = f.ast; files[i] == nil {
			stale = append(stale, i)
		}
	}
	if len(stale) > 1 {
		in := make([]syntax.Source, len(stale))
		for k, i := range stale {
			in[k] = syntax.Source{Name: p.files[i].key, Text: p.files[i].text}
		}
		for k, r := range syntax.ParseFiles(in) {
			files[stale[k]] = r.File
			p.files[stale[k]].setSyntax(r.File, r.Diags)
		}
	}
	srcs := make([]check.SourceFile, len(p.files))
	var large []string
	for i, f := range p.files {
		if files[i] == nil {
			files[i] = f.syntax()
		}
		f.prepare(w.enc)
		srcs[i] = check.SourceFile{AST: files[i], Diags: f.diags}
		if f.large() {
			large = append(large, f.key)
		}
	}
	var cp *check.Package
	var ds diag.Diagnostics
	if len(large) > 0 {
		p.cache = check.Cache{} // it would keep the large files' trees
		cp, ds = check.CheckSources(p.dir, srcs)
	} else {
		cp, ds = p.cache.Check(p.dir, srcs)
	}
	// The project's gramc.json applies, as it does to gramc check; the
	// editor's own targets setting, when given, overrides its targets.
	cfg := w.configOf(p.dir)
	if targets := w.targetsOf(p.dir); len(targets) > 0 {
		ds = append(ds, schema.Lint(cp, targets)...)
		ds.Sort()
	}
	rev := w.baseline
	if rev == "" && cfg != nil {
		rev = cfg.Baseline
	}
	if rev != "" && !w.untrusted {
		ds = append(ds, w.baselineChanges(p.dir, rev, cp)...)
		ds.Sort()
	}
	ds = cfg.Apply(check.Suppress(files, ds, w.known), nil)
	r := &result{pkg: cp, byFile: map[string]diag.Diagnostics{}}
	for _, d := range ds {
		r.byFile[d.Range.File] = append(r.byFile[d.Range.File], d)
	}
	if len(large) > 0 {
		r.letGoOf(large)
	}
	p.result = r
	return r
}

// doc returns the file with the given URI and its package's current
// result. The file must be known: a request for a document the server has
// never seen is an error.
func (w *workspace) doc(u uri.URI) (*file, *pkg, *result, error) {
	key := keyOf(u)
	f := w.files[key]
	p := w.packageOf(key)
	if f == nil || p == nil {
		return nil, nil, nil, errUnknownDocument{u}
	}
	r := w.check(p)
	return f, p, r, nil
}

type errUnknownDocument struct{ u uri.URI }

func (e errUnknownDocument) Error() string {
	return fmt.Sprintf("unknown document %s: open it first (textDocument/didOpen) or put it in a workspace folder", e.u)
}

// lookup returns the file with key (for related information and locations
// in other files of a package).
func (w *workspace) lookup(key string) *file {
	f := w.files[key]
	if f != nil {
		f.prepare(w.enc)
	}
	return f
}

// setEncoding changes the position encoding: every mapper is rebuilt.
func (w *workspace) setEncoding(enc encoding) {
	w.enc = enc
	for _, f := range w.files {
		f.m = nil
	}
}

// index returns the result's navigation index, built on first use.
// A result never changes once made (the trees and the checked model are
// read-only), so its index may be built without the server's lock.
func (r *result) index() *index {
	r.idxOnce.Do(func() { r.idx = buildIndex(r.pkg) })
	return r.idx
}

// letGoOf builds the index now, walking the named files whole, and then
// lets go of their syntax trees (keepTreeBytes): the index and the model
// keep no pointer into them.
func (r *result) letGoOf(names []string) {
	x := r.index()
	for _, name := range names {
		if fi := x.file(name); fi != nil {
			fi.tree, fi.inDecl = nil, nil
		}
	}
	x.w.fi = nil
	light := *r.pkg
	light.Files = slices.Clone(light.Files)
	for i, f := range light.Files {
		if f != nil && slices.Contains(names, f.Name) {
			light.Files[i] = nil
		}
	}
	r.pkg = &light
	for _, fi := range x.files {
		if !fi.built {
			return
		}
	}
	x.w = nil // every file is walked: the walker's tables are not needed again
}
