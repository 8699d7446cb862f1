package cli

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/graph"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/syntax"
)

// gramc mcp --compiler (issue 48): gramc's own commands as MCP tools for
// coding agents. The tools are declared in gram (compilertools/
// compiler.gram, checked by the repository's gramc check like any
// package) and served by the code that serves any package (serveMCP);
// each implementation calls the function its command runs, so the tool
// and the command cannot differ.

//go:embed compilertools/compiler.gram
var compilerGram []byte

// compilerGramName is the embedded package's file name in diagnostics.
const compilerGramName = "cli/compilertools/compiler.gram"

// compilerSpecs are the tool specifications of the embedded declarations,
// as gramc mcp serves any package's: the mcp target's schemas.
func compilerSpecs() ([]runtime.ToolSpecification, error) {
	parsed := syntax.ParseFiles([]syntax.Source{{Name: compilerGramName, Src: compilerGram}})
	files := []check.SourceFile{{AST: parsed[0].File, Diags: parsed[0].Diags}}
	pkg, ds := check.CheckSources("", files)
	if ds.HasErrors() {
		return nil, fmt.Errorf("the compiler tools' declarations: %w", ds.Err())
	}
	specs := make([]runtime.ToolSpecification, 0, len(pkg.Tools))
	for _, t := range pkg.Tools {
		spec, err := schema.Spec(t, schema.MCP)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// compilerInstructions are the server's MCP instructions: the workflow
// of docs/mcp.md ("gramc for coding agents"), the one text the skill
// teaches too.
func compilerInstructions() string {
	page := docs.Page("mcp.md")
	const open, end = "<!-- instructions -->\n", "<!-- /instructions -->"
	i := strings.Index(page, open)
	j := strings.Index(page, end)
	if i < 0 || j < i {
		panic("docs/mcp.md: no <!-- instructions --> section")
	}
	return strings.TrimSpace(page[i+len(open) : j])
}

// compilerTools are the implementations of the compiler's tools, over
// the files under root.
type compilerTools struct {
	root   *compilerRoot
	writes sync.Mutex // fix and format write one at a time
}

// runMCPCompiler serves the compiler's tools.
func runMCPCompiler(ctx context.Context, e *env, opts mcpOptions, args []string) error {
	switch {
	case len(args) > 0:
		return usageErrorf("--compiler serves gramc's own tools: name no package (the tools take paths under --root)")
	case opts.agent != "" || opts.agents || len(opts.tools) > 0 || len(opts.toolEnv) > 0:
		return usageErrorf("--compiler serves gramc's own tools: --agent, --agents, --tool and --tool-env do not apply")
	}
	if opts.printInstructions {
		fmt.Fprintln(e.stdout, compilerInstructions())
		return nil
	}
	root, err := newCompilerRoot(opts.root)
	if err != nil {
		return usageErrorf("--root: %v", err)
	}
	specs, err := compilerSpecs()
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	c := &compilerTools{root: root}
	impls := make([]runtime.Tool, 0, len(specs))
	for _, s := range specs {
		run := compilerToolTable[s.Name].run
		impls = append(impls, runtime.Tool{Spec: s, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
			return run(c, ctx, args)
		}})
	}
	so := mcp.ServerOptions{Instructions: compilerInstructions(), Text: compilerText}
	fmt.Fprintf(e.stderr, "gramc mcp: the compiler's tools, on the files under %s\n", root.dir)
	return serveMCP(ctx, e, opts, specs, impls, so, nil)
}

// compilerRoot is the directory the compiler's tools read and write
// under.
type compilerRoot struct {
	dir   string // absolute, its symbolic links resolved
	given string // absolute, as given
}

func newCompilerRoot(dir string) (*compilerRoot, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return &compilerRoot{dir: real, given: abs}, nil
}

// contains reports whether the absolute, clean path is the root or below.
func (r *compilerRoot) contains(path string) bool {
	for _, d := range []string{r.dir, r.given} {
		if rel, err := filepath.Rel(d, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// errOutsideRoot is wrapped by the error of a path outside the root.
var errOutsideRoot = errors.New("outside the root")

// inside checks that path (absolute) lies under the root, its symbolic
// links followed, and returns it clean. A path that does not exist is
// checked as written (the loader says it is missing).
func (r *compilerRoot) inside(path, asked string) (string, error) {
	path = filepath.Clean(path)
	if !r.contains(path) {
		return "", fmt.Errorf("%s: %w %s: the tools read and write only under it (--root)", asked, errOutsideRoot, r.dir)
	}
	real, err := filepath.EvalSymlinks(path)
	if err == nil && !r.contains(real) {
		return "", fmt.Errorf("%s: a symbolic link to %s, %w %s: the tools read and write only under it (--root)", asked, real, errOutsideRoot, r.dir)
	}
	return path, nil
}

// file is the absolute path of a file a tool was given.
func (r *compilerRoot) file(p string) (string, error) {
	if p == "" {
		return "", errors.New("an empty path")
	}
	abs := filepath.FromSlash(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.given, abs)
	}
	return r.inside(abs, p)
}

// patterns turns the paths a tool was given (files, directories,
// dir/...; default ./...) into the loader's patterns, absolute under the
// root, and checks that every file they name lies under it too (a link
// below the root to a file outside it is refused as well).
func (r *compilerRoot) patterns(paths []string) ([]string, error) {
	if len(paths) == 0 {
		paths = []string{"./..."}
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		base, walk := strings.CutSuffix(filepath.ToSlash(p), "...")
		if walk {
			base = strings.TrimSuffix(base, "/")
			if base == "" {
				base = "."
			}
		}
		abs, err := r.file(base)
		if err != nil {
			return nil, err
		}
		if walk {
			abs += string(filepath.Separator) + "..."
		}
		out = append(out, abs)
	}
	units, _, err := load.Expand(out, nil)
	if err != nil {
		return nil, r.relErr(err)
	}
	for _, u := range units {
		for _, f := range u.Files {
			if _, err := r.inside(f, r.rel(f)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// guard is fmtRun's guard: a file under the root only.
func (r *compilerRoot) guard(path string) error {
	_, err := r.inside(path, r.rel(path))
	return err
}

// rel is path relative to the root, with slashes: the names the tools
// return.
func (r *compilerRoot) rel(path string) string {
	if path == "" || !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	for _, d := range []string{r.given, r.dir} {
		if rel, err := filepath.Rel(d, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// relErr is err with the root's absolute paths made relative: a model
// reads names as it gave them.
func (r *compilerRoot) relErr(err error) error {
	msg := err.Error()
	for _, d := range []string{r.given, r.dir} {
		msg = strings.ReplaceAll(msg, d+string(filepath.Separator), "")
	}
	return errors.New(msg)
}

// toolEnv is the env a tool's command function runs in: nothing is read
// from standard input, and what it prints is kept (an error's text).
func toolEnv() (*env, *bytes.Buffer) {
	var out bytes.Buffer
	return &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, color: "never"}, &out
}

// toolError is a command function's error as a tool's: its message
// (with what the function printed, when it printed before failing),
// paths relative to the root.
func (c *compilerTools) toolError(err error, printed *bytes.Buffer) error {
	var xe *exitError
	if errors.As(err, &xe) && xe.err == nil {
		return c.root.relErr(errors.New(strings.TrimSpace(printed.String())))
	}
	return c.root.relErr(err)
}

// The compiler tools' results, as compiler.gram declares them.
type (
	compilerTextEdit struct {
		diag.Span
		NewText string `json:"newText"`
	}
	compilerFix struct {
		Exact bool               `json:"exact"`
		Edits []compilerTextEdit `json:"edits"`
	}
	compilerDiagnostic struct {
		diag.Span
		Severity string        `json:"severity"`
		Code     string        `json:"code"`
		Message  string        `json:"message"`
		Detail   string        `json:"detail"`
		Fixes    []compilerFix `json:"fixes"`
	}
	checkResult struct {
		Diagnostics []compilerDiagnostic `json:"diagnostics"`
		Errors      int                  `json:"errors"`
		Warnings    int                  `json:"warnings"`
	}
	// fixResult is what fix wrote, then check's result after it.
	fixResult struct {
		Written []string `json:"written"`
		checkResult
	}
	formattedFile struct {
		File    string `json:"file"`
		Written bool   `json:"written"`
		Text    string `json:"text"`
	}
	formatResult struct {
		Files       []formattedFile      `json:"files"`
		Diagnostics []compilerDiagnostic `json:"diagnostics"`
	}
	schemaResult struct {
		Tools []string `json:"tools"`
		JSON  string   `json:"json"`
	}
	explanation struct {
		Code string `json:"code"`
		Text string `json:"text"`
	}
	parameterInfo struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Required    bool   `json:"required"`
		Description string `json:"description"`
	}
	toolInfo struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Signature   string          `json:"signature"`
		Parameters  []parameterInfo `json:"parameters"`
		Returns     string          `json:"returns"`
		File        string          `json:"file"`
		Line        int             `json:"line"`
	}
	typeInfo struct {
		Name        string          `json:"name"`
		Kind        string          `json:"kind"`
		Description string          `json:"description"`
		Fields      []parameterInfo `json:"fields"`
		Values      []string        `json:"values"`
		File        string          `json:"file"`
		Line        int             `json:"line"`
	}
	agentInfo struct {
		Name        string   `json:"name"`
		Description string   `json:"description"`
		Model       string   `json:"model"`
		Tools       []string `json:"tools"`
		Signature   string   `json:"signature"`
		File        string   `json:"file"`
		Line        int      `json:"line"`
	}
	packageInfo struct {
		Dir    string      `json:"dir"`
		Name   string      `json:"name"`
		Files  []string    `json:"files"`
		Tools  []toolInfo  `json:"tools"`
		Types  []typeInfo  `json:"types"`
		Agents []agentInfo `json:"agents"`
	}
	description struct {
		Packages    []packageInfo        `json:"packages"`
		Diagnostics []compilerDiagnostic `json:"diagnostics"`
	}
	graphResult struct {
		Mermaid string `json:"mermaid"`
	}
	importResult struct {
		Gram     string               `json:"gram"`
		Warnings []compilerDiagnostic `json:"warnings"`
	}
)

// diagnostics converts ds for a tool's result: each with its own file
// (relative to the root) and its fixes as text edits.
func (c *compilerTools) diagnostics(ds diag.Diagnostics) []compilerDiagnostic {
	out := make([]compilerDiagnostic, 0, len(ds))
	for _, d := range ds {
		cd := compilerDiagnostic{Span: diag.SpanOf(c.root.rel(d.Range.File), d.Range), Severity: d.Severity.String(), Code: string(d.Code), Message: d.Summary, Detail: d.Detail, Fixes: []compilerFix{}}
		if edits := d.Edits(); len(edits) > 0 {
			f := compilerFix{Exact: diag.FixOf(d) == diag.FixExact}
			for _, ed := range edits {
				file := c.root.rel(ed.Range.File)
				if file == "" {
					file = cd.File
				}
				f.Edits = append(f.Edits, compilerTextEdit{Span: diag.SpanOf(file, ed.Range), NewText: ed.NewText})
			}
			cd.Fixes = append(cd.Fixes, f)
		}
		out = append(out, cd)
	}
	return out
}

// count is the errors and warnings of ds.
func count(ds diag.Diagnostics) (errs, warns int) {
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// pathsArgs are the arguments every tool over packages takes.
type pathsArgs struct {
	Paths   []string `json:"paths"`
	Targets []string `json:"targets"`
	All     *bool    `json:"all"`
	Write   *bool    `json:"write"`
	Target  string   `json:"target"`
	Tools   []string `json:"tools"`
}

func decodeArgs(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}

// pathsArgs decodes a tool's arguments and resolves their paths under
// the root, as patterns the commands take.
func (c *compilerTools) pathsArgs(raw json.RawMessage) (pathsArgs, []string, error) {
	var a pathsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, nil, err
	}
	pats, err := c.root.patterns(a.Paths)
	return a, pats, err
}

// checked runs gramc check's work over pats with opts, as the check and
// fix tools do: its report and the tool's result of its diagnostics.
func (c *compilerTools) checked(opts checkOptions, pats []string) (*checkReport, checkResult, error) {
	e, printed := toolEnv()
	rep, err := checkPackages(e, opts, pats, nil)
	if err == nil && rep.fixErr != nil {
		err = fmt.Errorf("%s: %w", strings.TrimSpace(printed.String()), rep.fixErr)
	}
	if err != nil {
		return nil, checkResult{}, c.toolError(err, printed)
	}
	res := checkResult{Diagnostics: c.diagnostics(rep.diags)}
	res.Errors, res.Warnings = count(rep.diags)
	return rep, res, nil
}

func (c *compilerTools) check(ctx context.Context, raw json.RawMessage) (any, error) {
	a, pats, err := c.pathsArgs(raw)
	if err != nil {
		return nil, err
	}
	_, res, err := c.checked(checkOptions{targets: a.Targets}, pats)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (c *compilerTools) fix(ctx context.Context, raw json.RawMessage) (any, error) {
	a, pats, err := c.pathsArgs(raw)
	if err != nil {
		return nil, err
	}
	mode := "exact"
	if a.All != nil && *a.All {
		mode = "all"
	}
	c.writes.Lock()
	defer c.writes.Unlock()
	rep, after, err := c.checked(checkOptions{fix: mode}, pats)
	if err != nil {
		return nil, err
	}
	res := fixResult{Written: []string{}, checkResult: after}
	for _, w := range rep.written {
		res.Written = append(res.Written, c.root.rel(w))
	}
	return res, nil
}

func (c *compilerTools) format(ctx context.Context, raw json.RawMessage) (any, error) {
	a, pats, err := c.pathsArgs(raw)
	if err != nil {
		return nil, err
	}
	write := a.Write == nil || *a.Write
	if write {
		c.writes.Lock()
		defer c.writes.Unlock()
	}
	e, printed := toolEnv()
	r := &fmtRun{e: e, opts: fmtOptions{write: write}, guard: c.root.guard, report: &fmtReport{}}
	for _, p := range pats {
		r.arg(p)
	}
	if r.ioErrors {
		return nil, c.root.relErr(errors.New(strings.TrimSpace(strings.ReplaceAll(printed.String(), "gramc fmt: ", ""))))
	}
	res := formatResult{Files: []formattedFile{}, Diagnostics: c.diagnostics(r.report.diags)}
	for _, f := range r.report.files {
		res.Files = append(res.Files, formattedFile{File: c.root.rel(f.name), Written: f.written, Text: string(f.text)})
	}
	return res, nil
}

// loaded are the packages paths name, or their diagnostics when they
// have errors (a tool that goes on with the packages needs them clean,
// as its command does).
func (c *compilerTools) loaded(paths []string) ([]*check.Package, []compilerDiagnostic, error) {
	pats, err := c.root.patterns(paths)
	if err != nil {
		return nil, nil, err
	}
	e, printed := toolEnv()
	pkgs, ds, err := loadScoped(e, pats)
	if err != nil {
		return nil, nil, c.toolError(err, printed)
	}
	if ds.HasErrors() {
		return nil, c.diagnostics(ds), nil
	}
	return pkgs, nil, nil
}

// errorsIn is the tool error of packages with errors: their diagnostics,
// as check returns them, so that the model reads what to fix.
func (c *compilerTools) errorsIn(ds []compilerDiagnostic) error {
	var b strings.Builder
	b.WriteString("the packages have errors; fix them first (check returns them with their fixes):\n")
	writeDiagnosticLines(&b, ds)
	return errors.New(strings.TrimSpace(b.String()))
}

func (c *compilerTools) schema(ctx context.Context, raw json.RawMessage) (any, error) {
	var a pathsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Target == "" {
		a.Target = string(schema.JSONSchema)
	}
	targets, err := schema.ParseTargets(a.Target)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	pkgs, ds, err := c.loaded(a.Paths)
	if err != nil {
		return nil, err
	}
	if ds != nil {
		return nil, c.errorsIn(ds)
	}
	tools, lint, err := schemaLintedTools(pkgs, schemaOptions{tools: a.Tools}, targets)
	if err != nil {
		return nil, c.root.relErr(err)
	}
	if len(lint) > 0 {
		return nil, c.errorsIn(c.diagnostics(lint))
	}
	out, err := schema.EmitTargets(tools, targets)
	if err != nil {
		return nil, err
	}
	res := schemaResult{Tools: []string{}, JSON: string(out)}
	for _, t := range tools {
		res.Tools = append(res.Tools, t.Name)
	}
	return res, nil
}

func (c *compilerTools) explain(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Code string `json:"code"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	text, err := explainCode(a.Code)
	if err != nil {
		return nil, err
	}
	return explanation{Code: a.Code, Text: text}, nil
}

func (c *compilerTools) graph(ctx context.Context, raw json.RawMessage) (any, error) {
	var a pathsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	pkgs, ds, err := c.loaded(a.Paths)
	if err != nil {
		return nil, err
	}
	if ds != nil {
		return nil, c.errorsIn(ds)
	}
	var buf bytes.Buffer
	if err := graph.Write(&buf, pkgs, graph.Mermaid); err != nil {
		return nil, err
	}
	return graphResult{Mermaid: buf.String()}, nil
}

func (c *compilerTools) importTool(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Path     string `json:"path"`
		Document string `json:"document"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	var src importer.Source
	switch {
	case (a.Path == "") == (a.Document == ""):
		return nil, errors.New("give one source: path (a file under the root) or document (its text)")
	case a.Document != "":
		if len(a.Document) > importer.MaxSourceBytes {
			return nil, fmt.Errorf("document: larger than %d bytes (importer.MaxSourceBytes)", importer.MaxSourceBytes)
		}
		src = importer.Source{Name: "document", Data: []byte(a.Document)}
	default:
		abs, err := c.root.file(a.Path)
		if err != nil {
			return nil, err
		}
		f, _, err := regular.Open(abs) // a FIFO is refused, not waited on
		if err != nil {
			return nil, c.root.relErr(err)
		}
		data, err := readBounded(f, a.Path)
		f.Close()
		if err != nil {
			return nil, c.root.relErr(err)
		}
		src = importer.Source{Name: abs, Data: data}
	}
	res, ds, err := importPackage([]importer.Source{src})
	if len(ds) > 0 {
		return nil, c.errorsIn(c.diagnostics(ds))
	}
	if err != nil {
		return nil, err
	}
	return importResult{Gram: string(res.Gram), Warnings: c.diagnostics(res.Warnings)}, nil
}

func (c *compilerTools) describe(ctx context.Context, raw json.RawMessage) (any, error) {
	_, pats, err := c.pathsArgs(raw)
	if err != nil {
		return nil, err
	}
	e, printed := toolEnv()
	pkgs, ds, err := loadScoped(e, pats)
	if err != nil {
		return nil, c.toolError(err, printed)
	}
	res := description{Packages: []packageInfo{}, Diagnostics: c.diagnostics(ds)}
	for _, p := range pkgs {
		res.Packages = append(res.Packages, c.describePackage(p))
	}
	return res, nil
}

// describePackage is a package's declarations for describe.
func (c *compilerTools) describePackage(p *check.Package) packageInfo {
	pi := packageInfo{Dir: c.root.rel(p.Dir), Name: p.Name, Files: []string{}, Tools: []toolInfo{}, Types: []typeInfo{}, Agents: []agentInfo{}}
	for _, f := range p.Files {
		pi.Files = append(pi.Files, c.root.rel(f.Name))
	}
	params := func(ps []*check.Param) []parameterInfo {
		out := []parameterInfo{}
		for _, q := range ps {
			out = append(out, parameterInfo{Name: q.Name, Type: typeText(q.Type), Required: q.Required(), Description: q.Description})
		}
		return out
	}
	for _, t := range p.Tools {
		pi.Tools = append(pi.Tools, toolInfo{Name: t.Name, Description: t.Description, Signature: t.Signature, Parameters: params(t.Params),
			Returns: typeText(t.Result), File: c.root.rel(t.Range.File), Line: int(t.Range.Start.Line)})
	}
	for _, t := range p.Types {
		pi.Types = append(pi.Types, typeInfo{Name: t.Name, Kind: "Type", Description: t.Description, Fields: params(t.Fields), Values: []string{},
			File: c.root.rel(t.Range.File), Line: int(t.Range.Start.Line)})
	}
	for _, en := range p.Enums {
		ti := typeInfo{Name: en.Name, Kind: "Enum", Description: en.Description, Fields: []parameterInfo{}, Values: []string{},
			File: c.root.rel(en.Range.File), Line: int(en.Range.Start.Line)}
		for _, v := range en.Values {
			b, _ := json.Marshal(v)
			ti.Values = append(ti.Values, string(b))
		}
		pi.Types = append(pi.Types, ti)
	}
	for _, ag := range p.Agents {
		ai := agentInfo{Name: ag.Name, Description: ag.Description, Model: ag.Model, Tools: []string{}, File: c.root.rel(ag.Range.File), Line: int(ag.Range.Start.Line)}
		for _, t := range ag.Tools {
			ai.Tools = append(ai.Tools, t.Name)
		}
		for _, l := range ag.Agents {
			ai.Tools = append(ai.Tools, l.Name)
		}
		if ag.Signature != nil {
			ai.Signature = ag.Signature.Signature
		}
		pi.Agents = append(pi.Agents, ai)
	}
	return pi
}

// typeText is a type as gram writes it ("Array of T" for an array).
func typeText(t *check.Type) string {
	if t == nil {
		return ""
	}
	if t.Kind == check.Array && t.Elem != nil {
		return "Array of " + typeText(t.Elem)
	}
	return t.Name()
}

// compilerText is the readable content of a compiler tool's result, for
// the model: the diagnostics as gramc check prints them (without
// excerpts), the formatted or emitted text, the explanation.
func compilerText(tool, result string) (string, bool) {
	t, ok := compilerToolTable[tool]
	if !ok {
		return "", false
	}
	r := t.result()
	if json.Unmarshal([]byte(result), r) != nil {
		return "", false
	}
	var b strings.Builder
	r.text(&b)
	return b.String(), true
}

// A compilerResult is a compiler tool's result that compilerText reads.
type compilerResult interface{ text(b *strings.Builder) }

// compilerToolTable is each compiler tool (compiler.gram declares them):
// the method that runs it and a new value of its result's type.
var compilerToolTable = map[string]struct {
	run    func(*compilerTools, context.Context, json.RawMessage) (any, error)
	result func() compilerResult
}{
	"check":    {(*compilerTools).check, func() compilerResult { return new(checkResult) }},
	"fix":      {(*compilerTools).fix, func() compilerResult { return new(fixResult) }},
	"format":   {(*compilerTools).format, func() compilerResult { return new(formatResult) }},
	"schema":   {(*compilerTools).schema, func() compilerResult { return new(schemaResult) }},
	"explain":  {(*compilerTools).explain, func() compilerResult { return new(explanation) }},
	"describe": {(*compilerTools).describe, func() compilerResult { return new(description) }},
	"graph":    {(*compilerTools).graph, func() compilerResult { return new(graphResult) }},
	"import":   {(*compilerTools).importTool, func() compilerResult { return new(importResult) }},
}

func (r *checkResult) text(b *strings.Builder) {
	writeDiagnosticLines(b, r.Diagnostics)
	fmt.Fprintf(b, "%s\n", countText(r.Errors, r.Warnings))
}

func (r *fixResult) text(b *strings.Builder) {
	for _, w := range r.Written {
		fmt.Fprintf(b, "fixed %s\n", w)
	}
	if len(r.Written) == 0 {
		b.WriteString("no fix to apply\n")
	}
	writeDiagnosticLines(b, r.Diagnostics)
	fmt.Fprintf(b, "left: %s\n", countText(r.Errors, r.Warnings))
}

func (r *formatResult) text(b *strings.Builder) {
	for _, f := range r.Files {
		if f.Written {
			fmt.Fprintf(b, "formatted %s\n", f.File)
		} else {
			fmt.Fprintf(b, "%s, formatted:\n%s", f.File, f.Text)
		}
	}
	if len(r.Files) == 0 {
		b.WriteString("every file is formatted\n")
	}
	writeDiagnosticLines(b, r.Diagnostics)
}

func (r *schemaResult) text(b *strings.Builder) { b.WriteString(r.JSON) }
func (r *explanation) text(b *strings.Builder)  { b.WriteString(r.Text) }
func (r *graphResult) text(b *strings.Builder)  { b.WriteString(r.Mermaid) }

func (r *importResult) text(b *strings.Builder) {
	b.WriteString(r.Gram)
	writeDiagnosticLines(b, r.Warnings)
}

func (r *description) text(b *strings.Builder) {
	for _, p := range r.Packages {
		fmt.Fprintf(b, "package %s (%s)\n", p.Name, strings.Join(p.Files, ", "))
		for _, t := range p.Types {
			if t.Kind == "Enum" {
				fmt.Fprintf(b, "  enum %s: %s\n", t.Name, strings.Join(t.Values, ", "))
				continue
			}
			var fs []string
			for _, f := range t.Fields {
				fs = append(fs, f.Name+"::"+f.Type)
			}
			fmt.Fprintf(b, "  type %s: %s\n", t.Name, strings.Join(fs, ", "))
		}
		for _, t := range p.Tools {
			fmt.Fprintf(b, "  tool %s %s\n", t.Name, t.Signature)
		}
		for _, a := range p.Agents {
			fmt.Fprintf(b, "  agent %s (%s) uses %s\n", a.Name, a.Model, strings.Join(a.Tools, ", "))
		}
	}
	writeDiagnosticLines(b, r.Diagnostics)
}

// writeDiagnosticLines writes each diagnostic as gramc check's first line
// of it (file:line:col: severity: message [code]), its detail and fixes
// indented below.
func writeDiagnosticLines(w io.Writer, ds []compilerDiagnostic) {
	for _, d := range ds {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Code)
		if d.Detail != "" {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(d.Detail, "\n", "\n    "))
		}
		for _, f := range d.Fixes {
			kind := "guess (fix with all: true)"
			if f.Exact {
				kind = "exact (fix)"
			}
			for _, ed := range f.Edits {
				fmt.Fprintf(w, "    fix, %s: %d:%d-%d:%d -> %q\n", kind, ed.Line, ed.Column, ed.EndLine, ed.EndColumn, ed.NewText)
			}
		}
	}
}

// countText is diag.CountLine's text for counts ("0 errors" for none).
func countText(errs, warns int) string {
	if errs+warns == 0 {
		return "0 errors"
	}
	ds := make(diag.Diagnostics, 0, errs+warns)
	for range errs {
		ds = append(ds, &diag.Diagnostic{Severity: diag.Error})
	}
	for range warns {
		ds = append(ds, &diag.Diagnostic{Severity: diag.Warning})
	}
	return diag.CountLine(ds)
}
