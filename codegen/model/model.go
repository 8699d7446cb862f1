// Package model is the language-neutral view of a checked gram package that
// the code generators read (codegen/golang, codegen/typescript): which
// records, enums, tools and agents a package generates code for, which
// record fields are recursive, and the names of the generated declarations,
// allocated per language from a Naming table so that collisions are
// resolved and reported (gen-name-collision) the same way in every
// language. A new language is an emitter that reads a Package and brings
// its own Naming; nothing here knows a language.
//
// The types, fields, constraints and defaults are check's model itself
// (check.TypeDecl, check.Param, check.Constraints): they are already free
// of any language, and the emitters read them directly.
package model

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
)

// Package is what a code generator emits for one gram package.
type Package struct {
	// Check is the checked package (it must have checked without errors).
	Check *check.Package
	// Base is the name generated files and packages are derived from:
	// the gram package name or, for files named on a command line without
	// a `package` header, the first file's name without ".gram".
	Base string
	// Sources are the base names of the package's files, sorted.
	Sources []string
	// Types, Enums and Tools are the package's declarations plus any
	// reached from a tool, field or agent that the package's lists do not
	// hold (an agent's inline tool), each once, in a fixed order: the
	// package's own in source order, then those reached, depth first.
	// A tool is generated once per name.
	Types []*check.TypeDecl
	Enums []*check.Enum
	Tools []*check.Tool
	// Agents are the package's agents in source order.
	Agents []*check.Agent

	reaches map[[2]*check.TypeDecl]bool
}

// New builds the model of a checked package.
func New(pkg *check.Package) *Package {
	p := &Package{Check: pkg, Base: BaseName(pkg), Agents: pkg.Agents, reaches: map[[2]*check.TypeDecl]bool{}}
	p.collect()
	for _, f := range pkg.Files {
		if f != nil && f.Name != "" {
			p.Sources = append(p.Sources, filepath.Base(f.Name))
		}
	}
	sort.Strings(p.Sources)
	return p
}

// BaseName is the name the generated files are derived from: the gram
// package name or, for files named on a command line without a `package`
// header, the first file's name without ".gram".
func BaseName(pkg *check.Package) string {
	if pkg.Name != "" {
		return pkg.Name
	}
	for _, f := range pkg.Files {
		if f != nil && f.Name != "" {
			return strings.TrimSuffix(filepath.Base(f.Name), ".gram")
		}
	}
	return ""
}

// collect gathers the declarations to generate: the package's, plus any
// reached from a tool, field or agent that the package lists do not hold.
func (p *Package) collect() {
	seenDecl := map[*check.TypeDecl]bool{}
	seenEnum := map[*check.Enum]bool{}
	seenTool := map[*check.Tool]bool{}
	toolByName := map[string]bool{}
	var visitType func(t *check.Type)
	visitDecl := func(d *check.TypeDecl) {
		if d == nil || seenDecl[d] {
			return
		}
		seenDecl[d] = true
		p.Types = append(p.Types, d)
		for _, f := range d.Fields {
			visitType(f.Type)
		}
	}
	visitType = func(t *check.Type) {
		for ; t != nil; t = t.Elem {
			switch {
			case t.Kind == check.Record && t.Decl != nil:
				visitDecl(t.Decl)
			case t.Kind == check.EnumKind && t.Enum != nil && !seenEnum[t.Enum]:
				seenEnum[t.Enum] = true
				p.Enums = append(p.Enums, t.Enum)
			}
		}
	}
	for _, d := range p.Check.Types {
		visitDecl(d)
	}
	for _, e := range p.Check.Enums {
		if !seenEnum[e] {
			seenEnum[e] = true
			p.Enums = append(p.Enums, e)
		}
	}
	addTool := func(t *check.Tool) {
		if t == nil || seenTool[t] || toolByName[t.Name] {
			return
		}
		seenTool[t] = true
		toolByName[t.Name] = true
		p.Tools = append(p.Tools, t)
		for _, prm := range t.Params {
			visitType(prm.Type)
		}
		visitType(t.Result)
	}
	for _, t := range p.Check.Tools {
		addTool(t)
	}
	for _, a := range p.Check.Agents {
		for _, t := range a.Tools {
			addTool(t)
		}
	}
}

// Reaches reports whether target can be reached from d through
// record-typed fields (not through arrays, which every language here
// represents by reference already): a field of type d in target's
// declaration is recursive when it does.
func (p *Package) Reaches(d, target *check.TypeDecl) bool {
	if d == nil || target == nil {
		return false
	}
	key := [2]*check.TypeDecl{d, target}
	if v, ok := p.reaches[key]; ok {
		return v
	}
	p.reaches[key] = false // cut cycles while searching
	seen := map[*check.TypeDecl]bool{}
	var walk func(x *check.TypeDecl) bool
	walk = func(x *check.TypeDecl) bool {
		if x == target {
			return true
		}
		if seen[x] {
			return false
		}
		seen[x] = true
		for _, f := range x.Fields {
			if f.Type != nil && f.Type.Kind == check.Record && f.Type.Decl != nil && walk(f.Type.Decl) {
				return true
			}
		}
		return false
	}
	v := walk(d)
	p.reaches[key] = v
	return v
}
