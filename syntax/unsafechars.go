package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// maxUnsafeReports bounds the unsafe-character warnings of one file (a
// run of such characters is one).
const maxUnsafeReports = 100

// unsafeCharacters warns of each run of characters in text that do not
// show as what they are (termsafe.Unsafe: control characters but tab,
// newline and carriage return; the bidirectional controls and the
// invisible characters): a terminal obeys an escape sequence (`cat`
// clears the screen), an editor reorders the text around a
// right-to-left override, so a reader sees a name or a string that is
// not what the file holds (Trojan Source, CVE-2021-42574). Each warning's
// fix removes the run. A byte-order mark that starts the file is not one.
func unsafeCharacters(filename string, src *ast.Source, text string) diag.Diagnostics {
	var ds diag.Diagnostics
	for i := 0; i < len(text); {
		c := text[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 || !termsafe.Unsafe(r) || i == 0 && r == '\uFEFF' || r == '\t' || r == '\n' || r == '\r' {
			i += size
			continue
		}
		start := i
		var runes []rune
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == '\t' || r == '\n' || r == '\r' || !termsafe.Unsafe(r) {
				break
			}
			runes = append(runes, r)
			i += size
		}
		if len(ds) == maxUnsafeReports {
			continue // counted no further: the first ones say it
		}
		rng := ast.Range{File: filename, Start: src.Position(start), End: src.Position(i)}
		ds = append(ds, &diag.Diagnostic{
			Severity: diag.Warning,
			Code:     diag.CodeUnsafeCharacter,
			Summary:  describeUnsafe(runes),
			Detail:   "It does not show as what it is: a terminal obeys a control character (ESC clears the screen, moves the cursor), an editor or a review reorders the text around a bidirectional control, and an invisible one makes two different names look alike, so a reader sees text that is not what the file holds (Trojan Source). Remove it (the fix does, gramc check --fix=all); gram strings have no escape for it, so a value that must hold it cannot be written in a .gram file.",
			Range:    rng,
			Fix:      []diag.Edit{{Range: rng, NewText: ""}},
		})
	}
	return ds
}

// describeUnsafe names a run of unsafe characters: "the control
// character U+001B (ESC)", "2 characters, U+202E and U+2066".
func describeUnsafe(runes []rune) string {
	kind := "a control character"
	for _, r := range runes {
		switch {
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			kind = "a bidirectional control"
		case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0x2028, r == 0x2029:
			if kind != "a bidirectional control" {
				kind = "an invisible character"
			}
		}
	}
	var codes []string
	for i, r := range runes {
		if i == 3 {
			codes = append(codes, fmt.Sprintf("... (%d in all)", len(runes)))
			break
		}
		codes = append(codes, fmt.Sprintf("U+%04X", r))
	}
	if len(runes) == 1 {
		return fmt.Sprintf("%s, %s, in the source", kind, codes[0])
	}
	return fmt.Sprintf("%d characters that do not show as themselves (%s, %s)", len(runes), kind[strings.IndexByte(kind, ' ')+1:], strings.Join(codes, " "))
}
