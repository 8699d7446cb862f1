package importer_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

// checkText checks gram text as one package.
func checkText(t testing.TB, name, text string) (*check.Package, diag.Diagnostics) {
	t.Helper()
	f, ds := syntax.ParseString(name, text)
	return check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
}

// roundTrip emits pkg for target, imports what was written and returns
// the imported package, the snapshot and the import's warnings.
func roundTrip(t *testing.T, pkg *check.Package, target schema.Target) (*check.Package, *compat.Snapshot, diag.Diagnostics, string) {
	t.Helper()
	out, err := schema.Emit(pkg.Tools, target)
	if err != nil {
		t.Fatalf("emit %s: %v", target, err)
	}
	res, err := importer.Import([]importer.Source{{Name: "snap.json", Data: out}})
	if err != nil {
		t.Fatalf("import of the %s output: %v\n%s", target, err, out)
	}
	imported, ds := checkText(t, "imported.gram", string(res.Gram))
	if len(ds) > 0 {
		t.Fatalf("the imported package does not check clean: %v\n%s", ds, res.Gram)
	}
	snap, err := compat.ReadSnapshot("snap.json", out)
	if err != nil {
		t.Fatal(err)
	}
	return imported, snap, res.Warnings, string(res.Gram)
}

func assertRoundTrip(t *testing.T, pkg *check.Package, src string) {
	t.Helper()
	// The tools and their types come along; agents and tests are not in a
	// tool list.
	tools := *pkg
	tools.Agents, tools.Tests = nil, nil
	pkg = &tools
	for _, target := range []schema.Target{schema.MCP, schema.JSONSchema} {
		imported, snap, warnings, gram := roundTrip(t, pkg, target)
		if len(warnings) > 0 {
			t.Errorf("%s: the import warns: %v\n%s", target, warnings, src)
		}
		// The snapshot as NEW, as docs/diff.md promises a package compared
		// with its own snapshot finds nothing. (With the snapshot as OLD,
		// compat reads a field with a default as required, and reports a
		// result field with a default "now optional" against the package
		// that wrote it too: gramc diff snap.json pkg, without any import.)
		if ch := compat.Compare([]*check.Package{imported}, snap.Packages); len(ch) > 0 {
			t.Errorf("%s: diff of the snapshot and its import: %v\n--- package\n%s\n--- imported\n%s", target, summary(ch), src, gram)
		}
		if ch := compat.Compare([]*check.Package{pkg}, []*check.Package{imported}); len(ch) > 0 {
			t.Errorf("%s: diff of the package and its import: %v\n--- package\n%s\n--- imported\n%s", target, summary(ch), src, gram)
		}
	}
}

func summary(ch []compat.Change) []string {
	var out []string
	for _, c := range ch {
		out = append(out, string(c.Code)+": "+c.Message)
	}
	return out
}

// TestRoundTripExamples: every example package through schema --target
// mcp and jsonschema and back through import gives no gramc diff change,
// whatever the results' types (an mcp entry lists every output schema).
func TestRoundTripExamples(t *testing.T) {
	dirs := []string{"../examples/...", "../testdata/examples/...", "../codegen/schema/testdata/examples/..."}
	pkgs, ds, err := load.Packages(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasErrors() {
		t.Fatal(ds.Errors())
	}
	n := 0
	for _, pkg := range pkgs {
		if len(pkg.Tools) == 0 || strings.Contains(filepath.ToSlash(pkg.Dir), "testdata/broken") {
			continue
		}
		n++
		t.Run(filepath.Base(pkg.Dir), func(t *testing.T) {
			assertRoundTrip(t, pkg, pkg.Dir)
		})
	}
	if n < 5 {
		t.Fatalf("%d example packages; the test is broken", n)
	}
}

// TestRoundTripRandomPackages: randomly generated packages (every type,
// constraint and property a tool can carry) round-trip the same way.
func TestRoundTripRandomPackages(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	clean := 0
	for seed := range n {
		src := randomPackage(rand.New(rand.NewPCG(uint64(seed), 38)))
		pkg, ds := checkText(t, "random.gram", src)
		if len(ds) > 0 {
			t.Fatalf("seed %d: the generator wrote a package that does not check clean: %v\n%s", seed, ds, src)
		}
		clean++
		t.Run(fmt.Sprint(seed), func(t *testing.T) { assertRoundTrip(t, pkg, src) })
	}
	if clean < n {
		t.Fatalf("only %d of %d packages checked", clean, n)
	}
}

// randomPackage writes a package of random tools, records and enums.
func randomPackage(r *rand.Rand) string {
	var b strings.Builder
	nRec, nEnum := r.IntN(4), r.IntN(3)
	var named []string
	for i := range nEnum {
		name := fmt.Sprintf("E%d", i)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "[%s:Enum {values: [\"a%d\", \"b\", \"c d\"]%s}]\n", name, i, desc(r, ", "))
		} else {
			fmt.Fprintf(&b, "[%s:Enum {values: [1, %d, -3]%s}]\n", name, 2+i, desc(r, ", "))
		}
		named = append(named, name)
	}
	recs := []string{}
	for i := range nRec {
		recs = append(recs, fmt.Sprintf("R%d", i))
	}
	for i, name := range recs {
		fmt.Fprintf(&b, "[%s:Type%s |\n", name, wrapDesc(r))
		nf := 1 + r.IntN(4)
		for j := range nf {
			// a record may use any record (itself included) through an
			// optional field or an array; a required field only earlier ones
			field := randomParam(r, fmt.Sprintf("f%d", j), named, recs[:i], recs)
			b.WriteString("  " + field)
			if j < nf-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("]\n")
	}
	all := append(append([]string{}, named...), recs...)
	nTools := 1 + r.IntN(4)
	for i := range nTools {
		props := fmt.Sprintf("description: %q", fmt.Sprintf("Tool %d does things", i))
		if r.IntN(4) == 0 {
			props += `, title: "A title"`
		}
		if r.IntN(6) == 0 {
			props += ", deprecated: true"
		}
		fmt.Fprintf(&b, "[tool_%d:Tool {%s} |\n", i, props)
		np := r.IntN(5)
		for j := range np {
			b.WriteString("  " + randomParam(r, fmt.Sprintf("p%d", j), named, recs, recs) + "==>\n")
		}
		b.WriteString("  " + randomResult(r, all, recs) + "\n]\n")
	}
	return b.String()
}

func desc(r *rand.Rand, sep string) string {
	if r.IntN(2) == 0 {
		return ""
	}
	return sep + `description: "Described \"so\""`
}

func wrapDesc(r *rand.Rand) string {
	if d := desc(r, ""); d != "" {
		return " {" + d + "}"
	}
	return ""
}

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// randomParam writes a parameter or field: required ones use only the
// records in required (so no record needs itself), optional ones any.
func randomParam(r *rand.Rand, name string, enums, required, anyRec []string) string {
	var props []string
	add := func(p string) { props = append(props, p) }
	optional := r.IntN(3) == 0
	recs := required
	if optional {
		recs = anyRec
	}
	kinds := []string{"String", "Integer", "Number", "Boolean", "Object", "Array"}
	if len(enums) > 0 {
		kinds = append(kinds, "enum")
	}
	if len(recs) > 0 {
		kinds = append(kinds, "record")
	}
	kind := pick(r, kinds)
	label := kind
	hasDefault := false
	switch kind {
	case "String":
		switch r.IntN(5) {
		case 0:
			add(`enum: ["x", "y z", "w"]`)
			if r.IntN(2) == 0 {
				add(`default: "y z"`)
				hasDefault = true
			}
		case 1:
			add("minLength: 1")
			add("maxLength: 20")
			add(`pattern: "^[a-z ]+$"`)
		case 2:
			add(`format: "` + pick(r, check.Formats()) + `"`)
		case 3:
			add(`examples: ["one", "two"]`)
		}
	case "Integer":
		switch r.IntN(4) {
		case 0:
			add("range: 1..100")
			if r.IntN(2) == 0 {
				add("default: 10")
				hasDefault = true
			}
		case 1:
			add("enum: [1, 2, 3]")
		case 2:
			add("minimum: -5")
			add("exclusiveMaximum: 50")
		}
	case "Number":
		switch r.IntN(3) {
		case 0:
			add("exclusiveMinimum: 0.5")
			add("maximum: 99.25")
		case 1:
			add("examples: [1.5, -2]")
		}
	case "Boolean":
		if r.IntN(2) == 0 {
			add("default: true")
			hasDefault = true
		}
	case "Array":
		elem := pick(r, append(append([]string{"String", "Integer", "Number", "Boolean", "Object"}, enums...), anyRec...))
		add("elementType: " + elem)
		if r.IntN(2) == 0 {
			add("minItems: 1")
			add("maxItems: 9")
		}
		if r.IntN(3) == 0 {
			add("uniqueItems: true")
		}
		if elem == "String" && r.IntN(3) == 0 {
			add(`default: ["a", "b"]`)
			hasDefault = true
		}
	case "enum":
		label = pick(r, enums)
	case "record":
		label = pick(r, recs)
	}
	if optional && !hasDefault {
		add("optional: true")
	}
	if r.IntN(2) == 0 {
		add(`description: "The ` + name + `, with \"quotes\" and\nnew lines"`)
	}
	if r.IntN(8) == 0 {
		add("deprecated: true")
	}
	if len(props) == 0 {
		return fmt.Sprintf("(%s::%s)", name, label)
	}
	return fmt.Sprintf("(%s::%s {%s})", name, label, strings.Join(props, ", "))
}

func randomResult(r *rand.Rand, named, recs []string) string {
	kinds := append([]string{"String", "Integer", "Number", "Boolean", "Object", "Array"}, named...)
	kind := pick(r, kinds)
	var props []string
	if kind == "Array" {
		props = append(props, "elementType: "+pick(r, append([]string{"String", "Integer"}, named...)))
	}
	if r.IntN(3) == 0 {
		props = append(props, `description: "What comes back"`)
	}
	if len(props) == 0 {
		return "(::" + kind + ")"
	}
	return "(::" + kind + " {" + strings.Join(props, ", ") + "})"
}

// TestRoundTripGramgen: the large packages the benchmarks use
// (internal/gramgen: records, enums, constrained and described
// parameters, results of every kind) round-trip the same way.
func TestRoundTripGramgen(t *testing.T) {
	src := string(gramgen.Document(300))
	pkg, ds := checkText(t, "gramgen.gram", src)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	assertRoundTrip(t, pkg, "gramgen.Document(300)")
}
