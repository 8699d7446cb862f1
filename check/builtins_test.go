package check

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
)

// TestBuiltinsTableMatchesDocs: docs/language.md's type table lists the
// built-in types exactly as the table builtins defines them — names,
// aliases, JSON type and Go type — so adding a type or an alias is one
// table row and one doc row, and they cannot drift.
func TestBuiltinsTableMatchesDocs(t *testing.T) {
	data := docs.Page("language.md")
	row := regexp.MustCompile("(?m)^\\| `([A-Za-z]+)`( \\(([^)]*)\\))?[^|]*\\| `\\{\"type\":\"([a-z]+)\"")
	goType := regexp.MustCompile("\\| `([^`]+)` \\|$")
	found := map[string]bool{}
	for _, line := range strings.Split(data, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, aliases, json := m[1], m[3], m[4]
		var b BuiltinType
		for _, x := range builtins {
			if x.Name == name {
				b = x
			}
		}
		if b.Name == "" {
			t.Errorf("docs list type %s, which is not built in", name)
			continue
		}
		found[name] = true
		var want []string
		for _, a := range b.Aliases {
			want = append(want, "`"+a+"`")
		}
		if aliases != strings.Join(want, ", ") {
			t.Errorf("%s: docs aliases %q, table %q", name, aliases, strings.Join(want, ", "))
		}
		if json != b.JSON {
			t.Errorf("%s: docs JSON type %q, table %q", name, json, b.JSON)
		}
		if g := goType.FindStringSubmatch(line); g == nil || (g[1] != b.Go && !(b.Kind == Array && g[1] == "[]T")) {
			t.Errorf("%s: docs Go type %v, table %q", name, g, b.Go)
		}
	}
	for _, b := range builtins {
		if !found[b.Name] {
			t.Errorf("type %s is not in docs/language.md's type table", b.Name)
		}
	}
	// The type list in messages is built from the table: each type with
	// its aliases, in the table's order (a new alias needs no edit here).
	rest, ok := strings.CutPrefix(typeListDetail, "Built-in types are ")
	if !ok {
		t.Errorf("typeListDetail = %q", typeListDetail)
	}
	for _, b := range builtins {
		want := b.Name
		if len(b.Aliases) > 0 {
			want += " (" + strings.Join(b.Aliases, ", ") + ")"
		}
		i := strings.Index(rest, want)
		if i < 0 {
			t.Errorf("typeListDetail %q does not list %s as %q, in the table's order", typeListDetail, b.Name, want)
			continue
		}
		rest = rest[i+len(want):]
	}
}

// TestReservedNamesAreTheBuiltins: every built-in label and alias is a
// reserved name, and the reserved-name detail lists exactly those names
// (derived from builtins, never a copy).
func TestReservedNamesAreTheBuiltins(t *testing.T) {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
		names = append(names, b.Aliases...)
	}
	for _, name := range names {
		_, ds := loadSource("a.gram", []byte("["+name+":Type | (x::String)]\n"))
		var detail string
		for _, d := range ds {
			if d.Code == diag.CodeReservedName {
				detail = d.Detail
			}
		}
		if detail == "" {
			t.Errorf("%s: declaring it is not a reserved-name error: %v", name, ds)
			continue
		}
		if want := "(" + strings.Join(names, ", ") + ")"; !strings.Contains(detail, want) {
			t.Errorf("%s: detail %q does not list %s", name, detail, want)
		}
	}
}

// TestBuiltinOfJSON: every built-in's JSON Schema type name reads back as
// that built-in (the importer and gramc diff's snapshots read types this
// way), and a type name gram has no type for is not one.
func TestBuiltinOfJSON(t *testing.T) {
	for _, b := range Builtins() {
		if got, ok := BuiltinOfJSON(b.JSON); !ok || got.Kind != b.Kind {
			t.Errorf("BuiltinOfJSON(%q) = %v, %v; want %s", b.JSON, got.Name, ok, b.Name)
		}
	}
	for _, name := range []string{"null", "", "String", "int"} {
		if got, ok := BuiltinOfJSON(name); ok {
			t.Errorf("BuiltinOfJSON(%q) = %s; want none", name, got.Name)
		}
	}
}
