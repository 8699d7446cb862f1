package lsp

import (
	"slices"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
)

// symKind is what a declared name is.
type symKind int

const (
	symTool symKind = iota
	symParam
	symType
	symField
	symEnum
	symAgent
)

func (k symKind) String() string {
	return [...]string{"tool", "parameter", "type", "field", "enum", "agent"}[k]
}

// A symbol is one declaration of the package: a tool, agent, type or enum
// (package-wide names) or a parameter or field (local to its tool or type).
type symbol struct {
	kind       symKind
	name       string
	file       string
	name0      int // the name's byte span
	name1      int
	full0      int // the whole declaration's byte span
	full1      int
	quoted     bool    // the name is written inside quotes (paramName: "x")
	parent     *symbol // a parameter's tool, a field's type
	tool       *check.Tool
	param      *check.Param
	decl       *check.TypeDecl
	enum       *check.Enum
	agent      *check.Agent
	deprecated bool
}

// An occurrence is a name in the text that means a symbol: its
// declaration or a reference to it. A built-in type label has builtin set
// and no symbol.
type occurrence struct {
	start, end int
	sym        *symbol
	decl       bool
	builtin    *check.BuiltinType
	quoted     bool // inside a string: renaming keeps the quotes
}

// A propKey is a property key of a declaration's or a node's record.
type propKey struct {
	start, end int
	key        string
	owner      symKind // symTool, symAgent, symType, symEnum, or symParam for a node
	result     bool    // a tool's return node
	val        ast.Value
}

// A token is one classified span for semantic highlighting.
type token struct {
	start, end int
	typ        tokenType
	mods       tokenMod
}

// fileIndex is what the index knows of one file.
type fileIndex struct {
	occ    []occurrence // sorted by start
	props  []propKey
	tokens []token // sorted by start
	decls  []*symbol
}

// index is the navigation model of one checked package: every declaration
// and every place its name is used, per file.
type index struct {
	syms   []*symbol
	byName map[string][]*symbol // tools, agents, types, enums
	files  map[string]*fileIndex
}

// buildIndex walks the package's trees with the checked model at hand.
func buildIndex(p *check.Package) *index {
	x := &index{byName: map[string][]*symbol{}, files: map[string]*fileIndex{}}
	type at struct {
		file  string
		start int
	}
	key := func(r ast.Range) at { return at{r.File, int(r.Start.Offset)} }
	tools := map[at]*check.Tool{}
	params := map[at]*check.Param{}
	types := map[at]*check.TypeDecl{}
	enums := map[at]*check.Enum{}
	agents := map[at]*check.Agent{}
	addParams := func(ps []*check.Param) {
		for _, q := range ps {
			params[key(q.NameRange)] = q
		}
	}
	for _, t := range p.Tools {
		tools[key(t.NameRange)] = t
		addParams(t.Params)
	}
	for _, t := range p.Types {
		types[key(t.NameRange)] = t
		addParams(t.Fields)
	}
	for _, e := range p.Enums {
		enums[key(e.NameRange)] = e
	}
	for _, a := range p.Agents {
		agents[key(a.NameRange)] = a
	}
	builtins := map[string]*check.BuiltinType{}
	for _, b := range check.Builtins() {
		b := b
		builtins[b.Name] = &b
		for _, a := range b.Aliases {
			builtins[a] = &b
		}
	}

	// Pass 1: declarations.
	type pending struct {
		fi   *fileIndex
		file *ast.File
	}
	var walks []pending
	for _, f := range p.Files {
		if f == nil {
			continue
		}
		fi := &fileIndex{}
		x.files[f.Name] = fi
		walks = append(walks, pending{fi, f})
	}
	w := &walker{x: x, builtins: builtins}
	w.lookupTool = func(file string, s int) *check.Tool { return tools[at{file, s}] }
	w.lookupParam = func(file string, s int) *check.Param { return params[at{file, s}] }
	w.lookupType = func(file string, s int) *check.TypeDecl { return types[at{file, s}] }
	w.lookupEnum = func(file string, s int) *check.Enum { return enums[at{file, s}] }
	w.lookupAgent = func(file string, s int) *check.Agent { return agents[at{file, s}] }
	for _, pw := range walks {
		w.fi, w.file, w.src = pw.fi, pw.file.Name, source(pw.file)
		for _, pat := range pw.file.Patterns {
			w.declare(pat)
		}
	}
	// Pass 2: references, property keys and tokens (names resolve in any
	// order and across files).
	for _, pw := range walks {
		w.fi, w.file, w.src = pw.fi, pw.file.Name, source(pw.file)
		if pw.file.Header != nil {
			w.record(pw.file.Header, -1, false)
		}
		for _, pat := range pw.file.Patterns {
			w.refs(pat)
		}
		for _, c := range pw.file.Comments {
			s, e := c.Offsets()
			w.tok(s, e, tokComment, 0)
		}
		slices.SortFunc(w.fi.occ, func(a, b occurrence) int { return a.start - b.start })
		slices.SortStableFunc(w.fi.tokens, func(a, b token) int { return a.start - b.start })
	}
	return x
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
	builtins map[string]*check.BuiltinType

	lookupTool  func(string, int) *check.Tool
	lookupParam func(string, int) *check.Param
	lookupType  func(string, int) *check.TypeDecl
	lookupEnum  func(string, int) *check.Enum
	lookupAgent func(string, int) *check.Agent
	inDecl      map[*ast.SubjectPattern]*symbol
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
		}
	}
	return 0, false
}

func (w *walker) add(s *symbol) {
	w.x.syms = append(w.x.syms, s)
	if s.kind != symParam && s.kind != symField {
		w.x.byName[s.name] = append(w.x.byName[s.name], s)
	}
	w.fi.decls = append(w.fi.decls, s)
	w.fi.occ = append(w.fi.occ, occurrence{start: s.name0, end: s.name1, sym: s, decl: true, quoted: s.quoted})
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
	switch kind {
	case symTool:
		s.tool = w.lookupTool(w.file, n0)
		if s.tool != nil {
			s.deprecated = s.tool.Deprecated
		}
	case symType:
		s.decl = w.lookupType(w.file, n0)
	case symEnum:
		s.enum = w.lookupEnum(w.file, n0)
	case symAgent:
		s.agent = w.lookupAgent(w.file, n0)
	}
	w.add(s)
	if w.inDecl == nil {
		w.inDecl = map[*ast.SubjectPattern]*symbol{}
	}
	w.inDecl[sp] = s
	switch kind {
	case symTool, symType:
		nodes := w.nodes(sp.Elements)
		for _, n := range nodes {
			if n.Identifier != nil {
				w.declareParam(s, n, n.Identifier)
			} else if legacy := legacyName(n); legacy != nil {
				w.declareParam(s, n, legacy)
			}
		}
	case symAgent:
		for _, e := range sp.Elements {
			if inner, ok := unwrap(e).(*ast.SubjectPattern); ok && inner != nil {
				w.declare(inner)
			}
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

func (w *walker) declareParam(owner *symbol, n *ast.NodePattern, name ast.Node) {
	n0, n1 := name.Offsets()
	q := w.lookupParam(w.file, n0)
	if q == nil {
		return // the result node, or a node the checker rejected
	}
	kind := symParam
	if owner.kind == symType {
		kind = symField
	}
	f0, f1 := n.Offsets()
	s := &symbol{kind: kind, name: q.Name, file: w.file, name0: n0, name1: n1, full0: f0, full1: f1, parent: owner, param: q, deprecated: q.Deprecated}
	if _, ok := name.(*ast.String); ok {
		s.quoted = true
		s.name0, s.name1 = n0+1, n1-1
	}
	w.add(s)
}

// nodes are the nodes of a tool's signature or a type's fields, in order.
func (w *walker) nodes(elems []ast.Pattern) []*ast.NodePattern {
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
		s := w.inDecl[p]
		owner := symKind(-1)
		if s != nil {
			owner = s.kind
			w.tok(s.name0, s.name1, declTokenType(s.kind), modDeclaration|deprecatedMod(s.deprecated))
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
		case symAgent:
			for _, e := range p.Elements {
				switch e := unwrap(e).(type) {
				case *ast.PatternReference:
					if e != nil && e.Identifier != nil {
						w.toolRef(e.Identifier)
					}
				case *ast.SubjectPattern:
					w.refs(e)
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
				s, e := p.Arrow.Offsets()
				w.tok(s, e, tokOperator, 0)
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
				s, e := r.Arrow.Offsets()
				w.tok(s, e, tokOperator, 0)
			}
			r, ok = r.Right.(*ast.RelationshipPattern)
		}
	}
}

// toolRef records a reference to a tool by name (an agent's element).
func (w *walker) toolRef(id *ast.Identifier) {
	s, e := id.Offsets()
	var target *symbol
	for _, c := range w.x.byName[id.Name] {
		if c.kind == symTool {
			target = c
			break
		}
	}
	if target != nil {
		w.fi.occ = append(w.fi.occ, occurrence{start: s, end: e, sym: target})
		w.tok(s, e, tokFunction, deprecatedMod(target.deprecated))
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
		w.fi.occ = append(w.fi.occ, occurrence{start: s, end: e, builtin: b, quoted: quoted})
		w.tok(s, e, tokType, modDefaultLibrary)
		return
	}
	for _, c := range w.x.byName[name] {
		if c.kind == symType || c.kind == symEnum {
			w.fi.occ = append(w.fi.occ, occurrence{start: s, end: e, sym: c, quoted: quoted})
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
			w.fi.props = append(w.fi.props, propKey{start: s, end: e, key: pr.Key.Name, owner: owner, result: result, val: pr.Value})
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
		case pr.Key.Name == "toolChoice" && owner == symAgent:
			if v, ok := pr.Value.(*ast.String); ok && v != nil && v.Kind != ast.Fenced {
				for _, c := range w.x.byName[v.Value] {
					if c.kind == symTool {
						s, e := v.Offsets()
						w.fi.occ = append(w.fi.occ, occurrence{start: s + 1, end: e - 1, sym: c, quoted: true})
						break
					}
				}
			}
		case pr.Key.Name == "values" && owner == symEnum:
			if a, ok := pr.Value.(*ast.Array); ok && a != nil {
				for _, v := range a.Elements {
					if v != nil {
						s, e := v.Offsets()
						w.tok(s, e, tokEnumMember, 0)
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
	switch v := v.(type) {
	case *ast.String:
		if v != nil {
			s, e := v.Offsets()
			w.tok(s, e, tokString, 0)
		}
	case *ast.TaggedString:
		if v != nil {
			s, e := v.Offsets()
			w.tok(s, e, tokString, 0)
		}
	case *ast.Number:
		if v != nil {
			s, e := v.Offsets()
			w.tok(s, e, tokNumber, 0)
		}
	case *ast.RangeValue:
		if v != nil {
			if v.Lower != nil {
				w.value(v.Lower)
			}
			if v.Upper != nil {
				w.value(v.Upper)
			}
		}
	case *ast.Boolean:
		if v != nil {
			s, e := v.Offsets()
			w.tok(s, e, tokKeyword, 0)
		}
	case *ast.Symbol:
		if v != nil {
			s, e := v.Offsets()
			w.tok(s, e, tokVariable, 0)
		}
	case *ast.Array:
		if v != nil {
			for _, x := range v.Elements {
				w.value(x)
			}
		}
	case *ast.Map:
		if v != nil {
			for i := range v.Entries {
				s, e := v.Entries[i].Key.Offsets()
				w.tok(s, e, tokProperty, 0)
				w.value(v.Entries[i].Value)
			}
		}
	}
}

func (w *walker) tok(s, e int, typ tokenType, mods tokenMod) {
	if e > s {
		w.fi.tokens = append(w.fi.tokens, token{start: s, end: e, typ: typ, mods: mods})
	}
}

func declTokenType(k symKind) tokenType {
	switch k {
	case symTool:
		return tokFunction
	case symType:
		return tokType
	case symEnum:
		return tokEnum
	case symAgent:
		return tokClass
	}
	return tokParameter
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
	fi := x.files[file]
	if fi == nil {
		return occurrence{}, false
	}
	i, _ := slices.BinarySearchFunc(fi.occ, off, func(o occurrence, off int) int {
		if o.end < off {
			return -1
		}
		if o.start > off {
			return 1
		}
		return 0
	})
	for j := max(0, i-1); j < len(fi.occ) && j <= i+1; j++ {
		if o := fi.occ[j]; o.start <= off && off <= o.end {
			return o, true
		}
	}
	return occurrence{}, false
}

// propAt returns the property key at offset off of file.
func (x *index) propAt(file string, off int) (propKey, bool) {
	fi := x.files[file]
	if fi == nil {
		return propKey{}, false
	}
	for _, p := range fi.props {
		if p.start <= off && off <= p.end {
			return p, true
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
	for f := range x.files {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		for _, o := range x.files[f].occ {
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
func (x *index) lookupTop(name string) []*symbol { return x.byName[name] }

// isTop reports whether a kind has a package-wide name.
func (k symKind) isTop() bool { return k != symParam && k != symField }
