// Package gramc_test holds the test of the module's layering: which
// package may import which.
package gramc_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gramc-dev/gramc"

// rules is gramc's import graph, written once as a partial order in the
// notation of the Go tree's go/build/deps_test.go:
//
//	a, b < c, d;   c and d may import a and b, and all a and b may import
//	a < b < c;     a chain: b may import a, c may import b (and a)
//	a !< b;        b must not import a, directly or through others
//
// A name is a package path in the module ("." is its root); "dir/..." is
// dir and every package below it (the longest name that matches a
// package places it), whose packages may import one another. NONE is
// the bottom: a name that follows only NONE imports no gramc package.
// Adding a package is one line naming what it may import; a package no
// line places fails TestLayers, as does a line that places nothing.
//
// Data flows bytes → syntax → ast → check → codegen / compat; the runtime
// is beside the compiler, not above it: generated code links the runtime
// alone (runtime/deps_test.go checks the linked closure, dependencies
// outside the module included), so no compiler package may be below a
// runtime core package. Only the packages that run .gram files through
// the compiler (gramfile, agenttest) sit on both, at the top level beside
// them; toolspec, the spec types both read (a tool's, an agent's
// signature and its output modes), sits at the top level below provider,
// whose rows list those modes. So the folders' graph has no cycle either
// (TestFoldersHaveNoCycle).
const rules = `
	NONE < internal/...;
	internal/... < toolspec, docs;
	toolspec < provider;
	internal/... < syntax/internal/lexical, runtime/internal/credhttp, runtime/internal/sse;

	# The compiler.
	internal/... < ast < diag;
	diag, syntax/internal/lexical < syntax, syntax/reftree;
	diag < diag/diagtest;
	syntax, provider, toolspec < check < load; # toolspec: MaxAgentNesting, read by the runtime too
	check, toolspec < codegen/schema;
	check < codegen/model; # the language-neutral model both emitters read
	check < codegen/internal/hostile; # the emitters' tests' hostile corpus
	check < codegen/internal/gentest; # the emitters' tests' shared helpers
	codegen/schema, codegen/model < codegen/golang, codegen/typescript;
	codegen/schema < compat;
	check < codegen/graph;
	check, docs < check/explain;
	load < load/git; # os/exec: apart, so that what loads files links none
	codegen/schema, load/git < config;
	check < importer;

	# The runtime, which links none of the compiler.
	provider, toolspec < runtime;
	runtime, runtime/internal/credhttp, runtime/internal/sse < runtime/internal/apihttp < runtime/clientopt;
	runtime/clientopt < runtime/openai, runtime/anthropic, runtime/gemini;
	runtime/openai, runtime/anthropic, runtime/gemini < runtime/clients;
	runtime < runtime/cassette, runtime/mcp, runtime/toolcmd, runtime/runtimetest/...;
	runtime < runtime/otelexport < cli; # the OTEL_* exporters: gramc run, gramc mcp, gramc-temporal

	# .gram files run through the compiler.
	runtime, load, codegen/schema < gramfile;
	gramfile, runtime/clients, runtime/cassette < agenttest;
	agenttest < eval; # gramc eval: agenttest's runs, repeated and measured

	# The playground: the compiler core behind globalThis.gramc, its
	# WebAssembly shell, the site's builder (docs/playground.md). It loads
	# through load's file-system seam (Config.FS), as gramc check does.
	load, codegen/golang, codegen/typescript, codegen/graph, check/explain < playground/core < playground/wasm;
	NONE < playground/site < playground/build;

	# The tools.
	compat, config, codegen/golang, syntax/reftree, docs < lsp;
	lsp, agenttest, eval, runtime/mcp, runtime/toolcmd, codegen/graph, check/explain, importer, codegen/typescript < cli;
	cli, runtime/runtimetest/... < cmd/..., examples/..., fuzz, editors, .;

	# What the order must never come to say.
	ast, diag, syntax, check, load, load/git, codegen/schema, codegen/model, codegen/golang, codegen/typescript, compat, config, lsp, cli
	  !< runtime, runtime/internal/apihttp, runtime/clientopt, runtime/openai, runtime/anthropic,
	     runtime/gemini, runtime/clients, runtime/cassette, runtime/mcp, runtime/toolcmd;
	gramfile, agenttest, eval, lsp, cli !< ast, syntax, check, load, codegen/schema, compat, config;
	lsp, cli, agenttest !< gramfile, codegen/golang;
	cli !< lsp;
	load/git, config, lsp, cli, runtime, runtime/clients, gramfile !< playground/core, playground/wasm;
`

// TestLayers runs go list on the module and fails on an import the rules
// do not allow, on a package no rule places and on a rule's name that
// places nothing. Only what a build links counts (a package's imports,
// not its tests'): a test may drive its package through a higher layer,
// as syntax's tests compare with the checker's view.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	g, err := parseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := listPackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the test is broken", len(pkgs))
	}
	imports := map[string][]string{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if rel, ok := relative(imp); ok {
				imports[p.rel] = append(imports[p.rel], rel)
			}
		}
		if _, ok := imports[p.rel]; !ok {
			imports[p.rel] = nil
		}
	}
	for _, e := range g.check(imports) {
		t.Error(e)
	}
	used := map[string]bool{}
	for p := range imports {
		used[g.place(p)] = true
	}
	for _, n := range g.names {
		if !used[n] {
			t.Errorf("the rules' %q places no package: remove it", n)
		}
	}
}

// TestLayersNegativeTrial: the rules reject what they must, on an import
// graph made up for the test: the module's graph as the rules allow it,
// plus one import each time that the layering forbids.
func TestLayersNegativeTrial(t *testing.T) {
	g, err := parseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string][]string{
		"internal/jsonstr": nil, "provider": nil, "toolspec": nil,
		"ast": {"internal/jsonstr"}, "diag": {"ast"}, "syntax": {"diag"},
		"check": {"syntax", "provider"}, "runtime": {"provider", "toolspec"},
		"gramfile": {"check", "runtime"},
	}
	if errs := g.check(ok); len(errs) > 0 {
		t.Fatalf("the allowed graph fails: %v", errs)
	}
	for _, trial := range []struct{ from, to, want string }{
		// A trial import of check in runtime/run.go.
		{"runtime", "check", "runtime imports check, which the rules do not allow"},
		{"syntax", "check", "syntax imports check, which the rules do not allow"},
		{"ast", "syntax", "ast imports syntax, which the rules do not allow"},
		{"check", "gramfile", "check imports gramfile, which the rules do not allow"},
		// A new package without its line.
		{"cli", "exporter", "exporter is placed by no rule"},
	} {
		graph := map[string][]string{}
		for k, v := range ok {
			graph[k] = slices.Clone(v)
		}
		graph[trial.from] = append(graph[trial.from], trial.to)
		if _, ok := graph[trial.to]; !ok {
			graph[trial.to] = nil
		}
		errs := strings.Join(g.check(graph), "\n")
		if !strings.Contains(errs, trial.want) {
			t.Errorf("%s importing %s: errors %q, want %q", trial.from, trial.to, errs, trial.want)
		}
	}
	// A rule table whose positive rules allow what a negative rule
	// forbids is itself rejected.
	bad := rules + "check < runtime;"
	if _, err := parseRules(bad); err == nil || !strings.Contains(err.Error(), "yet the rules allow runtime to import") {
		t.Errorf("a rule letting runtime import check: %v", err)
	}
}

// TestRulesNotation holds the notation's parsing and the longest-match
// placing the rules rely on.
func TestRulesNotation(t *testing.T) {
	g, err := parseRules(`NONE < a/...; a/... < b < c; a/... < a/x < d; # comment
	b !< d;`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ rel, node string }{
		{"a", "a/..."}, {"a/y/z", "a/..."}, {"a/x", "a/x"}, {"c", "c"}, {"ab", ""}, {"NONE", ""},
	} {
		if got := g.place(tc.rel); got != tc.node {
			t.Errorf("place(%q) = %q, want %q", tc.rel, got, tc.node)
		}
	}
	if !g.allowed["c"]["a/..."] || !g.allowed["c"]["b"] || g.allowed["b"]["c"] || g.allowed["d"]["b"] {
		t.Errorf("closure: %v", g.allowed)
	}
	for _, bad := range []string{"a < b", "a << b;", "a !< b < c;", "a, < b;"} {
		if _, err := parseRules(bad); err == nil {
			t.Errorf("parseRules(%q) accepted", bad)
		}
	}
}

// depGraph is the rules parsed: for each name, the names it may import
// (its own included), and the negative rules.
type depGraph struct {
	names   []string
	allowed map[string]map[string]bool
	never   [][2]string // {a, b}: b must not import a
}

// parseRules parses the rules notation and checks it: every name used on
// the left of < is defined on the right of an earlier rule (or is NONE),
// and no negative rule is contradicted by the closure of the positive
// ones.
func parseRules(text string) (*depGraph, error) {
	g := &depGraph{allowed: map[string]map[string]bool{"NONE": {}}}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l, _, _ = strings.Cut(l, "#")
		lines = append(lines, l)
	}
	text = strings.TrimSpace(strings.Join(lines, " "))
	if !strings.HasSuffix(text, ";") {
		return nil, fmt.Errorf("the rules must end with ';'")
	}
	for _, rule := range strings.Split(strings.TrimSuffix(text, ";"), ";") {
		if strings.Contains(rule, "!<") {
			parts := strings.Split(rule, "!<")
			if len(parts) != 2 || strings.Contains(rule, " < ") {
				return nil, fmt.Errorf("rule %q: a negative rule is a !< b", strings.TrimSpace(rule))
			}
			as, err := names(parts[0])
			if err != nil {
				return nil, err
			}
			bs, err := names(parts[1])
			if err != nil {
				return nil, err
			}
			for _, a := range as {
				for _, b := range bs {
					g.never = append(g.never, [2]string{a, b})
				}
			}
			continue
		}
		parts := strings.Split(rule, "<")
		if len(parts) < 2 {
			return nil, fmt.Errorf("rule %q: want a < b", strings.TrimSpace(rule))
		}
		var below []string
		for i, part := range parts {
			ns, err := names(part)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				for _, n := range ns {
					if g.allowed[n] == nil {
						g.allowed[n] = map[string]bool{n: true}
						g.names = append(g.names, n)
					}
					for _, b := range below {
						for x := range g.allowed[b] {
							g.allowed[n][x] = true
						}
						g.allowed[n][b] = b != "NONE"
					}
				}
			} else {
				for _, n := range ns {
					if g.allowed[n] == nil {
						return nil, fmt.Errorf("rule %q: %s is used before a rule defines it", strings.TrimSpace(rule), n)
					}
				}
			}
			below = ns
		}
	}
	for _, nv := range g.never {
		if g.allowed[nv[1]][nv[0]] {
			return nil, fmt.Errorf("%s !< %s, yet the rules allow %s to import %s", nv[0], nv[1], nv[1], nv[0])
		}
	}
	return g, nil
}

// names splits a comma-separated list of names.
func names(list string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " \t") {
			return nil, fmt.Errorf("%q: want a comma-separated list of names", strings.TrimSpace(list))
		}
		out = append(out, n)
	}
	return out, nil
}

// place returns the name that places the package rel, or "": the name
// itself, else the "dir/..." with the longest dir that holds it.
func (g *depGraph) place(rel string) string {
	best, bestLen := "", -1
	for _, n := range g.names {
		if n == rel {
			return n
		}
		if dir, ok := strings.CutSuffix(n, "/..."); ok && matches(n, rel) && len(dir) > bestLen {
			best, bestLen = n, len(dir)
		}
	}
	return best
}

func matches(pattern, rel string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	return rel == pattern
}

// check returns what is wrong with the import graph imports (package →
// the module's packages it imports) under the rules.
func (g *depGraph) check(imports map[string][]string) []string {
	var errs []string
	pkgs := slices.Sorted(maps.Keys(imports))
	for _, p := range pkgs {
		if g.place(p) == "" {
			errs = append(errs, fmt.Sprintf("%s is placed by no rule: add a line to the rules in layers_test.go naming what it may import", p))
		}
	}
	for _, p := range pkgs {
		from := g.place(p)
		for _, imp := range imports[p] {
			to := g.place(imp)
			if from == "" || to == "" {
				continue
			}
			if !g.allowed[from][to] {
				errs = append(errs, fmt.Sprintf("%s imports %s, which the rules do not allow (%s may import only what the rules put below %s)", p, imp, from, from))
			}
		}
	}
	return errs
}

// TestFoldersHaveNoCycle: the graph of the module's top-level folders
// (a package counts as its first path element) has no cycle, so a reader
// of the tree sees the layering in its folders. runtime/gramfile and
// runtime/toolspec once made codegen and runtime import each other.
func TestFoldersHaveNoCycle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	top := func(rel string) string { f, _, _ := strings.Cut(rel, "/"); return f }
	edges := map[string][]string{}
	for _, p := range listPackages(t) {
		from := top(p.rel)
		for _, imp := range p.Imports {
			if rel, ok := relative(imp); ok && top(rel) != from && !slices.Contains(edges[from], top(rel)) {
				edges[from] = append(edges[from], top(rel))
			}
		}
	}
	if cycle := findCycle(edges); cycle != nil {
		t.Errorf("the folders import one another in a circle: %s", strings.Join(cycle, " → "))
	}
}

// findCycle returns a cycle of the graph (its first node repeated at the
// end), or nil.
func findCycle(edges map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = onPath
		path = append(path, n)
		for _, m := range edges[n] {
			switch state[m] {
			case onPath:
				i := slices.Index(path, m)
				return append(slices.Clone(path[i:]), m)
			case unseen:
				if c := visit(m); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return nil
	}
	keys := slices.Sorted(maps.Keys(edges))
	for _, k := range keys {
		if state[k] == unseen {
			if c := visit(k); c != nil {
				return c
			}
		}
	}
	return nil
}

// TestFindCycle: the folder test's cycle finder finds the cycle the
// runtime's compiler-using packages made, and none in a layered graph.
func TestFindCycle(t *testing.T) {
	if c := findCycle(map[string][]string{"codegen": {"check", "runtime"}, "runtime": {"provider", "codegen"}, "check": {"syntax"}}); strings.Join(c, " ") != "codegen runtime codegen" {
		t.Errorf("cycle %v, want codegen → runtime → codegen", c)
	}
	if c := findCycle(map[string][]string{"codegen": {"check", "toolspec"}, "gramfile": {"codegen", "runtime"}, "runtime": {"toolspec"}}); c != nil {
		t.Errorf("a cycle %v in a layered graph", c)
	}
}

type pkg struct {
	ImportPath string
	Imports    []string
	rel        string
}

// listPackages returns the module's packages with their imports.
func listPackages(t *testing.T) []pkg {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		rel, ok := relative(p.ImportPath)
		if !ok {
			t.Fatalf("go list ./... listed %s, outside %s", p.ImportPath, module)
		}
		p.rel = rel
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// relative is path inside the module ("." for its root); ok is false for
// a path outside it.
func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}
