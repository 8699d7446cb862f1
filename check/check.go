package check

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/syntax"
)

// Declaration kinds: the labels gramc gives a meaning to.
const (
	labelTool  = "Tool"
	labelAgent = "Agent"
	labelType  = "Type"
	labelEnum  = "Enum"
	labelTest  = "Test"
)

var kindLabels = []string{labelTool, labelAgent, labelType, labelEnum, labelTest}

// The details that list the declaration labels, from kindLabels.
var (
	unknownPatternDetail = "gramc gives meaning to subject patterns labelled " + labelList("or") + "; everything else is ignored."
	twoKindsDetail       = "Give each declaration exactly one of the labels " + labelList("and") + "."
)

// labelList is kindLabels as prose: ":Tool, :Agent, ... or :Test".
func labelList(conj string) string {
	names := make([]string, len(kindLabels))
	for i, l := range kindLabels {
		names[i] = ":" + l
	}
	return joinWords(names, conj)
}

// joinWords joins "a", "b" and "c" as `a, b or c` (conj "or").
func joinWords(xs []string, conj string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + conj + " " + xs[len(xs)-1]
}

// suggestName adds to d the nearest of candidates to name: the
// did-you-mean and the suggestion an editor offers.
func (c *checker) suggestName(d *diag.Diagnostic, name string, candidates []string) {
	if s := c.suggest(name, candidates); s != "" {
		d.Summary += suggest.DidYouMean(s)
		d.Suggestion = s
	}
}

// suggestQuoted adds to d, about the string value s written at d's range,
// the nearest of candidates: the did-you-mean, and the fix that writes it.
func (c *checker) suggestQuoted(d *diag.Diagnostic, s string, candidates []string) {
	if sg := c.suggest(s, candidates); sg != "" {
		d.Summary += suggest.DidYouMeanQuoted(sg)
		d.Suggestion = sg
		d.Fix = []diag.Edit{{Range: d.Range, NewText: syntax.Quote(sg, '"')}}
	}
}

// validToolName reports whether name is what LLM providers accept as a
// function name: ^[a-zA-Z0-9_-]{1,64}$ (a test holds it to that).
func validToolName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch b := name[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '_', b == '-':
		default:
			return false
		}
	}
	return true
}

// checkTrees checks parsed files as one package. dir is the package's
// directory ("" for files named together). Files are taken in lexical order
// of their names; diagnostics are sorted by position.
func checkTrees(dir string, files []*ast.File, lean bool) (*Package, diag.Diagnostics) {
	c := newChecker(dir, files, lean)
	c.parallel = true
	c.check() // exact: see the tool loop of check
	c.diags.Sort()
	return c.pkg, c.diags
}

// newChecker returns a checker of files as one package, taken in lexical
// order of their names; a lean one for Diagnose (see checker.lean).
func newChecker(dir string, files []*ast.File, lean bool) *checker {
	files = append([]*ast.File(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	// Most top-level patterns declare a name: size for them at once, but
	// in a lean check, whose tables grow as the declarations are entered
	// while the trees they come from are released.
	n := 0
	if !lean {
		for _, f := range files {
			n += len(f.Patterns)
		}
	}
	return &checker{
		pkg:     &Package{Dir: dir, Files: files},
		names:   make(map[string]declSite, n),
		types:   map[string]*TypeDecl{},
		enums:   map[string]*Enum{},
		typeSP:  map[*TypeDecl]pending{},
		lowered: map[*TypeDecl]int{},
		toolSrc: make([]pendingTool, 0, n),
		lean:    lean,
	}
}

// declSite is the first declaration of a package-level name.
type declSite struct {
	kind  string // labelTool, ...
	rng   ast.Range
	tool  *toolSite // the tool, when kind is labelTool
	agent *Agent    // the agent, when kind is labelAgent
}

// toolSite is the first declaration of a tool name.
type toolSite struct {
	tool     *Tool
	sp       *ast.SubjectPattern
	key      string // canonical text of sp, computed when the name repeats
	inline   bool
	rng      ast.Range
	topLevel *ast.Range // the first top-level declaration's name, if any (&rng when it is the first declaration)
	listedBy *Agent     // the agent being lowered, once it lists the tool
	listedAt ast.Node   // where listedBy lists it
}

type pending struct {
	file string
	sp   *ast.SubjectPattern
}

type pendingTool struct {
	pending
	inline bool
	ast    *ast.File // the file holding sp
}

type pendingAgent struct {
	pending
	agent *Agent
}

type pendingTest struct {
	pending
	test *Test
}

type checker struct {
	pkg      *Package
	diags    diag.Diagnostics
	file     string              // the file being checked
	names    map[string]declSite // tools, agents, types and enums
	nTools   int                 // names of tools
	sites    []toolSite          // allocation of the *toolSite in names
	types    map[string]*TypeDecl
	enums    map[string]*Enum
	declared []string             // sorted type and enum names, computed on demand
	pkgName  *ast.Range           // where a header first named the package
	ignored  map[string]ast.Range // names of ignored top-level subject patterns
	toolList []string             // sorted tool names, computed on demand
	typeSP   map[*TypeDecl]pending
	lowered  map[*TypeDecl]int // 1 in progress, 2 done

	suggestSpent   int       // candidates compared by suggest so far
	suggestRefused bool      // suggest declined a comparison (budget spent)
	curFile        *ast.File // the file pass 1 is collecting
	// lean: the caller reads only the diagnostics and the files' names
	// and comments (Diagnose). The checker lets go of each file's
	// patterns after pass 1, of each tool's tree once the tool is
	// entered, and of the tools' parameters and types once lowered when
	// no test reads them.
	lean bool
	// repeated names the tools declared more than once (lean only: the
	// sites of the others need not keep their trees).
	repeated map[string]bool
	// listed names what the agents list (lean only: those tools keep
	// their name for the agents).
	listed       map[string]bool
	parallel     bool         // tools may be lowered on several goroutines (lowerAhead)
	recDeps      bool         // record what lowering a tool reads of the declarations (deps)
	deps         []dep        // recorded since the tool's lowering began
	usedDeclared bool         // the tool's lowering listed the declared names
	overBudget   bool         // work done elsewhere spent more than the budget
	aheadRefused bool         // a goroutine of lowerAhead ran out of budget
	inc          *incremental // reuses and records work for a Cache; nil in a plain check
	typeCands    []string     // type names for "did you mean", computed on demand
	typeDetail   string

	nodeBuf  []*ast.NodePattern // lowerTool's signature nodes
	arrowBuf []*ast.Arrow

	typeSrc  []pending
	enumSrc  []pending
	toolSrc  []pendingTool
	agentSrc []pendingAgent
	testSrc  []pendingTest

	agentRefs map[*Agent][]agentRef // the agents each agent lists, where
}

// rng is the range of n in the current file; a missing node (partial
// trees) gets the start of the file.
func (c *checker) rng(n ast.Node) ast.Range {
	if isNil(n) {
		return ast.Range{File: c.file, Start: ast.Pos{Offset: 0, Line: 1, Column: 1}, End: ast.Pos{Offset: 0, Line: 1, Column: 1}}
	}
	return ast.RangeOf(c.file, n)
}

func (c *checker) report(sev diag.Severity, code diag.Code, r ast.Range, summary, detail string) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: sev, Code: code, Range: r, Summary: summary, Detail: detail}
	c.diags = append(c.diags, d)
	return d
}

// errorf reports an error at n: its summary first, as fmt.Errorf takes
// its message; WithDetail adds the sentences that say how to fix it.
func (c *checker) errorf(code diag.Code, n ast.Node, format string, args ...any) *diag.Diagnostic {
	return c.report(diag.Error, code, c.rng(n), fmt.Sprintf(format, args...), "")
}

// warnf is errorf for a warning.
func (c *checker) warnf(code diag.Code, n ast.Node, format string, args ...any) *diag.Diagnostic {
	return c.report(diag.Warning, code, c.rng(n), fmt.Sprintf(format, args...), "")
}

func (c *checker) check() {
	// Pass 1: collect declarations so that names resolve in any order.
	for _, f := range c.pkg.Files {
		c.file = f.Name
		c.curFile = f
		c.header(f)
		for _, p := range f.Patterns {
			c.collect(p)
		}
	}
	c.curFile = nil
	if c.lean {
		c.letGoOfTrees()
	}
	// Pass 2: lower declarations; enums and types first, as tools use them.
	// A Cache may hold their lowering from the previous check.
	if c.inc == nil || !c.inc.reuseDecls(c) {
		declStart, spent := len(c.diags), c.suggestSpent
		c.lowerDecls()
		if c.inc != nil {
			if c.inc.prevDecls != nil {
				c.inc.moved = c.adoptDecls(c.inc.prevDecls)
				c.inc.envPartial = true
			}
			c.inc.recordDecls(c, declStart, spent)
		}
	}
	c.recDeps = c.inc != nil
	// Tools are lowered ahead in parallel (lowerAhead) a batch at a time,
	// or all at once with a Cache; ahead[i-from] is tool i's.
	var ahead []toolUnit
	parallel, from, to := c.parallel, 0, 0
	for i, t := range c.toolSrc {
		if parallel && i == to {
			from, to = i, len(c.toolSrc)
			if c.inc == nil {
				to = min(to, i+aheadBatch)
			}
			ahead = c.lowerAhead(from, to)
		}
		c.file = t.file
		var u *toolUnit // lowered ahead
		if ahead != nil && ahead[i-from].sp != nil {
			u = &ahead[i-from]
		}
		var tool *Tool
		switch {
		case c.inc != nil:
			tool = c.inc.lowerTool(c, t, u)
		case u != nil && !u.refused && c.suggestSpent+u.spent <= suggestBudget:
			// What a sequential check does: every suggestion it
			// compared was within the budget, here too.
			c.diags = append(c.diags, u.diags...)
			c.charge(u.spent)
			tool = u.tool
		default:
			if u != nil {
				// The budget runs out in this tool: from here on,
				// what the goroutines suggested may differ from
				// what a sequential check does; lower the rest here,
				// in order.
				ahead, parallel = nil, false
			}
			tool = c.lowerTool(t.sp)
			if c.lean {
				c.strip(tool)
			}
		}
		c.enterTool(t.sp, t.inline, tool)
		if c.lean {
			c.toolSrc[i].sp = nil
			if ahead != nil {
				ahead[i-from] = toolUnit{}
			}
		}
	}
	if c.inc != nil {
		c.inc.finishFile()
	}
	// Agents read no declaration a Cache tracks: nothing to record.
	c.recDeps = false
	for _, a := range c.agentSrc {
		c.file = a.file
		c.lowerAgentHead(a.sp, a.agent)
	}
	for _, a := range c.agentSrc {
		c.file = a.file
		c.lowerAgentElements(a.sp, a.agent)
	}
	c.agentGraph()
	for _, t := range c.testSrc {
		c.file = t.file
		c.lowerTest(t.sp, t.test)
	}
	if c.lean {
		// The model is partial: hand out none of it.
		c.pkg.Tools, c.pkg.Agents, c.pkg.Types, c.pkg.Enums, c.pkg.Tests = nil, nil, nil, nil, nil
	}
	if c.pkg.Name == "" {
		dir := c.pkg.Dir
		if dir == "" && len(c.pkg.Files) > 0 {
			dir = filepath.Dir(c.pkg.Files[0].Name) // files named together
		}
		c.pkg.Name = packageNameFromDir(dir)
	}
}

// lowerDecls lowers the enums and types and checks that every record has
// a finite value: the declarations every tool's lowering depends on.
func (c *checker) lowerDecls() {
	for _, e := range c.enumSrc {
		c.file = e.file
		c.lowerEnum(e.sp)
	}
	for _, t := range c.typeSrc {
		c.file = t.file
		c.lowerTypeDecl(t.sp, c.types[t.sp.Identifier.Name])
	}
	c.finiteTypes()
}

func packageNameFromDir(dir string) string {
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		dir = dir[i+1:]
	}
	if dir == "." || dir == ".." {
		return ""
	}
	return dir
}

// header reads the document header: `{package: "name"}` names the package.
func (c *checker) header(f *ast.File) {
	if f.Header == nil {
		return
	}
	for i := range f.Header.Properties {
		p := &f.Header.Properties[i]
		if keyName(&p.Key) != "package" {
			continue
		}
		s, ok := stringValue(p.Value)
		if !ok || s == "" {
			c.errorf(diag.CodeInvalidPropertyValue, p.Value, "header property package must be a non-empty string, not %s", describeValue(p.Value)).WithDetail(`Write the package name as a string, e.g. {package: "weather"}.`)
			continue
		}
		switch {
		case c.pkgName == nil:
			r := c.rng(p.Value)
			c.pkgName = &r
			if c.pkg.Name == "" {
				c.pkg.Name = s
			}
		case s != c.pkg.Name:
			d := c.errorf(diag.CodePackageConflict, p.Value, "package %q differs from the package %q named earlier", s, c.pkg.Name).WithDetail(fmt.Sprintf("The files of a directory (or named together) form one package with one name; write {package: %q} here too, or move this file to its own directory.", c.pkg.Name))
			d.Related = []diag.Related{{Range: *c.pkgName, Message: fmt.Sprintf("package %q named here", c.pkg.Name)}}
		}
	}
}

// unwrap removes annotations around a pattern; gramc gives them no meaning.
func unwrap(p ast.Pattern) ast.Pattern {
	for {
		a, ok := p.(*ast.AnnotatedPattern)
		if !ok || a.Pattern == nil {
			return p
		}
		p = a.Pattern
	}
}

// kindOf returns the declaration labels among labels.
func kindOf(ls []ast.Label) (kinds []*ast.Label) {
	if len(ls) == 0 {
		return nil
	}
	for i := range ls {
		if contains(kindLabels, ls[i].Name) {
			kinds = append(kinds, &ls[i])
		}
	}
	return kinds
}

// labelsOf returns the subject's labels of a pattern, if it has a subject.
func subjectOf(p ast.Pattern) *ast.Subject {
	switch p := p.(type) {
	case *ast.SubjectPattern:
		return &p.Subject
	case *ast.NodePattern:
		return &p.Subject
	}
	return nil
}

// collect registers one top-level pattern.
func (c *checker) collect(p ast.Pattern) {
	p = unwrap(p)
	if isNil(p) {
		return
	}
	sp, ok := p.(*ast.SubjectPattern)
	if !ok {
		if s := subjectOf(p); s != nil && len(kindOf(s.Labels)) > 0 {
			k := kindOf(s.Labels)[0].Name
			c.errorf(diag.CodeMalformedDecl, p, "a %s declaration must be a subject pattern, not a node", k).WithDetail(fmt.Sprintf("Declare it with square brackets: [name:%s {...} | ...]. Parentheses make a node, which cannot hold elements.", k))
			return
		}
		if rp, ok := p.(*ast.RelationshipPattern); ok {
			c.warnf(diag.CodeUnknownPattern, rp, "top-level path is not a gramc declaration and is ignored").WithDetail(`A signature means something only inside a tool: [myTool:Tool {description: "..."} | (x::String)==>(::String)].`)
			return
		}
		c.warnf(diag.CodeUnknownPattern, p, "top-level pattern is not a gramc declaration and is ignored").WithDetail(unknownPatternDetail)
		return
	}
	kinds := kindOf(sp.Labels)
	if len(kinds) == 0 {
		if sp.Identifier != nil && sp.Identifier.Name != "" {
			if c.ignored == nil {
				c.ignored = map[string]ast.Range{}
			}
			if _, seen := c.ignored[sp.Identifier.Name]; !seen {
				c.ignored[sp.Identifier.Name] = c.rng(sp.Identifier)
			}
		}
		d := c.warnf(diag.CodeUnknownPattern, sp, "top-level pattern is not a gramc declaration and is ignored").WithDetail(unknownPatternDetail)
		if len(sp.Labels) > 0 {
			for i := range sp.Labels {
				l := &sp.Labels[i]
				s := olderKindLabels[l.Name]
				if s == "" {
					s = c.suggest(l.Name, kindLabels)
				}
				if s != "" {
					colon := ":"
					if l.DoubleColon {
						colon = "::"
					}
					d.Summary = fmt.Sprintf("unknown declaration label %s%s is ignored", colon, syntax.QuoteName(l.Name)) + suggest.DidYouMeanCode(colon+s)
					d.Suggestion = colon + s // replaces the label, colon included
					d.Range = c.rng(l)
					break
				}
			}
		}
		return
	}
	if len(kinds) > 1 {
		c.errorf(diag.CodeMalformedDecl, kinds[1], "declaration has both :%s and :%s", kinds[0].Name, kinds[1].Name).WithDetail(twoKindsDetail)
		return
	}
	kind := kinds[0].Name
	if sp.Identifier == nil {
		c.errorf(diag.CodeMissingName, sp, "%s declaration has no name", kind).WithDetail(fmt.Sprintf("Name it right after the opening bracket: [myName:%s ...].", kind))
		return
	}
	name := sp.Identifier.Name
	switch kind {
	case labelTool:
		c.toolSrc = append(c.toolSrc, pendingTool{pending{c.file, sp}, false, c.curFile})
	case labelAgent:
		if !c.declare(name, labelAgent, sp.Identifier) {
			return
		}
		a := &Agent{Name: name, Range: c.rng(sp), NameRange: c.rng(sp.Identifier)}
		site := c.names[name]
		site.agent = a
		c.names[name] = site
		c.pkg.Agents = append(c.pkg.Agents, a)
		c.agentSrc = append(c.agentSrc, pendingAgent{pending{c.file, sp}, a})
		// Inline tools are declared like top-level ones.
		for _, e := range sp.Elements {
			if esp, ok := unwrap(e).(*ast.SubjectPattern); ok && esp.Identifier != nil && hasLabel(esp.Labels, labelTool) && len(kindOf(esp.Labels)) == 1 {
				c.toolSrc = append(c.toolSrc, pendingTool{pending{c.file, esp}, true, c.curFile})
			}
		}
	case labelTest:
		if !c.declare(name, labelTest, sp.Identifier) {
			return
		}
		t := &Test{Name: name, Range: c.rng(sp), NameRange: c.rng(sp.Identifier)}
		c.pkg.Tests = append(c.pkg.Tests, t)
		c.testSrc = append(c.testSrc, pendingTest{pending{c.file, sp}, t})
	case labelType, labelEnum:
		// The two kinds of declared type: one namespace, the same
		// reserved names, each registered in its own map, list and queue.
		if c.reserved(name, sp.Identifier) || !c.declare(name, kind, sp.Identifier) {
			return
		}
		src := pending{c.file, sp}
		rng, nameRng := c.rng(sp), c.rng(sp.Identifier)
		if kind == labelEnum {
			en := &Enum{Name: name, Range: rng, NameRange: nameRng}
			c.enums[name] = en
			c.pkg.Enums = append(c.pkg.Enums, en)
			c.enumSrc = append(c.enumSrc, src)
			return
		}
		td := &TypeDecl{Name: name, Range: rng, NameRange: nameRng}
		c.types[name] = td
		c.pkg.Types = append(c.pkg.Types, td)
		c.typeSrc = append(c.typeSrc, src)
		c.typeSP[td] = src
	}
}

func hasLabel(ls []ast.Label, name string) bool {
	if len(ls) == 0 {
		return false
	}
	for i := range ls {
		l := &ls[i]
		if l.Name == name {
			return true
		}
	}
	return false
}

// reserved reports (and diagnoses) a declared type named like a built-in.
func (c *checker) reserved(name string, id *ast.Identifier) bool {
	if _, ok := builtinTypes[name]; ok {
		c.errorf(diag.CodeReservedName, id, "%s is a built-in type name", name).WithDetail(reservedDetail)
		return true
	}
	return false
}

// withArticle puts "a" or "an" before a kind: "a type", "an agent".
func withArticle(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// declare enters a name into the package namespace; a second declaration
// is an error pointing at the first.
func (c *checker) declare(name, kind string, id *ast.Identifier) bool {
	if prev, ok := c.names[name]; ok {
		d := c.errorf(diag.CodeDuplicateDecl, id, "%s is already declared as %s", name, withArticle(strings.ToLower(prev.kind))).WithDetail("Names of tools, agents, types and enums share one namespace per package; rename one of them.")
		d.Related = []diag.Related{{Range: prev.rng, Message: "first declared here"}}
		return false
	}
	c.names[name] = declSite{kind: kind, rng: c.rng(id)}
	return true
}

// propSet is a record's properties by key: get returns the first of a
// key. Records hold a handful of properties, for which a scan beats
// building a map; a large one gets an index.
type propSet struct {
	ps  []ast.Property
	idx map[string]*ast.Property // for large records
}

// propIndexMin is the number of properties from which a record is indexed.
const propIndexMin = 32

// get returns the first property of key k, or nil.
func (s propSet) get(k string) *ast.Property {
	if s.idx != nil {
		return s.idx[k]
	}
	for i := range s.ps {
		if s.ps[i].Key.Name == k {
			return &s.ps[i]
		}
	}
	return nil
}

// first reports whether p (one of the set's properties) is the first of
// its key.
func (s propSet) first(p *ast.Property) bool { return s.get(p.Key.Name) == p }

// props returns a record's properties by key, reporting duplicates.
func (c *checker) props(r *ast.Record) propSet {
	if r == nil || len(r.Properties) == 0 {
		return propSet{}
	}
	s := propSet{ps: r.Properties}
	if len(r.Properties) >= propIndexMin {
		s.idx = make(map[string]*ast.Property, len(r.Properties))
	}
	for i := range r.Properties {
		p := &r.Properties[i]
		k := keyName(&p.Key)
		var prev *ast.Property
		if s.idx != nil {
			prev = s.idx[k]
		} else {
			prev = propSet{ps: r.Properties[:i]}.get(k)
		}
		if prev != nil {
			d := c.errorf(diag.CodeDuplicateProperty, p.Key, "property %s is given twice", k).WithDetail("Remove one of them.")
			d.Related = []diag.Related{{Range: c.rng(prev.Key), Message: "first given here"}}
			continue
		}
		if s.idx != nil {
			s.idx[k] = p
		}
	}
	return s
}

// unknownProps warns about properties not in known, in source order.
func (c *checker) unknownProps(r *ast.Record, what string, known []string, hints map[string]string) {
	if r == nil {
		return
	}
	for i := range r.Properties {
		p := &r.Properties[i]
		k := keyName(&p.Key)
		if contains(known, k) {
			continue
		}
		if h, ok := hints[k]; ok {
			c.warnf(diag.CodeUnknownProperty, p.Key, "unknown %s property %s", what, k).WithDetail(h)
			continue
		}
		detail := fmt.Sprintf("Known %s properties: %s. gramc ignores this one.", what, strings.Join(known, ", "))
		d := c.warnf(diag.CodeUnknownProperty, p.Key, "unknown %s property %s", what, k).WithDetail(detail)
		c.suggestName(d, k, known)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringProp reads a string property; a symbol gets a "quote it" error.
func (c *checker) stringProp(p *ast.Property, what string) (string, bool) {
	if p == nil {
		return "", false
	}
	if s, ok := stringValue(p.Value); ok {
		return s, true
	}
	if sym, ok := p.Value.(*ast.Symbol); ok {
		c.unquoted(sym, fmt.Sprintf("%s %s", what, keyName(&p.Key)))
		return "", false
	}
	c.errorf(diag.CodeInvalidPropertyValue, p.Value, "%s %s must be a string, not %s", what, keyName(&p.Key), describeValue(p.Value)).WithDetail(fmt.Sprintf("Write %s as a quoted string.", keyName(&p.Key)))
	return "", false
}

// unquoted reports a symbol used where a string is expected.
func (c *checker) unquoted(sym *ast.Symbol, where string) {
	q := syntax.Quote(sym.Name, '"')
	d := c.errorf(diag.CodeUnquotedString, sym, "%s must be a string%s", where, suggest.DidYouMeanCode(q)).WithDetail(fmt.Sprintf("A bare word is a symbol, not a string. Quote it: %s.", q))
	d.Suggestion = q
}

// boolProp reads a boolean property.
func (c *checker) boolProp(p *ast.Property, what string) (bool, bool) {
	if p == nil {
		return false, false
	}
	if b, ok := p.Value.(*ast.Boolean); ok {
		return b.Value, true
	}
	c.errorf(diag.CodeInvalidPropertyValue, p.Value, "%s %s must be true or false, not %s", what, keyName(&p.Key), describeValue(p.Value)).WithDetail(fmt.Sprintf("Write %s: true or %s: false.", keyName(&p.Key), keyName(&p.Key)))
	return false, false
}

func sortStrings(s []string) { sort.Strings(s) }

// suggestBudget bounds the candidate comparisons "did you mean" may spend
// on one package, so that a file with thousands of unknown names among
// thousands of declarations cannot make the checker crawl.
// (A variable so that tests can spend it quickly.)
var suggestBudget = 2_000_000

// suggest is suggest.Closest within the package's budget.
// olderKindLabels are declaration labels of older notations (the seeds'
// first label is :ToolSpecification) and of other tools, with the gramc
// label each means: too far from it for an edit-distance guess.
var olderKindLabels = map[string]string{
	"ToolSpecification": "Tool", "ToolSpec": "Tool", "Function": "Tool", "FunctionDeclaration": "Tool",
	"AgentSpecification": "Agent", "AgentSpec": "Agent",
	"Record": "Type", "Struct": "Type", "Object": "Type", "Schema": "Type",
	"Enumeration": "Enum",
}

func (c *checker) suggest(name string, cands []string) string {
	if c.suggestSpent+len(cands) > suggestBudget {
		c.suggestRefused = true
		return ""
	}
	c.suggestSpent += len(cands)
	return suggest.Closest(name, cands)
}
