package lsp

import (
	"context"
	"strconv"
	"unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/syntax"
)

// SignatureHelp shows, while the cursor is in a tool's or an agent's signature, the
// whole curried signature with the node under the cursor active: a
// parameter's type, whether it is required and its description, or for
// the last node what the tool returns. The label is the signature as the
// checker writes it (check.Tool.Signature), each node a parameter of it.
func (s *server) SignatureHelp(ctx context.Context, params *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (*protocol.SignatureHelp, error) {
		off, err := offsetAt(f, params.Position)
		if err != nil {
			return nil, err
		}
		t, active := signatureAt(r.index(), f.key, off)
		if t == nil {
			return nil, nil
		}
		nodes := nodeSpans(t.Signature)
		if len(nodes) != len(t.Params)+1 {
			return nil, nil // (cannot happen) a signature the scan does not split
		}
		info := protocol.SignatureInformation{
			Label:           t.Signature,
			Documentation:   s.markup(t.Description),
			ActiveParameter: nullableIndex(active),
		}
		for i, n := range nodes {
			var doc string
			if i < len(t.Params) {
				q := t.Params[i]
				doc = q.Name + " — " + paramSummary(q)
				if q.Description != "" {
					doc += ". " + q.Description
				}
			} else {
				doc = "Returns " + typeName(t.Result) + "."
				if t.ResultDescription != "" {
					doc += " " + t.ResultDescription
				}
			}
			info.Parameters = append(info.Parameters, protocol.ParameterInformation{
				Label:         protocol.ParameterInformationLabelTuple{utf16Len(t.Signature[:n[0]]), utf16Len(t.Signature[:n[1]])},
				Documentation: s.markup(doc),
			})
		}
		zero := uint32(0)
		return &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{info}, ActiveSignature: &zero, ActiveParameter: nullableIndex(active)}, nil
	})
}

// signatureAt is the tool (or an agent's Signature) of file whose signature holds offset off, and
// the index of the node there: a parameter's, the next one's between two
// nodes, the return node's after the last parameter. The header of a tool
// (its name and properties) is not its signature; a tool without
// parameters has nothing to help with. Only the file's declarations are
// looked at (the index has them).
func signatureAt(x *index, file string, off int) (*check.Tool, int) {
	fi := x.file(file)
	if fi == nil {
		return nil, 0
	}
	for _, sym := range fi.decls {
		t := sym.tool()
		if a := sym.agent(); a != nil && a.HasSignature {
			t = a.Signature // its Range is the signature element's
		}
		if t == nil || len(t.Params) == 0 || t.Result == nil {
			continue
		}
		start, end := int(t.Params[0].Range.Start.Offset), int(t.Range.End.Offset)
		if off < start || off >= end {
			continue
		}
		for i, q := range t.Params {
			if off <= int(q.Range.End.Offset) {
				return t, i
			}
		}
		return t, len(t.Params)
	}
	return nil, 0
}

// nodeSpans is the byte spans of a canonical signature's nodes, as the
// parser finds them (nil for text that is not a path of nodes).
func nodeSpans(sig string) [][2]int {
	f, ds := syntax.ParseString("signature", sig)
	if ds.HasErrors() || len(f.Patterns) != 1 {
		return nil
	}
	var spans [][2]int
	for _, n := range pathNodes(f.Patterns) {
		start, end := n.Offsets()
		spans = append(spans, [2]int{start, end})
	}
	return spans
}

// utf16Len is the length of s in UTF-16 code units, the unit of a
// parameter label's offsets.
func utf16Len(s string) uint32 {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return uint32(n)
}

// nullableIndex is i as the protocol package's Nullable, which has no
// constructor outside its decoder.
func nullableIndex(i int) protocol.Nullable[uint32] {
	var n protocol.Nullable[uint32]
	_ = protocol.Unmarshal([]byte(strconv.Itoa(i)), &n)
	return n
}
