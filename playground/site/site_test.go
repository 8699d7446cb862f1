package site_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gramc-dev/gramc/cli"
	"github.com/gramc-dev/gramc/codegen/graph"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/playground/site"
)

// root is the repository's root and here this package's directory, as
// absolute paths: TestParity changes the process's directory while the
// other tests run in parallel.
var root, here string

var (
	buildOnce sync.Once
	distDir   string
	buildErr  error
	tmpRoot   string
)

func TestMain(m *testing.M) {
	var err error
	if here, err = os.Getwd(); err != nil {
		panic(err)
	}
	root = filepath.Dir(filepath.Dir(here))
	code := m.Run()
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
	}
	os.Exit(code)
}

// dist builds the site once per test run (the go command's cache makes
// the module's build a link when nothing changed) and returns its
// directory.
func dist(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		tmpRoot, buildErr = os.MkdirTemp("", "gramc-playground-")
		if buildErr != nil {
			return
		}
		distDir = filepath.Join(tmpRoot, "dist")
		buildErr = site.Build(distDir, root, "go")
	})
	if buildErr != nil {
		t.Fatalf("building the site: %v", buildErr)
	}
	return distDir
}

// The site's budget: what a visitor downloads, gzipped, and the files.
const (
	maxGzipped = 4 << 20
	maxSite    = 20 << 20
)

// TestBuild: the site holds the page, the module and the examples, and
// nothing that loads from elsewhere.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module")
	}
	d := dist(t)
	for _, name := range []string{"index.html", "app.js", "gramc.js", "worker.js", "style.css", "wasm_exec.js", "examples.js", site.WasmFile, site.WasmFile + ".gz"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			t.Error(err)
		}
	}
	// What a visitor downloads, gzipped as a server sends it, and the
	// site as files (docs/playground.md, issue 39).
	var raw, gz int
	ents, _ := os.ReadDir(d)
	for _, e := range ents {
		if ext := filepath.Ext(e.Name()); ext == ".gz" || ext == ".br" {
			// Precompressed copies: what is sent instead of a file.
			fi, _ := e.Info()
			t.Logf("%s: %d bytes", e.Name(), fi.Size())
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(b)
		w.Close()
		raw, gz = raw+len(b), gz+z.Len()
	}
	t.Logf("the site: %d files, %d bytes, %d gzipped", len(ents), raw, gz)
	if gz > maxGzipped || raw > maxSite {
		t.Errorf("the site is %d bytes, %d gzipped: over the budget of %d MB gzipped, %d MB as files", raw, gz, maxGzipped>>20, maxSite>>20)
	}
	for _, name := range []string{"index.html", "app.js", "gramc.js", "worker.js", "style.css", "examples.js"} {
		b, _ := os.ReadFile(filepath.Join(d, name))
		for _, far := range []string{"http://", "https://", "//cdn", "fonts.googleapis"} {
			if i := bytes.Index(b, []byte(far)); i >= 0 && name != "examples.js" {
				t.Errorf("%s refers to %q: the page loads nothing from elsewhere", name, b[i:min(len(b), i+60)])
			}
		}
	}
}

// A parity case is a package: file names and their text.
type parityCase struct {
	name  string
	files map[string]string
	only  string // when set, the one function the case is for
	// graphFormats are the --format values graph is asked for (default:
	// every format).
	graphFormats []string
}

// parityCases are every example, every annotated error file of
// testdata/check, every case of the conformance corpora and every input
// of codegen/golang's tests.
func parityCases(t *testing.T) []parityCase {
	var cases []parityCase
	exs, err := site.ReadExamples(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		cases = append(cases, parityCase{name: "example " + ex.Name, files: ex.Files})
	}
	// A format graph does not draw is refused in the same words.
	cases = append(cases, parityCase{name: "graph of unknown formats", files: exs[0].Files, only: "graph", graphFormats: []string{"svgg", "png", ""}})
	// Each file of a glob as a package of one file, for every function:
	// testdata/check's, and codegen's own inputs (names gramc gen renames
	// with its warnings; types with check warnings a target then refuses).
	for _, g := range []struct {
		dir, pattern string
		least        int
	}{
		{"testdata/check", "*.gram", 20},
		{"codegen/golang/testdata", "*/*.gram", 3},
	} {
		paths, _ := filepath.Glob(filepath.Join(root, g.dir, g.pattern))
		if len(paths) < g.least {
			t.Fatalf("found %d files in %s", len(paths), g.dir)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, p)
			cases = append(cases, parityCase{name: filepath.ToSlash(rel), files: map[string]string{filepath.Base(p): string(b)}})
		}
	}
	for _, corpus := range []string{filepath.Join(root, "testdata", "conformance", "gram-corpus.json"), filepath.Join(root, "syntax", "testdata", "conformance-extra.json")} {
		b, err := os.ReadFile(corpus)
		if err != nil {
			t.Fatal(err)
		}
		var cs []struct {
			Name, Suite, Input string
		}
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			t.Fatalf("%s: no cases", corpus)
		}
		for i, c := range cs {
			cases = append(cases, parityCase{name: fmt.Sprintf("%s #%d %s", filepath.Base(corpus), i, c.Name), files: map[string]string{"case.gram": c.Input}})
		}
	}
	return cases
}

// A request is one call of globalThis.gramc and the gramc command line
// that prints the same.
type request struct {
	fn    string
	files map[string]string
	arg   string
	argv  func(names []string) []string
}

// parityRequests are the calls made of each case.
func parityRequests(c parityCase) []request {
	var rs []request
	add := func(fn, arg string, argv func([]string) []string) {
		if c.only == "" || c.only == fn {
			rs = append(rs, request{fn, c.files, arg, argv})
		}
	}
	add("check", "", func(n []string) []string { return append([]string{"check", "--format", "json"}, n...) })
	add("format", "", func(n []string) []string { return append([]string{"fmt"}, n...) })
	add("schema", "all", func(n []string) []string { return append([]string{"schema", "--target", "all"}, n...) })
	add("gen", "", func(n []string) []string { return append([]string{"gen", "-o", "out"}, n...) })
	add("gen", "ts", func(n []string) []string { return append([]string{"gen", "--lang", "ts", "-o", "out"}, n...) })
	formats := c.graphFormats
	if formats == nil {
		formats = graph.FormatNames()
	}
	for _, f := range formats {
		add("graph", f, func(n []string) []string { return append([]string{"graph", "--format", f}, n...) })
	}
	return rs
}

type result struct {
	Value json.RawMessage `json:"value"`
	Error *string         `json:"error"`
}

// startNode starts running the requests through the WebAssembly module
// under Node; the function it returns waits for the results.
func startNode(t *testing.T, d string, reqs []request) func() ([]result, float64) {
	t.Helper()
	var raw [][3]any
	for _, r := range reqs {
		raw = append(raw, [3]any{r.fn, r.files, r.arg})
	}
	in, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	reqFile := filepath.Join(t.TempDir(), "requests.json")
	if err := os.WriteFile(reqFile, in, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(here, "testdata", "parity.js")
	resFile := filepath.Join(filepath.Dir(reqFile), "results.json")
	cmd := exec.Command("node", script, d, reqFile, resFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("node parity.js: %v", err)
	}
	return func() ([]result, float64) {
		t.Helper()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("node parity.js: %v\n%s", err, stderr.Bytes())
		}
		return readResults(t, resFile, len(reqs))
	}
}

// readResults reads parity.js's results.
func readResults(t *testing.T, resFile string, n int) ([]result, float64) {
	t.Helper()
	out, err := os.ReadFile(resFile)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Results []result
		MS      float64
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node parity.js printed %q: %v", out[:min(len(out), 200)], err)
	}
	if len(res.Results) != n {
		t.Fatalf("node answered %d requests of %d", len(res.Results), n)
	}
	return res.Results, res.MS
}

// TestParity runs the WebAssembly module under Node and gramc's command
// line on every example and conformance file and compares every result,
// byte for byte: check's JSON, fmt's text, schema of every target, gen's
// files and warnings in Go and in TypeScript (--lang ts), graph in each format; on failure the error's text with what
// the command prints on standard error. And explain of every code.
func TestParity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module and runs Node")
	}
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on PATH: the parity test runs the WebAssembly module under Node.js (apt-get install nodejs)")
	}
	d := dist(t)
	cases := parityCases(t)
	var reqs []request
	owner := []int{}
	for i, c := range cases {
		for _, r := range parityRequests(c) {
			reqs = append(reqs, r)
			owner = append(owner, i)
		}
	}
	var codes []string
	for _, c := range diag.Codes() {
		codes = append(codes, string(c.Code))
		reqs = append(reqs, request{fn: "explain", arg: string(c.Code), argv: func([]string) []string { return []string{"explain", string(c.Code)} }})
		owner = append(owner, -1)
	}
	wait := startNode(t, d, reqs)

	// The command line's answers, while Node computes the module's.
	type answer struct {
		code           int
		stdout, stderr string
		dir            string
		names          []string
	}
	answers := make([]answer, len(reqs))
	for i, r := range reqs {
		dir := t.TempDir()
		var names []string
		for n, text := range r.files {
			names = append(names, n)
			if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(names)
		code, stdout, stderr := runCLI(t, dir, r.argv(names))
		answers[i] = answer{code, stdout, stderr, dir, names}
	}
	results, ms := wait()
	t.Logf("%d cases, %d requests (%d codes explained): %.0f ms in the WebAssembly module under Node, %.2f ms a request",
		len(cases), len(reqs), len(codes), ms, ms/float64(len(reqs)))

	compared := map[string]int{}
	for i, r := range reqs {
		name := "explain"
		if owner[i] >= 0 {
			name = cases[owner[i]].name
		}
		a := answers[i]
		dir, names, code, stdout, stderr := a.dir, a.names, a.code, a.stdout, a.stderr
		argv := r.argv(names)
		got := results[i]
		where := fmt.Sprintf("%s: gramc %s", name, strings.Join(argv, " "))
		if got.Error != nil {
			if code == 0 && r.fn != "check" {
				t.Errorf("%s: the module failed (%s), the command did not", where, *got.Error)
				continue
			}
			if stderr != *got.Error && stderr != "gramc "+argv[0]+": "+*got.Error+"\n" {
				t.Errorf("%s: the module's error differs from the command's standard error:\n--- module\n%s\n--- command\n%s", where, *got.Error, stderr)
			}
			compared[r.fn+" (error)"]++
			continue
		}
		if code != 0 && r.fn != "check" {
			t.Errorf("%s: the command failed (%s), the module did not", where, stderr)
			continue
		}
		want := stdout
		var gotText string
		// What is compared: the function, and for gen its language.
		kind := r.fn
		if r.fn == "gen" && r.arg == "ts" {
			kind = "gen --lang ts"
		}
		switch r.fn {
		case "format":
			var m map[string]string
			json.Unmarshal(got.Value, &m)
			for _, n := range names {
				gotText += m[n]
			}
		case "gen":
			var g struct {
				Files    map[string]string
				Warnings string
			}
			json.Unmarshal(got.Value, &g)
			m := g.Files
			if len(m) == 0 {
				t.Errorf("%s: the module gives no files", where)
			}
			// gramc gen prints the check's warnings, then codegen's: the
			// module gives codegen's, as the command words them.
			if g.Warnings != "" {
				if !strings.HasSuffix(stderr, g.Warnings) {
					t.Errorf("%s: the module's warnings are not the end of the command's standard error:\n--- module\n%s\n--- command\n%s", where, g.Warnings, stderr)
				}
				compared[kind+" (warnings)"]++
			} else if strings.Contains(stderr, "["+string(diag.CodeGenNameCollision)+"]") {
				t.Errorf("%s: the module gives no warnings, the command printed:\n%s", where, stderr)
			}
			ents, _ := os.ReadDir(filepath.Join(dir, "out"))
			want = ""
			for _, e := range ents {
				b, _ := os.ReadFile(filepath.Join(dir, "out", e.Name()))
				want += "== " + e.Name() + "\n" + string(b)
			}
			for _, n := range slices.Sorted(maps.Keys(m)) {
				gotText += "== " + n + "\n" + m[n]
			}
		default:
			json.Unmarshal(got.Value, &gotText)
		}
		if gotText != want {
			t.Errorf("%s: the module's result differs from the command's:\n--- module\n%s\n--- command\n%s", where, gotText, want)
		}
		compared[kind]++
	}
	t.Logf("compared: %v", compared)
	for _, fn := range []string{"check", "format", "schema", "gen", "gen (warnings)", "gen --lang ts", "gen --lang ts (warnings)", "graph", "explain"} {
		if compared[fn] == 0 {
			t.Errorf("no successful %s was compared: the cases are broken", fn)
		}
	}
}

// runCLI runs gramc in dir, in this process. It changes the process's
// directory for the run: only TestParity calls it (TestBrowser runs in
// parallel and names files by absolute paths).
func runCLI(t *testing.T, dir string, argv []string) (int, string, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	code := cli.Do(argv, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}
