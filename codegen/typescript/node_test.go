package typescript

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/internal/gentest"
	"github.com/gramc-dev/gramc/codegen/internal/hostile"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/internal/nodetest"
	"github.com/gramc-dev/gramc/runtime"
)

// nodeModules returns testdata/node, where `make gents` ran npm ci, or
// skips the test saying why; with GRAMC_TS_TEST=required (as .ci/run
// sets) it fails instead.
func nodeModules(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the TypeScript tests run tsc and Node")
	}
	return nodetest.Require(t, "GRAMC_TS_TEST", filepath.Join("testdata", "node"), "the generated TypeScript's tests",
		"run make gents (npm ci in codegen/typescript/testdata/node)", "typescript", "zod", "ajv", "@modelcontextprotocol/sdk", "json-schema-to-typescript")
}

// workspace is a temporary directory where Node finds testdata/node's
// packages and reads .js files as ES modules.
func workspace(t testing.TB, nodeDir string) string {
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(nodeDir, "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"type":"module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// writePackage generates p's TypeScript into dir.
func writePackage(t testing.TB, dir string, pkg *check.Package) {
	t.Helper()
	files, err := Generate(Request{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Contents, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type manifest struct {
	Root     string        `json:"root"`
	JSTT     []jsttPackage `json:"jstt"`
	Programs []program     `json:"programs"`
	Tokens   [][2]string   `json:"tokens"`
	// Transpile are files only transpiled to JavaScript, not checked.
	Transpile []string          `json:"transpile"`
	Cases     []validationCase  `json:"cases"`
	Schemas   []json.RawMessage `json:"schemas"`
}

type jsttPackage struct {
	Dir   string     `json:"dir"`
	Tools []jsttTool `json:"tools"`
}

type jsttTool struct {
	Result string          `json:"result"` // the code-mode type, e.g. GetWeatherResult
	Schema json.RawMessage `json:"schema"`
}

type program struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
	Emit  bool     `json:"emit"`
	// SkipLibCheck leaves the libraries' declarations (Zod's, the MCP
	// SDK's) unchecked, as tsc --init's tsconfig does: a program that
	// checks them all once is enough (TestNodeTenThousandTools's).
	SkipLibCheck bool `json:"skipLibCheck"`
}

type validationCase struct {
	Pkg      string          `json:"pkg"`
	Dir      string          `json:"dir"`
	Kind     string          `json:"kind"` // type, args or result
	Name     string          `json:"name"`
	Schema   int             `json:"schema"`
	Instance json.RawMessage `json:"instance"`
	goValid  bool
}

type nodeResult struct {
	Diagnostics map[string][]string `json:"diagnostics"`
	Tokens      []string            `json:"tokens"`
	JSTTFailed  []string            `json:"jsttFailed"`
	JSTTChecked int                 `json:"jsttChecked"`
	Verdicts    []struct {
		Zod      bool   `json:"zod"`
		Ajv      bool   `json:"ajv"`
		Why      string `json:"why"`
		Unusable string `json:"unusable"` // Ajv cannot compile the schema
	} `json:"verdicts"`
}

// runNode runs check.mjs on m.
func runNode(t testing.TB, nodeDir string, m *manifest) *nodeResult {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(m.Root, "manifest.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Bounded: tsc takes about 20 s and 1.4 GB on the 10,000-tool package
	// (docs/performance.md); a generator change that made tsc's cost grow
	// with the package again fails here rather than exhausting the machine.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--max-old-space-size=4096", filepath.Join(nodeDir, "check.mjs"), path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.String())
	}
	t.Logf("%s", strings.TrimSpace(stderr.String()))
	var res nodeResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("node check.mjs output: %v\n%.2000s", err, stdout.String())
	}
	return &res
}

// probeTool is a tool whose result is t: its output schema is the schema
// of t as the mcp target writes it (a record's at the root, with $defs).
func typeSchema(t *check.Type) (json.RawMessage, error) {
	return schema.Output(&check.Tool{Name: "probe", Result: t})
}

// argsSchema is a tool's inputSchema in the mcp target.
func argsSchema(t *check.Tool) (json.RawMessage, error) {
	entry, err := schema.Entry(t, schema.MCP)
	if err != nil {
		return nil, err
	}
	var e struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(entry, &e); err != nil {
		return nil, err
	}
	return e.InputSchema, nil
}

// goValid is gramc's own verdict: the validator that checks tool results
// (and, with the same compiled schemas, arguments).
func goValid(schemaText, instance json.RawMessage) bool {
	return runtime.ValidateOutput(runtime.ToolSpecification{Name: "probe", OutputSchema: schemaText}, instance) == nil
}

// TestNode compiles the generated TypeScript with tsc --strict (every
// example and testdata/check package that checks clean, the hostile
// corpus, 300 random packages; the 10,000-tool package in
// TestNodeTenThousandTools), checks that tools.d.ts's result types and
// json-schema-to-typescript's types of the tools' output schemas are
// mutually assignable, that hostile text changes no token of the output,
// and that the generated Zod schemas, Ajv on the mcp target's schemas and
// gramc's validator give the same verdict on at least 10,000 instances.
func TestNode(t *testing.T) {
	nodeDir := nodeModules(t)
	root := workspace(t, nodeDir)
	m := &manifest{Root: root}
	modules := program{Name: "modules", Emit: true, SkipLibCheck: true}

	var pkgs []testPackage
	pkgs = append(pkgs, examplePackages(t)...)
	pkgs = append(pkgs, randomPackages(t, 300)...)
	r := rand.New(rand.NewSource(47))
	schemaIndex := map[string]int{}
	addSchema := func(s json.RawMessage) int {
		if i, ok := schemaIndex[string(s)]; ok {
			return i
		}
		m.Schemas = append(m.Schemas, s)
		schemaIndex[string(s)] = len(m.Schemas) - 1
		return len(m.Schemas) - 1
	}
	addCases := func(p testPackage, dir, kind, name string, s json.RawMessage, n int) {
		insts, err := instances(r, s, n)
		if err != nil {
			t.Fatalf("%s %s: %v", p.id, name, err)
		}
		idx := addSchema(s)
		for _, inst := range insts {
			m.Cases = append(m.Cases, validationCase{Pkg: p.id, Dir: dir, Kind: kind, Name: name, Schema: idx, Instance: inst, goValid: goValid(s, inst)})
		}
	}
	for _, p := range pkgs {
		dir := filepath.Join(root, "pkgs", p.id)
		writePackage(t, dir, p.pkg)
		if strings.HasPrefix(p.id, "random_") {
			// Their Zod schemas are run, their code-mode types checked;
			// tsc on 300 packages of Zod schemas would take minutes of
			// the test's time for no more than the examples show.
			m.Transpile = append(m.Transpile, filepath.Join(dir, TypesFile))
		} else {
			for _, f := range []string{TypesFile, MCPFile, IndexFile} {
				modules.Files = append(modules.Files, filepath.Join(dir, f))
			}
		}
		g, err := build(Request{Package: p.pkg})
		if err != nil {
			t.Fatal(err)
		}
		// Code mode: tools.d.ts with json-schema-to-typescript's types
		// (codemode.ts, see check.mjs), and the examples' tools.d.ts as
		// written, each a program of its own (its tools are global).
		modules.Files = append(modules.Files, filepath.Join(dir, "codemode.ts"))
		if strings.HasPrefix(p.id, "examples_") {
			m.Programs = append(m.Programs, program{Name: "codemode:" + p.id, Files: []string{filepath.Join(dir, CodeModeFile)}})
		}
		jp := jsttPackage{Dir: dir}
		for _, tn := range g.tools {
			out, err := schema.Output(tn.t)
			if err != nil {
				t.Fatal(err)
			}
			jp.Tools = append(jp.Tools, jsttTool{Result: tn.base + "Result", Schema: out})
		}
		m.JSTT = append(m.JSTT, jp)
		// Three-way agreement on every type, enum and tool's arguments.
		n := 8
		if strings.HasPrefix(p.id, "examples_") {
			n = 60
		}
		for _, d := range g.m.Types {
			s, err := typeSchema(&check.Type{Kind: check.Record, Decl: d})
			if err != nil {
				t.Fatal(err)
			}
			addCases(p, dir, "type", d.Name, s, n)
		}
		for _, e := range g.m.Enums {
			s, err := typeSchema(&check.Type{Kind: check.EnumKind, Enum: e})
			if err != nil {
				t.Fatal(err)
			}
			addCases(p, dir, "type", e.Name, s, n)
		}
		for _, tn := range g.tools {
			s, err := argsSchema(tn.t)
			if err != nil {
				t.Fatal(err)
			}
			addCases(p, dir, "args", tn.t.Name, s, n)
		}
	}

	// The hostile corpus, and the same packages with benign text: the
	// token streams must be the same.
	benignModels := benign(hostile.Models())
	for _, p := range hostilePackages() {
		dir := filepath.Join(root, "pkgs", p.id)
		writePackage(t, dir, p.pkg)
		for _, f := range []string{TypesFile, MCPFile, IndexFile} {
			modules.Files = append(modules.Files, filepath.Join(dir, f))
		}
		m.Programs = append(m.Programs, program{Name: "codemode:" + p.id, Files: []string{filepath.Join(dir, CodeModeFile)}})
		twin := filepath.Join(root, "benign", p.id)
		writePackage(t, twin, benignModels[strings.TrimPrefix(p.id, "hostile_")])
		for _, f := range FileNames {
			m.Tokens = append(m.Tokens, [2]string{filepath.Join(dir, f), filepath.Join(twin, f)})
		}
	}
	m.Programs = append([]program{modules}, m.Programs...)

	res := runNode(t, nodeDir, m)
	for name, ds := range res.Diagnostics {
		if len(ds) > 0 {
			t.Errorf("tsc --strict, program %s:\n%s", name, strings.Join(ds, "\n"))
		}
	}
	if len(res.Diagnostics) != len(m.Programs) {
		t.Errorf("%d programs compiled, want %d", len(res.Diagnostics), len(m.Programs))
	}
	// json-schema-to-typescript gives up on some recursive schemas (see
	// check.mjs); every other tool's result types must be checked.
	for _, f := range res.JSTTFailed {
		t.Logf("json-schema-to-typescript: %s", f)
	}
	t.Logf("code mode: %d tools' result types mutually assignable with json-schema-to-typescript's, %d it cannot derive", res.JSTTChecked, len(res.JSTTFailed))
	if res.JSTTChecked < 10*len(res.JSTTFailed) {
		t.Errorf("json-schema-to-typescript failed on %d tools, checked %d", len(res.JSTTFailed), res.JSTTChecked)
	}
	for i, d := range res.Tokens {
		if d != "" {
			t.Errorf("hostile text changed the code: %s (%s)", d, m.Tokens[i][0])
		}
	}
	if len(res.Verdicts) != len(m.Cases) {
		t.Fatalf("%d verdicts for %d cases", len(res.Verdicts), len(m.Cases))
	}
	valid, diffs, unusable := 0, 0, map[string]string{}
	for i, c := range m.Cases {
		v := res.Verdicts[i]
		if v.Unusable != "" {
			// A pattern only RE2 reads (gramc warns pattern-portability):
			// no ECMA-262 validator, Ajv or Zod, can check it.
			unusable[c.Pkg+" "+c.Name] = v.Unusable
			continue
		}
		if c.goValid {
			valid++
		}
		if v.Zod != c.goValid || v.Ajv != c.goValid {
			diffs++
			if diffs <= 20 {
				t.Errorf("%s %s %s: %s: gramc %v, Zod %v (%s), Ajv %v\nschema: %s", c.Pkg, c.Kind, c.Name, c.Instance, c.goValid, v.Zod, v.Why, v.Ajv, m.Schemas[c.Schema])
			}
		}
	}
	compared := len(m.Cases)
	for k, why := range unusable {
		t.Logf("not compared: %s: Ajv: %s", k, why)
	}
	for _, v := range res.Verdicts {
		if v.Unusable != "" {
			compared--
		}
	}
	t.Logf("three-way agreement: %d instances (%d valid, %d invalid) of %d schemas, %d differences; %d programs compiled", compared, valid, compared-valid, len(m.Schemas), diffs, len(m.Programs))
	if compared < 10000 {
		t.Errorf("only %d instances compared, want at least 10,000", compared)
	}
	if valid < compared/4 || compared-valid < compared/4 {
		t.Errorf("a poor mix: %d valid of %d", valid, compared)
	}
	if len(unusable) > 3 {
		t.Errorf("%d types or tools Ajv cannot compile; only testdata/check's pattern-portability cases should be", len(unusable))
	}
}

// TestNodeTenThousandTools compiles the TypeScript of a 10,000-tool
// package (gramgen.Package(10000, 100), 35 MB) with tsc --strict: about
// 20 s and 1.4 GB (docs/performance.md), since the generated schemas cost
// tsc the same per tool however many there are.
func TestNodeTenThousandTools(t *testing.T) {
	nodeDir := nodeModules(t)
	root := workspace(t, nodeDir)
	dir := filepath.Join(root, "pkgs", "big")
	writePackage(t, dir, tenThousandTools(t))
	var files []string
	for _, f := range FileNames {
		files = append(files, filepath.Join(dir, f))
	}
	res := runNode(t, nodeDir, &manifest{Root: root, Programs: []program{{Name: "big", Files: files}}})
	if ds := res.Diagnostics["big"]; len(ds) > 0 || res.Diagnostics == nil {
		t.Errorf("tsc --strict on the 10,000-tool package:\n%s", strings.Join(ds, "\n"))
	}
}

// tenThousandTools is gramgen.Package(10000, 100), checked.
func tenThousandTools(t testing.TB) *check.Package {
	pkg := gentest.Package(t, 10000, 100)
	pkg.Name = "big"
	return pkg
}

// benign returns models with every description, instruction, title and
// string default replaced by plain text: what hostile text is compared
// with.
func benign(models map[string]*check.Package) map[string]*check.Package {
	seenP := map[*check.Param]bool{}
	fix := func(ps []*check.Param) {
		for _, p := range ps {
			if seenP[p] {
				continue
			}
			seenP[p] = true
			if p.Description != "" {
				p.Description = "text"
			}
			if _, ok := p.Default.(string); ok {
				p.Default = "text"
			}
		}
	}
	for _, pkg := range models {
		for _, d := range pkg.Types {
			if d.Description != "" {
				d.Description = "text"
			}
			fix(d.Fields)
		}
		for _, e := range pkg.Enums {
			if e.Description != "" {
				e.Description = "text"
			}
		}
		tools := append([]*check.Tool(nil), pkg.Tools...)
		for _, a := range pkg.Agents {
			if a.Description != "" {
				a.Description = "text"
			}
			a.Instruction = "text"
			tools = append(tools, a.Tools...)
			if a.Signature != nil {
				tools = append(tools, a.Signature)
			}
		}
		for _, t := range tools {
			if t.Description != "" {
				t.Description = "text"
			}
			if t.Title != "" {
				t.Title = "text"
			}
			if t.ResultDescription != "" {
				t.ResultDescription = "text"
			}
			fix(t.Params)
		}
	}
	return models
}
