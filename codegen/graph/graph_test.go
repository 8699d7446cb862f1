package graph_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

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
// panic, and the SVG is well-formed with no box over another.
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
		// Well-formed (svgBoxes decodes it), and no box over another.
		if o := svgOverlaps(t, g.SVG()); len(o) > 0 {
			t.Fatalf("overlapping boxes: %s", strings.Join(o, "; "))
		}
	})
}

// svgBoxes reads the boxes of an SVG's nodes and edge labels: a node's
// rect; a label's text, as wide as its characters in the picture's
// monospace font and a line high.
func svgBoxes(t testing.TB, svg []byte) (nodes, labels []svgBox) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var class []string
	attr := func(se xml.StartElement, name string) float64 {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				f, err := strconv.ParseFloat(a.Value, 64)
				if err != nil {
					t.Fatalf("%s=%q: %v", name, a.Value, err)
				}
				return f
			}
		}
		return 0
	}
	var text *svgBox
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			c := ""
			for _, a := range tok.Attr {
				if a.Name.Local == "class" {
					c = a.Value
				}
			}
			class = append(class, c)
			parent := ""
			if len(class) > 1 {
				parent = class[len(class)-2]
			}
			switch {
			case tok.Name.Local == "rect" && strings.HasPrefix(parent, "node "):
				nodes = append(nodes, svgBox{x: attr(tok, "x"), y: attr(tok, "y"), w: attr(tok, "width"), h: attr(tok, "height")})
			case tok.Name.Local == "text" && parent == "edge":
				text = &svgBox{x: attr(tok, "x"), y: attr(tok, "y")}
			}
		case xml.CharData:
			if text != nil {
				text.what += string(tok)
			}
		case xml.EndElement:
			class = class[:len(class)-1]
			if text != nil && tok.Name.Local == "text" {
				// Centred on x and y, as the text anchors it.
				text.w = float64(utf8.RuneCountInString(text.what)) * 7.2 * 11 / 12
				text.x -= text.w / 2
				text.y -= 13.0 / 2
				text.h = 13
				labels = append(labels, *text)
				text = nil
			}
		}
	}
	return nodes, labels
}

type svgBox struct {
	x, y, w, h float64
	what       string
}

func (a svgBox) meets(b svgBox) bool {
	return min(a.x+a.w, b.x+b.w)-max(a.x, b.x) > 0.01 && min(a.y+a.h, b.y+b.h)-max(a.y, b.y) > 0.01
}

// svgOverlaps lists the boxes of svg that overlap: two nodes, two labels,
// or a label and a node.
func svgOverlaps(t testing.TB, svg []byte) []string {
	nodes, labels := svgBoxes(t, svg)
	var out []string
	for i, a := range labels {
		for _, b := range labels[i+1:] {
			if a.meets(b) {
				out = append(out, fmt.Sprintf("label %q / label %q", a.what, b.what))
			}
		}
		for _, b := range nodes {
			if a.meets(b) {
				out = append(out, fmt.Sprintf("label %q / a node at %v,%v", a.what, b.x, b.y))
			}
		}
	}
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if a.meets(b) {
				out = append(out, fmt.Sprintf("nodes at %v,%v and %v,%v", a.x, a.y, b.x, b.y))
			}
		}
	}
	return out
}

// TestSVGLayout: in the picture of every example and of a tangled
// package (cycles, loops, parallel edges, long edges), no label overlaps
// another label or a node, no nodes overlap, and every edge has its label.
func TestSVGLayout(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "[R%d:Type {description: \"r\"} | (self::Array {elementType: R%d}), (again::R%d {optional: true}), (next::R%d {optional: true}), (far::R%d {optional: true})]\n", i, i, i, (i+1)%12, (i+5)%12)
		fmt.Fprintf(&b, "[t%d:Tool {description: \"t\"} | (a::R%d)==>(b::R%d)==>(::Array {elementType: R%d})]\n", i, i, (i+3)%12, (i+7)%12)
	}
	b.WriteString("[a:Agent {description: \"a\", instruction: \"i\", model: \"OpenAI/gpt-4o-mini\"} | t0, t3, t6, t9]\n")
	pkgs := map[string][]*check.Package{"tangled": {checkText(t, b.String())}}
	for _, ex := range []string{"weather", "triage", "hello", "hellogoodbye"} {
		pkgs[ex] = loadDir(t, filepath.Join("..", "..", "examples", ex))
	}
	for name, p := range pkgs {
		g := graph.Build(p)
		svg := g.SVG()
		nodes, labels := svgBoxes(t, svg)
		if len(nodes) != len(g.Nodes) || len(labels) != len(g.Edges) {
			t.Errorf("%s: %d node boxes and %d edge labels, want %d and %d", name, len(nodes), len(labels), len(g.Nodes), len(g.Edges))
		}
		if o := svgOverlaps(t, svg); len(o) > 0 {
			t.Errorf("%s: overlapping boxes:\n%s", name, strings.Join(o, "\n"))
		}
	}
}

// BenchmarkSVG lays out and prints the picture of a chain of 3,000 types
// (6,000 layers) and of 1,000 tools sharing 20 types.
// Run: go test ./codegen/graph -run '^$' -bench BenchmarkSVG -benchmem
func BenchmarkSVG(b *testing.B) {
	var chain, wide strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&chain, "[T%d:Type {description: \"t\"} | (next::T%d {optional: true})]\n", i, i+1)
	}
	chain.WriteString("[T3000:Type {description: \"t\"} | (s::String)]\n")
	for i := range 20 {
		fmt.Fprintf(&wide, "[R%d:Type {description: \"r\"} | (s::String)]\n", i)
	}
	for i := range 1000 {
		fmt.Fprintf(&wide, "[t%d:Tool {description: \"t\"} | (a::R%d)==>(::R%d)]\n", i, i%20, (i*7)%20)
	}
	for name, src := range map[string]string{"chain=3000": chain.String(), "tools=1000": wide.String()} {
		g := graph.Build([]*check.Package{checkText(b, src)})
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = len(g.SVG())
			}
			b.SetBytes(int64(n))
		})
	}
}
