package diag

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/gramc-dev/gramc/ast"
)

// Span is a range as gramc's JSON writes it: 1-based lines and columns
// counting characters, the end exclusive. WriteJSON's diagnostics and
// their related places, and the compiler's MCP tools' diagnostics and
// edits, embed it.
type Span struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
}

// SpanOf is r as a Span in file (r.File's own place is not read, so a
// caller can name the file relative to its root): the end falls back to
// the start when r has no end.
func SpanOf(file string, r ast.Range) Span {
	sp := Span{File: file}
	sp.Line, sp.Column, sp.EndLine, sp.EndColumn = bounds(r)
	return sp
}

// jsonDiagnostic is one element of WriteJSON's array.
type jsonDiagnostic struct {
	Span
	Severity   string        `json:"severity"`
	Code       string        `json:"code"`
	Message    string        `json:"message"`
	Detail     string        `json:"detail"`
	Suggestion string        `json:"suggestion,omitempty"`
	Related    []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	Span
	Message string `json:"message"`
}

// bounds returns 1-based start and end line/column of r; the end is
// exclusive (the column just after the last character) and falls back to
// the start when r has no end.
func bounds(r ast.Range) (line, col, endLine, endCol int) {
	line, col = int(max(r.Start.Line, 1)), int(max(r.Start.Column, 1))
	endLine, endCol = int(r.End.Line), int(r.End.Column)
	if !r.End.IsValid() || endLine < line || (endLine == line && endCol < col) {
		endLine, endCol = line, col
	}
	return line, col, endLine, endCol
}

// WriteJSON writes diagnostics as an indented JSON array (`[]` when there
// are none) followed by a newline. Lines and columns are 1-based and count
// characters; endColumn is exclusive. The array is streamed, one element
// at a time, so memory does not grow with the number of diagnostics; the
// bytes are those of json.MarshalIndent of the whole array.
func WriteJSON(w io.Writer, ds Diagnostics) error {
	bw := bufio.NewWriter(w)
	if len(ds) == 0 {
		bw.WriteString("[]\n")
		return bw.Flush()
	}
	bw.WriteString("[\n")
	for i, d := range ds {
		j := jsonDiagnostic{
			Span:       SpanOf(d.Range.File, d.Range),
			Severity:   d.Severity.String(),
			Code:       string(d.Code),
			Message:    d.Summary,
			Detail:     d.Detail,
			Suggestion: d.Suggestion,
		}
		for _, r := range d.Related {
			j.Related = append(j.Related, jsonRelated{Span: SpanOf(r.Range.File, r.Range), Message: r.Message})
		}
		b, err := json.MarshalIndent(j, "  ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("  ")
		bw.Write(b)
		if i < len(ds)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}
