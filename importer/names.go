package importer

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// maxToolName is the longest tool name LLM providers accept.
const maxToolName = 64

// sanitizeTool makes a valid tool name: letters, digits, _ and -, at
// most 64.
func sanitizeTool(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" {
		s = "tool"
	}
	if len(s) > maxToolName {
		s = s[:maxToolName]
	}
	return s
}

// reserved are the names a :Type or :Enum cannot have: the built-in
// types and their aliases.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, b := range check.Builtins() {
		m[b.Name] = true
		for _, a := range b.Aliases {
			m[a] = true
		}
	}
	return m
}()

// sanitizeType makes a valid type name: any text without control
// characters, not a built-in type's name.
func sanitizeType(name string) string {
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || termsafe.Unsafe(r) {
			return '_'
		}
		return r
	}, name)
	if len(name) > 200 {
		name = name[:200]
	}
	name = strings.ToValidUTF8(name, "_")
	if name == "" {
		name = "Type"
	}
	if reserved[name] {
		name += "Type"
	}
	return name
}

// name gives every declaration its final name, unique in the package's
// one namespace: tools first (the names the model calls), then the types
// the sources named, then the types named after where they were written.
// A name that had to change is reported.
func (im *importer) name() {
	taken := map[string]bool{}
	unique := func(base string, max int) string {
		name := base
		for i := 2; taken[name]; i++ {
			suffix := fmt.Sprint(i)
			if base[len(base)-1] >= '0' && base[len(base)-1] <= '9' {
				suffix = "_" + suffix
			}
			b := base
			if max > 0 && len(b)+len(suffix) > max {
				b = b[:max-len(suffix)]
			}
			name = b + suffix
		}
		taken[name] = true
		return name
	}
	for _, t := range im.pkg.tools {
		name := unique(sanitizeTool(t.name), maxToolName)
		if name != t.name {
			im.s = t.src
			im.warn(diag.CodeImportRenamed, t.at, fmt.Sprintf("tool %s is named %s", shownName(t.name), jsonstr.Text(name)),
				"A tool name is 1 to 64 letters, digits, underscores and hyphens, unique in the package (what OpenAI, Anthropic and Gemini accept). The server or API still knows the tool by its old name: map it back in the implementation.")
			t.name = name
		}
		for _, p := range t.params {
			im.paramName(p)
		}
	}
	// The names gramc gen derives from each tool's (its Go code's
	// arguments, result, function and spec) are not a type's: a type
	// named after a tool, its result or a property is named otherwise.
	for _, t := range im.pkg.tools {
		base := camel.Case(t.name)
		for _, n := range toolDerived(base) {
			taken[n] = true
		}
	}
	for _, given := range []bool{true, false} {
		for _, d := range im.decls {
			switch d := d.(type) {
			case *record:
				if im.given[d] == given {
					d.name = im.rename(d.name, unique, given, d.src, d.at)
				}
				for _, f := range d.fields {
					im.paramName(f)
				}
			case *enum:
				if im.given[d] == given {
					d.name = im.rename(d.name, unique, given, d.src, d.at)
				}
			}
		}
	}
}

func (im *importer) rename(old string, unique func(string, int) string, given bool, src *source, at *node) string {
	name := unique(sanitizeType(old), 0)
	if name != old && given {
		im.s = src
		im.warn(diag.CodeImportRenamed, at, fmt.Sprintf("type %s is named %s", shownName(old), jsonstr.Text(name)),
			"Tools, types and enums share one namespace, and a type cannot be named like a built-in type (String, Integer, ...): the type was renamed. Its JSON shape is unchanged.")
	}
	return name
}

// paramName makes a parameter's name one gram can write.
func (im *importer) paramName(p *param) {
	name := p.name
	if strings.IndexByte(name, 0) >= 0 || !utf8.ValidString(name) {
		name = strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", "\uFFFD"), "\uFFFD")
	}
	if strings.IndexFunc(name, termsafe.Unsafe) >= 0 {
		// (a control, bidirectional or invisible character: the name
		// would not show as what it is)
		name = strings.Map(func(r rune) rune {
			if termsafe.Unsafe(r) {
				return '_'
			}
			return r
		}, name)
	}
	if name == "" {
		name = "_"
	}
	if name != p.name {
		im.s = p.src
		im.warn(diag.CodeImportRenamed, p.at, fmt.Sprintf("property %s is named %s", shownName(p.name), jsonstr.Text(name)),
			"A gram name cannot be empty or hold the character U+0000, and is not written with a control, bidirectional or invisible character, which would not show as itself (gramc check warns of one: unsafe-character); the property was renamed, and the tool's implementation must map it back.")
		p.name = name
	}
}

// toolDerived are the names gramc gen's Go code declares for a tool whose
// name's words are base (codegen/golang's toolNames, and the tool's own).
func toolDerived(base string) []string {
	return []string{base, base + "Args", base + "Result", base + "Func", base + "Spec", "New" + base + "Tool"}
}

// prune drops the declarations no tool uses (a document's schemas of
// error bodies, of wrappers allOf merged into a result): an import with
// tools declares the types its tools need. An import without tools (a
// JSON Schema) keeps them all.
func (im *importer) prune() {
	if len(im.pkg.tools) == 0 {
		return
	}
	keep := map[any]bool{}
	var visit func(t *typ)
	visit = func(t *typ) {
		for ; t != nil; t = t.elem {
			switch {
			case t.rec != nil && !keep[t.rec]:
				keep[t.rec] = true
				for _, f := range t.rec.fields {
					visit(f.typ)
				}
			case t.enum != nil:
				keep[t.enum] = true
			}
		}
	}
	for _, t := range im.pkg.tools {
		for _, p := range t.params {
			visit(p.typ)
		}
		visit(t.result)
	}
	im.decls = slices.DeleteFunc(im.decls, func(d any) bool { return !keep[d] })
}

// maxShownName bounds the bytes of a document's name a warning quotes.
const maxShownName = 100

// shownName is a document's name as a warning quotes it: whole, or, past
// maxShownName bytes, its beginning and its length (a mebibyte name is
// not printed whole).
func shownName(name string) string {
	if len(name) <= maxShownName {
		return jsonstr.Text(name)
	}
	cut := maxShownName
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", jsonstr.Text(name[:cut]), len(name))
}
