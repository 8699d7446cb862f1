package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

func (s *server) Formatting(ctx context.Context, params *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.TextEdit, error) {
		out, ok := formatted(f)
		if !ok {
			return []protocol.TextEdit{}, nil // a file with syntax errors is left as it is, as gofmt does
		}
		return minimalEdit(f, out, 0, len(f.text)), nil
	})
}

// formatted is the file as `gramc fmt` writes it, and whether it could be
// formatted (a file with syntax errors cannot).
func formatted(f *file) ([]byte, bool) {
	out, ds := syntax.FormatSource(f.key, []byte(f.text))
	if ds.HasErrors() {
		return nil, false
	}
	return out, true
}

// minimalEdit is the one edit that turns the file's text into out, as
// small as the common prefix and suffix allow (a cursor outside it stays
// put), restricted to edits that lie within [from, to) of the old text.
func minimalEdit(f *file, out []byte, from, to int) []protocol.TextEdit {
	src := f.text
	pre := 0
	for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
		pre++
	}
	suf := 0
	for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
		suf++
	}
	if pre == len(src) && pre == len(out) {
		return []protocol.TextEdit{}
	}
	start, end := pre, len(src)-suf
	if start < from || end > to {
		return nil
	}
	return []protocol.TextEdit{{Range: f.m.rng(start, end), NewText: string(out[pre : len(out)-suf])}}
}

// RangeFormatting formats the top-level patterns that overlap the range:
// each is replaced by its text in the formatted file (formatting never
// adds, removes or reorders top-level patterns).
func (s *server) RangeFormatting(ctx context.Context, params *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.TextEdit, error) {
		from, to, err := offsetsOf(f, params.Range)
		if err != nil {
			return nil, err
		}
		out, ok := formatted(f)
		if !ok {
			return []protocol.TextEdit{}, nil
		}
		before := f.syntax()
		after, ds := syntax.ParseFile(f.key, out)
		if ds.HasErrors() || len(after.Patterns) != len(before.Patterns) {
			return []protocol.TextEdit{}, nil
		}
		edits := []protocol.TextEdit{}
		for i, pat := range before.Patterns {
			s0, e0 := pat.Offsets()
			if e0 < from || s0 > to {
				continue
			}
			s1, e1 := after.Patterns[i].Offsets()
			// The pattern's line, from its indentation: formatting may
			// change that too.
			ls0, ls1 := lineStartOf(f.text, s0), lineStartOf(out, s1)
			if !onlySpace(f.text[ls0:s0]) || !onlySpace(out[ls1:s1]) {
				ls0, ls1 = s0, s1
			}
			if f.text[ls0:e0] != string(out[ls1:e1]) {
				edits = append(edits, protocol.TextEdit{Range: f.m.rng(ls0, e0), NewText: string(out[ls1:e1])})
			}
		}
		return edits, nil
	})
}

func lineStartOf[T string | []byte](src T, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func onlySpace[T string | []byte](b T) bool {
	for _, c := range []byte(b) {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// CodeAction offers, for each diagnostic at the range, its suggestion as
// a quick fix and, for a warning, a `// gramc:ignore` comment.
func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.CommandOrCodeAction, error) {
		from, to, err := offsetsOf(f, params.Range)
		if err != nil {
			return nil, err
		}
		out := []protocol.CommandOrCodeAction{}
		if len(params.Context.Only) > 0 && !wantsQuickFix(params.Context.Only) {
			return out, nil
		}
		quickfix := protocol.CodeActionKindQuickFix
		for _, d := range r.byFile[f.key] {
			s0, e0 := int(d.Range.Start.Offset), int(d.Range.End.Offset)
			if e0 < from || s0 > to {
				continue
			}
			pd := s.toProtocol(f, d)
			if es := d.Edits(); len(es) > 0 && sameFile(es, f.key) {
				preferred := true
				out = append(out, &protocol.CodeAction{
					Title:       fixTitle(d, es),
					Kind:        &quickfix,
					Diagnostics: []protocol.Diagnostic{pd},
					IsPreferred: &preferred,
					Edit:        s.workspaceEdit(f, es),
				})
			}
			if d.Severity == diag.Warning && d.Code != diag.CodeUnusedIgnore {
				if e, ok := ignoreEdit(f, d); ok {
					out = append(out, &protocol.CodeAction{
						Title:       fmt.Sprintf("Ignore %s on this line (// gramc:ignore)", d.Code),
						Kind:        &quickfix,
						Diagnostics: []protocol.Diagnostic{pd},
						Edit:        s.workspaceEdit(f, []diag.Edit{e}),
					})
				}
			}
		}
		return out, nil
	})
}

func wantsQuickFix(only []protocol.CodeActionKind) bool {
	for _, k := range only {
		if k == protocol.CodeActionKindQuickFix || strings.HasPrefix(string(protocol.CodeActionKindQuickFix), string(k)+".") || k == "" {
			return true
		}
	}
	return false
}

func sameFile(es []diag.Edit, file string) bool {
	for _, e := range es {
		if e.Range.File != file {
			return false
		}
	}
	return true
}

// fixTitle names a quick fix by what it writes.
func fixTitle(d *diag.Diagnostic, es []diag.Edit) string {
	text := es[len(es)-1].NewText // the replacement, after any declaration it needs
	if len(text) > 60 || strings.Contains(text, "\n") {
		text, _, _ = strings.Cut(text, "\n")
		if len(text) > 60 {
			text = text[:57] + "..."
		}
	}
	return fmt.Sprintf("Change to %s (%s)", text, d.Code)
}

// ignoreEdit writes `// gramc:ignore CODE -- reason` alone on the line
// before the diagnostic, indented as that line; when a suppression comment
// is already there, the code joins its list.
func ignoreEdit(f *file, d *diag.Diagnostic) (diag.Edit, bool) {
	src := f.text
	start := int(d.Range.Start.Offset)
	ls := lineStartOf(src, start)
	indent := ls
	for indent < len(src) && (src[indent] == ' ' || src[indent] == '\t') {
		indent++
	}
	if ls > 0 {
		prev := lineStartOf(src, ls-1)
		line := strings.TrimSpace(src[prev : ls-1])
		if rest, ok := strings.CutPrefix(line, "// gramc:ignore "); ok {
			codes, reason, _ := strings.Cut(rest, "--")
			at := prev + strings.Index(src[prev:ls], "// gramc:ignore ") + len("// gramc:ignore ") + len(strings.TrimRight(codes, " \t"))
			_ = reason
			return diag.Edit{Range: spanRange(f.key, at, at), NewText: "," + string(d.Code)}, true
		}
	}
	text := src[ls:indent] + "// gramc:ignore " + string(d.Code) + " -- reason\n"
	return diag.Edit{Range: spanRange(f.key, ls, ls), NewText: text}, true
}

// spanRange is a byte span of file as an ast.Range (offsets only).
func spanRange(file string, start, end int) ast.Range {
	return ast.Range{File: file, Start: ast.Pos{Offset: int32(start)}, End: ast.Pos{Offset: int32(end)}}
}

// workspaceEdit converts edits of f.
func (s *server) workspaceEdit(f *file, es []diag.Edit) *protocol.WorkspaceEdit {
	var tes []protocol.TextEdit
	for _, e := range es {
		tes = append(tes, protocol.TextEdit{Range: f.m.rng(int(e.Range.Start.Offset), int(e.Range.End.Offset)), NewText: e.NewText})
	}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{f.uri: tes}}
}
