package golang

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// exportedName derives an exported Go identifier from a gram name. Runs of
// characters that cannot appear in a Go identifier (`_`, `-`, `.`, `@`,
// spaces, anything else) separate words, as does a lower-case letter or
// digit followed by an upper-case one; each word starts with an upper-case
// letter ("get_weather", "get-weather" and "getWeather" all give
// "GetWeather"), and a word that is one of Go's initialisms is written in
// capitals as Go code writes it ("member_id" and "memberId" give
// "MemberID", "image_urls" gives "ImageURLs"). A name that does not then
// start with an upper-case letter (a leading digit, a letter without case)
// gets the prefix "X"; a name with no letter or digit at all gives "". Go
// keywords are all lower case, so an exported name is never a keyword.
func exportedName(name string) string {
	var b strings.Builder
	for _, w := range nameWords(name) {
		if up, ok := initialism(w); ok {
			b.WriteString(up)
			continue
		}
		first, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(first))
		b.WriteString(w[size:])
	}
	s := b.String()
	if s == "" {
		return ""
	}
	if first, _ := utf8.DecodeRuneInString(s); !unicode.IsUpper(first) {
		s = "X" + s
	}
	if !token.IsIdentifier(s) || !token.IsExported(s) {
		return ""
	}
	return s
}

// nameWords splits a gram name into words: at every run of characters that
// are not letters or digits (or are '_'), and where a lower-case letter or
// a digit is followed by an upper-case letter ("memberId" is "member",
// "Id"; "HTTPServer" stays one word).
func nameWords(name string) []string {
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

// goInitialisms are the words Go code writes in capitals (the list of
// golint and staticcheck's ST1003).
var goInitialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true,
}

// initialism returns the word as Go writes it when it is an initialism,
// or one in the plural ("ids" gives "IDs").
func initialism(word string) (string, bool) {
	up := strings.ToUpper(word)
	if goInitialisms[up] {
		return up, true
	}
	if n := len(word); n > 2 && (word[n-1] == 's') && goInitialisms[up[:n-1]] {
		return up[:n-1] + "s", true
	}
	return "", false
}

// packageName derives a Go package name from a gram package name: invalid
// characters become "_", a leading digit gets the prefix "x", a keyword (or
// "init") gets the suffix "_", and nothing usable gives "gram".
func packageName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" {
		return "gram"
	}
	if first, _ := utf8.DecodeRuneInString(s); unicode.IsDigit(first) {
		s = "x" + s
	}
	if token.IsKeyword(s) || s == "init" {
		s += "_"
	}
	if !token.IsIdentifier(s) {
		return "gram"
	}
	return s
}

// fileName derives the generated file's name, "<name>.gram.go", from a gram
// package name. Only letters, digits, "_" and "-" survive; a leading "_" or
// "." (which would make the go tool ignore the file) is dropped.
func fileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_'):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), "_-.")
	if s == "" {
		s = "gram"
	}
	return s + ".gram.go"
}

// namer hands out unique identifiers in one scope (the package, or one
// struct's fields). Names are allocated in a fixed order, so the result is
// deterministic: the first claimant of a name keeps it, a later one gets
// the smallest free numeric suffix (FooBar2, FooBar3, ...) and a warning.
type namer struct {
	owner map[string]claim
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

// packageReserved are the package-level names the generated code itself
// declares, which no gram name takes (docs/codegen.md lists them).
var packageReserved = []string{"Tools", "NewToolLibrary", StubsType}

func newNamer(scope string, report func(*diag.Diagnostic), reserved ...string) *namer {
	n := &namer{owner: map[string]claim{}, scope: scope, report: report}
	for _, r := range reserved {
		n.owner[r] = claim{fixed: true}
	}
	return n
}

// free reports whether every name in names is unclaimed.
func (n *namer) free(names ...string) bool {
	for _, s := range names {
		if _, ok := n.owner[s]; ok {
			return false
		}
	}
	return true
}

// take claims the names derive(base) for the gram name gram, where base is
// exportedName(gram) (or fallback when gram has no letter or digit), adding
// a numeric suffix to base until all derived names are free. It returns the
// base used.
func (n *namer) take(gram string, rng ast.Range, fallback string, derive func(base string) []string) string {
	base := exportedName(gram)
	if base == "" {
		base = fallback
	}
	return n.takeBase(gram, base, rng, derive)
}

// takeBase is take with the natural base already derived.
func (n *namer) takeBase(gram, base string, rng ast.Range, derive func(base string) []string) string {
	chosen := base
	for i := 2; !n.free(derive(chosen)...); i++ {
		chosen = base + strconv.Itoa(i)
	}
	if chosen != base && n.report != nil {
		// Find who holds the natural name, to point at it.
		var holder claim
		var taken string
		for _, s := range derive(base) {
			if c, ok := n.owner[s]; ok {
				holder, taken = c, s
				break
			}
		}
		d := &diag.Diagnostic{
			Severity: diag.Warning,
			Code:     diag.CodeGenNameCollision,
			Range:    rng,
		}
		switch {
		case holder.fixed:
			d.Summary = fmt.Sprintf("Go name %s of %q is reserved in the %s; using %s", taken, gram, n.scope, chosen)
			d.Detail = fmt.Sprintf("The generated code always declares %s. Rename %q to choose a different Go name.", taken, gram)
		case taken == base || holder.base == base:
			d.Summary = fmt.Sprintf("%q and %q both map to Go name %s in the %s; %q becomes %s", holder.gram, gram, base, n.scope, gram, chosen)
			d.Detail = fmt.Sprintf("Go identifiers drop '_', '-', '.', '@' and spaces and capitalise words, so both names give %s. The first declared keeps it; rename one of them to avoid the numeric suffix.", base)
		default:
			d.Summary = fmt.Sprintf("Go name %s needed for %q is taken by %q in the %s; %q becomes %s", taken, gram, holder.gram, n.scope, gram, chosen)
			d.Detail = fmt.Sprintf("The code generated for %q declares %s, which %q already uses. Rename one of them to avoid the numeric suffix.", gram, strings.Join(derive(base), ", "), holder.gram)
		}
		if !holder.fixed && (holder.rng.File != "" || holder.rng.Start.IsValid()) {
			d.Related = []diag.Related{{Range: holder.rng, Message: fmt.Sprintf("%q declared here", holder.gram)}}
		}
		n.report(d)
	}
	for _, s := range derive(chosen) {
		n.owner[s] = claim{gram: gram, base: chosen, rng: rng}
	}
	return chosen
}

// one is the derive function for a single name.
func one(base string) []string { return []string{base} }
