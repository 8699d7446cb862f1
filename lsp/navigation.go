package lsp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// location is a span of a file of the package as a protocol location.
func (s *server) location(file string, start, end int) (protocol.Location, bool) {
	f := s.ws.lookup(file)
	if f == nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: f.uri, Range: f.m.rng(start, end)}, true
}

// appendLocation appends the place from start to end in file to locs,
// when the file is known.
func (s *server) appendLocation(locs []protocol.Location, file string, start, end int) []protocol.Location {
	if loc, ok := s.location(file, start, end); ok {
		return append(locs, loc)
	}
	return locs
}

// symbolAt is the symbol named at a request's position, if any.
func symbolAt(f *file, r *result, pos protocol.Position) (occurrence, bool, error) {
	off, err := offsetAt(f, pos)
	if err != nil {
		return occurrence{}, false, err
	}
	o, ok := r.index().at(f.key, off)
	return o, ok, nil
}

func (s *server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (protocol.DefinitionResult, error) {
		o, ok, err := symbolAt(f, r, params.Position)
		if err != nil || !ok || o.sym == nil {
			return protocol.LocationSlice{}, err
		}
		// Every declaration of the name: a duplicate shows both.
		targets := []*symbol{o.sym}
		if o.sym.kind.isTop() {
			targets = r.index().lookupTop(o.sym.name)
		}
		out := protocol.LocationSlice{}
		for _, t := range targets {
			out = s.appendLocation(out, t.file, t.name0, t.name1)
		}
		return out, nil
	})
}

func (s *server) References(ctx context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.Location, error) {
		o, ok, err := symbolAt(f, r, params.Position)
		out := []protocol.Location{}
		if err != nil || !ok || o.sym == nil {
			return out, err
		}
		for _, ref := range r.index().references(o.sym) {
			if ref.decl && !params.Context.IncludeDeclaration {
				continue
			}
			out = s.appendLocation(out, ref.file, int(ref.start), int(ref.end))
		}
		return out, nil
	})
}

// DocumentHighlight marks every use of the name under the cursor in its
// file (a tool, type, enum, parameter, label or built-in type): the
// declaration as a write, the uses as reads. Editors ask on every cursor
// move, so it reads only this file's part of the index.
func (s *server) DocumentHighlight(ctx context.Context, params *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.DocumentHighlight, error) {
		o, ok, err := symbolAt(f, r, params.Position)
		out := []protocol.DocumentHighlight{}
		if err != nil || !ok || (o.sym == nil && o.builtin == nil) {
			return out, err
		}
		for _, u := range r.index().file(f.key).occ {
			if (o.sym != nil && u.sym == o.sym) || (o.builtin != nil && u.builtin == o.builtin) {
				kind := protocol.DocumentHighlightKindRead
				if u.decl {
					kind = protocol.DocumentHighlightKindWrite
				}
				out = append(out, protocol.DocumentHighlight{Range: f.m.rng(int(u.start), int(u.end)), Kind: kind})
			}
		}
		return out, nil
	})
}

func (s *server) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (protocol.PrepareRenameResult, error) {
		o, ok, err := symbolAt(f, r, params.Position)
		if err != nil {
			return nil, err
		}
		if !ok || o.sym == nil {
			return nil, jsonrpcError(errNotRenamable)
		}
		rg := f.m.rng(int(o.start), int(o.end))
		return &protocol.PrepareRenamePlaceholder{Range: rg, Placeholder: o.sym.name}, nil
	})
}

var errNotRenamable = errors.New("only a declared name (a tool, agent, type, enum, test, parameter or field) can be renamed here")

func (s *server) Rename(ctx context.Context, params *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (*protocol.WorkspaceEdit, error) {
		o, ok, err := symbolAt(f, r, params.Position)
		if err != nil {
			return nil, err
		}
		if !ok || o.sym == nil {
			return nil, jsonrpcError(errNotRenamable)
		}
		name := params.NewName
		if !syntax.IsSymbol(name) {
			return nil, jsonrpcError(fmt.Errorf("%q is not a name: a name is a letter or _ followed by letters, digits, _, ., - or @", name))
		}
		if name == o.sym.name {
			return &protocol.WorkspaceEdit{}, nil
		}
		edits := map[string][]diag.Edit{}
		for _, ref := range r.index().references(o.sym) {
			edits[ref.file] = append(edits[ref.file], diag.Edit{NewText: name, Range: spanRange(ref.file, int(ref.start), int(ref.end))})
		}
		if err := s.refuseClash(p, r, edits, o.sym, name); err != nil {
			return nil, jsonrpcError(err)
		}
		we := &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{}}
		for file, es := range edits {
			g := s.ws.lookup(file)
			for _, e := range es {
				we.Changes[g.uri] = append(we.Changes[g.uri], protocol.TextEdit{Range: g.m.rng(int(e.Range.Start.Offset), int(e.Range.End.Offset)), NewText: e.NewText})
			}
		}
		return we, nil
	})
}

// refuseClash applies a rename to a copy of the package and checks it: a
// rename that makes a new error (a name declared twice, a parameter that
// clashes with another, a tool name a provider rejects) is refused with
// the checker's own words. The checker is the one place that knows what
// clashes.
func (s *server) refuseClash(p *pkg, r *result, edits map[string][]diag.Edit, sym *symbol, name string) error {
	srcs := make([]check.SourceFile, len(p.files))
	for i, f := range p.files {
		if es := edits[f.key]; len(es) > 0 {
			t, ds := syntax.ParseString(f.key, applyEdits(f.text, es))
			srcs[i] = check.SourceFile{AST: t, Diags: ds}
			continue
		}
		srcs[i] = check.SourceFile{AST: f.syntax(), Diags: f.diags}
	}
	_, after := check.CheckSources(p.dir, srcs)
	before := map[string]int{}
	for _, ds := range r.byFile {
		for _, d := range ds.Errors() {
			before[string(d.Code)]++
		}
	}
	for _, d := range after.Errors() {
		if before[string(d.Code)] > 0 {
			before[string(d.Code)]--
			continue
		}
		return fmt.Errorf("cannot rename %s %s to %s: %s", sym.kind, sym.name, name, d.Summary)
	}
	return nil
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src string, es []diag.Edit) string {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b diag.Edit) int { return int(a.Range.Start.Offset - b.Range.Start.Offset) })
	var out strings.Builder
	at := 0
	for _, e := range es {
		s, t := int(e.Range.Start.Offset), int(e.Range.End.Offset)
		if s < at || t > len(src) || t < s {
			continue
		}
		out.WriteString(src[at:s])
		out.WriteString(e.NewText)
		at = t
	}
	out.WriteString(src[at:])
	return out.String()
}

func (s *server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (protocol.DocumentSymbolResult, error) {
		fi := r.index().file(f.key)
		out := protocol.DocumentSymbolSlice{}
		if fi == nil {
			return out, nil
		}
		byParent := map[*symbol]*protocol.DocumentSymbol{}
		var top []*symbol
		for _, sym := range fi.decls {
			if sym.parent == nil {
				top = append(top, sym)
			}
		}
		build := func(sym *symbol) protocol.DocumentSymbol {
			ds := protocol.DocumentSymbol{
				Name:           sym.name,
				Kind:           sym.kind.facts().symbol,
				Range:          f.m.rng(sym.full0, sym.full1),
				SelectionRange: f.m.rng(sym.name0, sym.name1),
			}
			if d := detail(sym); d != "" {
				ds.Detail = &d
			}
			if sym.deprecated {
				ds.Tags = []protocol.SymbolTag{protocol.SymbolTagDeprecated}
			}
			return ds
		}
		for _, sym := range top {
			ds := build(sym)
			byParent[sym] = &ds
		}
		for _, sym := range fi.decls {
			if sym.parent != nil && byParent[sym.parent] != nil {
				parent := byParent[sym.parent]
				parent.Children = append(parent.Children, build(sym))
			}
		}
		for _, sym := range top {
			out = append(out, *byParent[sym])
		}
		return out, nil
	})
}

// detail is a symbol's one-line summary: a tool's signature, a
// parameter's type.
func detail(sym *symbol) string {
	switch {
	case sym.tool() != nil:
		return sym.tool().Signature
	case sym.param() != nil:
		return sym.param().Type.Name()
	case sym.agent() != nil:
		return sym.agent().Model
	case sym.test() != nil && sym.test().Agent != nil:
		return "test of " + sym.test().Agent.Name
	}
	return ""
}

func (s *server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := strings.ToLower(params.Query)
	out := protocol.SymbolInformationSlice{}
	keys := slices.Sorted(maps.Keys(s.ws.pkgs))
	for _, k := range keys {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r := s.ws.check(s.ws.pkgs[k])
		x := r.index()
		x.all()
		var syms []*symbol
		for _, fi := range x.files {
			syms = append(syms, fi.decls...)
		}
		slices.SortFunc(syms, func(a, b *symbol) int {
			if c := strings.Compare(a.file, b.file); c != 0 {
				return c
			}
			return a.name0 - b.name0
		})
		for _, sym := range syms {
			if !matches(strings.ToLower(sym.name), q) {
				continue
			}
			loc, ok := s.location(sym.file, sym.name0, sym.name1)
			if !ok {
				continue
			}
			si := protocol.SymbolInformation{Location: loc}
			si.Name, si.Kind = sym.name, sym.kind.facts().symbol
			if sym.parent != nil {
				c := sym.parent.name
				si.ContainerName = &c
			}
			out = append(out, si)
			if len(out) >= maxWorkspaceSymbols {
				return out, nil
			}
		}
	}
	return out, nil
}

// maxWorkspaceSymbols bounds a workspace/symbol answer.
const maxWorkspaceSymbols = 1000

// matches reports whether the letters of q appear in name in order (the
// fuzzy match editors use for symbol search).
func matches(name, q string) bool {
	for _, c := range q {
		i := strings.IndexRune(name, c)
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
	return true
}
