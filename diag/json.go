package diag

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/gramc-dev/gramc/ast"
)

// jsonDiagnostic is one element of WriteJSON's array.
type jsonDiagnostic struct {
	File       string        `json:"file"`
	Line       int           `json:"line"`
	Column     int           `json:"column"`
	EndLine    int           `json:"endLine"`
	EndColumn  int           `json:"endColumn"`
	Severity   string        `json:"severity"`
	Code       string        `json:"code"`
	Message    string        `json:"message"`
	Detail     string        `json:"detail"`
	Suggestion string        `json:"suggestion,omitempty"`
	Related    []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Message   string `json:"message"`
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
			File:       d.Range.File,
			Severity:   d.Severity.String(),
			Code:       string(d.Code),
			Message:    d.Summary,
			Detail:     d.Detail,
			Suggestion: d.Suggestion,
		}
		j.Line, j.Column, j.EndLine, j.EndColumn = bounds(d.Range)
		for _, r := range d.Related {
			jr := jsonRelated{File: r.Range.File, Message: r.Message}
			jr.Line, jr.Column, jr.EndLine, jr.EndColumn = bounds(r.Range)
			j.Related = append(j.Related, jr)
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

// Bounds returns the 1-based start and end line and column of r, as
// WriteJSON writes them: the end exclusive, the start when r has no end.
func Bounds(r ast.Range) (line, col, endLine, endCol int) { return bounds(r) }
