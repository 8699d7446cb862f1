package check

import (
	"slices"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// Cache re-checks a package cheaply after some of its files changed, as a
// language server does on every edit: it keeps the lowering of each tool
// declaration from the previous Check and reuses it for the files whose
// trees did not change. The zero value is ready to use. A Cache is not
// safe for concurrent use; a server keeps one per package.
//
// Check's result is exactly CheckSources': the same model values and the
// same diagnostics in the same order. Everything that crosses files is
// redone on every call: the declarations and their names (duplicates, the
// identity rule of repeated tools), the package name, references from
// agents and every agent, so a fix in one file clears an error reported
// in another. What is reused is the expensive part, lowering a tool
// (its properties, signature, parameters, constraints, defaults and
// examples), which depends only on the tool's own tree and on the
// package's :Type and :Enum declarations. Invalidation is conservative:
//
//   - A tool's lowering is reused only when its *ast.SubjectPattern (so
//     its file's *ast.File, as a parse makes new trees) and its file name
//     are the ones of the previous Check.
//   - The enums and types are reused whole when the same declarations
//     declare them, in the same files and order: the same trees, or trees
//     parsed again from the same text at the same place of a file without
//     syntax errors (so an edit to a tool in the file that declares the
//     types keeps them). Otherwise they are lowered again, and each that
//     is equal to its previous value in every field (ranges included)
//     and reaches only such declarations through its fields is replaced
//     by that value.
//   - A tool is then reused only while every declared name its lowering
//     looked up finds the same value as before (and, if it listed the
//     declared names in a message, they are the same): an edit to one
//     type re-lowers the tools that use it, directly or through other
//     types. Where a name finds a declaration that only moved (equal but
//     for its ranges), the tool is relocated: a copy pointing to the
//     moved value.
//   - Did-you-mean suggestions have a package-wide budget; when reused
//     work would exceed it, Check checks the whole package, and it keeps
//     nothing of a check that ran out of it.
//
// Trees passed to Check must not be modified afterwards. The returned
// model shares values (tools, types, enums) with earlier and later results:
// treat it as read-only. The diagnostics are the caller's.
type Cache struct {
	decls *declsUnit
	files map[*ast.File]*fileUnits

	reusedTools    int // tool lowerings the last Check reused (for tests)
	relocatedTools int // of those, relocated to moved declarations
}

// declsUnit is the lowering of a package's enums and types.
type declsUnit struct {
	// The declarations, as pass 1 collected them: the key of reuse.
	enumSrc, typeSrc []pending
	types            map[string]*TypeDecl
	enums            map[string]*Enum
	typeSP           map[*TypeDecl]pending
	lowered          map[*TypeDecl]int
	typeList         []*TypeDecl
	enumList         []*Enum
	broken           map[string]bool    // files with syntax errors then
	declared         []string           // declaredNames
	diags            []*diag.Diagnostic // in the order they were reported
	spent            int                // suggest candidates compared
}

// fileUnits are the lowered tools of one file, in the order of the
// package's tool occurrences.
type fileUnits struct {
	name  string
	tools []toolUnit
}

// toolUnit is the lowering of one tool declaration (lowerTool).
type toolUnit struct {
	sp    *ast.SubjectPattern
	tool  *Tool
	diags []*diag.Diagnostic // in the order they were reported
	spent int                // suggest candidates compared
	// refused: a suggestion was declined for the budget (lowerAhead's
	// goroutines, each with a budget of its own).
	refused bool
	// What the lowering read of the declarations: it is reused with other
	// declarations as long as these are found again.
	deps         []dep
	usedDeclared bool
}

// Check checks files as one package and returns exactly what
// CheckSources(dir, files) returns, reusing the previous Check's work for
// the files whose trees are unchanged (see Cache).
func (k *Cache) Check(dir string, files []SourceFile) (*Package, diag.Diagnostics) {
	return checkSources(k, dir, files, false)
}

// checkFiles is checkTrees through the cache; broken names the files with
// syntax errors.
func (k *Cache) checkFiles(dir string, files []*ast.File, broken map[string]bool) (*Package, diag.Diagnostics) {
	c := k.run(dir, files, broken, true)
	if c.inexact() || c.inc.reused && c.suggestRefused {
		// Work reused or done in parallel is exact only while every
		// suggestion is within the budget: check the whole package,
		// sequentially.
		c = k.run(dir, files, broken, false)
	}
	k.reusedTools, k.relocatedTools = c.inc.reusedTools, c.inc.relocatedTools
	if c.suggestRefused {
		// What a unit suggested depends on the others: keep nothing.
		k.decls, k.files = nil, nil
	} else {
		k.decls, k.files = c.inc.decls, c.inc.files
	}
	c.diags.Sort()
	// The cache keeps its diagnostics; the caller gets copies.
	out := make(diag.Diagnostics, len(c.diags))
	copies := make([]diag.Diagnostic, len(c.diags))
	for i, d := range c.diags {
		copies[i] = *d
		copies[i].Related = slices.Clone(d.Related)
		copies[i].Fix = slices.Clone(d.Fix)
		out[i] = &copies[i]
	}
	return c.pkg, out
}

// run checks files, recording its work for the next call and, when reuse
// is set, reusing the cache's.
func (k *Cache) run(dir string, files []*ast.File, broken map[string]bool, reuse bool) *checker {
	c := newChecker(dir, files, false)
	c.parallel = reuse
	c.inc = &incremental{files: make(map[*ast.File]*fileUnits, len(files)), broken: broken}
	if reuse {
		c.inc.prevDecls, c.inc.prevFiles = k.decls, k.files
	}
	c.check()
	return c
}

// incremental is a checker's link to a Cache: it reuses the previous
// check's units and records this check's.
type incremental struct {
	prevDecls *declsUnit
	prevFiles map[*ast.File]*fileUnits
	broken    map[string]bool // files with syntax errors
	envSame   bool            // the declarations are prevDecls: tools may be reused
	// The declarations were lowered again, and those equal to prevDecls'
	// replaced by them: tools whose deps hold may be reused.
	envPartial bool
	moved      *movedDecls // (envPartial) declarations that only moved

	decls *declsUnit
	files map[*ast.File]*fileUnits

	reused         bool // some unit was reused
	reusedTools    int
	relocatedTools int // of reusedTools, those relocated to moved declarations

	// The file whose tools are being lowered.
	curAST  *ast.File
	curPrev *fileUnits // its units in the previous check, if reusable
	curNext *fileUnits // nil while the units are curPrev's first inOrder
	inOrder int
	cursor  int // the next unit of curPrev expected
}

// reuseDecls adopts the previous check's enums and types when pass 1
// collected the same declarations, and reports whether it did.
func (inc *incremental) reuseDecls(c *checker) bool {
	d := inc.prevDecls
	if d == nil || !inc.sameDecls(d.enumSrc, c.enumSrc) || !inc.sameDecls(d.typeSrc, c.typeSrc) {
		return false
	}
	// Pass 1 made new TypeDecl and Enum values for the same declarations;
	// the tools to be reused point to the previous ones.
	n := *d
	n.broken = inc.broken
	if !samePending(d.enumSrc, c.enumSrc) || !samePending(d.typeSrc, c.typeSrc) {
		// The same text in a file parsed again: key the record by the
		// new trees (and let the old ones go).
		n.enumSrc, n.typeSrc = c.enumSrc, c.typeSrc
		n.typeSP = make(map[*TypeDecl]pending, len(d.typeList))
		for i, td := range d.typeList {
			n.typeSP[td] = c.typeSrc[i]
		}
	}
	d = &n
	c.types, c.enums, c.typeSP, c.lowered = d.types, d.enums, d.typeSP, d.lowered
	c.pkg.Types, c.pkg.Enums = slices.Clone(d.typeList), slices.Clone(d.enumList)
	c.diags = append(c.diags, d.diags...)
	c.charge(d.spent)
	inc.decls, inc.envSame, inc.reused = d, true, true
	return true
}

// sameDecls reports whether the declarations cur lower exactly as prev
// did: each is the same tree, or a tree of a file without syntax errors
// parsed from the same text at the same position (so every position in
// it is the same) of a file of the same name, in a file that had no
// syntax errors either.
func (inc *incremental) sameDecls(prev, cur []pending) bool {
	if len(prev) != len(cur) {
		return false
	}
	for i, a := range prev {
		b := cur[i]
		if a.file != b.file {
			return false
		}
		if a.sp == b.sp {
			continue
		}
		if inc.prevDecls.broken[a.file] || inc.broken[b.file] {
			return false // a partial tree may differ from its text
		}
		as, bs := a.sp.Span.Source(), b.sp.Span.Source()
		if as == nil || bs == nil {
			return false
		}
		a0, a1 := a.sp.Span.Offsets()
		b0, b1 := b.sp.Span.Offsets()
		if a1-a0 != b1-b0 || a0 != b0 || a.sp.Span.Pos() != b.sp.Span.Pos() || as.Text()[a0:a1] != bs.Text()[b0:b1] {
			return false
		}
	}
	return true
}

// recordDecls records the lowering of enums and types that just ran,
// which reported c.diags[start:] and started with spent candidates spent.
func (inc *incremental) recordDecls(c *checker, start, spent int) {
	inc.decls = &declsUnit{
		enumSrc:  c.enumSrc,
		typeSrc:  c.typeSrc,
		types:    c.types,
		enums:    c.enums,
		typeSP:   c.typeSP,
		lowered:  c.lowered,
		typeList: slices.Clone(c.pkg.Types),
		enumList: slices.Clone(c.pkg.Enums),
		broken:   inc.broken,
		declared: slices.Clone(c.declaredNames()),
		diags:    slices.Clone(c.diags[start:]),
		spent:    c.suggestSpent - spent,
	}
}

func samePending(a, b []pending) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lowerTool lowers one tool occurrence, or reuses its previous lowering;
// ahead, when not nil, is its lowering done by lowerAhead. The occurrences
// of a file come together (pass 1 collects file by file).
func (inc *incremental) lowerTool(c *checker, t pendingTool, ahead *toolUnit) *Tool {
	if t.ast != inc.curAST {
		inc.finishFile()
		inc.curAST, inc.cursor, inc.inOrder = t.ast, 0, 0
		inc.curPrev, inc.curNext = nil, nil
		if inc.envSame || inc.envPartial {
			if fp := inc.prevFiles[t.ast]; fp != nil && fp.name == t.file {
				inc.curPrev = fp
			}
		}
		if inc.curPrev == nil || inc.files[t.ast] != nil {
			inc.materialize(t.file)
		}
	}
	if inc.curPrev != nil {
		u := inc.curPrev.find(t.sp, &inc.cursor)
		ok, relocate := false, false
		if u != nil {
			ok, relocate = inc.depsHold(c, u)
		}
		if ok && relocate {
			moved := *u
			moved.tool = inc.moved.relocate(u.tool)
			moved.deps = inc.moved.relocateDeps(u.deps)
			c.diags = append(c.diags, u.diags...)
			c.charge(u.spent)
			inc.reused = true
			inc.reusedTools++
			inc.relocatedTools++
			inc.materialize(t.file)
			inc.curNext.tools = append(inc.curNext.tools, moved)
			return moved.tool
		}
		if ok {
			c.diags = append(c.diags, u.diags...)
			c.charge(u.spent)
			inc.reused = true
			inc.reusedTools++
			if inc.curNext == nil && inc.inOrder < len(inc.curPrev.tools) && u == &inc.curPrev.tools[inc.inOrder] {
				inc.inOrder++ // still the previous units, in order
			} else {
				inc.materialize(t.file)
				inc.curNext.tools = append(inc.curNext.tools, *u)
			}
			return u.tool
		}
	}
	inc.materialize(t.file)
	if ahead != nil {
		c.diags = append(c.diags, ahead.diags...)
		c.charge(ahead.spent)
		inc.curNext.tools = append(inc.curNext.tools, *ahead)
		return ahead.tool
	}
	u := c.lowerUnit(t.sp)
	inc.curNext.tools = append(inc.curNext.tools, u)
	return u.tool
}

// lowerUnit lowers one tool and records what a later check needs to reuse
// it: its diagnostics (a copy: c.diags is sorted in place later), the
// suggestion budget it spent and the declarations it read.
func (c *checker) lowerUnit(sp *ast.SubjectPattern) toolUnit {
	start, spent, depStart := len(c.diags), c.suggestSpent, len(c.deps)
	c.usedDeclared = false
	tool := c.lowerTool(sp)
	u := toolUnit{sp: sp, tool: tool, spent: c.suggestSpent - spent, usedDeclared: c.usedDeclared}
	if len(c.deps) > depStart {
		u.deps = c.deps[depStart:len(c.deps):len(c.deps)]
	}
	if len(c.diags) > start {
		u.diags = slices.Clone(c.diags[start:])
	}
	return u
}

// materialize makes the current file's record of units, which until now
// were the first inOrder units of the previous check's (not copied, as
// long as nothing differs).
func (inc *incremental) materialize(name string) {
	if inc.curNext != nil {
		return
	}
	if seen := inc.files[inc.curAST]; seen != nil {
		// The same tree twice in the package: add to its record, which
		// may be the previous check's (so copy it).
		inc.curNext = &fileUnits{name: seen.name, tools: slices.Clip(seen.tools)}
		inc.files[inc.curAST] = inc.curNext
		return
	}
	inc.curNext = &fileUnits{name: name}
	if inc.curPrev != nil {
		inc.curNext.tools = make([]toolUnit, inc.inOrder, len(inc.curPrev.tools)+1)
		copy(inc.curNext.tools, inc.curPrev.tools[:inc.inOrder])
	}
	inc.files[inc.curAST] = inc.curNext
}

// finishFile records the units of the file whose tools were just lowered.
func (inc *incremental) finishFile() {
	if inc.curAST == nil || inc.curNext != nil {
		return
	}
	if inc.inOrder == len(inc.curPrev.tools) {
		inc.files[inc.curAST] = inc.curPrev // unchanged: share it
		return
	}
	inc.files[inc.curAST] = &fileUnits{name: inc.curPrev.name, tools: inc.curPrev.tools[:inc.inOrder:inc.inOrder]}
}

// probe reports which tool occurrences lowerTool will find in the
// previous check (it looks them up the same way, changing nothing).
func (inc *incremental) probe(c *checker) []bool {
	toolSrc := c.toolSrc
	hits := make([]bool, len(toolSrc))
	if !inc.envSame && !inc.envPartial {
		return hits
	}
	var cur *ast.File
	var prev *fileUnits
	cursor := 0
	for i, t := range toolSrc {
		if t.ast != cur {
			cur, cursor, prev = t.ast, 0, nil
			if fp := inc.prevFiles[t.ast]; fp != nil && fp.name == t.file {
				prev = fp
			}
		}
		if prev != nil {
			if u := prev.find(t.sp, &cursor); u != nil {
				hits[i], _ = inc.depsHold(c, u)
			}
		}
	}
	return hits
}

// depsHold reports whether u, a unit of the previous check, lowers the
// same with this check's declarations.
func (inc *incremental) depsHold(c *checker, u *toolUnit) (ok, relocate bool) {
	if inc.envSame {
		return true, false
	}
	return c.depsHold(u.deps, u.usedDeclared, inc.prevDecls.declared, inc.moved)
}

// find returns the unit of sp, looking first at *cursor (tools come in
// the same order as last time) and moving the cursor past it.
func (f *fileUnits) find(sp *ast.SubjectPattern, cursor *int) *toolUnit {
	if i := *cursor; i < len(f.tools) && f.tools[i].sp == sp {
		*cursor = i + 1
		return &f.tools[i]
	}
	for i := range f.tools {
		if f.tools[i].sp == sp {
			*cursor = i + 1
			return &f.tools[i]
		}
	}
	return nil
}
