package check

import (
	"reflect"
	"slices"
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
// the declared names listed) would look the same up now.
func (c *checker) depsHold(deps []dep, usedDeclared bool, declared []string) bool {
	for _, d := range deps {
		if c.types[d.name] != d.td || c.enums[d.name] != d.en {
			return false
		}
	}
	return !usedDeclared || slices.Equal(c.declaredNames(), declared)
}

// adoptDecls replaces the enums and types c just lowered with the previous
// check's values wherever they are equal (every field, and pointing to
// equal declarations), so that tools lowered before, which point to the
// previous values, can be reused with them. A type is equal to its
// previous value when their fields are equal, taking a reference to a
// declaration as equal when it names the same one, and every declaration
// it refers to is equal too (so no type that reaches a changed one
// through its fields). The values c lowered that are not replaced are
// changed to point to the replacements. It costs time linear in the size
// of the declarations.
func (c *checker) adoptDecls(prev *declsUnit) {
	rel := &declRel{types: map[*TypeDecl]*TypeDecl{}, enums: map[*Enum]*Enum{}}
	for _, en := range c.pkg.Enums {
		if old := prev.enums[en.Name]; old != nil && c.enums[en.Name] == en && rel.equal(reflect.ValueOf(en).Elem(), reflect.ValueOf(old).Elem()) {
			rel.enums[en] = old
		}
	}
	// Fields equal, references by name; then drop every type that
	// reaches, through its references, one that is not equal.
	referrers := map[*TypeDecl][]*TypeDecl{}
	var unequal []*TypeDecl
	for _, td := range c.pkg.Types {
		old := prev.types[td.Name]
		rel.refs = rel.refs[:0]
		if old == nil || c.types[td.Name] != td || !rel.equal(reflect.ValueOf(td).Elem(), reflect.ValueOf(old).Elem()) {
			unequal = append(unequal, td)
			continue
		}
		rel.types[td] = old
		for _, r := range rel.refs {
			referrers[r] = append(referrers[r], td)
		}
	}
	for len(unequal) > 0 {
		td := unequal[len(unequal)-1]
		unequal = unequal[:len(unequal)-1]
		for _, r := range referrers[td] {
			if _, ok := rel.types[r]; ok {
				delete(rel.types, r)
				unequal = append(unequal, r)
			}
		}
	}
	if len(rel.types) == 0 && len(rel.enums) == 0 {
		return
	}
	for i, en := range c.pkg.Enums {
		if old, ok := rel.enums[en]; ok {
			c.pkg.Enums[i] = old
			c.enums[en.Name] = old
		}
	}
	for i, td := range c.pkg.Types {
		old, ok := rel.types[td]
		if !ok {
			// A new value: point it to the replacements.
			for _, f := range td.Fields {
				if f != nil {
					rel.repoint(f.Type)
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
}

// declRel relates the enums and types of this check to equal ones of the
// previous check.
type declRel struct {
	types map[*TypeDecl]*TypeDecl
	enums map[*Enum]*Enum
	refs  []*TypeDecl // the types referred to by the values equal compared
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
)

// equal reports whether a (of this check) and b (of the previous one)
// are equal model values, where an enum equals the one r relates it to
// and a type the one of the same name (recorded in refs). It compares
// every field, so fields added to the model are compared too.
func (r *declRel) equal(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
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
