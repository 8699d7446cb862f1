package graph_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/graph"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

func loadDir(t *testing.T, patterns ...string) []*check.Package {
	t.Helper()
	pkgs, ds, err := load.Packages(patterns, nil)
	if err != nil || ds.HasErrors() {
		t.Fatalf("load %v: %v %v", patterns, err, ds)
	}
	return pkgs
}

func checkText(t testing.TB, src string) *check.Package {
	t.Helper()
	f, ds := syntax.ParseString("a.gram", src)
	pkg, cds := check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
	if cds.HasErrors() {
		t.Fatalf("check: %v", cds)
	}
	return pkg
}

// TestGolden draws the examples in every format (testdata/<example>.<format>;
// GRAMC_UPDATE=1 regenerates them): the bytes are stable.
func TestGolden(t *testing.T) {
	for _, ex := range []string{"weather", "triage", "hello", "hellogoodbye"} {
		pkgs := loadDir(t, filepath.Join("..", "..", "examples", ex))
		for _, f := range graph.Formats() {
			var b bytes.Buffer
			if err := graph.Write(&b, pkgs, f); err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", ex+"."+string(f)), b.Bytes())
		}
	}
}

// TestEdges holds the picture's content: which node points at which,
// with which role.
func TestEdges(t *testing.T) {
	g := graph.Build(loadDir(t, filepath.Join("..", "..", "examples", "weather")))
	var got []string
	for _, e := range g.Edges {
		got = append(got, g.Nodes[e.From].Name+" -"+e.Label+"-> "+g.Nodes[e.To].Name)
	}
	for _, want := range []string{
		"weather_agent -uses-> getWeather",
		"weather_agent -uses-> convertTemperature", // declared inline
		"getWeather -unit-> Unit",
		"getWeather -returns-> WeatherReport",
		"getForecast -returns []-> WeatherReport",
		"getAlerts -position-> Coordinates",
		"WeatherReport -position-> Coordinates",
		"Alert -supersedes []-> Alert", // recursive
	} {
		if !strings.Contains("\n"+strings.Join(got, "\n")+"\n", "\n"+want+"\n") {
			t.Errorf("no edge %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, e := range g.Edges {
		if n := g.Nodes[e.To]; n.Name == "String" || n.Name == "Number" {
			t.Errorf("an edge to the built-in %s", n.Name)
		}
	}
}

// TestHostileText: names and values that would end a label, a string or
// an element are escaped in every format, and the SVG is well-formed XML.
func TestHostileText(t *testing.T) {
	pkg := checkText(t, `[Mode:Enum {values: ["a\"b", "<script>", "end --> x", "#1 & `+"`"+`x`+"`"+`"], description: "m"}]
[t:Tool {description: "d"} | (m::Mode)==>(::String)]
`)
	g := graph.Build([]*check.Package{pkg})
	mer, dot, svg := string(g.Mermaid()), string(g.DOT()), g.SVG()
	for _, bad := range []string{`a"b`, "<script>", "`x`"} {
		if strings.Contains(mer, bad) {
			t.Errorf("Mermaid holds %q raw:\n%s", bad, mer)
		}
	}
	if !strings.Contains(dot, `a\"b`) || strings.Contains(dot, `a"b`) {
		t.Errorf("DOT does not escape a quote:\n%s", dot)
	}
	if strings.Contains(string(svg), "<script>") {
		t.Errorf("SVG holds a raw element:\n%s", svg)
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("SVG is not well-formed: %v\n%s", err, svg)
		}
	}
}

// TestMermaidDirective: Mermaid scans the whole text for %%{…}%%
// directives, inside quoted labels too, and applies them at its strict
// security level (a theme, hidden edge labels, a style sheet fetched from
// anywhere). A name, a field (an edge's label) or an enum's value holding
// one reaches no Mermaid output with a % or a ' left in it: both are
// entity codes, which Mermaid decodes only when it draws the text.
func TestMermaidDirective(t *testing.T) {
	const (
		init1 = `%%{init: {"theme": "dark", "themeCSS": "@import url(http://x.invalid/a.css);"}}%%`
		init2 = `%%{init: {'theme':'forest'}}%%`
	)
	pkg := checkText(t, "[`"+init1+"`:Type {description: \"evil\"} | (`"+init2+"`::Leaf)]\n"+
		"[Leaf:Type {description: \"leaf\"} | (s::String)]\n"+
		"[Mode:Enum {values: [\"it's 100%\", \""+init2+"\"], description: \"m\"}]\n"+
		"[t:Tool {description: \"d\"} | (m::Mode)==>(::`"+init1+"`)]\n")
	other := checkText(t, `{package: "`+strings.ReplaceAll(init1, `"`, `\"`)+`"}
[u:Tool {description: "d"} | (a::String)==>(::String)]
`)
	mer := string(graph.Build([]*check.Package{pkg, other}).Mermaid())
	for _, bad := range []string{"%", "'"} {
		if strings.Contains(mer, bad) {
			t.Errorf("Mermaid holds %q raw:\n%s", bad, mer)
		}
	}
	for _, want := range []string{"#37;#37;{init: {#39;theme#39;:#39;forest#39;}}#37;#37;", "it#39;s 100#37;"} {
		if !strings.Contains(mer, want) {
			t.Errorf("Mermaid lacks the escaped %q:\n%s", want, mer)
		}
	}
}

func TestFormatNames(t *testing.T) {
	names := graph.FormatNames()
	if len(names) != len(graph.Formats()) || names[0] != string(graph.Mermaid) {
		t.Errorf("FormatNames() = %q; want every format, mermaid (the default) first", names)
	}
}

// FuzzGraph: any package that checks draws in every format without a
// panic, and the SVG is well-formed.
func FuzzGraph(f *testing.F) {
	f.Add(`[t:Tool {description: "d"} | (a::String)==>(::String)]`)
	f.Add(`[R:Type {description: "r"} | (r::Array {elementType: R, optional: true})]`)
	f.Fuzz(func(t *testing.T, src string) {
		fl, ds := syntax.ParseString("a.gram", src)
		pkg, cds := check.CheckSources("", []check.SourceFile{{AST: fl, Diags: ds}})
		if cds.HasErrors() {
			return
		}
		g := graph.Build([]*check.Package{pkg})
		g.Mermaid()
		g.DOT()
		d := xml.NewDecoder(bytes.NewReader(g.SVG()))
		for {
			if _, err := d.Token(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("SVG is not well-formed: %v", err)
			}
		}
	})
}
