package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/diag"
)

// diagnosticsLocked checks p and returns what to publish: every file of
// the package with its diagnostics, and an empty list for a file that
// showed some last time and has none now; the open files come last, so a
// client that has the new version of an open file has the rest of its
// package's too. s.mu must be held.
func (s *server) diagnosticsLocked(p *pkg) []*protocol.PublishDiagnosticsParams {
	r := s.ws.check(p)
	var out, open []*protocol.PublishDiagnosticsParams
	for _, f := range p.files {
		ds := r.byFile[f.key]
		if len(ds) == 0 && !p.shown[f.key] && !f.open {
			continue
		}
		f.prepare(s.ws.enc)
		params := &protocol.PublishDiagnosticsParams{URI: f.uri, Diagnostics: make([]protocol.Diagnostic, 0, len(ds))}
		if f.open {
			params.Version = protocol.NewOptional(f.version)
		}
		for _, d := range ds {
			params.Diagnostics = append(params.Diagnostics, s.toProtocol(f, d))
		}
		p.shown[f.key] = len(ds) > 0
		if f.open {
			open = append(open, params)
		} else {
			out = append(out, params)
		}
	}
	return append(out, open...)
}

// toProtocol converts one diagnostic of file f: code, a link to its
// documentation, related places (in any file of the package) and tags.
func (s *server) toProtocol(f *file, d *diag.Diagnostic) protocol.Diagnostic {
	msg := d.Summary
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	pd := protocol.Diagnostic{
		Range:    f.m.rng(int(d.Range.Start.Offset), int(d.Range.End.Offset)),
		Severity: severity(d.Severity),
		Source:   protocol.NewOptional("gramc"),
		Message:  protocol.String(msg),
	}
	if d.Code != "" {
		pd.Code = protocol.String(string(d.Code))
		if info, ok := diag.Lookup(d.Code); ok {
			if href := docLink(info); href != "" {
				pd.CodeDescription = protocol.CodeDescription{Href: href}
			}
		}
		switch diag.TagOf(d.Code) {
		case diag.Unnecessary:
			pd.Tags = protocol.NewDiagnosticTags(protocol.DiagnosticTagUnnecessary)
		case diag.Deprecated:
			pd.Tags = protocol.NewDiagnosticTags(protocol.DiagnosticTagDeprecated)
		}
	}
	for _, rel := range d.Related {
		g := f
		if rel.Range.File != f.key {
			g = s.ws.lookup(rel.Range.File)
		}
		if g == nil {
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: g.uri, Range: g.m.rng(int(rel.Range.Start.Offset), int(rel.Range.End.Offset))},
			Message:  rel.Message,
		})
	}
	return pd
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	if s == diag.Error {
		return protocol.DiagnosticSeverityError
	}
	return protocol.DiagnosticSeverityWarning
}
