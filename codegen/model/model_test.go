package model

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"getWeather": "get Weather", "get_weather": "get weather", "HTTPServer": "HTTPServer", "memberId": "member Id",
		"a.b@c": "a b c", "my name": "my name", "v2Api": "v2 Api", "": "", "-_-": "",
	} {
		if got := strings.Join(Words(in), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

var upper = &Naming{Language: "Test", Ident: func(g string) string { return strings.ToUpper(strings.Join(Words(g), "")) }, Rule: "Test names are upper case"}

func TestNamer(t *testing.T) {
	var ds diag.Diagnostics
	n := NewNamer(upper, "scope", func(d *diag.Diagnostic) { ds = append(ds, d) }, "RESERVED")
	if got := n.Take("foo_bar", check.Tool{}.Range, "X", One); got != "FOOBAR" {
		t.Errorf("first = %s", got)
	}
	if got := n.Take("fooBar", check.Tool{}.Range, "X", One); got != "FOOBAR2" {
		t.Errorf("second = %s", got)
	}
	if got := n.Take("reserved", check.Tool{}.Range, "X", One); got != "RESERVED2" {
		t.Errorf("reserved = %s", got)
	}
	if got := n.Take("--", check.Tool{}.Range, "FALLBACK", One); got != "FALLBACK" {
		t.Errorf("fallback = %s", got)
	}
	// A derived name taken by another claimant.
	n.Take("qx", check.Tool{}.Range, "X", One)
	if got := n.Take("q", check.Tool{}.Range, "X", func(b string) []string { return []string{b, b + "X"} }); got != "Q2" {
		t.Errorf("derived = %s", got)
	}
	var msgs []string
	for _, d := range ds {
		if d.Code != diag.CodeGenNameCollision || d.Severity != diag.Warning {
			t.Errorf("diagnostic %v", d)
		}
		msgs = append(msgs, d.Summary+" / "+d.Detail)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`"foo_bar" and "fooBar" both map to Test name FOOBAR in the scope; "fooBar" becomes FOOBAR2 / Test names are upper case, so both names give FOOBAR.`,
		`Test name RESERVED of "reserved" is reserved in the scope; using RESERVED2`,
		`Test name QX needed for "q" is taken by "qx" in the scope; "q" becomes Q2`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning says %s:\n%s", want, all)
		}
	}
}

func TestCollectAndReaches(t *testing.T) {
	str := &check.Type{Kind: check.String}
	e := &check.Enum{Name: "E", ValueKind: check.String, Values: []any{"a"}}
	a := &check.TypeDecl{Name: "A"}
	b := &check.TypeDecl{Name: "B", Fields: []*check.Param{{Name: "a", Type: &check.Type{Kind: check.Record, Decl: a}}}}
	a.Fields = []*check.Param{{Name: "b", Type: &check.Type{Kind: check.Record, Decl: b}}, {Name: "e", Type: &check.Type{Kind: check.EnumKind, Enum: e}}}
	c := &check.TypeDecl{Name: "C", Fields: []*check.Param{{Name: "cs", Type: &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Record}}}}}
	c.Fields[0].Type.Elem.Decl = c
	t1 := &check.Tool{Name: "t1", Params: []*check.Param{{Name: "x", Type: str}}, Result: &check.Type{Kind: check.Record, Decl: a}}
	inline := &check.Tool{Name: "inline", Result: &check.Type{Kind: check.Record, Decl: c}}
	again := &check.Tool{Name: "t1", Result: str} // another *check.Tool of a generated name
	pkg := &check.Package{Name: "p", Tools: []*check.Tool{t1}, Agents: []*check.Agent{{Name: "ag", Tools: []*check.Tool{inline, again}}}}
	m := New(pkg)
	var names []string
	for _, d := range m.Types {
		names = append(names, d.Name)
	}
	for _, e := range m.Enums {
		names = append(names, e.Name)
	}
	for _, t := range m.Tools {
		names = append(names, t.Name)
	}
	if got := strings.Join(names, " "); got != "A B C E t1 inline" {
		t.Errorf("collected %q", got)
	}
	if !m.Reaches(a, b) || !m.Reaches(b, a) || !m.Reaches(a, a) {
		t.Error("A and B reach each other")
	}
	if m.Reaches(c, a) || m.Reaches(a, c) {
		t.Error("C and A are unrelated")
	}
	if m.Base != "p" || BaseName(&check.Package{}) != "" {
		t.Errorf("base %q", m.Base)
	}
}
