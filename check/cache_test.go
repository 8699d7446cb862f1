package check

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// testdataFile is a file of the repository's test data, read.
type testdataFile struct {
	name string
	src  []byte
}

// readTestdata reads the files that match patterns, in the order of the
// patterns and then of their names.
func readTestdata(tb testing.TB, patterns ...string) []testdataFile {
	tb.Helper()
	var out []testdataFile
	for _, pattern := range patterns {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, testdataFile{name, src})
		}
	}
	return out
}

// workspace is a package being edited: each file parsed once per
// version, as a language server re-parses only the file that changed.
type workspace struct {
	files map[string]SourceFile
}

func newWorkspace(t testing.TB, srcs map[string]string) *workspace {
	w := &workspace{files: map[string]SourceFile{}}
	for name, src := range srcs {
		w.set(name, src)
	}
	return w
}

// set (re-)parses one file.
func (w *workspace) set(name, src string) {
	f, ds := syntax.ParseFile(name, []byte(src))
	w.files[name] = SourceFile{AST: f, Diags: ds}
}

// edit replaces old with new in a file, which must hold old.
func (w *workspace) edit(t testing.TB, name, old, new string) {
	t.Helper()
	src := w.files[name].AST.Source().Text()
	if !strings.Contains(src, old) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	w.set(name, strings.Replace(src, old, new, 1))
}

func (w *workspace) remove(name string) { delete(w.files, name) }

// sources returns the files in a shuffled but deterministic order (by
// reversed name): the checker sorts them itself.
func (w *workspace) sources() []SourceFile {
	names := slices.Sorted(maps.Keys(w.files))
	slices.Reverse(names)
	out := make([]SourceFile, len(names))
	for i, n := range names {
		out[i] = w.files[n]
	}
	return out
}

// samePackage fails t unless got is want: equal values, the same trees,
// the same diagnostics in the same order, and the same sharing (an
// agent's tools are the package's tools, a type names the package's
// declaration, not a stale copy).
func samePackage(t testing.TB, step string, want, got *Package, wantDs, gotDs diag.Diagnostics) {
	t.Helper()
	// reflect.DeepEqual is exact (nil is not empty) and fast; cmp.Diff
	// runs only to report a difference.
	if !reflect.DeepEqual(wantDs, gotDs) {
		t.Fatalf("%s: diagnostics differ (-CheckSources +Cache.Check):\n%s", step, cmp.Diff(wantDs, gotDs))
	}
	w, g := *want, *got
	w.Files, g.Files = nil, nil // compared by identity below
	if !reflect.DeepEqual(w, g) {
		t.Fatalf("%s: models differ (-CheckSources +Cache.Check):\n%s", step, cmp.Diff(w, g))
	}
	if !slices.Equal(want.Files, got.Files) {
		t.Fatalf("%s: the package's trees differ", step)
	}
	if w, g := sharing(want), sharing(got); !slices.Equal(w, g) {
		t.Fatalf("%s: sharing differs:\nCheckSources: %v\nCache.Check:  %v", step, w, g)
	}
}

// sharing describes which model values point to which: the index in the
// package of every agent's tool and of every type's declaration (-1 for a
// value the package does not hold).
func sharing(pkg *Package) []string {
	var out []string
	typ := func(where string, ty *Type) {
		for ; ty != nil; ty = ty.Elem {
			if ty.Decl != nil {
				out = append(out, fmt.Sprintf("%s: type %d", where, slices.Index(pkg.Types, ty.Decl)))
			}
			if ty.Enum != nil {
				out = append(out, fmt.Sprintf("%s: enum %d", where, slices.Index(pkg.Enums, ty.Enum)))
			}
		}
	}
	params := func(where string, ps []*Param) {
		for i, p := range ps {
			typ(fmt.Sprintf("%s param %d", where, i), p.Type)
		}
	}
	for i, tl := range pkg.Tools {
		params(fmt.Sprintf("tool %d", i), tl.Params)
		typ(fmt.Sprintf("tool %d result", i), tl.Result)
	}
	for i, td := range pkg.Types {
		params(fmt.Sprintf("type %d", i), td.Fields)
	}
	for i, a := range pkg.Agents {
		for j, tl := range a.Tools {
			out = append(out, fmt.Sprintf("agent %d tool %d: %d", i, j, slices.Index(pkg.Tools, tl)))
		}
	}
	return out
}

// agree checks the workspace with the cache and with CheckSources and
// fails t unless the results are the same. It returns the diagnostics.
func agree(t testing.TB, k *Cache, w *workspace, step string) diag.Diagnostics {
	t.Helper()
	srcs := w.sources()
	got, gotDs := k.Check("pkg", srcs)
	want, wantDs := sequential(func() (*Package, diag.Diagnostics) { return CheckSources("pkg", srcs) })
	samePackage(t, step, want, got, wantDs, gotDs)
	return gotDs
}

// sequential runs check with every tool lowered on one goroutine: the
// oracle.
func sequential(check func() (*Package, diag.Diagnostics)) (*Package, diag.Diagnostics) {
	defer func(m int) { parallelMin = m }(parallelMin)
	parallelMin = math.MaxInt
	return check()
}

// inModes runs test as it is and with every package's tools lowered on
// three goroutines (lowerAhead), however few.
func inModes(t *testing.T, test func(t *testing.T)) {
	t.Run("sequential", test)
	t.Run("parallel", func(t *testing.T) {
		defer func(m, w int) { parallelMin, parallelWorkers = m, w }(parallelMin, parallelWorkers)
		parallelMin, parallelWorkers = 1, 3
		test(t)
	})
}

// hasDiag reports whether ds holds a diagnostic of code in file.
func hasDiag(ds diag.Diagnostics, file string, code diag.Code) bool {
	for _, d := range ds {
		if d.Range.File == file && d.Code == code {
			return true
		}
	}
	return false
}

const (
	cacheTypes = `{package: "weather"}
[Unit:Enum {values: ["celsius", "fahrenheit"], description: "A unit"}]
[Point:Type {description: "A point"} |
  (lat::Number {range: -90..90}),
  (lon::Number {range: -180..180})
]
`
	cacheTools = `[getWeather:Tool {description: "Weather at a point"} |
  (at::Point {default: {lat: 1, lon: 2}})==>(unit::Unit {default: "celsius"})==>(::String)
]

[getForecast:Tool {description: "Forecast"} |
  (city::String {minLength: 1, examples: ["Paris"]})==>(days::Integer {range: 1..14, default: 3})==>(::Array {elementType: Point})
]
`
	cacheAgent = `[helper:Agent {instruction: "Help", model: "OpenAI/gpt-4o-mini", toolChoice: "getWeather"} |
  getWeather,
  getForecast,
  lookUp,
  [inline:Tool {description: "Inline"} | (q::String)==>(::String)]
]
`
	cacheMore = `[lookUp:Tool {description: "Looks up"} | (q::String {format: "email"})==>(::Point)]
[strange:Tool {description: "Typo"} | (q::Strng)==>(::String)]
[ignored:Tol {description: "Not a tool"} | (q::String)==>(::String)]
`
)

// TestCacheAgreesAcrossEdits applies a sequence of edits to a multi-file
// package, re-parsing only the edited file, and requires Cache.Check to
// return exactly what CheckSources returns after every one.
func TestCacheAgreesAcrossEdits(t *testing.T) { inModes(t, testCacheAgreesAcrossEdits) }

func testCacheAgreesAcrossEdits(t *testing.T) {
	w := newWorkspace(t, map[string]string{
		"a_types.gram": cacheTypes,
		"b_tools.gram": cacheTools,
		"c_agent.gram": cacheAgent,
		"d_more.gram":  cacheMore,
	})
	var k Cache
	ds := agree(t, &k, w, "first check")
	if !hasDiag(ds, "d_more.gram", diag.CodeUnknownType) {
		t.Fatalf("the base package should report unknown type Strng, got %v", ds)
	}
	if k.reusedTools != 0 {
		t.Fatalf("first check reused %d tools", k.reusedTools)
	}
	agree(t, &k, w, "no change")
	if k.reusedTools != 5 {
		t.Fatalf("an unchanged package reused %d tools, want all 5", k.reusedTools)
	}

	// One row a step, alike in shape: an edit and what it must show.
	steps := []struct {
		name  string
		edit  func()
		check func(ds diag.Diagnostics) string // "" when as expected
		reuse bool                             // some tool's lowering must be reused (else: may be)
	}{
		{"change a tool body", func() { w.edit(t, "b_tools.gram", `"Forecast"`, `"Forecast for days"`) }, nil, true},
		{"rename a tool an agent in another file lists", func() { w.edit(t, "d_more.gram", "[lookUp:", "[lookup:") },
			wantDiag("c_agent.gram", diag.CodeUnknownTool), true},
		{"rename it back", func() { w.edit(t, "d_more.gram", "[lookup:", "[lookUp:") },
			noDiag("c_agent.gram", diag.CodeUnknownTool), true},
		{"fix the typo", func() { w.edit(t, "d_more.gram", "Strng", "String") },
			noDiag("d_more.gram", diag.CodeUnknownType), true},
		{"add a tool after the types, in their file", func() {
			w.set("a_types.gram", cacheTypes+"[late:Tool {description: \"Late\"} | (p::Point)==>(::Unit)]\n")
		}, nil, true},
		{"change that tool", func() { w.edit(t, "a_types.gram", `"Late"`, `"Later"`) }, nil, true},
		{"a syntax error after the types", func() { w.edit(t, "a_types.gram", "(p::Point)", "(p::Point {,,})") },
			wantDiag("a_types.gram", diag.CodeSyntax), false},
		{"fix it", func() { w.edit(t, "a_types.gram", "(p::Point {,,})", "(p::Point)") }, nil, false},
		{"unchanged after the fix", func() {}, nil, true},
		{"a line before the types moves them", func() { w.edit(t, "a_types.gram", "\n[Unit:Enum", "\n\n[Unit:Enum") }, nil, false},
		{"the same text in another order", func() {
			w.set("a_types.gram", "{package: \"weather\"}\n[Point:Type {description: \"A point\"} |\n  (lat::Number {range: -90..90}),\n  (lon::Number {range: -180..180})\n]\n[Unit:Enum {values: [\"celsius\", \"fahrenheit\"], description: \"A unit\"}]\n")
		}, nil, false},
		{"back to the first text", func() { w.set("a_types.gram", cacheTypes) }, nil, false},
		{"the first text again", func() { w.set("a_types.gram", cacheTypes) }, nil, true},
		{"remove a type tools in other files use", func() {
			w.edit(t, "a_types.gram", "[Point:Type", "[Pt:Type")
		}, wantDiag("b_tools.gram", diag.CodeUnknownType), false},
		{"declare the type in another file", func() {
			w.set("e_point.gram", "[Point:Type {description: \"Elsewhere\"} | (lat::Number), (lon::Number)]\n")
		}, noDiag("b_tools.gram", diag.CodeUnknownType), false},
		{"unchanged after a type change", func() {}, nil, true},
		{"add a field the defaults lack", func() {
			w.edit(t, "e_point.gram", "(lon::Number)", "(lon::Number), (alt::Number)")
		}, wantDiag("b_tools.gram", diag.CodeInvalidDefault), false},
		{"introduce a syntax error", func() { w.edit(t, "b_tools.gram", "(city::String", "(city::String {,,") },
			wantDiag("b_tools.gram", diag.CodeSyntax), true},
		{"fix the syntax error", func() { w.edit(t, "b_tools.gram", "(city::String {,,", "(city::String") },
			noDiag("b_tools.gram", diag.CodeSyntax), true},
		{"duplicate a tool name across files", func() {
			w.edit(t, "d_more.gram", "[strange:Tool", "[getForecast:Tool")
		}, wantDiag("d_more.gram", diag.CodeDuplicateDecl), true},
		{"remove the first declaration", func() {
			w.edit(t, "b_tools.gram", "[getForecast:Tool", "[getForecast2:Tool")
		}, noDiag("d_more.gram", diag.CodeDuplicateDecl), true},
		{"an inline tool that differs from a top-level one", func() {
			w.edit(t, "c_agent.gram", "[inline:Tool", "[getWeather:Tool")
		}, wantDiag("c_agent.gram", diag.CodeToolConflict), true},
		{"an agent named like a type", func() {
			w.set("f_agent.gram", "[Point:Agent {instruction: \"x\", model: \"OpenAI/gpt-4o-mini\"} | lookUp]\n")
		}, wantDiag("f_agent.gram", diag.CodeDuplicateDecl), true},
		{"the agent before the type takes its name", func() {
			w.remove("f_agent.gram")
			w.set("0_agent.gram", "[Point:Agent {instruction: \"x\", model: \"OpenAI/gpt-4o-mini\"} | lookUp]\n")
		}, wantDiag("e_point.gram", diag.CodeDuplicateDecl), false},
		{"remove that agent", func() { w.remove("0_agent.gram") }, nil, false},
		{"a conflicting package name", func() { w.set("d_more.gram", "{package: \"other\"}\n"+w.files["d_more.gram"].AST.Source().Text()) },
			wantDiag("d_more.gram", diag.CodePackageConflict), true},
		{"label the ignored pattern", func() { w.edit(t, "d_more.gram", "[ignored:Tol", "[ignored:Tool") },
			noDiag("d_more.gram", diag.CodeUnknownPattern), true},
		{"delete a file", func() { w.remove("b_tools.gram") },
			noDiag("c_agent.gram", diag.CodeToolConflict), true},
		{"delete the types and the package name", func() { w.remove("a_types.gram") },
			noDiag("d_more.gram", diag.CodePackageConflict), false},
		{"bring the files back", func() {
			w.set("a_types.gram", cacheTypes)
			w.set("b_tools.gram", cacheTools)
		}, nil, false},
		{"unchanged again", func() {}, nil, true},
		{"the same tree twice", func() { w.files["z_copy.gram"] = w.files["d_more.gram"] }, nil, true},
		{"the same tree twice, unchanged", func() {}, nil, true},
		{"the copy under another name", func() {
			f := w.files["d_more.gram"]
			w.files["z_copy.gram"] = SourceFile{AST: &ast.File{Name: "z_copy.gram", Header: f.AST.Header, Patterns: f.AST.Patterns}}
		}, wantDiag("z_copy.gram", diag.CodeDuplicateDecl), true},
		{"no copy", func() { w.remove("z_copy.gram") }, noDiag("z_copy.gram", diag.CodeDuplicateDecl), true},
	}
	for _, s := range steps {
		s.edit()
		ds := agree(t, &k, w, s.name)
		if s.check != nil {
			if msg := s.check(ds); msg != "" {
				t.Fatalf("%s: %s; got:\n%v", s.name, msg, ds)
			}
		}
		if s.reuse && k.reusedTools == 0 {
			t.Errorf("%s: no tool's lowering was reused", s.name)
		}
	}
}

func wantDiag(file string, code diag.Code) func(diag.Diagnostics) string {
	return func(ds diag.Diagnostics) string {
		if !hasDiag(ds, file, code) {
			return fmt.Sprintf("want %s in %s", code, file)
		}
		return ""
	}
}

func noDiag(file string, code diag.Code) func(diag.Diagnostics) string {
	return func(ds diag.Diagnostics) string {
		if hasDiag(ds, file, code) {
			return fmt.Sprintf("want no %s in %s", code, file)
		}
		return ""
	}
}

// TestCacheDiagnosticsAreCopies: a caller that changes the diagnostics it
// got does not change what the cache returns next.
func TestCacheDiagnosticsAreCopies(t *testing.T) { inModes(t, testCacheDiagnosticsAreCopies) }

func testCacheDiagnosticsAreCopies(t *testing.T) {
	w := newWorkspace(t, map[string]string{"a.gram": cacheMore, "b.gram": cacheTypes})
	var k Cache
	_, ds := k.Check("pkg", w.sources())
	if len(ds) == 0 {
		t.Fatal("want diagnostics")
	}
	for _, d := range ds {
		d.Summary = "changed"
		if len(d.Related) > 0 {
			d.Related[0].Message = "changed"
		}
		if len(d.Fix) > 0 {
			d.Fix[0].NewText = "changed"
		}
	}
	agree(t, &k, w, "after the caller changed the diagnostics")
}

// TestCacheSuggestBudget: a package that spends the did-you-mean budget
// gets exactly CheckSources' suggestions (the cache then checks it
// whole), whether the budget runs out before or after the edited file.
func TestCacheSuggestBudget(t *testing.T) { inModes(t, testCacheSuggestBudget) }

func testCacheSuggestBudget(t *testing.T) {
	defer func(b int) { suggestBudget = b }(suggestBudget)
	// Each unknown type compares with the 11 built-in names and the
	// declared one; each unknown tool with the 40 tool names.
	suggestBudget = 400
	var tools, agent strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&tools, "[tool_%d:Tool {description: \"d\"} | (q::Strng)==>(::Pont)]\n", i)
		fmt.Fprintf(&agent, "[more_%d:Tool {description: \"d\"} | (q::Pnt)==>(::String)]\n", i)
	}
	agent.WriteString("[a:Agent {instruction: \"x\", model: \"OpenAI/gpt-4o-mini\"} | tol_1, tool_2, more_3, mor_4]\n")
	w := newWorkspace(t, map[string]string{
		"a.gram": agent.String(),
		"b.gram": tools.String(),
		"c.gram": "[Point:Type | (x::Number)]\n",
	})
	var k Cache
	ds := agree(t, &k, w, "first check")
	n := 0
	for _, d := range ds {
		if d.Suggestion != "" {
			n++
		}
	}
	if n == 0 || n == len(ds) {
		t.Fatalf("%d of %d diagnostics have suggestions: the budget should run out midway", n, len(ds))
	}
	agree(t, &k, w, "no change")
	w.edit(t, "a.gram", "tol_1,", "tool_1,")
	agree(t, &k, w, "the first file edited")
	w.edit(t, "b.gram", "[tool_19:Tool", "[tool_x:Tool")
	agree(t, &k, w, "the last file edited")

	// Within the budget, then over it after one edit.
	suggestBudget = 1000
	w = newWorkspace(t, map[string]string{"a.gram": "[a:Tool {description: \"d\"} | (q::Strng)==>(::String)]\n", "b.gram": tools.String()})
	k = Cache{}
	agree(t, &k, w, "within the budget")
	agree(t, &k, w, "within the budget, again")
	if k.reusedTools == 0 {
		t.Fatal("nothing reused within the budget")
	}
	// 60 unknown types before b.gram's 40: b.gram's reused lowering
	// would keep suggestions the whole check no longer affords.
	var many strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&many, "[a_%d:Tool {description: \"d\"} | (q::Strng)==>(::String)]\n", i)
	}
	w.set("a.gram", many.String())
	ds = agree(t, &k, w, "over the budget after an edit")
	if last := ds[len(ds)-1]; last.Range.File != "b.gram" || last.Suggestion != "" {
		t.Fatalf("the last diagnostic should be in b.gram, without a suggestion: %s (%q)", last.Error(), last.Suggestion)
	}
	w.set("a.gram", "[a:Tool {description: \"d\"} | (q::Strng)==>(::String)]\n")
	agree(t, &k, w, "within the budget after an edit")

	// One tool's suggestion leaves too little for the next one's, within
	// one check (and, in parallel, within one goroutine: the first two
	// tools go to the first of three). Once the first no longer
	// suggests, the second must.
	p := len(propertyNames[OnParam]) // an unknown parameter property compares with each
	suggestBudget = p + p/2
	var first, five strings.Builder
	fmt.Fprintf(&first, "[t0:Tool {description: \"d\"} | (q::String {descriptoin: \"x\"})==>(::String)]\n")
	for i := 1; i < 6; i++ {
		prop := ""
		if i == 1 {
			prop = " {descriptoin: \"x\"}"
		}
		fmt.Fprintf(&five, "[t%d:Tool {description: \"d\"} | (q::String%s)==>(::String)]\n", i, prop)
	}
	w = newWorkspace(t, map[string]string{"a.gram": first.String(), "b.gram": five.String()})
	k = Cache{}
	ds = agree(t, &k, w, "the second suggestion refused")
	if len(ds) != 2 || ds[0].Suggestion == "" || ds[1].Suggestion != "" {
		t.Fatalf("want a suggestion on the first tool only, got %v", ds)
	}
	w.edit(t, "a.gram", " {descriptoin: \"x\"}", "")
	ds = agree(t, &k, w, "the first no longer suggests")
	if len(ds) != 1 || ds[0].Suggestion == "" {
		t.Fatalf("want a suggestion on the second tool, got %v", ds)
	}
}

// TestCacheTestdata checks every annotated test package through a cache,
// twice (the second time reusing everything), against CheckSources.
func TestCacheTestdata(t *testing.T) { inModes(t, testCacheTestdata) }

func testCacheTestdata(t *testing.T) {
	var k Cache
	pkg := map[string]string{}
	for _, f := range readTestdata(t, "../testdata/check/*.gram", "../testdata/check/*/*.gram") {
		one := newWorkspace(t, map[string]string{filepath.Base(f.name): string(f.src)})
		var k1 Cache
		agree(t, &k1, one, f.name)
		agree(t, &k1, one, f.name+" again")
		pkg[strings.ReplaceAll(f.name, "/", "_")] = string(f.src)
	}
	// All of them as one package: many errors, every cross-file rule.
	w := newWorkspace(t, pkg)
	agree(t, &k, w, "all testdata")
	agree(t, &k, w, "all testdata again")
	for _, name := range slices.Sorted(maps.Keys(pkg))[:10] {
		w.remove(name)
		agree(t, &k, w, "without "+name)
	}
}

// FuzzCacheAgrees: after a file of a small package changes to anything,
// and changes back, Cache.Check returns exactly what CheckSources does.
func FuzzCacheAgrees(f *testing.F) {
	for i, seed := range readTestdata(f, "../testdata/check/*.gram") {
		f.Add(uint8(i), seed.src)
		f.Add(uint8(i)|0x80, seed.src)
	}
	f.Add(uint8(1), []byte(cacheTools+"[Point:Type | (x::Number)]"))
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		if which&0x80 != 0 { // lower tools on three goroutines
			defer func(m, w int) { parallelMin, parallelWorkers = m, w }(parallelMin, parallelWorkers)
			parallelMin, parallelWorkers = 1, 3
		}
		base := map[string]string{
			"a_types.gram": cacheTypes,
			"b_tools.gram": cacheTools,
			"c_agent.gram": cacheAgent,
			"d_more.gram":  cacheMore,
		}
		names := slices.Sorted(maps.Keys(base))
		name := names[int(which)%len(names)]
		w := newWorkspace(t, base)
		var k Cache
		agree(t, &k, w, "base")
		old := w.files[name]
		w.set(name, string(src))
		agree(t, &k, w, "edited "+name)
		w.files[name] = old
		agree(t, &k, w, "restored "+name)
		w.set("z_new.gram", string(src))
		agree(t, &k, w, "added a file")
	})
}

// TestParallelCheckAgrees: CheckSources lowering tools on several
// goroutines returns exactly what it does on one, for every testdata
// package, a generated one, and packages that spend the did-you-mean
// budget (the units lowered ahead are then used only while it covers
// them; TestParallelSuggestBudgetExact tries every batch size).
func TestParallelCheckAgrees(t *testing.T) {
	defer func(m, w, b int) { parallelMin, parallelWorkers, suggestBudget = m, w, b }(parallelMin, parallelWorkers, suggestBudget)
	parallelMin, parallelWorkers = 1, 3
	pkgs := map[string]map[string]string{}
	all := map[string]string{}
	for _, f := range readTestdata(t, "../testdata/check/*.gram", "../testdata/check/*/*.gram") {
		pkgs[f.name] = map[string]string{filepath.Base(f.name): string(f.src)}
		all[strings.ReplaceAll(f.name, "/", "_")] = string(f.src)
	}
	pkgs["all testdata"] = all
	gen := map[string]string{}
	for name, src := range gramgen.Package(1000, 10) {
		gen[name] = string(src)
	}
	pkgs["gramgen"] = gen
	check := func(name string, srcs map[string]string) {
		w := newWorkspace(t, srcs)
		files := w.sources()
		got, gotDs := CheckSources("pkg", files)
		want, wantDs := sequential(func() (*Package, diag.Diagnostics) { return CheckSources("pkg", files) })
		samePackage(t, name, want, got, wantDs, gotDs)
	}
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		check(name, pkgs[name])
	}
	// Twelve unknown types on three goroutines: none runs out of the
	// budget, but together they spend more than it.
	var twelve strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&twelve, "[t%d:Tool {description: \"d\"} | (q::Strng)==>(::String)]\n", i)
	}
	suggestBudget = 6 * len(builtinNames)
	check("over the budget together", map[string]string{"a.gram": twelve.String()})
	for _, budget := range []int{0, 10, 100, 1000} {
		suggestBudget = budget
		check(fmt.Sprintf("all testdata, budget %d", budget), all)
	}
}

// TestCachePartialDecls: when declarations change, a tool is lowered again
// only if it looked up a name that now finds something else: a changed
// declaration, one that points to a changed one, or (for a tool that
// listed the declared names) a different set of names.
func TestCachePartialDecls(t *testing.T) { inModes(t, testCachePartialDecls) }

func testCachePartialDecls(t *testing.T) {
	tools := func(prefix, param string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "[%s_%d:Tool {description: \"d\"} | (p::%s)==>(::String)]\n", prefix, i, param)
		}
		return b.String()
	}
	w := newWorkspace(t, map[string]string{
		"a.gram": "[T1:Type {description: \"one\"} | (x::Number)]\n[T2:Type | (y::T1 {optional: true})]\n[E:Enum {values: [\"a\", \"b\"]}]\n[T3:Type | (z::String)]\n",
		"b.gram": tools("uses_t1", "T1", 3),
		"c.gram": tools("uses_t3", "T3", 3),
		"d.gram": tools("builtin", "Integer {minimum: 1}", 3),
		"e.gram": tools("uses_t2", "T2", 2),
		"f.gram": tools("uses_e", "E {default: \"a\"}", 2),
		"g.gram": tools("unknown", "Tx", 1),
	})
	var k Cache
	agree(t, &k, w, "first check")
	for _, s := range []struct {
		name              string
		edit              func()
		reused, relocated int
	}{
		{"T1's description", func() { w.edit(t, "a.gram", `"one"`, `"uno"`) }, 3 + 3 + 2 + 1, 0},
		{"a new type after the others", func() { w.set("a.gram", w.files["a.gram"].AST.Source().Text()+"[T4:Type | (w::String)]\n") }, 3 + 3 + 3 + 2 + 2, 0},
		{"E's values", func() { w.edit(t, "a.gram", `"b"]`, `"c"]`) }, 3 + 3 + 3 + 2 + 1, 0},
		// Moved declarations: their users point to the moved values.
		{"a line moves every declaration", func() { w.set("a.gram", "\n"+w.files["a.gram"].AST.Source().Text()) }, 14, 3 + 3 + 2 + 2},
		{"T3 declared in a file of its own", func() {
			w.edit(t, "a.gram", "[T3:Type | (z::String)]\n", "")
			w.set("h.gram", "\n\n\n[T3:Type | (z::String)]\n")
		}, 14, 3},
		{"T1 longer, T2 and E after it move", func() { w.edit(t, "a.gram", `"uno"`, `"one, longer"`) }, 3 + 3 + 2 + 1, 2},
		{"T2 changed and moved", func() { w.edit(t, "a.gram", "\n[T2:Type", "\n\n[T2:Type {description: \"two\"}") }, 3 + 3 + 3 + 2 + 1, 2},
	} {
		s.edit()
		agree(t, &k, w, s.name)
		if k.reusedTools != s.reused || k.relocatedTools != s.relocated {
			t.Errorf("%s: %d tools reused, %d of them relocated; want %d and %d", s.name, k.reusedTools, k.relocatedTools, s.reused, s.relocated)
		}
	}
}
