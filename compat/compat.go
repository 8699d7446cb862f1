// Package compat finds the changes between two versions of gram packages
// that break, or may surprise, the clients of their tools: models (which
// read the schema), programs (the generated Go, the runtime's binding) and
// MCP hosts (which cache tool lists). It is gramc diff's engine, as buf
// breaking is for protobuf and oasdiff for OpenAPI.
//
// Every change has a stable code (registered with the diagnostics, stage
// "diff") and a severity: breaking (a caller, model or implementation
// written against the old version fails against the new one), dangerous
// (still valid, but what a model or caller sees changes) or safe. Direction
// matters: a tool's inputs may widen and its result may narrow; named types
// and enums are followed to every place they are used, in the direction of
// that place.
package compat

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"slices"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

// Severity is how much a change matters.
type Severity int

const (
	Safe Severity = iota
	Dangerous
	Breaking
)

func (s Severity) String() string {
	switch s {
	case Breaking:
		return "breaking"
	case Dangerous:
		return "dangerous"
	}
	return "safe"
}

// ParseSeverity reads "breaking", "dangerous" or "safe".
func ParseSeverity(s string) (Severity, bool) {
	for _, v := range []Severity{Safe, Dangerous, Breaking} {
		if v.String() == s {
			return v, true
		}
	}
	return Safe, false
}

// Change is one difference between the versions.
type Change struct {
	Code     diag.Code
	Severity Severity
	Tool     string
	// Path is the parameter or field path inside the tool ("city",
	// "where.label", "result", "result.items[]").
	Path    string
	Message string
	// Old and New are where the change is in each version (a zero Range
	// when the thing does not exist there).
	Old, New ast.Range
	// OldText and NewText are the two versions of what changed, for
	// display.
	OldText, NewText string
	// Accepted is set by Accept when a `// gramc:ignore CODE -- reason`
	// comment on the new declaration accepts the change; Reason is the
	// comment's reason.
	Accepted bool
	Reason   string
	// Target, when set, is the provider target whose payload alone shows
	// the change (CompareTargets).
	Target string
	// Agent: Tool names an agent, and the change is to the agent or its
	// signature, which is the tool an agent listing it sees.
	Agent bool
}

// The rules: their codes, registered in diag with stage "diff".
const (
	ToolRemoved          = diag.CodeDiffToolRemoved
	ToolAdded            = diag.CodeDiffToolAdded
	ParamRemoved         = diag.CodeDiffParamRemoved
	ParamAddedRequired   = diag.CodeDiffParamAddedRequired
	ParamAddedOptional   = diag.CodeDiffParamAddedOptional
	ParamNowRequired     = diag.CodeDiffParamNowRequired
	ParamNowOptional     = diag.CodeDiffParamNowOptional
	TypeChanged          = diag.CodeDiffTypeChanged
	ConstraintNarrowed   = diag.CodeDiffConstraintNarrowed
	ConstraintWidened    = diag.CodeDiffConstraintWidened
	EnumValueRemoved     = diag.CodeDiffEnumValueRemoved
	EnumValueAdded       = diag.CodeDiffEnumValueAdded
	DefaultChanged       = diag.CodeDiffDefaultChanged
	DescriptionChanged   = diag.CodeDiffDescriptionChanged
	ToolDeprecated       = diag.CodeDiffToolDeprecated
	ResultFieldRemoved   = diag.CodeDiffResultFieldRemoved
	ResultFieldAdded     = diag.CodeDiffResultFieldAdded
	EnumOrderChanged     = diag.CodeDiffEnumOrderChanged
	ResultNowOptionalFld = diag.CodeDiffResultFieldNowOptional
	AgentRemoved         = diag.CodeDiffAgentRemoved
	AgentAdded           = diag.CodeDiffAgentAdded
)

// direction: where a type is used. An input (a parameter, a field of a
// record passed in) may widen; a result may narrow.
type direction int

const (
	input direction = iota
	result
)

// Compare returns the changes from old to new, sorted by tool and path.
func Compare(old, new []*check.Package) []Change {
	oldTools, newTools := toolsOf(old), toolsOf(new)
	unlisted := map[*check.Tool]bool{}
	for _, p := range append(slices.Clip(old), new...) {
		if p != nil && p.Name == deprecationUnlisted && p.Files == nil {
			for _, t := range p.Tools {
				unlisted[t] = true
			}
		}
	}
	var out []Change
	for _, name := range sortedKeys(oldTools) {
		ot := oldTools[name]
		nt, ok := newTools[name]
		if !ok {
			out = append(out, Change{Code: ToolRemoved, Severity: Breaking, Tool: name, Old: ot.NameRange,
				Message: fmt.Sprintf("tool %s was removed: every caller of it, model or program, fails", name)})
			continue
		}
		c := &comparer{tool: name, deprecationUnknown: unlisted[ot] || unlisted[nt]}
		c.tool2(ot, nt)
		out = append(out, c.changes...)
	}
	for _, name := range sortedKeys(newTools) {
		if _, ok := oldTools[name]; !ok {
			nt := newTools[name]
			out = append(out, Change{Code: ToolAdded, Severity: Safe, Tool: name, New: nt.NameRange,
				Message: fmt.Sprintf("tool %s was added", name)})
		}
	}
	renames(out, oldTools, newTools)
	if fromGram(old) && fromGram(new) {
		out = append(out, compareAgents(old, new)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Tool != out[j].Tool {
			return out[i].Tool < out[j].Tool
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// renames says, on a removed tool and an added one whose parameters and
// result are alike (the only such pair), that it may be a rename: for
// the callers it is still a removal.
func renames(changes []Change, oldTools, newTools map[string]*check.Tool) {
	removed, added := map[string][]int{}, map[string][]int{}
	for i, c := range changes {
		switch c.Code {
		case ToolRemoved:
			k := shape(oldTools[c.Tool])
			removed[k] = append(removed[k], i)
		case ToolAdded:
			k := shape(newTools[c.Tool])
			added[k] = append(added[k], i)
		}
	}
	for k, rs := range removed {
		as := added[k]
		if len(rs) != 1 || len(as) != 1 {
			continue
		}
		r, a := &changes[rs[0]], &changes[as[0]]
		r.Message += fmt.Sprintf(" (renamed to %s? its parameters and result are alike)", a.Tool)
		a.Message += fmt.Sprintf(" (renamed from %s? its parameters and result are alike)", r.Tool)
	}
}

// shape is a tool's parameters (names, types, required or not) and
// result type, in a comparable form.
func shape(t *check.Tool) string {
	parts := make([]string, 0, len(t.Params)+1)
	for _, p := range t.Params {
		parts = append(parts, fmt.Sprintf("%s:%s:%v", p.Name, typeShape(p.Type), p.Required()))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",") + "=>" + typeShape(t.Result)
}

func typeShape(t *check.Type) string {
	switch {
	case t == nil:
		return ""
	case t.Kind == check.Array:
		return typeShape(t.Elem) + "[]"
	}
	return t.Kind.String()
}

// fromGram reports whether a version is gram files (a snapshot of tool
// listings has no agents to compare).
func fromGram(pkgs []*check.Package) bool {
	for _, p := range pkgs {
		if p != nil && p.Files != nil {
			return true
		}
	}
	return false
}

// compareAgents judges the agents' signatures as tools' (an agent's
// signature is the tool an agent listing it sees, and what a program
// running it sends and reads): an input may widen, an output may narrow.
func compareAgents(old, new []*check.Package) []Change {
	oldAgents, newAgents := agentsOf(old), agentsOf(new)
	var out []Change
	for _, name := range sortedKeys(oldAgents) {
		oa := oldAgents[name]
		na, ok := newAgents[name]
		if !ok {
			out = append(out, Change{Code: AgentRemoved, Severity: Breaking, Tool: name, Agent: true, Old: oa.NameRange,
				Message: fmt.Sprintf("agent %s was removed: a program that runs it, and every agent that lists it, fails", name) + listedBy(name, oldAgents)})
			continue
		}
		c := &comparer{tool: name, agent: true}
		c.agent2(oa, na)
		// Its callers see the change as one of a tool of theirs.
		for i := range c.changes {
			c.changes[i].Message += listedBy(name, newAgents)
		}
		out = append(out, c.changes...)
	}
	for _, name := range sortedKeys(newAgents) {
		if _, ok := oldAgents[name]; !ok {
			out = append(out, Change{Code: AgentAdded, Severity: Safe, Tool: name, Agent: true, New: newAgents[name].NameRange,
				Message: fmt.Sprintf("agent %s was added", name)})
		}
	}
	return out
}

// listedBy says which of agents list the agent named name, to whose
// models it is a tool: " (a tool of agent desk)", or "".
func listedBy(name string, agents map[string]*check.Agent) string {
	var by []string
	for _, k := range sortedKeys(agents) {
		for _, b := range agents[k].Agents {
			if b.Name == name {
				by = append(by, k)
				break
			}
		}
	}
	switch len(by) {
	case 0:
		return ""
	case 1:
		return " (a tool of agent " + by[0] + ")"
	}
	return " (a tool of agents " + strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1] + ")"
}

// agentsOf indexes the typed agents of pkgs by name.
func agentsOf(pkgs []*check.Package) map[string]*check.Agent {
	return index(pkgs, func(p *check.Package, m map[string]*check.Agent) {
		for _, a := range p.Agents {
			if a.Signature != nil {
				m[a.Name] = a
			}
		}
	})
}

// agent2 compares two versions of an agent: its description (what the
// model of an agent listing it reads) and its signature. An input that
// is the user's message in both (one String parameter) is compared as
// that string, whatever the parameter's name.
func (c *comparer) agent2(oa, na *check.Agent) {
	if oa.Description != na.Description {
		c.add(Change{Code: DescriptionChanged, Severity: Dangerous, Old: oa.NameRange, New: na.NameRange,
			OldText: oa.Description, NewText: na.Description,
			Message: fmt.Sprintf("agent %s's description changed: the model of an agent listing it chooses it by it", c.tool)})
	}
	ot, nt := oa.Signature, na.Signature
	if oa.MessageInput() && na.MessageInput() {
		op, np := ot.Params[0], nt.Params[0]
		c.param(op, np, np.Name, input)
	} else {
		c.params(ot.Params, nt.Params, "", input, ot.Range, nt.Range)
	}
	if ot.Result != nil || nt.Result != nil {
		c.types(ot.Result, nt.Result, "result", result, rangeOf(ot.Result, ot.Range), rangeOf(nt.Result, nt.Range))
	}
}

// toolsOf indexes the tools of pkgs by name.
func toolsOf(pkgs []*check.Package) map[string]*check.Tool {
	return index(pkgs, func(p *check.Package, m map[string]*check.Tool) {
		for _, t := range p.Tools {
			m[t.Name] = t
		}
	})
}

// index is a map that add fills from each package of pkgs; a nil package
// adds nothing.
func index[T any](pkgs []*check.Package, add func(*check.Package, map[string]T)) map[string]T {
	m := map[string]T{}
	for _, p := range pkgs {
		if p != nil {
			add(p, m)
		}
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type comparer struct {
	tool  string
	agent bool // tool names an agent: its changes say so
	// deprecationUnknown: one version is a snapshot that cannot say a
	// tool is deprecated
	deprecationUnknown bool
	changes            []Change
	// seen guards a recursive type compared with itself.
	seen map[[2]*check.TypeDecl]bool
}

func (c *comparer) add(ch Change) {
	ch.Tool = c.tool
	if c.agent {
		ch.Agent = true
		if !strings.HasPrefix(ch.Message, "agent ") {
			ch.Message = "agent " + c.tool + ": " + ch.Message
		}
	}
	c.changes = append(c.changes, ch)
}

func (c *comparer) tool2(ot, nt *check.Tool) {
	if ot.Description != nt.Description {
		c.add(Change{Code: DescriptionChanged, Severity: Dangerous, Old: ot.NameRange, New: nt.NameRange,
			OldText: ot.Description, NewText: nt.Description,
			Message: fmt.Sprintf("tool %s's description changed: the model chooses tools and arguments by it", c.tool)})
	}
	if !ot.Deprecated && nt.Deprecated && !c.deprecationUnknown {
		c.add(Change{Code: ToolDeprecated, Severity: Dangerous, Old: ot.NameRange, New: nt.NameRange,
			Message: fmt.Sprintf("tool %s is now deprecated", c.tool)})
	}
	c.params(ot.Params, nt.Params, "", input, ot.NameRange, nt.NameRange)
	switch or, nr := ot.Result, nt.Result; {
	case or == unknownResult || nr == unknownResult:
		// A snapshot's tool that lists no output schema returns no object:
		// only a record on the other side is known to differ.
		known := nr
		if nr == unknownResult {
			known = or
		}
		if known != nil && known != unknownResult && known.Kind == check.Record {
			oldText, newText := "(not an object)", known.Name()
			if known == or {
				oldText, newText = newText, oldText
			}
			c.add(Change{Code: TypeChanged, Severity: Breaking, Path: "result", Old: rangeOf(or, ot.Range), New: rangeOf(nr, nt.Range), OldText: oldText, NewText: newText,
				Message: fmt.Sprintf("the type of result changed from %s to %s", oldText, newText)})
		}
	case or != nil || nr != nil:
		c.types(or, nr, "result", result, rangeOf(or, ot.Range), rangeOf(nr, nt.Range))
	}
}

func rangeOf(t *check.Type, fallback ast.Range) ast.Range {
	if t != nil && t.Range.File != "" {
		return t.Range
	}
	return fallback
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// params compares the parameters (or a record's fields) of a place used
// in direction dir.
func (c *comparer) params(olds, news []*check.Param, prefix string, dir direction, oldAt, newAt ast.Range) {
	first := len(c.changes)
	defer func() { paramRename(c.changes[first:], prefix, olds, news) }()
	byName := map[string]*check.Param{}
	for _, p := range news {
		byName[p.Name] = p
	}
	oldNames := map[string]bool{}
	for _, op := range olds {
		oldNames[op.Name] = true
		path := join(prefix, op.Name)
		np, ok := byName[op.Name]
		if !ok {
			if dir == input {
				c.add(Change{Code: ParamRemoved, Severity: Breaking, Path: path, Old: op.NameRange, New: newAt,
					Message: fmt.Sprintf("%s was removed: a model or program that sends it is refused (additional properties are not allowed)", what(dir, path))})
			} else {
				c.add(Change{Code: ResultFieldRemoved, Severity: Breaking, Path: path, Old: op.NameRange, New: newAt,
					Message: fmt.Sprintf("result field %s was removed: a program that reads it fails", path)})
			}
			continue
		}
		c.param(op, np, path, dir)
	}
	for _, np := range news {
		if oldNames[np.Name] {
			continue
		}
		path := join(prefix, np.Name)
		switch {
		case dir == result:
			c.add(Change{Code: ResultFieldAdded, Severity: Safe, Path: path, Old: oldAt, New: np.NameRange,
				Message: fmt.Sprintf("result field %s was added", path)})
		case np.Required():
			c.add(Change{Code: ParamAddedRequired, Severity: Breaking, Path: path, Old: oldAt, New: np.NameRange,
				Message: fmt.Sprintf("required %s was added: a call written for the old version lacks it", what(dir, path))})
		default:
			c.add(Change{Code: ParamAddedOptional, Severity: Safe, Path: path, Old: oldAt, New: np.NameRange,
				Message: fmt.Sprintf("optional %s was added", what(dir, path))})
		}
	}
}

// paramRename says, when one parameter or field of a place (prefix) was
// removed and one of the same type added (the only such pair), that it
// may be a rename: for a caller it is still a removal and an addition.
func paramRename(changes []Change, prefix string, olds, news []*check.Param) {
	var gone, come *Change
	nGone, nCome := 0, 0
	for i := range changes {
		c := &changes[i]
		if parent(c.Path) != prefix {
			continue // a change inside a field
		}
		switch c.Code {
		case ParamRemoved, ResultFieldRemoved:
			gone = c
			nGone++
		case ParamAddedRequired, ParamAddedOptional, ResultFieldAdded:
			come = c
			nCome++
		}
	}
	if nGone != 1 || nCome != 1 {
		return
	}
	typeOf := func(ps []*check.Param, name string) string {
		for _, p := range ps {
			if p.Name == name {
				return typeShape(p.Type) + "/" + p.Type.Name()
			}
		}
		return "?"
	}
	if typeOf(olds, last(gone.Path)) != typeOf(news, last(come.Path)) {
		return
	}
	gone.Message += fmt.Sprintf(" (renamed to %s? it has the same type)", last(come.Path))
	come.Message += fmt.Sprintf(" (renamed from %s? it has the same type)", last(gone.Path))
}

func parent(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

func last(path string) string { return path[strings.LastIndexByte(path, '.')+1:] }

func what(dir direction, path string) string {
	if strings.Contains(path, ".") {
		return "field " + path
	}
	return "parameter " + path
}

func (c *comparer) param(op, np *check.Param, path string, dir direction) {
	switch {
	case dir == input && !op.Required() && np.Required():
		c.add(Change{Code: ParamNowRequired, Severity: Breaking, Path: path, Old: op.NameRange, New: np.NameRange,
			Message: fmt.Sprintf("%s is now required: a call that leaves it out is refused", what(dir, path))})
	case dir == input && op.Required() && !np.Required():
		c.add(Change{Code: ParamNowOptional, Severity: Safe, Path: path, Old: op.NameRange, New: np.NameRange,
			Message: fmt.Sprintf("%s is now optional", what(dir, path))})
	case dir == result && !op.Optional && np.Optional:
		c.add(Change{Code: ResultNowOptionalFld, Severity: Breaking, Path: path, Old: op.NameRange, New: np.NameRange,
			Message: fmt.Sprintf("result field %s may now be missing: a program that reads it may fail", path)})
	}
	// A default that changes while the parameter stays optional changes
	// what leaving it out means (a required one that gains a default, or
	// an optional one that becomes required, is reported above instead).
	defaultChanged := op.HasDefault && np.HasDefault && !jsonvalue.Equal(op.Default, np.Default) ||
		op.HasDefault != np.HasDefault && !op.Required() && !np.Required()
	if dir == input && defaultChanged {
		c.add(Change{Code: DefaultChanged, Severity: Dangerous, Path: path, Old: op.NameRange, New: np.NameRange,
			OldText: jsonText(op.Default, op.HasDefault), NewText: jsonText(np.Default, np.HasDefault),
			Message: fmt.Sprintf("the default of %s changed: a call that leaves it out now means something else", what(dir, path))})
	}
	c.types(op.Type, np.Type, path, dir, op.Range, np.Range)
	c.constraints(op.Constraints.Value(), np.Constraints.Value(), path, dir, op.Range, np.Range)
}

func (c *comparer) types(ot, nt *check.Type, path string, dir direction, oldAt, newAt ast.Range) {
	if ot == nil || nt == nil {
		// A type the checker could not resolve (an unknown type, a
		// missing label) is nil: the checker reported it, and nothing is
		// known about what it will be, so nothing else is said.
		return
	}
	// Records compare by their fields (a renamed :Type with the same
	// fields is the same JSON), enums by their values.
	if ot.Kind != nt.Kind {
		// An Integer where a Number was is a narrowing of an input and
		// a widening of a result; every other change of kind breaks.
		sev := Breaking
		if ot.Kind == check.Integer && nt.Kind == check.Number && dir == input || ot.Kind == check.Number && nt.Kind == check.Integer && dir == result {
			sev = Safe
		}
		c.add(Change{Code: TypeChanged, Severity: sev, Path: path, Old: oldAt, New: newAt, OldText: ot.Name(), NewText: nt.Name(),
			Message: fmt.Sprintf("the type of %s changed from %s to %s", path, ot.Name(), nt.Name())})
		return
	}
	switch ot.Kind {
	case check.Array:
		c.types(ot.Elem, nt.Elem, path+"[]", dir, oldAt, newAt)
	case check.Record:
		if ot.Decl == nil || nt.Decl == nil {
			return
		}
		key := [2]*check.TypeDecl{ot.Decl, nt.Decl}
		if c.seen == nil {
			c.seen = map[[2]*check.TypeDecl]bool{}
		}
		if c.seen[key] {
			return // a recursive type: already being compared
		}
		c.seen[key] = true
		c.params(ot.Decl.Fields, nt.Decl.Fields, path, dir, oldAt, newAt)
		delete(c.seen, key)
	case check.EnumKind:
		if ot.Enum != nil && nt.Enum != nil {
			c.enumValues(ot.Enum.Values, nt.Enum.Values, path, dir, oldAt, newAt)
		}
	}
}

// enumValues compares allowed values: for an input, removing one breaks
// (a caller may send it) and adding one is safe; for a result, adding one
// breaks (a program may not know it) and removing one is safe.
func (c *comparer) enumValues(ov, nv []any, path string, dir direction, oldAt, newAt ast.Range) {
	removed, added := setDiff(ov, nv), setDiff(nv, ov)
	// report reports values removed or added: the severity and message
	// for an input; for a result, the other severity and its message.
	report := func(values []any, code diag.Code, sev Severity, inputMsg, resultMsg string) {
		if len(values) == 0 {
			return
		}
		msg := fmt.Sprintf(inputMsg, path, list(values))
		if dir == result {
			sev, msg = Breaking, fmt.Sprintf(resultMsg, path, list(values))
			if code == EnumValueRemoved {
				sev = Safe
			}
		}
		c.add(Change{Code: code, Severity: sev, Path: path, Old: oldAt, New: newAt, OldText: list(ov), NewText: list(nv), Message: msg})
	}
	report(removed, EnumValueRemoved, Breaking, "%s no longer allows %s: a call that sends it is refused", "%s no longer returns %s")
	report(added, EnumValueAdded, Safe, "%s now also allows %s", "%s may now return %s, which a program written for the old version does not know")
	if len(removed) == 0 && len(added) == 0 && list(ov) != list(nv) {
		c.add(Change{Code: EnumOrderChanged, Severity: Dangerous, Path: path, Old: oldAt, New: newAt, OldText: list(ov), NewText: list(nv),
			Message: fmt.Sprintf("the order of %s's values changed: a model reads the first as the usual one", path)})
	}
}

func setDiff(a, b []any) []any {
	var out []any
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y any) bool { return jsonvalue.Equal(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

func list(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonText(v, true)
	}
	return strings.Join(parts, ", ")
}

func jsonText(v any, has bool) string {
	if !has {
		return "(none)"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// constraints compares bounds, lengths, patterns, formats and enum
// constraints: a narrower input breaks a caller, a wider one is safe; for
// a result, the other way round.
func (c *comparer) constraints(oc, nc check.Constraints, path string, dir direction, oldAt, newAt ast.Range) {
	report := func(narrower bool, what, oldText, newText string) {
		sev := Safe
		code := ConstraintWidened
		verb := "widened"
		if narrower {
			code, verb = ConstraintNarrowed, "narrowed"
		}
		if narrower == (dir == input) {
			sev = Breaking
		}
		c.add(Change{Code: code, Severity: sev, Path: path, Old: oldAt, New: newAt, OldText: oldText, NewText: newText,
			Message: fmt.Sprintf("%s of %s %s: %s -> %s", what, path, verb, oldText, newText)})
	}
	// bound compares a lower bound (raising it narrows) or an upper one
	// (lowering it narrows); adding one narrows, dropping one widens.
	bound := func(o, n *json.Number, what string, upper bool) {
		switch {
		case o == nil && n != nil:
			report(true, what, "(none)", n.String())
		case o != nil && n == nil:
			report(false, what, o.String(), "(none)")
		case o != nil && n != nil && jsonvalue.CompareNumbers(*o, *n) != 0:
			raised := jsonvalue.CompareNumbers(*n, *o) > 0
			report(raised != upper, what, o.String(), n.String())
		}
	}
	lower := func(o, n *json.Number, what string) { bound(o, n, what, false) }
	upper := func(o, n *json.Number, what string) { bound(o, n, what, true) }
	lower(oc.Minimum, nc.Minimum, "the minimum")
	lower(oc.ExclusiveMinimum, nc.ExclusiveMinimum, "the exclusive minimum")
	upper(oc.Maximum, nc.Maximum, "the maximum")
	upper(oc.ExclusiveMaximum, nc.ExclusiveMaximum, "the exclusive maximum")
	lowerInt := func(o, n *int64, what string) { lower(num(o), num(n), what) }
	upperInt := func(o, n *int64, what string) { upper(num(o), num(n), what) }
	lowerInt(oc.MinLength, nc.MinLength, "the minimum length")
	upperInt(oc.MaxLength, nc.MaxLength, "the maximum length")
	lowerInt(oc.MinItems, nc.MinItems, "the minimum number of items")
	upperInt(oc.MaxItems, nc.MaxItems, "the maximum number of items")
	if oc.Pattern != nc.Pattern {
		// A new or different pattern may refuse what the old accepted;
		// dropping one only widens.
		report(nc.Pattern != "", "the pattern", orNone(oc.Pattern), orNone(nc.Pattern))
	}
	if oc.Format != nc.Format {
		report(nc.Format != "", "the format", orNone(oc.Format), orNone(nc.Format))
	}
	if !oc.UniqueItems && nc.UniqueItems {
		report(true, "uniqueness of items", "no", "yes")
	} else if oc.UniqueItems && !nc.UniqueItems {
		report(false, "uniqueness of items", "yes", "no")
	}
	if oc.Enum != nil || nc.Enum != nil {
		switch {
		case oc.Enum == nil:
			report(true, "the allowed values", "(any)", list(nc.Enum))
		case nc.Enum == nil:
			report(false, "the allowed values", list(oc.Enum), "(any)")
		default:
			c.enumValues(oc.Enum, nc.Enum, path, dir, oldAt, newAt)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func num(p *int64) *json.Number {
	if p == nil {
		return nil
	}
	n := json.Number(fmt.Sprint(*p))
	return &n
}
