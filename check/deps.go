package check

import (
	"reflect"
	"slices"

	"github.com/gramc-dev/gramc/ast"
)

// dep is a name a tool's lowering looked up among the declared types and
// enums, and what it found (both nil: not declared). A Cache reuses the
// lowering while every name finds the same again.
type dep struct {
	name string
	td   *TypeDecl
	en   *Enum
}

// lookedUp records a lookup of name among the declarations. A built-in
// name needs no record: it cannot be declared (reserved-name).
func (c *checker) lookedUp(name string) {
	if !c.recDeps {
		return
	}
	if _, builtin := builtinTypes[name]; builtin {
		return
	}
	c.deps = append(c.deps, dep{name, c.types[name], c.enums[name]})
}

// depsHold reports whether a tool lowered with deps (and, if usedDeclared,
// the declared names listed) would look the same up now, and whether it
// would find, for some name, the moved value of what it found before (so
// that its lowering is the same but for pointing to the moved value:
// relocate).
func (c *checker) depsHold(deps []dep, usedDeclared bool, declared []string, moved *movedDecls) (ok, relocate bool) {
	for _, d := range deps {
		td, en := c.types[d.name], c.enums[d.name]
		if td == d.td && en == d.en {
			continue
		}
		if (td == d.td || moved.movedType(d.td, td)) && (en == d.en || moved.movedEnum(d.en, en)) {
			relocate = true
			continue
		}
		return false, false
	}
	if usedDeclared && !slices.Equal(c.declaredNames(), declared) {
		return false, false
	}
	return true, relocate
}

// movedDecls maps the previous check's values of declarations that are
// equal to this check's but for their ranges (they moved) to this check's.
type movedDecls struct {
	types map[*TypeDecl]*TypeDecl
	enums map[*Enum]*Enum
}

// movedType reports whether old moved to td.
func (m *movedDecls) movedType(old, td *TypeDecl) bool {
	to, ok := m.types[old]
	return ok && old != nil && to == td
}

// movedEnum reports whether old moved to en.
func (m *movedDecls) movedEnum(old, en *Enum) bool {
	to, ok := m.enums[old]
	return ok && old != nil && to == en
}

// relocate returns t pointing to the moved declarations where t points
// to their previous values: a copy of the parts that change, sharing the
// rest (model values are not changed once made). Lowering a tool reads no
// range of a declaration, so this is the tool lowering would make now.
func (m *movedDecls) relocate(t *Tool) *Tool {
	n := *t
	cloned := false
	for i, p := range t.Params {
		if ty := m.relocateType(p.Type); ty != p.Type {
			if !cloned {
				n.Params, cloned = slices.Clone(t.Params), true
			}
			q := *p
			q.Type = ty
			n.Params[i] = &q
		}
	}
	n.Result = m.relocateType(t.Result)
	return &n
}

// relocateType returns t, or a copy pointing to moved declarations.
func (m *movedDecls) relocateType(t *Type) *Type {
	if t == nil {
		return nil
	}
	elem := m.relocateType(t.Elem)
	decl, declMoved := m.types[t.Decl]
	enum, enumMoved := m.enums[t.Enum]
	declMoved = declMoved && t.Decl != nil
	enumMoved = enumMoved && t.Enum != nil
	if elem == t.Elem && !declMoved && !enumMoved {
		return t
	}
	n := *t
	n.Elem = elem
	if declMoved {
		n.Decl = decl
	}
	if enumMoved {
		n.Enum = enum
	}
	return &n
}

// relocateDeps is deps with moved values replaced.
func (m *movedDecls) relocateDeps(deps []dep) []dep {
	out := slices.Clone(deps)
	for i, d := range out {
		if to, ok := m.types[d.td]; ok && d.td != nil {
			out[i].td = to
		}
		if to, ok := m.enums[d.en]; ok && d.en != nil {
			out[i].en = to
		}
	}
	return out
}

// adoptDecls replaces the enums and types c just lowered with the previous
// check's values wherever they are equal (every field, and pointing to
// equal declarations), so that tools lowered before, which point to the
// previous values, can be reused with them. A type is equal to its
// previous value when their fields are equal, taking a reference to a
// declaration as equal when it names the same one, and every declaration
// it refers to is equal too (so no type that reaches a changed one
// through its fields). The values c lowered that are not replaced are
// changed to point to the replacements. It returns the declarations that
// are equal but for their ranges (moved), which tools may be relocated
// to. It costs time linear in the size of the declarations.
func (c *checker) adoptDecls(prev *declsUnit) *movedDecls {
	// Equal but for ranges, then equal among those.
	mod := &declRel{types: map[*TypeDecl]*TypeDecl{}, enums: map[*Enum]*Enum{}, ignoreRanges: true}
	eq := &declRel{types: map[*TypeDecl]*TypeDecl{}, enums: map[*Enum]*Enum{}}
	for _, en := range c.pkg.Enums {
		old := prev.enums[en.Name]
		if old == nil || c.enums[en.Name] != en || !mod.equal(reflect.ValueOf(en).Elem(), reflect.ValueOf(old).Elem()) {
			continue
		}
		mod.enums[en] = old
		if eq.equal(reflect.ValueOf(en).Elem(), reflect.ValueOf(old).Elem()) {
			eq.enums[en] = old
		}
	}
	c.relateTypes(prev, mod, nil)
	c.relateTypes(prev, eq, mod.types)
	moved := &movedDecls{types: map[*TypeDecl]*TypeDecl{}, enums: map[*Enum]*Enum{}}
	for en, old := range mod.enums {
		if _, same := eq.enums[en]; !same {
			moved.enums[old] = en
		}
	}
	for td, old := range mod.types {
		if _, same := eq.types[td]; !same {
			moved.types[old] = td
		}
	}
	if len(eq.types) == 0 && len(eq.enums) == 0 {
		return moved
	}
	for i, en := range c.pkg.Enums {
		if old, ok := eq.enums[en]; ok {
			c.pkg.Enums[i] = old
			c.enums[en.Name] = old
		}
	}
	for i, td := range c.pkg.Types {
		old, ok := eq.types[td]
		if !ok {
			// A new value: point it to the replacements.
			for _, f := range td.Fields {
				if f != nil {
					eq.repoint(f.Type)
				}
			}
			continue
		}
		c.pkg.Types[i] = old
		c.types[td.Name] = old
		c.typeSP[old] = c.typeSP[td]
		delete(c.typeSP, td)
		c.lowered[old] = c.lowered[td]
		delete(c.lowered, td)
	}
	return moved
}

// relateTypes fills r.types with the types of c equal (as r compares) to
// their previous values, among candidates (nil: all): fields equal,
// references by name, then every type dropped that reaches, through its
// references, one that is not equal.
func (c *checker) relateTypes(prev *declsUnit, r *declRel, candidates map[*TypeDecl]*TypeDecl) {
	referrers := map[*TypeDecl][]*TypeDecl{}
	var unequal []*TypeDecl
	for _, td := range c.pkg.Types {
		old := prev.types[td.Name]
		r.refs = r.refs[:0]
		_, candidate := candidates[td]
		if old == nil || c.types[td.Name] != td || candidates != nil && !candidate || !r.equal(reflect.ValueOf(td).Elem(), reflect.ValueOf(old).Elem()) {
			unequal = append(unequal, td)
			continue
		}
		r.types[td] = old
		for _, ref := range r.refs {
			referrers[ref] = append(referrers[ref], td)
		}
	}
	for len(unequal) > 0 {
		td := unequal[len(unequal)-1]
		unequal = unequal[:len(unequal)-1]
		for _, ref := range referrers[td] {
			if _, ok := r.types[ref]; ok {
				delete(r.types, ref)
				unequal = append(unequal, ref)
			}
		}
	}
}

// declRel relates the enums and types of this check to equal ones of the
// previous check.
type declRel struct {
	types        map[*TypeDecl]*TypeDecl
	enums        map[*Enum]*Enum
	refs         []*TypeDecl // the types referred to by the values equal compared
	ignoreRanges bool        // equal but for ast.Range values
}

// repoint makes t (and its element types) point to the previous values
// of declarations related to them.
func (r *declRel) repoint(t *Type) {
	for ; t != nil; t = t.Elem {
		if old, ok := r.types[t.Decl]; ok && t.Decl != nil {
			t.Decl = old
		}
		if old, ok := r.enums[t.Enum]; ok && t.Enum != nil {
			t.Enum = old
		}
	}
}

var (
	typeDeclPtr = reflect.TypeFor[*TypeDecl]()
	enumPtr     = reflect.TypeFor[*Enum]()
	rangeType   = reflect.TypeFor[ast.Range]()
)

// equal reports whether a (of this check) and b (of the previous one)
// are equal model values, where an enum equals the one r relates it to
// and a type the one of the same name (recorded in refs). It compares
// every field, so fields added to the model are compared too.
func (r *declRel) equal(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	if r.ignoreRanges && a.Type() == rangeType {
		return true
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		switch a.Type() {
		case typeDeclPtr:
			// The same name; adoptDecls requires the type to be equal.
			td := a.Interface().(*TypeDecl)
			r.refs = append(r.refs, td)
			return td.Name == b.Interface().(*TypeDecl).Name
		case enumPtr:
			old, ok := r.enums[a.Interface().(*Enum)]
			return ok && old == b.Interface().(*Enum)
		}
		return r.equal(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return r.equal(a.Elem(), b.Elem())
	case reflect.Struct:
		// The struct, slice and map cases are parallel, as in
		// reflect.DeepEqual: one loop over fields, elements or keys each.
		for i := range a.NumField() {
			if !r.equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !r.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !r.equal(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return a.Equal(b)
	}
	return false // (channels, functions: not in the model)
}
