package golang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/load"
)

// repoRoot is the module root, two directories up from this package.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the repository root %s: %v", root, err)
	}
	return root
}

// TestCompile generates code (with the implementation skeleton) for every
// example package and every hostile model, writes each into its own
// directory of a temporary module that replaces gramc with this tree, and
// runs go build and go vet on the lot (sqlc's endtoend approach). Into the
// same module go the end-to-end packages of testdata/e2e (writeEndToEnd),
// whose tests it runs with go test. It needs no network: the module cache
// already holds every dependency.
func TestCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	root := repoRoot(t)
	pkgs := map[string]*check.Package{}
	for name, pkg := range hostileModels() {
		pkgs["hostile_"+name] = pkg
	}
	pkgs["handbuilt_weather"] = weatherModel()
	for _, ex := range examplePackages(t) {
		if ex.pkg != nil {
			pkgs["example_"+ex.id] = ex.pkg
		}
	}

	dir := t.TempDir()
	gomod := fmt.Sprintf("module gramctest\n\ngo 1.25\n\nrequire github.com/gramc-dev/gramc v0.0.0\n\nreplace github.com/gramc-dev/gramc => %s\n", root)
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)
	var ids []string
	for id := range pkgs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		files, err := Generate(Request{Package: pkgs[id], Stubs: true})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, f := range files {
			write(t, filepath.Join(dir, sanitizeDir(id), f.Name), f.Contents)
		}
	}
	write(t, filepath.Join(dir, "cmd", "gramcspecs", "main.go"), specsProgram(t, ids, pkgs))
	writeEndToEnd(t, filepath.Join(dir, "e2e"))
	// go vet ./... has vetted the e2e tests already: go test need not again.
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, {"run", "./cmd/gramcspecs"}, {"test", "-count=1", "-vet=off", "./e2e/..."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod "+os.Getenv("GOFLAGS"), "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
			if args[0] == "build" || args[0] == "vet" {
				return // the program and the tests need code that builds and vets
			}
		}
	}
}

// endToEnd are the packages of testdata/e2e: each directory's Go files
// are tests of the code gramc gen writes for source (as gramc gen -o dir
// --package name source would), and they run only beside it, in
// TestCompile's module (the generated code is not committed; the goldens
// hold its bytes). testdata/e2e/e2etest is their shared helper package.
var endToEnd = []struct {
	dir    string // under testdata/e2e
	source string // the gram file or directory, relative to this package
	name   string // the Go package name; "" derives it from the gram package
}{
	{"weather", filepath.Join("..", "..", "testdata", "examples", "weather.gram"), "weather"},
	{"notes", filepath.Join("..", "..", "testdata", "examples", "notes"), ""},
}

// writeEndToEnd copies testdata/e2e to dir and writes into each package of
// endToEnd the code generated for its source, with the source beside it
// (its tests load the .gram file as a user's program would).
func writeEndToEnd(t *testing.T, dir string) {
	t.Helper()
	src := filepath.Join("testdata", "e2e")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		write(t, filepath.Join(dir, rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range endToEnd {
		pkgs, diags, err := load.Packages([]string{e.source}, nil)
		if err != nil || diags.HasErrors() || len(pkgs) != 1 {
			t.Fatalf("loading %s: %v %v (%d packages)", e.source, err, diags, len(pkgs))
		}
		files, err := Generate(Request{Package: pkgs[0], PackageName: e.name})
		if err != nil {
			t.Fatalf("%s: %v", e.source, err)
		}
		for _, f := range files {
			write(t, filepath.Join(dir, e.dir, f.Name), f.Contents)
		}
		if strings.HasSuffix(e.source, ".gram") {
			data, err := os.ReadFile(e.source)
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, e.dir, filepath.Base(e.source)), data)
		}
	}
}

func sanitizeDir(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// specsProgram writes a program that checks, for every package generated
// from gram source, that each <Tool>Spec and New<Agent>() equals what the
// runtime builds from the checked source (schema.Spec and
// gramfile.AgentFromCheck), compared as JSON.
func specsProgram(t *testing.T, ids []string, pkgs map[string]*check.Package) []byte {
	var b bytes.Buffer
	b.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n")
	var body bytes.Buffer
	n := 0
	needContext := false
	for _, id := range ids {
		pkg := pkgs[id]
		if !strings.HasPrefix(id, "example_") {
			continue // hand-built models have no runtime counterpart to compare
		}
		m, err := buildModel(Request{Package: pkg})
		if err != nil {
			t.Fatal(err)
		}
		alias := fmt.Sprintf("p%d", n)
		n++
		fmt.Fprintf(&b, "\t%s %q\n", alias, "gramctest/"+sanitizeDir(id))
		for i, tool := range pkg.Tools {
			spec, err := schema.Spec(tool, schema.OpenAI)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(spec)
			fmt.Fprintf(&body, "\tcheck(%q, %s.%s, %q)\n", id+" "+tool.Name, alias, m.Tools[i].SpecName, want)
		}
		if id == "example_testdata_hostile_names" {
			// Property names no struct tag can hold round-trip through the
			// generated JSON methods; hostile defaults reach the function
			// intact through the runtime.
			fmt.Fprintf(&body, `	{
		in := %q
		var v %[2]s.FooBar
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			fmt.Println("FooBar:", err)
			failed = true
		}
		out, _ := json.Marshal(v)
		if string(out) != in {
			fmt.Printf("FooBar round trip:\n\t%%s\n\t%%s\n", in, out)
			failed = true
		}
		var got %[2]s.GoToolArgs
		tool := %[2]s.NewGoToolTool(func(ctx context.Context, args %[2]s.GoToolArgs) (%[2]s.FooBar, error) { got = args; return v, nil })
		bound, err := runtime.Bind(runtime.Agent{Name: "a", Tools: []runtime.ToolSpecification{tool.Spec}}, runtime.NewToolLibrary(tool))
		if err != nil {
			fmt.Println("GoTool bind:", err)
			failed = true
		} else if inv := bound.Call(context.Background(), runtime.ToolCall{ID: "1", Name: tool.Spec.Name, Arguments: "{}"}); inv.Err != nil || got.WithSpace != %[3]q || got.Lvl != %[2]s.LevelValue6 {
			fmt.Printf("GoTool defaults: %%q %%q %%v\n", got.WithSpace, got.Lvl, inv.Err)
			failed = true
		}
	}
`, `{"type":"t","func":3,"my name":"n","a-b":2.5,"a.b":"x","aB":"y"}`, alias, "`backtick` */ \n //go:generate x")
			needContext = true
		}
		for i, a := range pkg.Agents {
			agent, err := gramfile.AgentFromCheck(a)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(agent)
			fmt.Fprintf(&body, "\tcheck(%q, %s.%s(), %q)\n", id+" "+a.Name, alias, m.Agents[i].FuncName, want)
		}
	}
	if needContext {
		b.WriteString("\t\"context\"\n\n\t\"github.com/gramc-dev/gramc/runtime\"\n")
	}
	b.WriteString(")\n\nvar failed bool\n\nfunc check(what string, v any, want string) {\n\tgot, err := json.Marshal(v)\n\tif err != nil || string(got) != want {\n\t\tfmt.Printf(\"%s: generated\\n\\t%s\\nruntime\\n\\t%s\\n\", what, got, want)\n\t\tfailed = true\n\t}\n}\n\nfunc main() {\n")
	b.Write(body.Bytes())
	b.WriteString("\tif failed {\n\t\tos.Exit(1)\n\t}\n}\n")
	return b.Bytes()
}
