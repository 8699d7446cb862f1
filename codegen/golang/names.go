package golang

import (
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/codegen/model"
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
	for _, w := range model.Words(name) {
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

// goNaming is Go's naming table (codegen/model).
var goNaming = &model.Naming{
	Language: "Go",
	Ident:    exportedName,
	Rule:     "Go identifiers drop '_', '-', '.', '@' and spaces and capitalise words",
}

// newNamer returns a namer of Go names for one scope.
func newNamer(scope string, report func(*diag.Diagnostic), reserved ...string) *model.Namer {
	return model.NewNamer(goNaming, scope, report, reserved...)
}

// packageReserved are the package-level names the generated code itself
// declares, which no gram name takes (docs/codegen.md lists them).
var packageReserved = []string{"Tools", "NewToolLibrary", StubsType}

// one is the derive function for a single name.
var one = model.One
