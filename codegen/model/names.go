package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// Naming is a language's naming table: how a gram name becomes an
// identifier of the language, and the words a collision warning uses.
type Naming struct {
	// Language names the language in warnings: "Go", "TypeScript".
	Language string
	// Ident derives the natural identifier of a gram name, "" when the
	// name gives none (no letter or digit).
	Ident func(gram string) string
	// Rule says, as a clause, why two gram names can give one
	// identifier: "Go identifiers drop '_', '-', '.', '@' and spaces and
	// capitalise words".
	Rule string
}

// Words splits a gram name into words: at every run of characters that
// are not letters or digits (or are '_'), and where a lower-case letter or
// a digit is followed by an upper-case letter ("memberId" is "member",
// "Id"; "HTTPServer" stays one word). Every language's Ident starts here.
func Words(name string) []string {
	var words []string
	start := -1
	prev := rune(0)
	for i, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r == '_' {
			if start >= 0 {
				words = append(words, name[start:i])
				start = -1
			}
			prev = 0
			continue
		}
		if start >= 0 && unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			words = append(words, name[start:i])
			start = i
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 {
		words = append(words, name[start:])
	}
	return words
}

// Namer hands out unique identifiers in one scope (the package, or one
// record's fields). Names are allocated in a fixed order, so the result is
// deterministic: the first claimant of a name keeps it, a later one gets
// the smallest free numeric suffix (FooBar2, FooBar3, ...) and a warning
// (diag.CodeGenNameCollision).
type Namer struct {
	naming *Naming
	owner  map[string]claim
	// scope describes the scope in warnings ("package", "type Foo").
	scope  string
	report func(*diag.Diagnostic)
}

type claim struct {
	gram  string // the gram name that took it ("" for a reserved name)
	base  string // the base the names were derived from
	rng   ast.Range
	fixed bool
}

// NewNamer returns a namer for one scope of naming's language, in which
// the reserved names are taken from the start (names the generated code
// declares itself, or the language's keywords). report, when not nil,
// receives the collision warnings.
func NewNamer(naming *Naming, scope string, report func(*diag.Diagnostic), reserved ...string) *Namer {
	n := &Namer{naming: naming, owner: map[string]claim{}, scope: scope, report: report}
	n.Reserve(reserved...)
	return n
}

// Reserve takes names from the start, as NewNamer's reserved do.
func (n *Namer) Reserve(names ...string) {
	for _, r := range names {
		n.owner[r] = claim{fixed: true}
	}
}

// Free reports whether every name in names is unclaimed.
func (n *Namer) Free(names ...string) bool {
	for _, s := range names {
		if _, ok := n.owner[s]; ok {
			return false
		}
	}
	return true
}

// Take claims the names derive(base) for the gram name gram, where base is
// the naming's Ident(gram) (or fallback when that is ""), adding a numeric
// suffix to base until all derived names are free. It returns the base
// used.
func (n *Namer) Take(gram string, rng ast.Range, fallback string, derive func(base string) []string) string {
	base := n.naming.Ident(gram)
	if base == "" {
		base = fallback
	}
	return n.TakeBase(gram, base, rng, derive)
}

// TakeBase is Take with the natural base already derived.
func (n *Namer) TakeBase(gram, base string, rng ast.Range, derive func(base string) []string) string {
	chosen := base
	for i := 2; !n.Free(derive(chosen)...); i++ {
		chosen = base + strconv.Itoa(i)
	}
	if chosen != base && n.report != nil {
		n.report(n.collision(gram, base, chosen, rng, derive))
	}
	for _, s := range derive(chosen) {
		n.owner[s] = claim{gram: gram, base: chosen, rng: rng}
	}
	return chosen
}

// collision is the warning for gram's natural base being taken.
func (n *Namer) collision(gram, base, chosen string, rng ast.Range, derive func(base string) []string) *diag.Diagnostic {
	// Find who holds the natural name, to point at it.
	var holder claim
	var taken string
	for _, s := range derive(base) {
		if c, ok := n.owner[s]; ok {
			holder, taken = c, s
			break
		}
	}
	lang := n.naming.Language
	d := &diag.Diagnostic{
		Severity: diag.Warning,
		Code:     diag.CodeGenNameCollision,
		Range:    rng,
	}
	switch {
	case holder.fixed:
		d.Summary = fmt.Sprintf("%s name %s of %q is reserved in the %s; using %s", lang, taken, gram, n.scope, chosen)
		d.Detail = fmt.Sprintf("The generated code always declares %s. Rename %q to choose a different %s name.", taken, gram, lang)
	case taken == base || holder.base == base:
		d.Summary = fmt.Sprintf("%q and %q both map to %s name %s in the %s; %q becomes %s", holder.gram, gram, lang, base, n.scope, gram, chosen)
		d.Detail = fmt.Sprintf("%s, so both names give %s. The first declared keeps it; rename one of them to avoid the numeric suffix.", n.naming.Rule, base)
	default:
		d.Summary = fmt.Sprintf("%s name %s needed for %q is taken by %q in the %s; %q becomes %s", lang, taken, gram, holder.gram, n.scope, gram, chosen)
		d.Detail = fmt.Sprintf("The code generated for %q declares %s, which %q already uses. Rename one of them to avoid the numeric suffix.", gram, strings.Join(derive(base), ", "), holder.gram)
	}
	if !holder.fixed && (holder.rng.File != "" || holder.rng.Start.IsValid()) {
		d.Related = []diag.Related{{Range: holder.rng, Message: fmt.Sprintf("%q declared here", holder.gram)}}
	}
	return d
}

// One is the derive function for a single name.
func One(base string) []string { return []string{base} }
