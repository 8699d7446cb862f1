package diag

import "github.com/gramc-dev/gramc/internal/suggest"

// Suggest returns the candidate closest to name by edit distance, or ""
// when none is close enough to be a plausible misspelling
// (internal/suggest, the one implementation gramc has).
func Suggest(name string, candidates []string) string { return suggest.Closest(name, candidates) }
