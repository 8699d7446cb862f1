package compat_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/load"
)

// The random-mutation property test (issue 23): random packages are
// edited at random; whenever Compare calls every change safe, no call
// (an arguments object) valid under OLD's schema may be invalid under
// NEW's. The calls are generated at random, kept when OLD's schema
// accepts them, and checked against NEW's with a JSON Schema validator
// (santhosh-tekuri/jsonschema), not with gramc's own code. A second
// property: edits of the kinds that only widen what a caller may send
// are never called breaking.

type genParam struct {
	name     string
	typ      string // String, Integer, Number, Boolean or Level (the enum)
	optional bool
	min, max *int // Integer, Number
	maxLen   *int // String
}

type genTool struct {
	name, desc string
	params     []genParam
}

type genPkg struct {
	levels []string // the values of [Level:Enum]
	tools  []genTool
}

func (p genPkg) gram() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Level:Enum {values: [%s]}]\n", quoteAll(p.levels))
	for _, t := range p.tools {
		fmt.Fprintf(&b, "[%s:Tool {description: %q} |\n  ", t.name, t.desc)
		for _, q := range t.params {
			var props []string
			if q.optional {
				props = append(props, "optional: true")
			}
			if q.min != nil {
				props = append(props, fmt.Sprintf("minimum: %d", *q.min))
			}
			if q.max != nil {
				props = append(props, fmt.Sprintf("maximum: %d", *q.max))
			}
			if q.maxLen != nil {
				props = append(props, fmt.Sprintf("maxLength: %d", *q.maxLen))
			}
			rec := ""
			if len(props) > 0 {
				rec = " {" + strings.Join(props, ", ") + "}"
			}
			fmt.Fprintf(&b, "(%s::%s%s)==>", q.name, q.typ, rec)
		}
		b.WriteString("(::String)\n]\n")
	}
	return b.String()
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func ptr(i int) *int { return &i }

func (p genPkg) clone() genPkg {
	out := genPkg{levels: slices.Clone(p.levels)}
	for _, t := range p.tools {
		t.params = slices.Clone(t.params)
		out.tools = append(out.tools, t)
	}
	return out
}

var types = []string{"String", "Integer", "Number", "Boolean", "Level"}

func randParam(r *rand.Rand, name string) genParam {
	q := genParam{name: name, typ: types[r.IntN(len(types))], optional: r.IntN(2) == 0}
	switch q.typ {
	case "Integer", "Number":
		if r.IntN(2) == 0 {
			q.min = ptr(r.IntN(5))
		}
		if r.IntN(2) == 0 {
			q.max = ptr(5 + r.IntN(5))
		}
	case "String":
		if r.IntN(2) == 0 {
			q.maxLen = ptr(1 + r.IntN(4))
		}
	}
	return q
}

func randPkg(r *rand.Rand) genPkg {
	p := genPkg{levels: []string{"low", "mid", "high"}}
	for i := range 1 + r.IntN(3) {
		t := genTool{name: fmt.Sprintf("t%d", i), desc: "Tool " + fmt.Sprint(i)}
		for j := range r.IntN(4) {
			t.params = append(t.params, randParam(r, fmt.Sprintf("p%d", j)))
		}
		p.tools = append(p.tools, t)
	}
	return p
}

// A mutation edits a package; widening says it only widens what a caller
// may send (so it must never be called breaking).
type mutation struct {
	name     string
	widening bool
	apply    func(r *rand.Rand, p *genPkg) bool // false: not applicable
}

func someParam(r *rand.Rand, p *genPkg, ok func(genParam) bool) *genParam {
	var cands []*genParam
	for i := range p.tools {
		for j := range p.tools[i].params {
			if ok(p.tools[i].params[j]) {
				cands = append(cands, &p.tools[i].params[j])
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[r.IntN(len(cands))]
}

// onParam is the mutation that changes one parameter where chooses (not
// applicable when there is none).
func onParam(where func(genParam) bool, change func(r *rand.Rand, q *genParam)) func(*rand.Rand, *genPkg) bool {
	return func(r *rand.Rand, p *genPkg) bool {
		q := someParam(r, p, where)
		if q == nil {
			return false
		}
		change(r, q)
		return true
	}
}

// addParam is the mutation that adds a random parameter, optional or
// not, to some tool.
func addParam(optional bool) func(*rand.Rand, *genPkg) bool {
	return func(r *rand.Rand, p *genPkg) bool {
		t := &p.tools[r.IntN(len(p.tools))]
		q := randParam(r, fmt.Sprintf("n%d", len(t.params)))
		q.optional = optional
		t.params = append(t.params, q)
		return true
	}
}

// removeOne removes a random element of *s, if it has more than keep.
func removeOne[T any](r *rand.Rand, s *[]T, keep int) bool {
	if len(*s) <= keep {
		return false
	}
	i := r.IntN(len(*s))
	*s = slices.Delete(*s, i, i+1)
	return true
}

var mutations = []mutation{
	{"add an optional parameter", true, addParam(true)},
	{"add a required parameter", false, addParam(false)},
	{"remove a parameter", false, func(r *rand.Rand, p *genPkg) bool {
		return removeOne(r, &p.tools[r.IntN(len(p.tools))].params, 0)
	}},
	{"make a parameter optional", true, onParam(func(q genParam) bool { return !q.optional }, func(_ *rand.Rand, q *genParam) { q.optional = true })},
	{"make a parameter required", false, onParam(func(q genParam) bool { return q.optional }, func(_ *rand.Rand, q *genParam) { q.optional = false })},
	{"lower a minimum or drop it", true, onParam(func(q genParam) bool { return q.min != nil }, func(r *rand.Rand, q *genParam) {
		if r.IntN(2) == 0 {
			q.min = nil
		} else {
			q.min = ptr(*q.min - 1 - r.IntN(3))
		}
	})},
	{"raise a minimum", false, onParam(func(q genParam) bool { return q.typ == "Integer" || q.typ == "Number" }, func(r *rand.Rand, q *genParam) {
		m := 0
		if q.min != nil {
			m = *q.min
		}
		q.min = ptr(m + 1 + r.IntN(2))
		if q.max != nil && *q.max < *q.min {
			q.max = ptr(*q.min)
		}
	})},
	{"raise a maximum or drop it", true, onParam(func(q genParam) bool { return q.max != nil }, func(r *rand.Rand, q *genParam) {
		if r.IntN(2) == 0 {
			q.max = nil
		} else {
			q.max = ptr(*q.max + 1 + r.IntN(3))
		}
	})},
	{"lower a maxLength", false, func(r *rand.Rand, p *genPkg) bool {
		q := someParam(r, p, func(q genParam) bool { return q.typ == "String" })
		if q == nil {
			return false
		}
		n := 3
		if q.maxLen != nil {
			n = *q.maxLen - 1
		}
		if n < 0 {
			return false
		}
		q.maxLen = ptr(n)
		return true
	}},
	{"raise a maxLength or drop it", true, onParam(func(q genParam) bool { return q.maxLen != nil }, func(r *rand.Rand, q *genParam) {
		if r.IntN(2) == 0 {
			q.maxLen = nil
		} else {
			q.maxLen = ptr(*q.maxLen + 1)
		}
	})},
	{"Integer to Number", true, onParam(func(q genParam) bool { return q.typ == "Integer" }, func(_ *rand.Rand, q *genParam) { q.typ = "Number" })},
	{"Number to Integer", false, onParam(func(q genParam) bool { return q.typ == "Number" }, func(_ *rand.Rand, q *genParam) { q.typ = "Integer" })},
	{"change a parameter's type", false, onParam(func(genParam) bool { return true }, func(r *rand.Rand, q *genParam) {
		q.typ = types[r.IntN(len(types))]
		q.min, q.max, q.maxLen = nil, nil, nil
	})},
	{"add an enum value", true, func(r *rand.Rand, p *genPkg) bool {
		p.levels = append(p.levels, fmt.Sprintf("v%d", len(p.levels)))
		return true
	}},
	{"remove an enum value", false, func(r *rand.Rand, p *genPkg) bool { return removeOne(r, &p.levels, 1) }},
	{"edit a description", true, func(r *rand.Rand, p *genPkg) bool {
		p.tools[r.IntN(len(p.tools))].desc += " (edited)"
		return true
	}},
	{"add a tool", true, func(r *rand.Rand, p *genPkg) bool {
		p.tools = append(p.tools, genTool{name: fmt.Sprintf("added%d", len(p.tools)), desc: "New"})
		return true
	}},
	{"remove a tool", false, func(r *rand.Rand, p *genPkg) bool { return removeOne(r, &p.tools, 1) }},
}

// forRandomEdits calls edit with n random packages (a fifth as many with
// -short) from the generator seeded with seed: each package old, cur (old
// after one to three random mutations), and the two checked. It returns
// the number of packages.
func forRandomEdits(t *testing.T, n int, seed uint64, edit func(it int, old, cur genPkg, oldPkgs, newPkgs []*check.Package)) int {
	t.Helper()
	if testing.Short() {
		n /= 5
	}
	r := rand.New(rand.NewPCG(23, seed))
	dir := t.TempDir()
	for it := range n {
		old := randPkg(r)
		cur := old.clone()
		for range 1 + r.IntN(3) {
			mutations[r.IntN(len(mutations))].apply(r, &cur)
		}
		oldPkgs := []*check.Package{checked(t, filepath.Join(dir, fmt.Sprint(it), "old"), old)}
		newPkgs := []*check.Package{checked(t, filepath.Join(dir, fmt.Sprint(it), "new"), cur)}
		edit(it, old, cur, oldPkgs, newPkgs)
	}
	return n
}

func checked(t *testing.T, dir string, p genPkg) *check.Package {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.gram"), []byte(p.gram()), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs, ds, err := load.Packages([]string{dir}, nil)
	if err != nil || ds.HasErrors() || len(pkgs) != 1 {
		t.Fatalf("generated package does not check: %v %v\n%s", err, ds, p.gram())
	}
	return pkgs[0]
}

// inputSchemas compiles each tool's arguments schema (the jsonschema
// target's inputSchema).
func inputSchemas(t *testing.T, pkg *check.Package) map[string]*sjs.Schema {
	t.Helper()
	out := map[string]*sjs.Schema{}
	for _, tool := range pkg.Tools {
		spec, err := schema.Spec(tool, schema.JSONSchema)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(spec.Schema))
		if err != nil {
			t.Fatal(err)
		}
		c := sjs.NewCompiler()
		if err := c.AddResource("mem://"+tool.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("mem://" + tool.Name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = s
	}
	return out
}

// randomCall makes an arguments object for tool: every parameter of the
// old version and of the new one may be present, with a value of any of
// the types; most such objects are invalid under OLD and are dropped.
func randomCall(r *rand.Rand, names []string, levels []string) map[string]any {
	call := map[string]any{}
	for _, n := range names {
		if r.IntN(3) == 0 {
			continue
		}
		switch r.IntN(5) {
		case 0:
			call[n] = strings.Repeat("a", r.IntN(7))
		case 1:
			call[n] = json.Number(fmt.Sprint(r.IntN(14) - 2))
		case 2:
			call[n] = json.Number(fmt.Sprintf("%d.5", r.IntN(12)-2))
		case 3:
			call[n] = r.IntN(2) == 0
		default:
			call[n] = append(slices.Clone(levels), "v9", "v3", "v4")[r.IntN(len(levels)+3)]
		}
	}
	return call
}

func paramNames(ps ...genPkg) map[string][]string {
	out := map[string][]string{}
	for _, p := range ps {
		for _, t := range p.tools {
			for _, q := range t.params {
				if !slices.Contains(out[t.name], q.name) {
					out[t.name] = append(out[t.name], q.name)
				}
			}
		}
	}
	return out
}

func TestRandomMutations(t *testing.T) {
	iterations := 300
	if testing.Short() {
		iterations = 60
	}
	r := rand.New(rand.NewPCG(23, 2026))
	dir := t.TempDir()
	safeSeen, validChecked := 0, 0
	for it := range iterations {
		old := randPkg(r)
		cur := old.clone()
		var applied []string
		allWidening := true
		for range 1 + r.IntN(3) {
			m := mutations[r.IntN(len(mutations))]
			if m.apply(r, &cur) {
				applied = append(applied, m.name)
				allWidening = allWidening && m.widening
			}
		}
		if len(applied) == 0 {
			continue
		}
		oldPkg := checked(t, filepath.Join(dir, fmt.Sprint(it), "old"), old)
		newPkg := checked(t, filepath.Join(dir, fmt.Sprint(it), "new"), cur)
		changes := compat.Compare([]*check.Package{oldPkg}, []*check.Package{newPkg})
		worst := compat.Safe
		for _, c := range changes {
			worst = max(worst, c.Severity)
		}
		if allWidening && worst == compat.Breaking {
			t.Errorf("iteration %d: only widening edits (%s), but a change is called breaking: %v\nOLD:\n%sNEW:\n%s", it, strings.Join(applied, ", "), changes, old.gram(), cur.gram())
			continue
		}
		if worst != compat.Safe {
			continue
		}
		safeSeen++
		oldS, newS := inputSchemas(t, oldPkg), inputSchemas(t, newPkg)
		names := paramNames(old, cur)
		levels := append(slices.Clone(old.levels), cur.levels...)
		for tool, os := range oldS {
			ns, ok := newS[tool]
			if !ok {
				t.Errorf("iteration %d: tool %s is gone, yet every change is safe: %v", it, tool, changes)
				continue
			}
			for range 40 {
				call := randomCall(r, names[tool], levels)
				if os.Validate(any(call)) != nil {
					continue
				}
				validChecked++
				if err := ns.Validate(any(call)); err != nil {
					data, _ := json.Marshal(call)
					t.Errorf("iteration %d: edits %s are called safe (%v), but the call %s to %s, valid before, is now rejected: %v\nOLD:\n%sNEW:\n%s",
						it, strings.Join(applied, ", "), changes, data, tool, err, old.gram(), cur.gram())
					break
				}
			}
		}
	}
	if safeSeen < iterations/10 || validChecked < 100 {
		t.Errorf("the generator is too narrow: %d safe edits, %d valid calls checked", safeSeen, validChecked)
	}
	t.Logf("%d iterations, %d with only safe changes, %d calls valid under OLD checked under NEW", iterations, safeSeen, validChecked)
}
