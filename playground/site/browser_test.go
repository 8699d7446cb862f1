package site_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/cli"
	"github.com/gramc-dev/gramc/codegen/typescript"
	"github.com/gramc-dev/gramc/internal/browsertest"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/playground/core"
	"github.com/gramc-dev/gramc/playground/site"
)

// browserDir holds the browser test's script and its npm packages
// (package-lock.json; make playground-test-setup runs npm ci there).
func browserDir() string { return filepath.Join(here, "testdata", "browser") }

// The shared link of the browser test: two files, a typo in the first.
const (
	linkMain = `{package: "weather"}
[weather_agent:Agent {description: "Weather", instruction: "Answer.", model: "OpenAI/gpt-4o-mini"} | getWeather]
[getWeather:Tool {description: "Current weather for a city"} |
  (city::Strng {description: "City name"})==>
  (::Report)
]
`
	linkTypes = `[Report:Type {description: "A weather report"} |
  (conditions::String),
  (unit::Unit)
]
[Unit:Enum {values: ["celsius", "fahrenheit"], description: "Unit"}]
`
	typo = "Strng"

	// A package whose two tools map to one Go name: gramc gen renames
	// the second and warns (cli/testdata/script/gen_errors.txtar).
	linkCollide = `{package: "collide"}

[foo_bar:Tool {description: "First"} | ()==>(::String)]
[fooBar:Tool {description: "Second"} | ()==>(::String)]
`
)

// TestBrowser drives the playground in Debian's chromium with
// playwright-core (testdata/browser/browser.js): a shared link with a
// typo shows the diagnostic at its line and column, its fix applies in a
// click, the schema pane shows what gramc schema prints, the second
// file's tab opens, the picture is drawn, the Go pane shows gramc gen's
// warning beside the code it renamed, the TypeScript pane shows what
// gramc gen --lang ts writes and prints, the page fits a phone, and
// gramc graph's Mermaid renders with the mermaid package. It measures
// the load time and the time per check in the browser, and takes the
// screenshot of docs/playground.png (written there under GRAMC_UPDATE=1).
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module and starts a browser")
	}
	modules := filepath.Join(browserDir(), "node_modules")
	browser := browsertest.Require(t, modules, "playwright-core", "mermaid")
	t.Parallel()
	d := dist(t)

	mux := http.NewServeMux()
	mux.Handle("/", site.Handler(d)) // as make playground-serve serves it
	mux.HandleFunc("/__test/mermaid.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><meta charset="utf-8"><body><script src="/__test/mermaid.min.js"></script></body>`))
	})
	mux.HandleFunc("/__test/mermaid.min.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(browserDir(), "node_modules", "mermaid", "dist", "mermaid.min.js"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// The link, as docs/playground.md says: base64url, no padding, of the
	// txtar archive of the files.
	ar := &txtar.Archive{Files: []txtar.File{{Name: "main.gram", Data: []byte(linkMain)}, {Name: "types.gram", Data: []byte(linkTypes)}}}
	link := base64.RawURLEncoding.EncodeToString(txtar.Format(ar))
	var pos string
	for i, line := range strings.Split(linkMain, "\n") {
		if c := strings.Index(line, typo); c >= 0 {
			pos = "main.gram:" + itoa(i+1) + ":" + itoa(len([]rune(line[:c]))+1)
		}
	}
	fixed := core.Files{"main.gram": strings.Replace(linkMain, typo, "String", 1), "types.gram": linkTypes}
	dir := t.TempDir()
	for n, text := range fixed {
		os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644)
	}
	// What gramc schema prints (file names do not show in it).
	var stdout, stderr strings.Builder
	if code := cli.Do([]string{"schema", "--target", "openai", filepath.Join(dir, "main.gram"), filepath.Join(dir, "types.gram")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("gramc schema: %s", stderr.String())
	}
	schemaOpenAI := stdout.String()
	// What gramc gen prints on standard error for linkCollide: its warning.
	if err := os.WriteFile(filepath.Join(dir, "collide.gram"), []byte(linkCollide), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := cli.Do([]string{"gen", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "collide.gram")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("gramc gen: %s", stderr.String())
	}
	// The command names the file by the path it was given; the page by its name.
	genWarnings := strings.ReplaceAll(stderr.String(), filepath.Join(dir, "collide.gram"), "main.gram")
	if !strings.Contains(genWarnings, "[gen-name-collision]") {
		t.Fatalf("gramc gen printed no gen-name-collision warning for linkCollide:\n%s", genWarnings)
	}
	// What gramc gen --lang ts writes and prints for linkCollide (its
	// warning: two tools take one TypeScript name) and for the first
	// example, as the TypeScript pane shows them: each file after a
	// "// name" line, in the order gen writes them.
	tsWarnings, tsCollide := genTS(t, core.Files{"main.gram": linkCollide})
	collide := base64.RawURLEncoding.EncodeToString(txtar.Format(&txtar.Archive{Files: []txtar.File{{Name: "main.gram", Data: []byte(linkCollide)}}}))
	exs, err := site.ReadExamples(root)
	if err != nil {
		t.Fatal(err)
	}
	_, tsWeather := genTS(t, exs[0].Files)
	mermaid, err := core.Graph(exs[0].Files, "mermaid")
	if err != nil {
		t.Fatal(err)
	}
	// The module is sent precompressed: brotli when make playground could
	// write it, else gzip.
	wasmEncoding := "gzip"
	if _, err := os.Stat(filepath.Join(d, site.WasmFile+".br")); err == nil {
		wasmEncoding = "br"
	}
	var exampleNames []string
	for _, ex := range exs {
		exampleNames = append(exampleNames, ex.Name)
	}
	link1 := func(name, text string) string {
		return "#txtar=" + base64.RawURLEncoding.EncodeToString(txtar.Format(&txtar.Archive{Files: []txtar.File{{Name: name, Data: []byte(text)}}}))
	}
	badLinks := []map[string]string{
		// The first is also opened as a page of its own.
		{"hash": "#txtar=abc$def", "notice": "not base64url"},
		{"hash": "#txtar=" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xfe, 0xfd}), "notice": "not UTF-8"},
		{"hash": "#txtar=" + base64.RawURLEncoding.EncodeToString([]byte("just text, no file\n")), "notice": "holds no file"},
		{"hash": link1("__proto__", linkTypes), "notice": `a file is named "__proto__"`},
		{"hash": link1("../x.gram", linkTypes), "diagnostic": `file name "../x.gram": want a plain name`},
	}
	// A large package: a chain of record types, each needing the next.
	var big strings.Builder
	big.WriteString("[Str:Type | (s::String)]\n")
	const bigTypes = 3000
	for i := range bigTypes {
		next := "Str"
		if i+1 < bigTypes {
			next = fmt.Sprintf("T%05d", i+1)
		}
		fmt.Fprintf(&big, "[T%05d:Type {description: \"Type %d\"} | (next::%s), (note::String {optional: true})]\n", i, i, next)
	}
	big.WriteString("[use:Tool {description: \"Uses the chain\"} | (t::T00000)==>(::String)]\n")
	bigLink := base64.RawURLEncoding.EncodeToString(txtar.Format(&txtar.Archive{Files: []txtar.File{{Name: "big.gram", Data: []byte(big.String())}}}))
	// Mermaid directives in names (issue 44): drawn as text, applied never.
	leak := srv.URL + "/__test/leak.css"
	hostileMermaid, err := core.Graph(core.Files{"h.gram": strings.ReplaceAll(hostileGram, "LEAK", leak)}, "mermaid")
	if err != nil {
		t.Fatal(err)
	}
	controlMermaid := `%%{init: {"theme": "dark", "themeCSS": "@import url(` + leak + `);"}}%%` + "\n" + mermaid
	shot := filepath.Join(t.TempDir(), "playground.png")
	if golden.Update() {
		shot = filepath.Join(root, "docs", "playground.png")
	}
	cfg := map[string]any{
		"base":           srv.URL,
		"link":           link,
		"expectPos":      pos,
		"typo":           typo,
		"fixed":          "city::String",
		"firstFile":      "main.gram",
		"secondFile":     "types.gram",
		"secondText":     linkTypes,
		"schemaOpenAI":   schemaOpenAI,
		"collideLink":    collide,
		"genWarnings":    genWarnings,
		"genRenamed":     "func NewFooBar2Tool(",
		"tsWarnings":     tsWarnings,
		"tsCollide":      tsCollide,
		"tsWeather":      tsWeather,
		"graphNodes":     []string{"agent weather_agent", "tool getWeather", "type Report", "enum Unit"},
		"weather":        exs[0].Files,
		"mermaid":        mermaid,
		"mermaidEdges":   strings.Count(mermaid, " -->"),
		"mermaidNodes":   mermaidNodes(mermaid),
		"screenshot":     shot,
		"wasmEncoding":   wasmEncoding,
		"exampleNames":   exampleNames,
		"badLinks":       badLinks,
		"bigLink":        bigLink,
		"hostileMermaid": hostileMermaid,
		"controlMermaid": controlMermaid,
	}
	var res struct {
		LoadMs, ReadyMs       float64
		CheckMs, CheckMsSmall float64
		MermaidNodes          int
		WasmEncoding          string
		InputMs, InputMsMax   float64
		BigCheckMs            float64
		GraphScale            float64
	}
	browsertest.Run(t, browser, modules, filepath.Join(browserDir(), "browser.js"), cfg, &res)
	t.Logf("in Chromium: the module (sent as %s) compiled and started in %.0f ms, the page ready in %.0f ms; a check of examples/weather takes %.2f ms, of the link's package %.2f ms",
		res.WasmEncoding, res.LoadMs, res.ReadyMs, res.CheckMs, res.CheckMsSmall)
	t.Logf("a key typed while %d types were checked was handled in %.1f ms (at most %.1f ms over the line typed); their check takes %.0f ms; the weather picture fits its pane at %.0f%%",
		bigTypes, res.InputMs, res.InputMsMax, res.BigCheckMs, 100*res.GraphScale)
}

// hostileGram names a type, a field and an enum's values with Mermaid
// directives (LEAK is a URL of the test's server a style sheet would be
// fetched from): an imported OpenAPI schema's name becomes such a
// backtick name.
const hostileGram = "[`%%{init: {\"theme\": \"dark\", \"themeCSS\": \"@import url(LEAK);\"}}%%`:Type {description: \"evil\"} |\n" +
	"  (`%%{init: {'flowchart': {'htmlLabels': false}}}%%`::Leaf)\n]\n" +
	"[Leaf:Type {description: \"leaf\"} | (s::String)]\n" +
	"[Mode:Enum {values: [\"%%{init: {'theme':'forest'}}%%\", \"x\"], description: \"m\"}]\n" +
	"[t:Tool {description: \"d\"} | (m::Mode)==>(::`%%{init: {\"theme\": \"dark\", \"themeCSS\": \"@import url(LEAK);\"}}%%`)]\n"

// mermaidNodes are the names of a flowchart's nodes: the first line of
// each node's quoted label.
func mermaidNodes(text string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s+n\d+[(\[{]+"([^"<]*)`).FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	return names
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// genTS runs gramc gen --lang ts -o out in a directory holding the files,
// naming them (so an unnamed package stays unnamed, as on the page), and
// returns what it prints on standard error and its files as the
// TypeScript pane shows them: each after a "// name" line, in the order
// gen writes them (typescript.FileNames), joined by blank lines.
func genTS(t *testing.T, fs core.Files) (warnings, pane string) {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for n, text := range fs {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	slices.Sort(names)
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	args := []string{"gen", "--lang", "ts", "-o", out}
	for _, n := range names {
		args = append(args, filepath.Join(dir, n))
	}
	if code := cli.Do(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("gramc gen --lang ts: %s", stderr.String())
	}
	// Named by absolute paths (TestParity changes the directory), an
	// unnamed package would be named after dir here and not on the page.
	if b, _ := os.ReadFile(filepath.Join(out, typescript.IndexFile)); !strings.Contains(string(b), "(gram package ") {
		t.Fatalf("genTS takes a package with a name ({package: ...}), for the page's files to be the command's")
	}
	var parts []string
	for _, n := range typescript.FileNames {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, "// "+n+"\n"+string(b))
	}
	// The command names the files by the paths it was given; the page by their names.
	return strings.ReplaceAll(stderr.String(), dir+string(filepath.Separator), ""), strings.Join(parts, "\n")
}
