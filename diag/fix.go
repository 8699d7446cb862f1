package diag

import (
	"bytes"
	"slices"
)

// ApplyFixes applies fixes to src, each fix (one diagnostic's Edits)
// whole or not at all: a fix that overlaps one already taken, or reaches
// outside src, is left for a later run. gramc check --fix and the
// playground's fix buttons apply fixes through it.
func ApplyFixes(src []byte, fixes [][]Edit) []byte {
	type span struct{ start, end int }
	var taken []span
	var edits []Edit
	overlaps := func(a span) bool {
		for _, b := range taken {
			if a.start < b.end && b.start < a.end || a.start == b.start {
				return true
			}
		}
		return false
	}
next:
	for _, fix := range fixes {
		var spans []span
		for _, ed := range fix {
			sp := span{int(ed.Range.Start.Offset), int(ed.Range.End.Offset)}
			if sp.start < 0 || sp.start > sp.end || sp.end > len(src) || overlaps(sp) {
				continue next
			}
			spans = append(spans, sp)
		}
		taken = append(taken, spans...)
		edits = append(edits, fix...)
	}
	slices.SortStableFunc(edits, func(a, b Edit) int { return int(a.Range.Start.Offset - b.Range.Start.Offset) })
	var out bytes.Buffer
	last := 0
	for _, ed := range edits {
		start, end := int(ed.Range.Start.Offset), int(ed.Range.End.Offset)
		out.Write(src[last:start])
		out.WriteString(ed.NewText)
		last = end
	}
	out.Write(src[last:])
	return out.Bytes()
}
