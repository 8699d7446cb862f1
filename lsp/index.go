package lsp

import (
	"cmp"
	"slices"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
)

// symKind is what a declared name is.
type symKind int8

const (
	symTool symKind = iota
	symParam
	symType
	symField
	symEnum
	symAgent
	symHeader // not a symbol: the owner of the document header's keys
	symTest
	symCall // not a symbol: the owner of a test's (::Call {...}) keys
)

// symKinds is what each symKind is to the reader, to the checker (the
// owner of the properties of what it declares) and to the protocol (its
// document symbol's kind and its name's semantic token type).
var symKinds = [...]symKindFacts{
	symTool:   {"tool", check.OnTool, protocol.SymbolKindFunction, tokFunction},
	symParam:  {"parameter", check.OnParam, protocol.SymbolKindVariable, tokParameter},
	symType:   {"type", check.OnType, protocol.SymbolKindStruct, tokType},
	symField:  {"field", check.OnParam, protocol.SymbolKindField, tokParameter},
	symEnum:   {"enum", check.OnEnum, protocol.SymbolKindEnum, tokEnum},
	symAgent:  {"agent", check.OnAgent, protocol.SymbolKindClass, tokClass},
	symHeader: {"header", check.OnHeader, protocol.SymbolKindClass, tokParameter},
	symTest:   {"test", check.OnTest, protocol.SymbolKindMethod, tokFunction},
	symCall:   {"call", check.OnCall, protocol.SymbolKindClass, tokParameter},
}

type symKindFacts struct {
	name   string
	owner  check.Owner
	symbol protocol.SymbolKind
	token  tokenType
}

// facts is k's row of symKinds; a kind outside it (-1: nothing gramc
// knows) is a "name" whose properties are read as the header's.
func (k symKind) facts() symKindFacts {
	if k < 0 || int(k) >= len(symKinds) {
		return symKindFacts{"name", check.OnHeader, protocol.SymbolKindClass, tokParameter}
	}
	return symKinds[k]
}

func (k symKind) String() string { return k.facts().name }

// A symbol is one declaration of the package: a tool, agent, type or enum
// (package-wide names) or a parameter or field (local to its tool or type).
type symbol struct {
	kind       symKind
	quoted     bool // the name is written inside quotes (paramName: "x")
	deprecated bool
	name       string
	file       string
	name0      int // the name's byte span
	name1      int
	full0      int // the whole declaration's byte span
	full1      int
	parent     *symbol // a parameter's tool, a field's type
	next       *symbol // the next package-wide declaration of the same name
	// of is the checked model's value: a *check.Tool, *check.Param (a
	// parameter or a field), *check.TypeDecl, *check.Enum, *check.Agent or
	// *check.Test, by kind; nil, or a nil pointer, when the checker made
	// none. One field for six, as the index holds a symbol per parameter.
	of any
}

func (s *symbol) tool() *check.Tool     { v, _ := s.of.(*check.Tool); return v }
func (s *symbol) param() *check.Param   { v, _ := s.of.(*check.Param); return v }
func (s *symbol) decl() *check.TypeDecl { v, _ := s.of.(*check.TypeDecl); return v }
func (s *symbol) enum() *check.Enum     { v, _ := s.of.(*check.Enum); return v }
func (s *symbol) agent() *check.Agent   { v, _ := s.of.(*check.Agent); return v }
func (s *symbol) test() *check.Test     { v, _ := s.of.(*check.Test); return v }

// An occurrence is a name in the text that means a symbol: its
// declaration or a reference to it. A built-in type label has builtin set
// and no symbol.
//
// The index holds one for about every twenty bytes of a file, so its
// offsets are 32-bit (files are far smaller than 2 GiB: load's limit).
type occurrence struct {
	start, end int32
	decl       bool
	quoted     bool // inside a string: renaming keeps the quotes
	sym        *symbol
	builtin    *check.BuiltinType
}

// A propKey is a property key of a declaration's or a node's record.
type propKey struct {
	propSpan
	key string
}

// A propSpan is a propKey as the index keeps it (12 bytes: a file has one
// for about every fifty bytes). Its key is the text it spans, or, for one
// whose text is not its name (`"key"`, an escape), in fileIndex.keys.
type propSpan struct {
	start, end int32
	owner      symKind // symTool, symAgent, symType, symEnum, or symParam for a node
	result     bool    // a tool's return node
}

// A token is one classified span for semantic highlighting (12 bytes: a
// file has one for about every twelve bytes); a file's are kept packed
// (tokenList).
type token struct {
	start, end int32
	typ        tokenType
	mods       tokenMod
}

// fileIndex is what the index knows of one file. The declarations of its
// top-level names are found when the index is built; the rest (parameters,
// references, property keys, tokens) on the first request that needs the
// file, so that an edit costs one file's walk, not the package's.
type fileIndex struct {
	tree   *ast.File
	built  bool
	inDecl map[*ast.SubjectPattern]*symbol
	occ    []occurrence // sorted by start once built
	props  []propSpan
	keys   map[int32]string // the names of the keys whose text is not their name, by start
	text   string
	toks   []token   // while the file is walked
	tokens tokenList // then
	decls  []*symbol
}

// index is the navigation model of one checked package: every declaration
// and every place its name is used, per file.
type index struct {
	mu     sync.Mutex         // guards the lazy file walks (file)
	syms   []*symbol          // the package-wide declarations, file by file
	byName map[string]*symbol // tools, agents, types, enums: the first of a name (others follow in next)
	files  map[string]*fileIndex
	w      *walker
}

// at is where a model value's name starts.
type at struct {
	file  string
	start int
}

func key(r ast.Range) at { return at{r.File, int(r.Start.Offset)} }

// buildIndex indexes the package's declarations; file walks wait for the
// first request (index.file).
func buildIndex(p *check.Package) *index {
	x := &index{byName: make(map[string]*symbol, len(p.Tools)+len(p.Types)+len(p.Enums)+len(p.Agents)), files: map[string]*fileIndex{}}
	m := &modelIndex{
		tools:  make(map[at]*check.Tool, len(p.Tools)),
		types:  make(map[at]*check.TypeDecl, len(p.Types)),
		enums:  make(map[at]*check.Enum, len(p.Enums)),
		agents: make(map[at]*check.Agent, len(p.Agents)),
		tests:  make(map[at]*check.Test, len(p.Tests)),
	}
	for _, t := range p.Tests {
		m.tests[key(t.NameRange)] = t
	}
	for _, t := range p.Tools {
		m.tools[key(t.NameRange)] = t
	}
	for _, t := range p.Types {
		m.types[key(t.NameRange)] = t
	}
	for _, e := range p.Enums {
		m.enums[key(e.NameRange)] = e
	}
	for _, a := range p.Agents {
		m.agents[key(a.NameRange)] = a
	}
	x.w = &walker{x: x, model: m, builtins: builtinLabels()}
	for _, f := range p.Files {
		if f == nil {
			continue
		}
		fi := &fileIndex{tree: f, text: source(f), inDecl: make(map[*ast.SubjectPattern]*symbol, len(f.Patterns))}
		x.files[f.Name] = fi
		x.w.enter(fi)
		for _, pat := range f.Patterns {
			x.w.declare(pat)
		}
	}
	return x
}

// modelIndex finds the checked model's value for a declaration's name.
type modelIndex struct {
	tools  map[at]*check.Tool
	types  map[at]*check.TypeDecl
	enums  map[at]*check.Enum
	agents map[at]*check.Agent
	tests  map[at]*check.Test
}

func builtinLabels() map[string]*check.BuiltinType {
	out := map[string]*check.BuiltinType{}
	for _, b := range check.Builtins() {
		b := b
		out[b.Name] = &b
		for _, a := range b.Aliases {
			out[a] = &b
		}
	}
	return out
}

// file returns the index of a file of the package, walking it on first
// use: its parameters and fields, then references (names resolve in any
// order and across files), property keys and tokens. Nil for a file
// outside the package.
func (x *index) file(name string) *fileIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	fi := x.files[name]
	if fi == nil || fi.built {
		return fi
	}
	fi.built = true
	w := x.w
	w.enter(fi)
	for _, s := range fi.decls {
		fi.occ = append(fi.occ, occurrence{start: int32(s.name0), end: int32(s.name1), sym: s, decl: true, quoted: s.quoted})
	}
	for sp, s := range fi.inDecl {
		if s.kind == symTool || s.kind == symType || s.kind == symAgent {
			w.declareParams(s, sp)
		}
	}
	if fi.tree.Header != nil {
		w.record(fi.tree.Header, symHeader, false)
	}
	for _, pat := range fi.tree.Patterns {
		w.refs(pat)
	}
	for _, c := range fi.tree.Comments {
		s, e := c.Offsets()
		w.tok(s, e, tokComment, 0)
	}
	slices.SortFunc(fi.occ, func(a, b occurrence) int { return cmp.Compare(a.start, b.start) })
	slices.SortStableFunc(fi.toks, func(a, b token) int { return cmp.Compare(a.start, b.start) })
	slices.SortStableFunc(fi.decls, func(a, b *symbol) int { return a.name0 - b.name0 })
	// Kept as long as the check's result: without the room append left.
	fi.occ, fi.props = exact(fi.occ), exact(fi.props)
	fi.tokens, fi.toks = packTokens(fi.toks), nil
	return fi
}

// exact returns s in an array of its length (about: the allocator's size
// classes round up).
func exact[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/16 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}

// all walks every file (for requests over the whole package).
func (x *index) all() {
	for name := range x.files {
		x.file(name)
	}
}

func source(f *ast.File) string {
	if src := f.Source(); src != nil {
		return src.Text()
	}
	return ""
}

type walker struct {
	x        *index
	fi       *fileIndex
	file     string
	src      string
	model    *modelIndex
	builtins map[string]*check.BuiltinType
}

// enter points the walker at a file.
func (w *walker) enter(fi *fileIndex) {
	w.fi, w.file, w.src = fi, fi.tree.Name, fi.text
}

// unwrap removes the annotations around a pattern.
func unwrap(p ast.Pattern) ast.Pattern {
	for {
		a, ok := p.(*ast.AnnotatedPattern)
		if !ok || a == nil || a.Pattern == nil {
			return p
		}
		p = a.Pattern
	}
}

// declKind is the declaration kind of a subject's labels, if any.
func declKind(ls []ast.Label) (symKind, bool) {
	for _, l := range ls {
		switch l.Name {
		case "Tool":
			return symTool, true
		case "Agent":
			return symAgent, true
		case "Type":
			return symType, true
		case "Enum":
			return symEnum, true
		case "Test":
			return symTest, true
		}
	}
	return 0, false
}

func (w *walker) add(s *symbol) {
	if s.kind.isTop() {
		w.x.syms = append(w.x.syms, s)
		if first := w.x.byName[s.name]; first == nil {
			w.x.byName[s.name] = s
		} else {
			last := first
			for last.next != nil {
				last = last.next
			}
			last.next = s
		}
	}
	w.fi.decls = append(w.fi.decls, s)
	if !s.kind.isTop() {
		w.fi.occ = append(w.fi.occ, occurrence{start: int32(s.name0), end: int32(s.name1), sym: s, decl: true, quoted: s.quoted})
	}
}

// declare records the declarations of one top-level pattern (and of the
// tools an agent declares inline).
func (w *walker) declare(p ast.Pattern) {
	sp, ok := unwrap(p).(*ast.SubjectPattern)
	if !ok || sp == nil || sp.Identifier == nil {
		return
	}
	kind, ok := declKind(sp.Labels)
	if !ok {
		return
	}
	n0, n1 := sp.Identifier.Offsets()
	f0, f1 := sp.Offsets()
	s := &symbol{kind: kind, name: sp.Identifier.Name, file: w.file, name0: n0, name1: n1, full0: f0, full1: f1}
	k := at{w.file, n0}
	switch kind {
	case symTool:
		t := w.model.tools[k]
		s.of = t
		if t != nil {
			s.deprecated = t.Deprecated
		}
	case symType:
		s.of = w.model.types[k]
	case symEnum:
		s.of = w.model.enums[k]
	case symAgent:
		s.of = w.model.agents[k]
	case symTest:
		s.of = w.model.tests[k]
	}
	w.add(s)
	w.fi.inDecl[sp] = s
	if kind == symAgent {
		for _, e := range sp.Elements {
			if inner, ok := unwrap(e).(*ast.SubjectPattern); ok && inner != nil {
				w.declare(inner)
			}
		}
	}
}

// declareParams records the parameters of a tool or the fields of a type.
func (w *walker) declareParams(owner *symbol, sp *ast.SubjectPattern) {
	var params []*check.Param
	switch {
	case owner.tool() != nil:
		params = owner.tool().Params
	case owner.decl() != nil:
		params = owner.decl().Fields
	case owner.agent() != nil && owner.agent().HasSignature:
		params = owner.agent().Signature.Params // (its signature element's)
	}
	byStart := make(map[int]*check.Param, len(params))
	for _, q := range params {
		if q.NameRange.File == w.file {
			byStart[int(q.NameRange.Start.Offset)] = q
		}
	}
	for _, n := range w.nodes(sp.Elements) {
		if n.Identifier != nil {
			w.declareParam(owner, n, n.Identifier, byStart)
		} else if legacy := legacyName(n); legacy != nil {
			w.declareParam(owner, n, legacy, byStart)
		}
	}
}

// legacyName is the string of a node's paramName property, the older
// spelling of its name.
func legacyName(n *ast.NodePattern) ast.Node {
	if n.Record == nil {
		return nil
	}
	for i := range n.Record.Properties {
		pr := &n.Record.Properties[i]
		if pr.Key.Name == "paramName" {
			if s, ok := pr.Value.(*ast.String); ok && s != nil {
				return s
			}
		}
	}
	return nil
}

func (w *walker) declareParam(owner *symbol, n *ast.NodePattern, name ast.Node, byStart map[int]*check.Param) {
	n0, n1 := name.Offsets()
	q := byStart[n0]
	if q == nil {
		return // the result node, or a node the checker rejected
	}
	kind := symParam
	if owner.kind == symType {
		kind = symField
	}
	f0, f1 := n.Offsets()
	s := &symbol{kind: kind, name: q.Name, file: w.file, name0: n0, name1: n1, full0: f0, full1: f1, parent: owner, of: q, deprecated: q.Deprecated}
	if _, ok := name.(*ast.String); ok {
		s.quoted = true
		s.name0, s.name1 = n0+1, n1-1
	}
	w.add(s)
}

// nodes are the nodes of a tool's signature or a type's fields, in order.
func (w *walker) nodes(elems []ast.Pattern) []*ast.NodePattern { return pathNodes(elems) }

// pathNodes is the nodes of a path (a signature, a record's fields), in
// order, through the relationships that join them.
func pathNodes(elems []ast.Pattern) []*ast.NodePattern {
	var out []*ast.NodePattern
	for _, e := range elems {
		switch e := unwrap(e).(type) {
		case *ast.NodePattern:
			if e != nil {
				out = append(out, e)
			}
		case *ast.RelationshipPattern:
			for r := e; r != nil; {
				if r.Left != nil {
					out = append(out, r.Left)
				}
				switch next := r.Right.(type) {
				case *ast.NodePattern:
					if next != nil {
						out = append(out, next)
					}
					r = nil
				case *ast.RelationshipPattern:
					r = next
				default:
					r = nil
				}
			}
		}
	}
	return out
}

// refs records the references, property keys and tokens of one top-level
// pattern.
func (w *walker) refs(p ast.Pattern) {
	p = unwrap(p)
	switch p := p.(type) {
	case *ast.SubjectPattern:
		if p == nil {
			return
		}
		s := w.fi.inDecl[p]
		owner := symKind(-1)
		if s != nil {
			owner = s.kind
			w.tok(s.name0, s.name1, s.kind.facts().token, modDeclaration|deprecatedMod(s.deprecated))
		}
		w.labels(p.Labels)
		if p.Record != nil {
			w.record(p.Record, owner, false)
		}
		switch owner {
		case symTool, symType:
			nodes := w.nodes(p.Elements)
			for i, n := range nodes {
				w.node(n, s, owner == symTool && i == len(nodes)-1)
			}
			w.arrows(p.Elements)
		case symTest:
			// The expected calls: (::Call {tool: "x", args: {...}}).
			for _, e := range p.Elements {
				if n, ok := unwrap(e).(*ast.NodePattern); ok && n != nil {
					w.labels(n.Labels)
					if n.Record != nil {
						w.record(n.Record, symCall, false)
					}
				} else {
					w.refs(e)
				}
			}
		case symAgent:
			for _, e := range p.Elements {
				switch e := unwrap(e).(type) {
				case *ast.PatternReference:
					if e != nil && e.Identifier != nil {
						w.toolRef(e.Identifier)
					}
				case *ast.SubjectPattern:
					w.refs(e)
				case *ast.NodePattern, *ast.RelationshipPattern:
					// The agent's signature, as a tool's.
					sig := []ast.Pattern{e}
					nodes := w.nodes(sig)
					for i, n := range nodes {
						w.node(n, s, i == len(nodes)-1)
					}
					w.arrows(sig)
				}
			}
		default:
			for _, e := range p.Elements {
				w.refs(e)
			}
		}
	case *ast.NodePattern:
		if p != nil {
			w.labels(p.Labels)
			if p.Record != nil {
				w.record(p.Record, -1, false)
			}
		}
	case *ast.RelationshipPattern:
		if p != nil {
			if p.Left != nil {
				w.refs(p.Left)
			}
			if p.Arrow != nil {
				w.nodeTok(p.Arrow, tokOperator)
			}
			if p.Right != nil {
				w.refs(p.Right)
			}
		}
	}
}

func (w *walker) arrows(elems []ast.Pattern) {
	for _, e := range elems {
		r, ok := unwrap(e).(*ast.RelationshipPattern)
		for ok && r != nil {
			if r.Arrow != nil {
				w.nodeTok(r.Arrow, tokOperator)
			}
			r, ok = r.Right.(*ast.RelationshipPattern)
		}
	}
}

// quotedRef records a string value that names a declaration of one of kinds
// ("toolChoice": "getWeather").
func (w *walker) quotedRef(val ast.Value, kinds ...symKind) {
	v, ok := val.(*ast.String)
	if !ok || v == nil || v.Kind == ast.Fenced {
		return
	}
	for c := w.x.byName[v.Value]; c != nil; c = c.next {
		if slices.Contains(kinds, c.kind) {
			s, e := v.Offsets()
			w.fi.occ = append(w.fi.occ, occurrence{start: int32(s + 1), end: int32(e - 1), sym: c, quoted: true})
			return
		}
	}
}

// toolRef records a reference to a tool, or to an agent listed as one,
// by name (an agent's element).
func (w *walker) toolRef(id *ast.Identifier) {
	s, e := id.Offsets()
	var target *symbol
	for c := w.x.byName[id.Name]; c != nil; c = c.next {
		if c.kind == symTool || c.kind == symAgent {
			target = c
			break
		}
	}
	if target != nil {
		w.fi.occ = append(w.fi.occ, occurrence{start: int32(s), end: int32(e), sym: target})
		w.tok(s, e, target.kind.facts().token, deprecatedMod(target.deprecated))
	} else {
		w.tok(s, e, tokFunction, 0)
	}
}

// node records a parameter's, field's or return node's name, type label
// and properties.
func (w *walker) node(n *ast.NodePattern, owner *symbol, result bool) {
	if n.Identifier != nil {
		s, e := n.Identifier.Offsets()
		w.tok(s, e, tokParameter, modDeclaration)
	}
	w.typeLabels(n.Labels)
	if n.Record != nil {
		kind := symParam
		if owner != nil && owner.kind == symType {
			kind = symField
		}
		w.record(n.Record, kind, result)
	}
}

// labelName is the span of a label's name, without colons or backticks.
func (w *walker) labelName(l *ast.Label) (int, int) {
	s, e := l.Offsets()
	for s < e && s < len(w.src) && w.src[s] == ':' {
		s++
	}
	if l.Quoted && e-s >= 2 {
		s, e = s+1, e-1
	}
	return s, e
}

// labels classifies a declaration's labels (:Tool, :Agent, ...).
func (w *walker) labels(ls []ast.Label) {
	for i := range ls {
		s, e := w.labelName(&ls[i])
		w.tok(s, e, tokKeyword, 0)
	}
}

// typeLabels records the type labels of a node: built-in or declared.
func (w *walker) typeLabels(ls []ast.Label) {
	for i := range ls {
		s, e := w.labelName(&ls[i])
		w.typeName(ls[i].Name, s, e, false)
	}
}

// typeName records a use of a type by name at [s, e).
func (w *walker) typeName(name string, s, e int, quoted bool) {
	if b := w.builtins[name]; b != nil {
		w.fi.occ = append(w.fi.occ, occurrence{start: int32(s), end: int32(e), builtin: b, quoted: quoted})
		w.tok(s, e, tokType, modDefaultLibrary)
		return
	}
	for c := w.x.byName[name]; c != nil; c = c.next {
		if c.kind == symType || c.kind == symEnum {
			w.fi.occ = append(w.fi.occ, occurrence{start: int32(s), end: int32(e), sym: c, quoted: quoted})
			typ := tokType
			if c.kind == symEnum {
				typ = tokEnum
			}
			w.tok(s, e, typ, 0)
			return
		}
	}
	w.tok(s, e, tokType, 0)
}

// record records a record's keys and classifies its values. owner is the
// kind of what the record describes (-1: nothing gramc knows).
func (w *walker) record(r *ast.Record, owner symKind, result bool) {
	for i := range r.Properties {
		pr := &r.Properties[i]
		s, e := pr.Key.Offsets()
		w.tok(s, e, tokProperty, 0)
		if owner >= 0 {
			w.fi.props = append(w.fi.props, propSpan{start: int32(s), end: int32(e), owner: owner, result: result})
			if pr.Key.Name != w.src[s:e] {
				if w.fi.keys == nil {
					w.fi.keys = map[int32]string{}
				}
				w.fi.keys[int32(s)] = pr.Key.Name
			}
		}
		switch {
		case pr.Key.Name == "elementType" && (owner == symParam || owner == symField):
			switch v := pr.Value.(type) {
			case *ast.Symbol:
				if v != nil {
					s, e := v.Offsets()
					w.typeName(v.Name, s, e, false)
					continue
				}
			case *ast.String:
				if v != nil && v.Kind != ast.Fenced {
					s, e := v.Offsets()
					w.typeName(v.Value, s+1, e-1, true)
					continue
				}
			}
		case pr.Key.Name == "agent" && owner == symTest:
			w.quotedRef(pr.Value, symAgent) // the agent a test runs
		case (pr.Key.Name == "tool" && owner == symCall) || (pr.Key.Name == "toolChoice" && owner == symAgent):
			w.quotedRef(pr.Value, symTool, symAgent) // a test's expected call, an agent's toolChoice: a tool or a listed agent
		case pr.Key.Name == "values" && owner == symEnum:
			if a, ok := pr.Value.(*ast.Array); ok && a != nil {
				for _, v := range a.Elements {
					if v != nil {
						w.nodeTok(v, tokEnumMember)
					}
				}
				continue
			}
		}
		w.value(pr.Value)
	}
}

// value classifies a value's tokens.
func (w *walker) value(v ast.Value) {
	if ast.Missing(v) {
		return
	}
	switch v := v.(type) {
	case *ast.String, *ast.TaggedString:
		w.nodeTok(v, tokString)
	case *ast.Number:
		w.nodeTok(v, tokNumber)
	case *ast.Boolean:
		w.nodeTok(v, tokKeyword)
	case *ast.Symbol:
		w.nodeTok(v, tokVariable)
	case *ast.RangeValue:
		w.value(v.Lower)
		w.value(v.Upper)
	case *ast.Array:
		for _, x := range v.Elements {
			w.value(x)
		}
	case *ast.Map:
		for i := range v.Entries {
			w.nodeTok(&v.Entries[i].Key, tokProperty)
			w.value(v.Entries[i].Value)
		}
	}
}

// nodeTok classifies n as one token of type typ.
func (w *walker) nodeTok(n ast.Node, typ tokenType) {
	s, e := n.Offsets()
	w.tok(s, e, typ, 0)
}

func (w *walker) tok(s, e int, typ tokenType, mods tokenMod) {
	if e > s {
		w.fi.toks = append(w.fi.toks, token{start: int32(s), end: int32(e), typ: typ, mods: mods})
	}
}

func deprecatedMod(d bool) tokenMod {
	if d {
		return modDeprecated
	}
	return 0
}

// at returns the occurrence at offset off of file (a name that ends at
// off counts, so that a cursor just after a name finds it).
func (x *index) at(file string, off int) (occurrence, bool) {
	fi := x.file(file)
	if fi == nil {
		return occurrence{}, false
	}
	i, _ := slices.BinarySearchFunc(fi.occ, off, func(o occurrence, off int) int {
		if int(o.end) < off {
			return -1
		}
		if int(o.start) > off {
			return 1
		}
		return 0
	})
	for j := max(0, i-1); j < len(fi.occ) && j <= i+1; j++ {
		if o := fi.occ[j]; int(o.start) <= off && off <= int(o.end) {
			return o, true
		}
	}
	return occurrence{}, false
}

// propAt returns the property key at offset off of file.
func (x *index) propAt(file string, off int) (propKey, bool) {
	fi := x.file(file)
	if fi == nil {
		return propKey{}, false
	}
	for _, p := range fi.props {
		if int(p.start) <= off && off <= int(p.end) {
			key, ok := fi.keys[p.start]
			if !ok {
				key = fi.text[p.start:p.end]
			}
			return propKey{p, key}, true
		}
	}
	return propKey{}, false
}

// references returns every occurrence of sym in the package, declaration
// included, sorted by file and offset.
func (x *index) references(sym *symbol) []struct {
	file string
	occurrence
} {
	var out []struct {
		file string
		occurrence
	}
	files := make([]string, 0, len(x.files))
	if sym.kind.isTop() {
		for f := range x.files {
			files = append(files, f)
		}
		slices.Sort(files)
	} else {
		files = append(files, sym.file) // a parameter's name is local to its tool
	}
	for _, f := range files {
		for _, o := range x.file(f).occ {
			if o.sym == sym {
				out = append(out, struct {
					file string
					occurrence
				}{f, o})
			}
		}
	}
	return out
}

// lookupTop returns the package-wide declarations named name.
func (x *index) lookupTop(name string) []*symbol {
	var out []*symbol
	for c := x.byName[name]; c != nil; c = c.next {
		out = append(out, c)
	}
	return out
}

// isTop reports whether a kind has a package-wide name.
func (k symKind) isTop() bool { return k != symParam && k != symField && k != symCall }
