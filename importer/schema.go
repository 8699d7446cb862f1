package importer

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// importer holds one import: the package so far and, for the schema being
// read, where its references resolve.
type importer struct {
	pkg      pkg
	decls    []any // records and enums in the order they were made
	warnings diag.Diagnostics

	s *source
	// refRoot is the document "#" refers to; resultRoot, when set, is an
	// output schema whose "#" is its record resultRec
	refRoot, resultRoot *node
	resultRec           *record
	records             map[*node]*record
	enums               map[*node]*enum
	inlining            map[*node]bool
	reported            map[*node]bool
	work                int
	// strictTool: the tool being read is an OpenAI strict tool
	strictTool bool
	// given: records and enums named by their source ($defs,
	// components.schemas), whose names come first
	given map[any]bool
	// shapes: the definitions read, by name and JSON text
	shapes map[string]any
	// refused: the values the checker refused, reported once each
	refused map[*node]bool
	// hashes: each value's content hash, computed once (a YAML alias
	// shares a value: hashing it again would be exponential)
	hashes map[*node][32]byte
	// recordish: isRecord's answers
	recordish map[*node]bool
	// filled: the schemas whose fields each record has
	filled map[*record]map[*node]bool
	// open: each source's objects that admit other properties
	open     map[*source][]*node
	openSeen map[*node]bool
	// enumOK: the enumerations read, each within the limits or not;
	// enumValues: the values of those within them
	enumOK     map[*node]bool
	enumValues int
}

func newImporter() *importer {
	return &importer{records: map[*node]*record{}, enums: map[*node]*enum{}, inlining: map[*node]bool{}, reported: map[*node]bool{}, given: map[any]bool{}, shapes: map[string]any{}, refused: map[*node]bool{}, hashes: map[*node][32]byte{}, recordish: map[*node]bool{}, filled: map[*record]map[*node]bool{}}
}

// warn reports what could not come along, at n. In a live server's
// listing, which has no lines to show, the place is the tool's name and
// the JSON pointer, and the warnings sort in the listing's order.
func (im *importer) warn(code diag.Code, n *node, summary, detail string) {
	r := im.s.at(n)
	if im.s.Server && n != nil {
		summary += " (" + im.s.toolOf(n) + "at " + orRoot(n.Pointer()) + ")"
		if n.Off >= 0 {
			r.Start.Offset, r.End.Offset = n.Off, n.Off
		}
	}
	im.warnings = append(im.warnings, &diag.Diagnostic{Severity: diag.Warning, Code: code, Summary: summary, Detail: detail, Range: r})
}

// toolOf names the tool of a listing n belongs to ("tool \"x\", "), or
// is "" outside every tool.
func (s *source) toolOf(n *node) string {
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		list := c.Parent
		if list.Kind == jsonvalue.Array && (list == s.root || list.Parent == s.root && s.root.Kind == jsonvalue.Object) {
			if name := c.Get("name"); name != nil && name.Kind == jsonvalue.String {
				return "tool " + shownName(name.Str) + ", "
			}
			return ""
		}
	}
	return ""
}

// openObject notes that s admits properties it does not declare, which
// a gram record refuses: said once per document (sayOpen), as it is
// true of nearly every object of a real one.
func (im *importer) openObject(s *node) {
	if im.open == nil {
		im.open, im.openSeen = map[*source][]*node{}, map[*node]bool{}
	}
	if !im.openSeen[s] {
		im.openSeen[s] = true
		im.open[im.s] = append(im.open[im.s], s)
	}
}

// sayOpen warns once per source of its open objects, at the first.
func (im *importer) sayOpen(srcs []*source) {
	for _, src := range srcs {
		nodes := im.open[src]
		if len(nodes) == 0 {
			continue
		}
		saved := im.s
		im.s = src
		summary := "an object that admits other properties is a closed gram record"
		if len(nodes) > 1 {
			summary = fmt.Sprintf("%d objects of this document admit other properties; each is a closed gram record", len(nodes))
		}
		im.warn(diag.CodeImportOpenObject, nodes[0], summary,
			"A gram record (and a tool's arguments) has exactly its declared fields: additionalProperties is false in every schema gramc writes. Properties an object does not declare are now refused. This is said once per document, at the first such object.")
		im.s = saved
	}
}

// orRoot is a JSON pointer as messages write it: "/" for the root.
func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// hash is the SHA-256 of a value's canonical form (object keys sorted),
// from its children's hashes. Only an object's or an array's is kept (a
// scalar's costs less to compute again than to keep: a document of
// millions of enum values would hold a map entry for each).
func (im *importer) hash(n *node) [32]byte {
	if h, ok := im.hashes[n]; ok {
		return h
	}
	d := sha256.New()
	d.Write([]byte{byte(n.Kind)})
	switch n.Kind {
	case jsonvalue.Object:
		keys := slices.Clone(n.Keys)
		slices.Sort(keys)
		for _, k := range keys {
			h := im.hash(n.Obj[k])
			fmt.Fprintf(d, "%d:%s", len(k), k)
			d.Write(h[:])
		}
	case jsonvalue.Array:
		for _, e := range n.Arr {
			h := im.hash(e)
			d.Write(h[:])
		}
	case jsonvalue.String:
		d.Write([]byte(n.Str))
	case jsonvalue.Number:
		d.Write([]byte(n.Num))
	case jsonvalue.Bool:
		fmt.Fprint(d, n.Bool)
	}
	var h [32]byte
	d.Sum(h[:0])
	if n.Kind == jsonvalue.Object || n.Kind == jsonvalue.Array {
		im.hashes[n] = h
	}
	return h
}

// step counts a schema visited and bounds the depth.
func (im *importer) step(s *node, depth int) {
	if depth > maxDepth {
		im.s.fail(s, "schemas nested deeper than %d levels (importer's limit)", maxDepth)
	}
	if im.work++; im.work > maxWork {
		im.s.fail(s, "more than %d schemas visited, references followed (importer's limit): the document's references multiply", maxWork)
	}
}

// str reads an optional string property of n.
func (im *importer) str(n *node, key string) string {
	v := n.Get(key)
	if v == nil {
		return ""
	}
	if v.Kind != jsonvalue.String {
		im.s.fail(v, "%q is a string, not %s", key, kindName(v))
	}
	return im.prose(v, v.Str)
}

// prose is a description or title gram writes without a character that
// does not show as itself (a control character but tab and newline, a
// bidirectional control, an invisible character: termsafe.Unsafe): each
// is U+FFFD instead, with a warning, so the gram shows a reader what it
// holds.
func (im *importer) prose(n *node, s string) string {
	s = im.text(n, s)
	if !hasUnsafe(s) {
		return s
	}
	im.warn(diag.CodeImportInvalidValue, n, "a control, bidirectional or invisible character is U+FFFD instead",
		"Such a character does not show as itself (a terminal obeys an escape sequence, an editor reorders text around a right-to-left override), and gram strings have no escape for it; gramc check warns of it (unsafe-character). It was replaced with U+FFFD in the description.")
	return strings.Map(func(r rune) rune {
		if unsafeInText(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// unsafeInText reports whether r does not show as itself in a gram file
// (tab, newline and carriage return do).
func unsafeInText(r rune) bool {
	return r != '\t' && r != '\n' && r != '\r' && termsafe.Unsafe(r)
}

func hasUnsafe(s string) bool { return strings.IndexFunc(s, unsafeInText) >= 0 }

// text is a string gram can hold: a NUL ends a gram string, so it
// becomes U+FFFD, with a warning.
func (im *importer) text(n *node, s string) string {
	if strings.IndexByte(s, 0) < 0 {
		return s
	}
	im.warn(diag.CodeImportInvalidValue, n, "a NUL character cannot be written in gram; it is U+FFFD instead", "A gram document cannot hold the character U+0000, so it was replaced with U+FFFD (the replacement character).")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

func (im *importer) boolean(n *node, key string) bool {
	v := n.Get(key)
	if v == nil {
		return false
	}
	if v.Kind != jsonvalue.Bool {
		im.s.fail(v, "%q is a boolean, not %s", key, kindName(v))
	}
	return v.Bool
}

// unsupported are the keywords gram cannot hold, each reported with its
// code where it is written.
var unsupported = []struct {
	key  string
	code diag.Code
	what string
}{
	{"not", diag.CodeImportNot, "gram has no negation"},
	{"if", diag.CodeImportConditional, "gram has no conditional schema"},
	{"patternProperties", diag.CodeImportPatternProperties, "a gram record has named fields only"},
	{"prefixItems", diag.CodeImportTuple, "a gram array has one element type"},
	{"additionalItems", diag.CodeImportTuple, "a gram array has one element type"},
	{"multipleOf", diag.CodeImportUnsupportedKeyword, "gram has no multipleOf"},
	{"minProperties", diag.CodeImportUnsupportedKeyword, "a gram record's size is its fields"},
	{"maxProperties", diag.CodeImportUnsupportedKeyword, "a gram record's size is its fields"},
	{"propertyNames", diag.CodeImportUnsupportedKeyword, "a gram record has named fields only"},
	{"dependentRequired", diag.CodeImportUnsupportedKeyword, "gram has no dependencies between fields"},
	{"dependentSchemas", diag.CodeImportUnsupportedKeyword, "gram has no dependencies between fields"},
	{"dependencies", diag.CodeImportUnsupportedKeyword, "gram has no dependencies between fields"},
	{"contains", diag.CodeImportUnsupportedKeyword, "gram has no contains"},
	{"unevaluatedProperties", diag.CodeImportUnsupportedKeyword, "gram has no unevaluatedProperties"},
	{"unevaluatedItems", diag.CodeImportUnsupportedKeyword, "gram has no unevaluatedItems"},
}

// report warns once about each keyword of s gram cannot hold.
func (im *importer) report(s *node) {
	if im.reported[s] {
		return
	}
	im.reported[s] = true
	for _, u := range unsupported {
		if v := s.Get(u.key); v != nil {
			im.warn(u.code, v, fmt.Sprintf("%s is dropped: %s", u.key, u.what),
				fmt.Sprintf("The gram says nothing of %s: values it would refuse are accepted (or, in a result, not promised). Check them in the tool, or describe the rule in the description.", u.key))
		}
	}
}

// resolve follows a $ref inside the document: the schema it names, and
// the name it gives when it names a definition ($defs, definitions,
// components.schemas). A reference that cannot be followed is a warning
// and nil.
func (im *importer) resolve(ref *node) (*node, string) {
	if ref.Kind != jsonvalue.String {
		hint := ""
		if ref.Kind == jsonvalue.Null && ref.Line > 0 {
			hint = " (in YAML, an unquoted # starts a comment: quote the reference)"
		}
		im.warn(diag.CodeImportExternalRef, ref, fmt.Sprintf("$ref is %s, not a reference%s; the value is Object", kindName(ref), hint),
			"A $ref is a string, a URI reference; this one cannot be followed, so the value is declared a free-form Object. Fix the reference.")
		return nil, ""
	}
	frag, ok := strings.CutPrefix(ref.Str, "#")
	if !ok {
		im.warn(diag.CodeImportExternalRef, ref, fmt.Sprintf("$ref %s is outside this document; the value is Object", jsonstr.Text(ref.Str)),
			"gramc import reads one document and never fetches another: a reference to another file or URL cannot be followed, so the value is declared a free-form Object. Bundle the document first (all references inside it).")
		return nil, ""
	}
	if frag == "" {
		return im.refRoot, ""
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	if !strings.HasPrefix(frag, "/") {
		im.warn(diag.CodeImportExternalRef, ref, fmt.Sprintf("$ref %s names an anchor; the value is Object", jsonstr.Text(ref.Str)),
			"gramc import follows JSON-pointer references (#/$defs/Name, #/components/schemas/Name); an anchor or $id cannot be followed, so the value is declared a free-form Object.")
		return nil, ""
	}
	n := im.refRoot
	parts := strings.Split(frag[1:], "/")
	for _, p := range parts {
		p = unescaper.Replace(p)
		switch n.Kind {
		case jsonvalue.Object:
			n = n.Obj[p]
		case jsonvalue.Array:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n.Arr) {
				n = nil
			} else {
				n = n.Arr[i]
			}
		default:
			n = nil
		}
		if n == nil {
			im.warn(diag.CodeImportExternalRef, ref, fmt.Sprintf("$ref %s names nothing in this document; the value is Object", jsonstr.Text(ref.Str)),
				"The reference cannot be followed, so the value is declared a free-form Object. Fix the reference.")
			return nil, ""
		}
	}
	name := ""
	if len(parts) >= 2 {
		container := parts[len(parts)-2]
		if container == "$defs" || container == "definitions" || container == "schemas" && len(parts) == 3 && parts[0] == "components" {
			name = unescaper.Replace(parts[len(parts)-1])
		}
	}
	return n, name
}

// nonNull splits a list of alternatives (anyOf, oneOf, or type names)
// into the ones that are not null, and whether null was one.
func nonNull(list *node) (alts []*node, null bool) {
	for _, e := range list.Arr {
		if e.Kind == jsonvalue.String && e.Str == "null" || e.Kind == jsonvalue.Object && e.Get("type") != nil && e.Get("type").Kind == jsonvalue.String && e.Get("type").Str == "null" && len(e.Keys) <= 2 {
			null = true
			continue
		}
		alts = append(alts, e)
	}
	return alts, null
}

// nullable reports whether s admits null besides its type.
func nullable(s *node) bool {
	if s.Kind != jsonvalue.Object {
		return false
	}
	if v := s.Get("nullable"); v != nil && v.Kind == jsonvalue.Bool && v.Bool {
		return true
	}
	for _, k := range []string{"type", "anyOf", "oneOf"} {
		if v := s.Get(k); v != nil && v.Kind == jsonvalue.Array {
			if _, null := nonNull(v); null {
				return true
			}
		}
	}
	if v := s.Get("enum"); v != nil && v.Kind == jsonvalue.Array {
		for _, e := range v.Arr {
			if e.Kind == jsonvalue.Null {
				return true
			}
		}
	}
	return false
}

// typ is the type schema s describes, and the schemas whose keywords
// constrain the value: s, then what it refers to (but a named record or
// enum, whose keywords are its declaration's).
func (im *importer) typ(s *node, hint string, depth int) (*typ, []*node) {
	im.step(s, depth)
	if s.Kind == jsonvalue.Bool {
		if !s.Bool {
			im.warn(diag.CodeImportUnsupportedKeyword, s, "the schema false (no value) is not a gram type; the value is Object", "A schema that accepts nothing cannot be declared in gram; the value is declared a free-form Object.")
		} else {
			im.untyped(s)
		}
		return &typ{kind: check.Object}, nil
	}
	if s.Kind != jsonvalue.Object {
		im.s.fail(s, "a schema is an object (or true or false), not %s", kindName(s))
	}
	im.report(s)
	chain := []*node{s}
	if ref := s.Get("$ref"); ref != nil {
		target, name := im.resolve(ref)
		switch {
		case target == nil:
			return &typ{kind: check.Object}, chain
		case target == im.resultRoot && im.resultRec != nil:
			return &typ{kind: check.Record, rec: im.resultRec}, chain
		case name != "":
			t, more := im.named(target, name, depth+1)
			return t, append(chain, more...)
		}
		return im.alias(s, target, hint, depth)
	}
	if all := s.Get("allOf"); all != nil {
		return im.allOf(s, all, hint, depth)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		list := s.Get(k)
		if list == nil {
			continue
		}
		if list.Kind != jsonvalue.Array || len(list.Arr) == 0 {
			im.s.fail(list, "%q is a non-empty array of schemas", k)
		}
		alts, _ := nonNull(list)
		switch len(alts) {
		case 0:
			im.warn(diag.CodeImportUntyped, list, "a schema that admits only null is not a gram type; the value is Object", "gram has no null type; the value is declared a free-form Object.")
			return &typ{kind: check.Object}, chain
		case 1:
			t, more := im.typ(alts[0], hint, depth+1)
			return t, append(chain, more...)
		}
		return im.union(list, alts, k, hint, depth), chain
	}
	tn := s.Get("type")
	name := ""
	if tn != nil {
		switch tn.Kind {
		case jsonvalue.String:
			name = tn.Str
		case jsonvalue.Array:
			alts, _ := nonNull(tn)
			for _, a := range alts {
				if a.Kind != jsonvalue.String {
					im.s.fail(a, "a type name is a string, not %s", kindName(a))
				}
			}
			switch len(alts) {
			case 0:
				im.warn(diag.CodeImportUntyped, tn, "a schema that admits only null is not a gram type; the value is Object", "gram has no null type; the value is declared a free-form Object.")
				return &typ{kind: check.Object}, chain
			case 1:
				name = alts[0].Str
			default:
				var names []string
				for _, a := range alts {
					names = append(names, a.Str)
				}
				name = alts[0].Str
				im.warn(diag.CodeImportUnion, tn, fmt.Sprintf("type %s is a union; gram has none, so the value is %s", jsonstr.List(anys(names)), gramKind(name)),
					"A gram value has one type. The first type named is kept; values of the others are refused. Split the parameter into one per type if both are needed.")
			}
		default:
			im.s.fail(tn, "\"type\" is a type name or an array of them, not %s", kindName(tn))
		}
	} else {
		name = inferType(s)
	}
	switch name {
	case "object":
		return im.object(s, hint, depth), chain
	case "array":
		return im.array(s, hint, depth), chain
	case "null":
		im.warn(diag.CodeImportUntyped, tn, "a schema that admits only null is not a gram type; the value is Object", "gram has no null type; the value is declared a free-form Object.")
		return &typ{kind: check.Object}, chain
	case "":
		im.untyped(s)
		return &typ{kind: check.Object}, chain
	}
	if b, ok := check.BuiltinOfJSON(name); ok { // string, integer, number, boolean
		return &typ{kind: b.Kind}, chain
	}
	im.s.fail(tn, "unknown type %s (JSON Schema's types are string, integer, number, boolean, object, array and null)", jsonstr.Text(name))
	return nil, nil
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// unescaper undoes a JSON pointer's escapes.
var unescaper = strings.NewReplacer("~1", "/", "~0", "~")

// gramKind names the gram type of a JSON Schema type name (Object for
// null and a schema without a type).
func gramKind(name string) string {
	if b, ok := check.BuiltinOfJSON(name); ok {
		return b.Name
	}
	return "Object"
}

// inferType is the type a schema without "type" implies by its keywords.
func inferType(s *node) string {
	switch {
	case has(s, "properties") || has(s, "additionalProperties") || has(s, "required"):
		return "object"
	case has(s, "items") || has(s, "prefixItems"):
		return "array"
	}
	var vals []*node
	if e := s.Get("enum"); e != nil && e.Kind == jsonvalue.Array {
		vals = e.Arr
	}
	if c := s.Get("const"); c != nil {
		vals = append(vals, c)
	}
	kind := ""
	for _, v := range vals {
		k := ""
		switch v.Kind {
		case jsonvalue.String:
			k = "string"
		case jsonvalue.Bool:
			k = "boolean"
		case jsonvalue.Number:
			k = "number"
			if isInteger(string(v.Num)) {
				k = "integer"
			}
		case jsonvalue.Null:
			continue
		default:
			return ""
		}
		switch {
		case kind == "" || kind == k:
			kind = k
		case kind == "integer" && k == "number" || kind == "number" && k == "integer":
			kind = "number"
		default:
			return ""
		}
	}
	return kind
}

func isInteger(num string) bool {
	p, ok := plainNumber(num)
	return ok && !strings.Contains(p, ".")
}

func (im *importer) untyped(s *node) {
	im.warn(diag.CodeImportUntyped, s, "a schema without a type accepts any JSON value; gram declares it Object",
		"gram has no type for any value: the value is declared a free-form Object, which refuses strings, numbers, booleans and arrays. Give the schema a type.")
}

// alias reads a schema reached through a reference that names no
// definition (or a definition gram cannot declare): its type, with its
// keywords after those of s.
func (im *importer) alias(s, target *node, hint string, depth int) (*typ, []*node) {
	if im.inlining[target] {
		im.warn(diag.CodeImportRecursiveAlias, s, "a schema that contains itself without an object in between is not a gram type; the value is Object",
			"gram's recursion goes through a :Type (a record); an array or union that contains itself directly cannot be declared, so the value is declared a free-form Object.")
		return &typ{kind: check.Object}, []*node{s}
	}
	im.inlining[target] = true
	t, more := im.typ(target, hint, depth+1)
	delete(im.inlining, target)
	return t, append([]*node{s}, more...)
}

// isRecord reports whether a schema (its references followed) is an
// object with fields: a record gram declares as a :Type.
func (im *importer) isRecord(s *node, depth int) bool {
	if v, ok := im.recordish[s]; ok {
		return v // (in progress: false, which ends a cycle)
	}
	im.recordish[s] = false
	v := im.isRecordOnce(s, depth)
	im.recordish[s] = v
	return v
}

func (im *importer) isRecordOnce(s *node, depth int) bool {
	for i := 0; s != nil && s.Kind == jsonvalue.Object && i < 64; i++ {
		if ref := s.Get("$ref"); ref != nil && ref.Kind == jsonvalue.String {
			if ref.Str == "#" && im.resultRoot != nil {
				return true
			}
			s, _ = im.quietResolve(ref.Str)
			continue
		}
		if all := s.Get("allOf"); all != nil && all.Kind == jsonvalue.Array && len(all.Arr) > 0 {
			records := 0
			for _, m := range all.Arr {
				switch {
				case depth > 64:
					return false
				case im.isRecord(m, depth+1):
					records++
				case !im.neutral(m):
					return false
				}
			}
			return records > 0
		}
		if has(s, "anyOf") || has(s, "oneOf") {
			return false
		}
		t := s.Get("type")
		isObject := t == nil && inferType(s) == "object" || t != nil && t.Kind == jsonvalue.String && t.Str == "object"
		if t != nil && t.Kind == jsonvalue.Array {
			alts, _ := nonNull(t)
			isObject = len(alts) == 1 && alts[0].Kind == jsonvalue.String && alts[0].Str == "object"
		}
		if !isObject {
			return false
		}
		ap := s.Get("additionalProperties")
		props := s.Get("properties")
		return props != nil && props.Kind == jsonvalue.Object && len(props.Keys) > 0 || ap != nil && ap.Kind == jsonvalue.Bool && !ap.Bool
	}
	return false
}

// quietResolve follows a pointer reference without reporting.
func (im *importer) quietResolve(ref string) (*node, string) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || !strings.HasPrefix(frag, "/") {
		return nil, ""
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	n := im.refRoot
	for _, p := range strings.Split(frag[1:], "/") {
		n = n.Get(unescaper.Replace(p))
		if n == nil {
			return nil, ""
		}
	}
	return n, ""
}

// named is the type of a definition: a record becomes a :Type, a string
// or integer enumeration an :Enum, anything else (a constrained string,
// an array) is written where it is used.
func (im *importer) named(s *node, name string, depth int) (*typ, []*node) {
	if r, ok := im.records[s]; ok {
		if !im.given[r] {
			// first met where it is used: the definition names it
			r.name, im.given[r] = name, true
		}
		return &typ{kind: check.Record, rec: r}, nil
	}
	if e, ok := im.enums[s]; ok {
		return &typ{kind: check.EnumKind, enum: e}, nil
	}
	im.step(s, depth)
	// The same definition in the schemas of several tools (each carries
	// its own $defs) is one declaration.
	shape := ""
	if s.Kind == jsonvalue.Object {
		h := im.hash(s)
		shape = name + "\x00" + string(h[:])
		{
			switch d := im.shapes[shape].(type) {
			case *record:
				im.records[s] = d
				return &typ{kind: check.Record, rec: d}, nil
			case *enum:
				im.enums[s] = d
				return &typ{kind: check.EnumKind, enum: d}, nil
			}
		}
	}
	if s.Kind == jsonvalue.Object && !has(s, "$ref") && im.isRecord(s, 0) {
		r := im.newRecord(s, name, true)
		if shape != "" {
			im.shapes[shape] = r
		}
		im.fillRecord(r, s, depth)
		return &typ{kind: check.Record, rec: r}, nil
	}
	if e := im.enumDecl(s, name); e != nil {
		if shape != "" {
			im.shapes[shape] = e
		}
		return &typ{kind: check.EnumKind, enum: e}, nil
	}
	return im.alias(s, s, name, depth-1)
}

// enumDecl makes an :Enum of a definition that is a string or integer
// enumeration (null aside), or returns nil.
func (im *importer) enumDecl(s *node, name string) *enum {
	if e, ok := im.enums[s]; ok {
		return e
	}
	if s.Kind != jsonvalue.Object || has(s, "$ref") || has(s, "anyOf") || has(s, "oneOf") || has(s, "allOf") {
		return nil
	}
	vals := s.Get("enum")
	if vals == nil || vals.Kind != jsonvalue.Array || im.tooManyValues(vals) {
		return nil
	}
	t := inferType(s)
	if tn := s.Get("type"); tn != nil {
		t = ""
		if tn.Kind == jsonvalue.String {
			t = tn.Str
		} else if tn.Kind == jsonvalue.Array {
			if alts, _ := nonNull(tn); len(alts) == 1 && alts[0].Kind == jsonvalue.String {
				t = alts[0].Str
			}
		}
	}
	if t != "string" && t != "integer" {
		return nil
	}
	valueType, _ := check.BuiltinOfJSON(t)
	e := &enum{name: name, at: s, src: im.s, valueKind: valueType.Kind, values: []any{}}
	e.description = im.str(s, "description")
	for _, v := range vals.Arr {
		switch {
		case t == "string" && v.Kind == jsonvalue.String:
			e.values = append(e.values, im.text(v, v.Str))
		case t == "integer" && v.Kind == jsonvalue.Number && isInteger(string(v.Num)):
			p, _ := plainNumber(string(v.Num))
			e.values = append(e.values, json.Number(p))
		}
	}
	if len(e.values) == 0 {
		return nil
	}
	e.values = dedupe(e.values)
	im.enums[s] = e
	im.given[e] = true
	im.decls = append(im.decls, e)
	return e
}

// tooManyValues reports (once) an enum of more than MaxEnumValues values,
// which is dropped.
func (im *importer) tooManyValues(vals *node) bool {
	if ok, seen := im.enumOK[vals]; seen {
		return !ok
	}
	if im.enumOK == nil {
		im.enumOK = map[*node]bool{}
	}
	const detail = "gramc import writes an enumeration of at most importer.MaxEnumValues values, and at most importer.MaxEnumValuesTotal in all: each value costs its text in the gram and a few hundred bytes to check. This one is not written, and the value is its type (a String or an Integer) with no restriction to the values. Check them in the tool, or split the document."
	switch {
	case len(vals.Arr) > MaxEnumValues:
		im.warn(diag.CodeImportUnsupportedKeyword, vals, fmt.Sprintf("an enum of %d values is dropped: more than %d (importer.MaxEnumValues)", len(vals.Arr), MaxEnumValues), detail)
	case im.enumValues+len(vals.Arr) > MaxEnumValuesTotal:
		im.warn(diag.CodeImportUnsupportedKeyword, vals, fmt.Sprintf("an enum of %d values is dropped: the import's enumerations hold more than %d values (importer.MaxEnumValuesTotal)", len(vals.Arr), MaxEnumValuesTotal), detail)
	default:
		im.enumValues += len(vals.Arr)
		im.enumOK[vals] = true
		return false
	}
	im.enumOK[vals] = false
	return true
}

func dedupe(vs []any) []any {
	var out []any
	seen := map[string]bool{}
	for _, v := range vs {
		k := fmt.Sprintf("%T:%v", v, v)
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

func (im *importer) newRecord(s *node, name string, given bool) *record {
	r := &record{name: name, at: s, src: im.s}
	im.records[s] = r
	if given {
		im.given[r] = true
	}
	im.decls = append(im.decls, r)
	return r
}

// fillRecord reads the fields of an object schema (or of the objects an
// allOf combines) into r. As JSON Schema's allOf means (a value satisfies
// every branch), a property declared by several branches is one field of
// all their schemas merged, a refinement narrowing what the others allow,
// and a field is required when any branch requires it.
func (im *importer) fillRecord(r *record, s *node, depth int) {
	if im.filled[r] == nil {
		im.filled[r] = map[*node]bool{}
	}
	if im.filled[r][s] {
		return
	}
	im.filled[r][s] = true
	if !has(s, "allOf") {
		if r.description == "" {
			r.description = im.str(s, "description")
		}
		im.report(s)
		im.fields(r, s, depth)
		return
	}
	var leaves []*node
	im.leaves(s, depth, &leaves, map[*node]bool{})
	for _, l := range leaves {
		if r.description == "" {
			r.description = im.str(l, "description")
		}
	}
	var names []string
	schemas := map[string][]*node{}
	required := map[string]bool{}
	var reqs []*node
	closed := false
	for _, l := range leaves {
		props, req := im.objectParts(l, depth)
		if ap := l.Get("additionalProperties"); ap != nil && ap.Kind == jsonvalue.Bool && !ap.Bool {
			closed = true
		}
		if props != nil {
			for _, k := range props.Keys {
				if _, ok := schemas[k]; !ok {
					names = append(names, k)
				}
				schemas[k] = append(schemas[k], props.Obj[k])
			}
		}
		if req != nil {
			for _, e := range req.Arr {
				required[e.Str] = true
				reqs = append(reqs, e)
			}
		}
	}
	if !closed {
		im.openObject(s)
	}
	for _, e := range reqs {
		if _, ok := schemas[e.Str]; !ok && !im.reported[e] {
			im.reported[e] = true
			im.warn(diag.CodeImportInvalidValue, e, fmt.Sprintf("required names %s, which properties do not declare; dropped", jsonstr.Text(e.Str)),
				"A gram record declares every field it requires. Declare the property, or remove it from required.")
		}
	}
	for _, k := range names {
		if slices.ContainsFunc(r.fields, func(f *param) bool { return f.name == k }) {
			continue // a branch met again through another path
		}
		ss := schemas[k]
		at := ss[0]
		if len(ss) > 1 {
			at = mergedSchema(ss[0], ss)
		}
		r.fields = append(r.fields, im.param(k, at, required[k], r.name+camel.Case(k), depth+1))
	}
}

// leaves appends the object schemas an allOf combines, references
// followed and nested allOfs flattened, in the order they are written; a
// schema with allOf is itself a leaf too (the properties beside it).
func (im *importer) leaves(s *node, depth int, out *[]*node, seen map[*node]bool) {
	for i := 0; s != nil && s.Kind == jsonvalue.Object && has(s, "$ref") && i < 64; i++ {
		im.report(s)
		s, _ = im.resolve(s.Get("$ref"))
	}
	if s == nil || s.Kind != jsonvalue.Object || seen[s] {
		return
	}
	seen[s] = true
	im.step(s, depth)
	im.report(s)
	if all := s.Get("allOf"); all != nil {
		if all.Kind != jsonvalue.Array || len(all.Arr) == 0 {
			im.s.fail(all, "\"allOf\" is a non-empty array of schemas")
		}
		for _, m := range all.Arr {
			im.leaves(m, depth+1, out, seen)
		}
	}
	*out = append(*out, s)
}

// mergedSchema is a schema of all of ss (allOf), placed where at is.
func mergedSchema(at *node, ss []*node) *node {
	arr := &node{Kind: jsonvalue.Array, Arr: ss, Off: at.Off, Line: at.Line, Col: at.Col, Parent: at.Parent, Index: at.Index}
	return &node{Kind: jsonvalue.Object, Keys: []string{"allOf"}, KeyOffs: []int32{at.Off}, Obj: map[string]*node{"allOf": arr}, Off: at.Off, Line: at.Line, Col: at.Col, Parent: at.Parent, Index: at.Index}
}

// fields appends the properties of an object schema to r's fields.
func (im *importer) fields(r *record, s *node, depth int) {
	r.fields = append(r.fields, im.properties(s, r.name, depth)...)
}

// properties reads an object schema's properties as parameters or fields.
func (im *importer) properties(s *node, owner string, depth int) []*param {
	if ap := s.Get("additionalProperties"); ap == nil || ap.Kind == jsonvalue.Bool && ap.Bool {
		im.openObject(s)
	}
	props, req := im.objectParts(s, depth)
	required := map[string]bool{}
	if req != nil {
		for _, e := range req.Arr {
			required[e.Str] = true
			if props.Get(e.Str) == nil {
				im.warn(diag.CodeImportInvalidValue, e, fmt.Sprintf("required names %s, which properties do not declare; dropped", jsonstr.Text(e.Str)),
					"A gram record declares every field it requires. Declare the property, or remove it from required.")
			}
		}
	}
	var out []*param
	if props == nil {
		return nil
	}
	for _, k := range props.Keys {
		out = append(out, im.param(k, props.Obj[k], required[k], owner+camel.Case(k), depth+1))
	}
	return out
}

// objectParts checks an object schema's properties, required and
// additionalProperties, and returns the first two (each may be nil).
func (im *importer) objectParts(s *node, depth int) (props, req *node) {
	ap := s.Get("additionalProperties")
	switch {
	case ap == nil || ap.Kind == jsonvalue.Bool:
	case ap.Kind == jsonvalue.Object:
		if !im.reported[ap] {
			im.reported[ap] = true
			im.step(ap, depth+1)
			im.warn(diag.CodeImportMap, ap, "additionalProperties with a schema is dropped; the record has its declared fields only",
				"gram has no map type beside a record's fields: the other properties and their schema are not declared, and are refused.")
		}
	default:
		im.s.fail(ap, "\"additionalProperties\" is a schema or a boolean, not %s", kindName(ap))
	}
	if req = s.Get("required"); req != nil {
		if req.Kind != jsonvalue.Array {
			im.s.fail(req, "\"required\" is an array of names, not %s", kindName(req))
		}
		for _, e := range req.Arr {
			if e.Kind != jsonvalue.String {
				im.s.fail(e, "\"required\" is an array of names, not %s", kindName(e))
			}
		}
	}
	props = s.Get("properties")
	if props != nil && props.Kind != jsonvalue.Object {
		im.s.fail(props, "\"properties\" is an object, not %s", kindName(props))
	}
	return props, req
}

// object is the type of an inline object schema: a record named after
// where it is (a :Type of its own), or a free-form Object.
func (im *importer) object(s *node, hint string, depth int) *typ {
	if r, ok := im.records[s]; ok {
		return &typ{kind: check.Record, rec: r}
	}
	if im.isRecord(s, 0) {
		r := im.newRecord(s, hint, false)
		im.fillRecord(r, s, depth)
		return &typ{kind: check.Record, rec: r}
	}
	if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == jsonvalue.Object && len(ap.Keys) > 0 {
		im.step(ap, depth+1)
		im.warn(diag.CodeImportMap, ap, "a map's value schema is dropped; the value is a free-form Object",
			"gram has no map type: an object whose properties are all of one schema is declared a free-form Object, and its values are not checked.")
	}
	return &typ{kind: check.Object}
}

// array is the type of an array schema.
func (im *importer) array(s *node, hint string, depth int) *typ {
	items := s.Get("items")
	if pi := s.Get("prefixItems"); pi != nil && items == nil {
		// items true (any elements), in prefixItems' place: its position
		// and JSON pointer are prefixItems', a place the document has.
		items = &node{Kind: jsonvalue.Bool, Bool: true, Off: pi.Off, Line: pi.Line, Col: pi.Col, Parent: pi.Parent, Index: pi.Index}
	}
	switch {
	case items == nil:
		im.warn(diag.CodeImportUntyped, s, "an array without items has no element type; its elements are Object",
			"A gram Array names its element type; an array schema without items accepts any elements, and the nearest gram says is an Array of free-form Objects. Give the schema items.")
		return &typ{kind: check.Array, elem: &typ{kind: check.Object}}
	case items.Kind == jsonvalue.Array:
		im.warn(diag.CodeImportTuple, items, "tuple items are dropped; the elements are the first item's type",
			"A gram array has one element type. The elements are declared as the first position's type; the others are refused.")
		if len(items.Arr) == 0 {
			return &typ{kind: check.Array, elem: &typ{kind: check.Object}}
		}
		items = items.Arr[0]
	}
	if items.Kind == jsonvalue.Object && !has(items, "$ref") && !has(items, "anyOf") && !has(items, "oneOf") && !has(items, "allOf") && !im.isRecord(items, 0) {
		if e := im.enumDecl(items, hint+"Item"); e != nil {
			// an enumeration of elements: an :Enum of its own
			im.given[e] = false
			im.report(items)
			return &typ{kind: check.Array, elem: &typ{kind: check.EnumKind, enum: e}}
		}
	}
	elem, chain := im.typ(items, hint+"Item", depth+1)
	for _, key := range elementKeywords {
		for _, c := range chain {
			if v := c.Get(key); v != nil {
				im.warn(diag.CodeImportUnsupportedKeyword, v, fmt.Sprintf("%s on an array's elements is dropped", key),
					"A gram Array's elementType names a type and takes no constraints: the elements are not restricted. Declare a :Type or an :Enum for them, or check them in the tool.")
				break
			}
		}
	}
	if elem.kind == check.Array {
		im.warn(diag.CodeImportNestedArray, items, "an array of arrays is not a gram type; the elements are Object",
			"A gram Array's element type cannot itself be an array. Declare a :Type with an Array field and use it as the element type; until then the elements are free-form Objects.")
		elem = &typ{kind: check.Object}
	}
	return &typ{kind: check.Array, elem: elem}
}

// elementKeywords are the constraints an array's element type cannot
// carry.
var elementKeywords = []string{"enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems"}

// allOf combines schemas as JSON Schema means it (a value satisfies each
// branch): objects make one record of all their fields; one record with
// only free-form objects beside it is that record; arrays make an array
// of their element schemas combined; scalars of one type are that type
// with every branch's constraints (the tightest bound applies).
func (im *importer) allOf(s, all *node, hint string, depth int) (*typ, []*node) {
	if all.Kind != jsonvalue.Array || len(all.Arr) == 0 {
		im.s.fail(all, "\"allOf\" is a non-empty array of schemas")
	}
	if len(all.Arr) == 1 && !im.hasOwnType(s) {
		t, more := im.typ(all.Arr[0], hint, depth+1)
		return t, append([]*node{s}, more...)
	}
	if im.isRecord(s, 0) {
		var rec *node
		alone := true
		for _, m := range all.Arr {
			switch {
			case im.isRecord(m, 0):
				if rec != nil {
					alone = false
				}
				rec = m
			case has(im.target(m), "properties") || has(im.target(m), "required"):
				alone = false
			}
		}
		if alone && !im.hasOwnType(s) {
			t, more := im.typ(rec, hint, depth+1)
			return t, append([]*node{s}, more...)
		}
		return im.object(s, hint, depth), []*node{s}
	}
	// The branches that say what the value is (an annotation, or a schema
	// without a type, says nothing of it).
	var typed []*node
	if im.hasOwnType(s) {
		typed = append(typed, s)
	}
	for _, m := range all.Arr {
		if !im.neutral(m) || im.isObject(m) {
			typed = append(typed, m)
		}
	}
	arrays := len(typed) > 0
	var items []*node
	for _, m := range typed {
		t := im.target(m)
		if t == nil || t.Kind != jsonvalue.Object || jsonType(t) != "array" || has(t, "allOf") || has(t, "anyOf") || has(t, "oneOf") {
			arrays = false
			break
		}
		if it := t.Get("items"); it != nil && it.Kind == jsonvalue.Object {
			items = append(items, it)
		}
	}
	if arrays && len(items) > 1 {
		// an array of all the element schemas
		arr := &node{Kind: jsonvalue.Object, Keys: []string{"type", "items"}, KeyOffs: []int32{s.Off, s.Off}, Obj: map[string]*node{"type": {Kind: jsonvalue.String, Str: "array", Off: s.Off, Line: s.Line, Col: s.Col, Parent: s.Parent, Index: s.Index}, "items": mergedSchema(items[0], items)}, Off: s.Off, Line: s.Line, Col: s.Col, Parent: s.Parent, Index: s.Index}
		chain := []*node{s}
		for _, m := range all.Arr { // every branch's constraints apply
			chain = append(chain, im.chainOf(m)...)
		}
		return im.array(arr, hint, depth), chain
	}
	if len(typed) == 0 {
		typed = all.Arr[:1]
	}
	first := typed[0]
	if first == s {
		// s without its allOf: the type written beside it
		c := *s
		c.Keys = slices.DeleteFunc(slices.Clone(s.Keys), func(k string) bool { return k == "allOf" })
		c.Obj = make(map[string]*node, len(s.Obj))
		for k, v := range s.Obj {
			if k != "allOf" {
				c.Obj[k] = v
			}
		}
		first = &c
	}
	t, more := im.typ(first, hint, depth+1)
	chain := append([]*node{s}, more...)
	for _, m := range all.Arr {
		if m == typed[0] {
			continue
		}
		if !slices.Contains(typed, m) {
			// no type, but its constraints apply (allOf: [{maximum: 5}])
			chain = append(chain, im.chainOf(m)...)
			continue
		}
		u, c := im.typ(m, hint, depth+1)
		if u.kind != t.kind && !(numericKind(u.kind) && numericKind(t.kind)) {
			im.warn(diag.CodeImportAllOf, all, fmt.Sprintf("allOf of %s and %s, which no value is; the value is the first one's type", withArticle(describe(t)), withArticle(describe(u))),
				"gram combines objects (their fields make one record), arrays (their elements' schemas) and scalars of one type (their constraints). These branches admit no common value; the first schema is kept and the others are dropped.")
			continue
		}
		chain = append(chain, c...)
	}
	return t, chain
}

func numericKind(k check.Kind) bool { return k == check.Integer || k == check.Number }

// target is a schema with its references followed (nil when one cannot
// be).
func (im *importer) target(m *node) *node {
	for i := 0; m != nil && m.Kind == jsonvalue.Object && has(m, "$ref") && i < 64; i++ {
		ref := m.Get("$ref")
		if ref.Kind != jsonvalue.String {
			return nil
		}
		m, _ = im.quietResolve(ref.Str)
	}
	return m
}

// chainOf is a schema and what it refers to.
func (im *importer) chainOf(m *node) []*node {
	var out []*node
	for i := 0; m != nil && m.Kind == jsonvalue.Object && i < 64; i++ {
		out = append(out, m)
		ref := m.Get("$ref")
		if ref == nil || ref.Kind != jsonvalue.String {
			break
		}
		m, _ = im.quietResolve(ref.Str)
	}
	return out
}

// jsonType is the one type a schema names (null aside), or the one its
// keywords imply.
func jsonType(s *node) string {
	tn := s.Get("type")
	switch {
	case tn == nil:
		return inferType(s)
	case tn.Kind == jsonvalue.String:
		return tn.Str
	case tn.Kind == jsonvalue.Array:
		if alts, _ := nonNull(tn); len(alts) == 1 && alts[0].Kind == jsonvalue.String {
			return alts[0].Str
		}
	}
	return ""
}

// hasOwnType reports whether a schema with allOf says what its value is
// beside the allOf (type, properties, items, enum, ...).
func (im *importer) hasOwnType(s *node) bool {
	for _, k := range s.Keys {
		if typeKeywords[k] {
			return true
		}
	}
	return false
}

// typeKeywords say what a value is; a schema of none of them (only
// descriptions, examples, constraints of no type) admits any value.
var typeKeywords = map[string]bool{"type": true, "properties": true, "items": true, "prefixItems": true, "enum": true, "const": true, "additionalProperties": true, "required": true, "anyOf": true, "oneOf": true}

// neutral reports whether an allOf branch, beside a record, adds nothing
// but what any object is: a free-form object, required names, an
// annotation.
func (im *importer) neutral(m *node) bool {
	m = im.target(m)
	if m == nil || m.Kind != jsonvalue.Object {
		return m != nil && m.Kind == jsonvalue.Bool && m.Bool
	}
	if has(m, "allOf") || has(m, "anyOf") || has(m, "oneOf") || has(m, "items") || has(m, "enum") || has(m, "const") {
		return false
	}
	if props := m.Get("properties"); props != nil && props.Kind == jsonvalue.Object && len(props.Keys) > 0 {
		return false
	}
	t := jsonType(m)
	return t == "object" || t == "" && !has(m, "type")
}

// isObject reports whether a schema is an object schema (with or without
// properties).
func (im *importer) isObject(m *node) bool {
	m = im.target(m)
	return m != nil && m.Kind == jsonvalue.Object && jsonType(m) == "object"
}

// union is the type of anyOf or oneOf with several alternatives (null
// aside): objects become a free-form Object, anything else the first
// alternative.
func (im *importer) union(list *node, alts []*node, key, hint string, depth int) *typ {
	objects := true
	for _, a := range alts {
		if !im.isRecord(a, 0) {
			objects = false
		}
	}
	if objects {
		im.warn(diag.CodeImportUnion, list, fmt.Sprintf("%s of %d objects; gram has no union, so the value is a free-form Object", key, len(alts)),
			"A gram value has one type. The alternatives are all objects, so the value is declared a free-form Object: any of them is accepted, and their fields are not checked. Declare one :Type with the fields of all of them (optional where they differ) to keep them.")
		for _, a := range alts {
			im.step(a, depth+1)
		}
		return &typ{kind: check.Object}
	}
	t, _ := im.typ(alts[0], hint, depth+1)
	im.warn(diag.CodeImportUnion, list, fmt.Sprintf("%s of %d schemas; gram has no union, so the value is the first one's type (%s)", key, len(alts), describe(t)),
		"A gram value has one type. The first alternative is kept; values only the others admit are refused. Split the parameter into one per alternative if both are needed.")
	return t
}

// withArticle is a type's name with "a" or "an" before it.
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// describe names a type in a message.
func describe(t *typ) string {
	switch t.kind {
	case check.Record:
		return t.rec.name
	case check.EnumKind:
		return t.enum.name
	case check.Array:
		return "Array of " + describe(t.elem)
	}
	return t.kind.String()
}
