package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// compilerSession runs gramc mcp --compiler --root dir through Do, its
// standard input and output piped to the official Go SDK's client, and
// returns the client's session; the server ends with the test.
func compilerSession(t *testing.T, dir string, args ...string) *sdk.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Do(append([]string{"mcp", "--compiler", "--root", dir}, args...), inR, outW, &stderr)
		outW.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v (stderr: %s)", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("gramc mcp --compiler did not end when its input closed")
		}
		cancel()
	})
	return cs
}

// callTool calls name and returns its result, failing on a protocol
// error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structuredContent into v, failing on an
// error result or a result without it.
func structured(t *testing.T, name string, res *sdk.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s: error result: %s", name, resultText(res))
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structuredContent", name)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: structuredContent %s: %v", name, data, err)
	}
	if text := resultText(res); text == "" || json.Valid([]byte(text)) && name != "schema" {
		t.Errorf("%s: the content is not readable text but %q", name, text)
	}
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// brokenPackage has errors in several files, each of its own code: a
// diagnostic's file can be told by its code.
var brokenPackage = map[string]string{
	"pkg/a.gram":  "[Report:Type {description: \"A report\"} | (city::Strng {description: \"City\"})]\n",
	"pkg/b.gram":  "# the greeting tool\n[greet:Tool {description: \"Greets\"} | (name::String {description: \"Who\"})==>(::String)]\n",
	"pkg/c.gram":  "[wave:Tool {description: \"Waves\"} | (name::String {description: \"Who\"})=>(::String)]\n",
	"ok/ok.gram":  "[Unit:Enum {values: [\"c\", \"f\"], description: \"A unit\"}]\n[temp:Tool {description: \"The temperature\"} |\n  (city::String {description: \"City\"})==>\n  (unit::Unit {description: \"Unit\"})==>\n  (::Number)\n]\n",
	"ok/bad.txt":  "not gram\n",
	"../out.gram": "[outside:Tool {description: \"Outside\"} | (x::String {description: \"X\"})==>(::String)]\n",
}

var codeFile = map[string]string{"unknown-type": "pkg/a.gram", "hash-comment": "pkg/b.gram", "wrong-arrow": "pkg/c.gram"}

func TestMCPCompilerTools(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	writeFiles(t, dir, brokenPackage)
	cs := compilerSession(t, dir)

	if got := cs.InitializeResult().Instructions; got != compilerInstructions() || !strings.Contains(got, "describe") {
		t.Errorf("instructions: %q", got)
	}
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no outputSchema", tool.Name)
		}
		for _, s := range []any{tool.InputSchema, tool.OutputSchema} {
			for _, p := range strictSchemaProblems(t, s) {
				t.Errorf("tool %s: %s", tool.Name, p)
			}
		}
	}
	slices.Sort(names)
	if want := []string{"check", "describe", "explain", "fix", "format", "graph", "import", "schema"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	// Every diagnostic carries its own file, whatever the order of the
	// files asked (golang/go #79892).
	for _, paths := range [][]string{
		{"pkg/a.gram", "pkg/b.gram", "pkg/c.gram"},
		{"pkg/c.gram", "pkg/b.gram", "pkg/a.gram"},
		{"pkg/b.gram", "pkg/c.gram", "pkg/a.gram"},
		{"./pkg"},
		{"./..."},
	} {
		var r checkResult
		structured(t, "check", callTool(t, cs, "check", map[string]any{"paths": paths}), &r)
		if r.Errors != 3 {
			t.Errorf("check %v: %d errors, want 3: %+v", paths, r.Errors, r.Diagnostics)
		}
		for _, d := range r.Diagnostics {
			if want := codeFile[d.Code]; want != d.File {
				t.Errorf("check %v: %s diagnostic in %s, want %s", paths, d.Code, d.File, want)
			}
		}
	}
	res := callTool(t, cs, "check", map[string]any{"paths": []string{"pkg/c.gram"}})
	if text := resultText(res); !strings.Contains(text, "pkg/c.gram:1:") || !strings.Contains(text, "[wrong-arrow]") || !strings.Contains(text, "1 error") {
		t.Errorf("check's text: %q", text)
	}

	var d description
	structured(t, "describe", callTool(t, cs, "describe", map[string]any{"paths": []string{"ok"}}), &d)
	if len(d.Packages) != 1 || len(d.Packages[0].Tools) != 1 || d.Packages[0].Tools[0].Name != "temp" || d.Packages[0].Tools[0].Returns != "Number" || d.Packages[0].Types[0].Kind != "Enum" {
		t.Errorf("describe: %+v", d)
	}

	var fr fixResult
	structured(t, "fix", callTool(t, cs, "fix", map[string]any{"paths": []string{"pkg/b.gram", "pkg/c.gram"}}), &fr)
	if !slices.Equal(fr.Written, []string{"pkg/b.gram", "pkg/c.gram"}) || fr.Errors != 0 {
		t.Errorf("fix: %+v", fr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "pkg/b.gram")); !strings.HasPrefix(string(data), "// the greeting tool") {
		t.Errorf("fix left b.gram as %q", data)
	}
	structured(t, "fix", callTool(t, cs, "fix", map[string]any{"paths": []string{"pkg"}, "all": true}), &fr)
	if !slices.Equal(fr.Written, []string{"pkg/a.gram"}) || fr.Errors != 0 {
		t.Errorf("fix all: %+v", fr)
	}

	writeFiles(t, dir, map[string]string{"fmt/f.gram": "[Unit:Enum {values: [\"c\",   \"f\"], description: \"A unit\"}]\n"})
	var fm formatResult
	structured(t, "format", callTool(t, cs, "format", map[string]any{"paths": []string{"fmt"}, "write": false}), &fm)
	if len(fm.Files) != 1 || fm.Files[0].Written || !strings.Contains(fm.Files[0].Text, `["c", "f"]`) {
		t.Errorf("format, not written: %+v", fm)
	}
	structured(t, "format", callTool(t, cs, "format", map[string]any{"paths": []string{"fmt/..."}}), &fm)
	if len(fm.Files) != 1 || !fm.Files[0].Written || fm.Files[0].File != "fmt/f.gram" {
		t.Errorf("format: %+v", fm)
	}

	var sr schemaResult
	structured(t, "schema", callTool(t, cs, "schema", map[string]any{"paths": []string{"ok"}, "target": "mcp", "tools": []string{"temp"}}), &sr)
	if !slices.Equal(sr.Tools, []string{"temp"}) || !strings.Contains(sr.JSON, `"inputSchema"`) {
		t.Errorf("schema: %+v", sr)
	}

	var ex explanation
	structured(t, "explain", callTool(t, cs, "explain", map[string]any{"code": "unknown-type"}), &ex)
	if !strings.Contains(ex.Text, "unknown-type") {
		t.Errorf("explain: %+v", ex)
	}
	if res := callTool(t, cs, "explain", map[string]any{"code": "unknown-typ"}); !res.IsError || !strings.Contains(resultText(res), "did you mean unknown-type?") {
		t.Errorf("explain of a misspelt code: %s", resultText(res))
	}

	var g graphResult
	structured(t, "graph", callTool(t, cs, "graph", map[string]any{"paths": []string{"ok"}}), &g)
	if !strings.HasPrefix(g.Mermaid, "flowchart") || !strings.Contains(g.Mermaid, "temp") {
		t.Errorf("graph: %q", g.Mermaid)
	}

	list := `{"tools": [{"name": "ping", "description": "Pings", "inputSchema": {"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]}}]}`
	var ir importResult
	structured(t, "import", callTool(t, cs, "import", map[string]any{"document": list}), &ir)
	if !strings.Contains(ir.Gram, "[ping:Tool") {
		t.Errorf("import: %+v", ir)
	}
	if _, err := os.Stat(filepath.Join(dir, "ping.gram")); err == nil {
		t.Error("import wrote a file")
	}
}

// TestMCPCompilerRoot: the tools read and write only under --root; a
// path out of it, however spelt, is refused, saying so.
func TestMCPCompilerRoot(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	writeFiles(t, dir, brokenPackage)
	if err := os.Symlink(top, filepath.Join(dir, "up")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink(filepath.Join(top, "out.gram"), filepath.Join(dir, "pkg", "link.gram")); err != nil {
		t.Fatal(err)
	}
	cs := compilerSession(t, dir)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"check", map[string]any{"paths": []string{"../out.gram"}}},
		{"check", map[string]any{"paths": []string{"pkg/../../out.gram"}}},
		{"check", map[string]any{"paths": []string{filepath.Join(top, "out.gram")}}},
		{"check", map[string]any{"paths": []string{"../..."}}},
		{"check", map[string]any{"paths": []string{"up/out.gram"}}},
		{"check", map[string]any{"paths": []string{"up/..."}}},
		{"check", map[string]any{"paths": []string{"pkg"}}}, // pkg/link.gram leads out
		{"fix", map[string]any{"paths": []string{"../out.gram"}}},
		{"format", map[string]any{"paths": []string{"up/out.gram"}}},
		{"format", map[string]any{"paths": []string{"pkg"}}},
		{"describe", map[string]any{"paths": []string{"/"}}},
		{"schema", map[string]any{"paths": []string{".."}}},
		{"graph", map[string]any{"paths": []string{"up"}}},
		{"import", map[string]any{"path": "../out.gram"}},
		{"import", map[string]any{"path": "/etc/passwd"}},
	} {
		res := callTool(t, cs, c.tool, c.args)
		if text := resultText(res); !res.IsError || !strings.Contains(text, "outside the root") {
			t.Errorf("%s %v: want a refusal naming the root, got %v %q", c.tool, c.args, res.IsError, text)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(top, "out.gram")); string(data) != brokenPackage["../out.gram"] {
		t.Errorf("a file outside the root changed: %q", data)
	}
}

// TestMCPCompilerFreshReads: a file changed between two calls is read
// again, even at the same size and modification time.
func TestMCPCompilerFreshReads(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "t.gram")
	good := "[greet:Tool {description: \"Greets\"} | (name::String {description: \"Who\"})==>(::String)]\n"
	bad := strings.Replace(good, "(name::String {", "(name::Strinx {", 1) // the same size
	writeFiles(t, dir, map[string]string{"t.gram": good})
	stamp := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(name, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	cs := compilerSession(t, dir)
	var r checkResult
	structured(t, "check", callTool(t, cs, "check", map[string]any{"paths": []string{"t.gram"}}), &r)
	if r.Errors != 0 {
		t.Fatalf("good file: %+v", r)
	}
	if err := os.WriteFile(name, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(name); fi.Size() != int64(len(good)) || !fi.ModTime().Equal(stamp) {
		t.Fatalf("the edit changed the size or time: %d %v", fi.Size(), fi.ModTime())
	}
	structured(t, "check", callTool(t, cs, "check", map[string]any{"paths": []string{"t.gram"}}), &r)
	if r.Errors != 1 || r.Diagnostics[0].Code != "unknown-type" {
		t.Errorf("the same-size, same-time edit was not seen: %+v", r)
	}
}

// strictSchemaProblems is what a strict client (GitHub Copilot's, say)
// rejects in a schema: an object schema without properties (golang/go
// #76777), a $schema keyword (mcp-golang #119).
func strictSchemaProblems(t *testing.T, s any) []string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var problems []string
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["$schema"]; ok {
				problems = append(problems, at+": $schema")
			}
			if x["type"] == "object" {
				if _, ok := x["properties"]; !ok {
					problems = append(problems, at+": an object schema without properties")
				}
			}
			for k, e := range x {
				walk(at+"/"+k, e)
			}
		case []any:
			for i, e := range x {
				walk(at+"/"+string(rune('0'+i%10)), e)
			}
		}
	}
	walk("", v)
	return problems
}

// TestMCPCompilerKilledFix: a gramc mcp --compiler killed (SIGKILL) at
// any moment of a fix leaves each file whole: the original or the fixed
// text, never a part of either.
func TestMCPCompilerKilledFix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gramc many times")
	}
	if _, err := exec.LookPath("gramc"); err != nil {
		t.Skip("no gramc on PATH (testscript.Main puts it there):", err)
	}
	var decl strings.Builder
	for i := range 400 {
		fmt.Fprintf(&decl, "[tool%d:Tool {description: \"Tool %d, a tool of some length to make the file large\"} | (name::String {description: \"Who\"})==>(::String)]\n", i, i)
	}
	orig := "# the tools\n" + decl.String()
	fixed := "// the tools\n" + decl.String()
	const files = 20
	// run fixes the files of a new root, killing the server after delay
	// (never when delay < 0), and returns how many files were fixed and
	// how long the call took.
	run := func(delay time.Duration) (int, time.Duration) {
		dir := t.TempDir()
		for i := range files {
			writeFiles(t, dir, map[string]string{fmt.Sprintf("p/f%02d.gram", i): orig})
		}
		cmd := exec.Command("gramc", "mcp", "--compiler", "--root", dir)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		done := make(chan struct{})
		start := time.Now()
		go func() {
			defer close(done)
			cs.CallTool(ctx, &sdk.CallToolParams{Name: "fix", Arguments: map[string]any{"paths": []string{"p"}}}) //nolint:errcheck // killed
		}()
		if delay >= 0 {
			time.Sleep(delay)
			cmd.Process.Kill() //nolint:errcheck // may have ended
		}
		<-done
		took := time.Since(start)
		var nfixed int
		for i := range files {
			data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("p/f%02d.gram", i)))
			switch {
			case err != nil:
				t.Fatal(err)
			case string(data) == fixed:
				nfixed++
			case string(data) != orig:
				t.Fatalf("killed after %v: f%02d.gram is neither the original nor the fixed text (%d bytes)", delay, i, len(data))
			}
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "p")); len(entries) != files && delay < 0 {
			t.Errorf("a whole fix left %d entries in the directory, want %d", len(entries), files)
		}
		return nfixed, took
	}
	n, whole := run(-1)
	if n != files {
		t.Fatalf("a whole fix fixed %d of %d files", n, files)
	}
	// Kill at fractions of a whole fix's time: before, while and after
	// the files are written.
	for k := 1; k < 8; k++ {
		delay := whole * time.Duration(k) / 8
		n, _ := run(delay)
		t.Logf("killed after %v (of %v): %d of %d files fixed", delay, whole, n, files)
	}
}

// FuzzCompilerToolArgs gives every compiler tool arbitrary arguments (a
// model's): an error or a result, never a panic, never a file written
// outside the root.
func FuzzCompilerToolArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"paths": ["../x"]}`, `{"paths": ["/"]}`, `{"paths": [""]}`, `{"paths": ["a/..."], "all": true}`,
		`{"code": ""}`, `{"document": "{}"}`, `{"path": "..", "document": "x"}`, `{"target": "nope", "tools": ["x"]}`,
		`{"paths": null, "write": null}`, `[]`, `null`, `{"paths": "x"}`, `{"paths": ["pkg", "pkg/..."], "write": false}`,
	} {
		f.Add(seed)
	}
	top := f.TempDir()
	dir := filepath.Join(top, "root")
	writeFiles(f, dir, brokenPackage)
	root, err := newCompilerRoot(dir)
	if err != nil {
		f.Fatal(err)
	}
	c := &compilerTools{root: root}
	tools := []func(context.Context, json.RawMessage) (any, error){c.check, c.fix, c.format, c.schema, c.explain, c.describe, c.graph, c.importTool}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range tools {
			res, err := tool(context.Background(), json.RawMessage(args))
			if err == nil && res == nil {
				t.Fatalf("no result and no error for %s", args)
			}
		}
		if data, _ := os.ReadFile(filepath.Join(top, "out.gram")); string(data) != brokenPackage["../out.gram"] {
			t.Fatalf("%s changed a file outside the root", args)
		}
	})
}

// TestCompilerToolTable: every tool compiler.gram declares has its method
// and result type in compilerToolTable, and the table has no other.
func TestCompilerToolTable(t *testing.T) {
	specs, err := compilerSpecs()
	if err != nil {
		t.Fatal(err)
	}
	var declared, table []string
	for _, s := range specs {
		declared = append(declared, s.Name)
	}
	for name, tool := range compilerToolTable {
		table = append(table, name)
		if tool.run == nil || tool.result == nil {
			t.Errorf("%s: a nil method or result", name)
		}
	}
	slices.Sort(declared)
	slices.Sort(table)
	if !slices.Equal(declared, table) {
		t.Errorf("compiler.gram declares %v, compilerToolTable has %v", declared, table)
	}
}
