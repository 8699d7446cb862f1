// Package diag holds gramc's diagnostics: positioned, coded messages that say
// what is wrong and how to fix it, and the writers that print them.
package diag

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/ast"
)

// Severity is how serious a diagnostic is.
type Severity int

const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Code is a stable, documented diagnostic code (see docs/diagnostics.md).
// Codes are append-only: once published, a code keeps its meaning.
type Code string

// Related is a secondary location that helps explain a diagnostic, such as
// the other declaration in a conflict.
type Related struct {
	Range   ast.Range
	Message string
}

// Diagnostic is one problem found in a source file.
type Diagnostic struct {
	Severity Severity
	Code     Code
	// Summary is a short phrase without a full stop ("unknown type label").
	Summary string
	// Detail is whole sentences that say how to fix it (may be empty).
	Detail string
	Range  ast.Range
	// Related points at other places that matter (may be empty).
	Related []Related
	// Suggestion is the replacement the user most likely meant, e.g. the
	// "String" of `did you mean "String"?` (may be empty).
	Suggestion string
	// Fix, when set, is the change that applies Suggestion where it is
	// not simply Suggestion in place of Range (see Edits): edits of the
	// diagnostic's file that do not overlap.
	Fix []Edit
}

// An Edit replaces the text of Range with NewText.
type Edit struct {
	Range   ast.Range
	NewText string
}

// Edits returns the change that applies the diagnostic's suggestion: Fix,
// or else Suggestion in place of Range; nil when there is none. An
// editor's quick fix applies it; a test applies it and checks again.
func (d *Diagnostic) Edits() []Edit {
	switch {
	case d.Fix != nil:
		return d.Fix
	case d.Suggestion != "":
		return []Edit{{Range: d.Range, NewText: d.Suggestion}}
	}
	return nil
}

// WithDetail sets the diagnostic's detail (the sentences that say how to
// fix it) and returns the diagnostic, for reporting in one expression.
func (d *Diagnostic) WithDetail(detail string) *Diagnostic {
	d.Detail = detail
	return d
}

// Error formats the diagnostic as "file:line:col: severity: summary [code]".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Range.String())
	b.WriteString(": ")
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(d.Summary)
	if d.Code != "" {
		fmt.Fprintf(&b, " [%s]", d.Code)
	}
	return b.String()
}

// Diagnostics is a list of diagnostics.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the error diagnostics.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders diagnostics by file, then position, then code and summary, so
// output is deterministic.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Range.File != b.Range.File {
			return a.Range.File < b.Range.File
		}
		if a.Range.Start.Offset != b.Range.Start.Offset {
			return a.Range.Start.Offset < b.Range.Start.Offset
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Summary < b.Summary
	})
}

// Err returns ds as an error when it holds at least one error, else nil.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return ErrorList(ds.Errors())
}

// ErrorList is a Diagnostics used as an error value.
type ErrorList Diagnostics

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}
