package compat

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"io"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
)

// MaxSnapshotBytes bounds a snapshot read by ReadSnapshot.
const MaxSnapshotBytes = 64 << 20

// Snapshot is a version of a package known only by its published tool
// list: the JSON `gramc schema --target mcp` or `--target jsonschema`
// writes (an array of {name, title?, description, inputSchema,
// outputSchema?, _meta?}; with several targets, its mcp or jsonschema
// list), or an MCP tools/list result ({"tools": [...]}; draft-07's
// "definitions" are read as $defs are). It is read back into synthetic packages, so every rule applies to it as
// to a .gram version; their positions are in the JSON file, and Pointer
// names the JSON pointer of each.
//
// What the JSON does not say is not compared: MCP lists an outputSchema
// for object results only, so a tool without one has a result of unknown
// type, compared only with a record result (which it is not); the
// jsonschema target does not mark a deprecated tool, so a tool deprecated
// is not reported against its snapshot.
type Snapshot struct {
	File     string
	Packages []*check.Package
	// nodes holds the values its places point at, by byte offset: a
	// pointer is built only for a place that is reported (Pointer).
	nodes map[int32]*jsonvalue.Node
}

// Pointer returns the JSON pointer of the value at r, when r is a place
// in this snapshot.
func (s *Snapshot) Pointer(r ast.Range) (string, bool) {
	if s == nil || r.File != s.File {
		return "", false
	}
	n, ok := s.nodes[r.Start.Offset]
	if !ok {
		return "", false
	}
	return pointerOr(n.Pointer()), true
}

// deprecationUnlisted names a snapshot's package whose entries cannot
// say a tool is deprecated (the jsonschema target's: every inputSchema
// has $schema, no entry has _meta): Compare does not report a tool
// deprecated against it.
const deprecationUnlisted = "snapshot (deprecation not listed)"

// unknownResult is the result of a snapshot's tool that lists no output
// schema: compared only with a record result (see Compare).
var unknownResult = &check.Type{Kind: check.Object}

// SnapshotError is a snapshot that cannot be read, at a place in it.
type SnapshotError struct {
	At      ast.Range
	Pointer string
	Msg     string
}

func (e *SnapshotError) Error() string {
	if e.Pointer != "" {
		return fmt.Sprintf("%s: %s (at %s)", e.At, e.Msg, e.Pointer)
	}
	return fmt.Sprintf("%s: %s", e.At, e.Msg)
}

// ReadSnapshotFrom reads a snapshot from r, at most MaxSnapshotBytes.
func ReadSnapshotFrom(file string, r io.Reader) (*Snapshot, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSnapshotBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > MaxSnapshotBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes (compat.MaxSnapshotBytes)", file, MaxSnapshotBytes)
	}
	return ReadSnapshot(file, data)
}

// ReadSnapshot reads data, the contents of file, as a snapshot.
func ReadSnapshot(file string, data []byte) (*Snapshot, error) {
	return readSnapshot(file, data, false)
}

func readSnapshot(file string, data []byte, payload bool) (*Snapshot, error) {
	if len(data) > MaxSnapshotBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes (compat.MaxSnapshotBytes)", file, MaxSnapshotBytes)
	}
	var src *ast.Source
	if !payload {
		src = ast.NewSource(string(data))
	}
	root, err := jsonvalue.Read(data)
	if err != nil {
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			return nil, &SnapshotError{At: rangeAt(src, file, se.Off), Msg: se.Msg}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	r := &snapReader{file: file, src: src, payload: payload, snap: &Snapshot{File: file, nodes: map[int32]*jsonvalue.Node{}}}
	tools, err := r.toolList(root)
	if err != nil {
		return nil, err
	}
	name := "snapshot"
	if r.schemas > 0 && r.schemas == len(tools) && !r.meta {
		name = deprecationUnlisted
	}
	r.snap.Packages = []*check.Package{{Name: name, Dir: file, Tools: tools}}
	return r.snap, nil
}

type snapReader struct {
	file string
	src  *ast.Source // nil for a payload: its places are not shown
	snap *Snapshot
	// payload: the entries are a provider target's (CompareTargets),
	// whatever their shape
	payload bool
	// schemas counts the entries whose inputSchema has $schema; meta is
	// set when an entry has _meta
	schemas int
	meta    bool
	// per schema: its $defs, the records and enums made of them, and the
	// record "#" refers to
	defs, oldDefs *jsonvalue.Node
	decls         map[*jsonvalue.Node]*check.TypeDecl
	enums         map[*jsonvalue.Node]*check.Enum
	root          *jsonvalue.Node
}

func (r *snapReader) at(n *jsonvalue.Node) ast.Range {
	if r.payload {
		return ast.Range{File: r.file} // placed at the declarations (locate)
	}
	r.snap.nodes[n.Off] = n
	return rangeAt(r.src, r.file, n.Off)
}

func pointerOr(p string) string {
	if p == "" {
		return "/" // the document itself: "" is its pointer, shown as /
	}
	return p
}

func (r *snapReader) errorf(n *jsonvalue.Node, format string, args ...any) error {
	return &SnapshotError{At: rangeAt(r.src, r.file, n.Off), Pointer: pointerOr(n.Pointer()), Msg: fmt.Sprintf(format, args...)}
}

func (r *snapReader) toolList(n *jsonvalue.Node) ([]*check.Tool, error) {
	list := n
	if n.Kind == jsonvalue.Object {
		// An MCP tools/list result, or gramc schema's output for several
		// targets ({"target": [entries], ...}): its mcp or jsonschema list.
		for _, k := range []string{"tools", "mcp", "jsonschema"} {
			if t := n.Get(k); t != nil && list == n {
				list = t
			}
		}
	}
	if list.Kind != jsonvalue.Array {
		return nil, r.errorf(n, "not a tool list: want the JSON array gramc schema --target mcp or --target jsonschema writes (or its output for several targets with one of them), or an MCP tools/list result {\"tools\": [...]}")
	}
	var tools []*check.Tool
	seen := map[string]bool{}
	for _, e := range list.Arr {
		t, err := r.tool(e)
		if err != nil {
			return nil, err
		}
		if seen[t.Name] {
			return nil, r.errorf(e, "tool %q is listed twice", t.Name)
		}
		seen[t.Name] = true
		tools = append(tools, t)
	}
	return tools, nil
}

func (r *snapReader) tool(n *jsonvalue.Node) (*check.Tool, error) {
	if n.Kind != jsonvalue.Object {
		return nil, r.errorf(n, "a tool entry is an object {name, description, inputSchema, ...}")
	}
	inKey := "inputSchema"
	if r.payload {
		if f := n.Get("function"); f != nil {
			n = f // openai, openai-strict: {"type": "function", "function": {...}}
		}
		for _, k := range []string{"parameters", "input_schema"} {
			if n.Get(k) != nil {
				inKey = k
			}
		}
	} else if n.Get("function") != nil || n.Get("input_schema") != nil || n.Get("parameters") != nil {
		return nil, r.errorf(n, "this entry is another target's (openai, anthropic or gemini): gramc diff reads the mcp and jsonschema targets' snapshots")
	}
	name, err := r.str(n, "name", true)
	if err != nil {
		return nil, err
	}
	t := &check.Tool{Name: name, Range: r.at(n), NameRange: r.at(n.Get("name"))}
	if t.Description, err = r.str(n, "description", false); err != nil {
		return nil, err
	}
	if t.Title, err = r.str(n, "title", false); err != nil {
		return nil, err
	}
	if meta := n.Get("_meta"); meta != nil && meta.Kind == jsonvalue.Object {
		r.meta = true
		if d := meta.Get("deprecated"); d != nil && d.Kind == jsonvalue.Bool {
			t.Deprecated = d.Bool
		}
	}
	in := n.Get(inKey)
	if in.Get("$schema") != nil {
		r.schemas++
	}
	if in == nil && r.payload {
		in = n.EmptyObject() // gemini: no parameters
	}
	if in == nil {
		return nil, r.errorf(n, "tool %q has no inputSchema", name)
	}
	r.begin(in)
	fields, err := r.object(in)
	if err != nil {
		return nil, err
	}
	t.Params = fields
	out := n.Get("outputSchema")
	if out == nil {
		t.Result = unknownResult
		return t, nil
	}
	r.begin(out)
	if out.Kind != jsonvalue.Object {
		return nil, r.errorf(out, "a schema is a JSON object")
	}
	switch {
	case out.Get("properties") != nil:
		d, err := r.record(out, "")
		if err != nil {
			return nil, err
		}
		t.Result = &check.Type{Kind: check.Record, Decl: d, Range: r.at(out)}
	case out.Get("type") == nil && out.Get("$ref") == nil:
		// {} (with $schema): no result
	default:
		if t.Result, err = r.typ(out); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// begin starts a schema: its $defs and the record "#" names.
func (r *snapReader) begin(s *jsonvalue.Node) {
	r.defs, r.oldDefs = nil, nil
	if s.Kind == jsonvalue.Object {
		r.defs = s.Get("$defs")
		r.oldDefs = s.Get("definitions") // draft-07's, as other servers write them
	}
	r.decls = map[*jsonvalue.Node]*check.TypeDecl{}
	r.enums = map[*jsonvalue.Node]*check.Enum{}
	r.root = s
}

func (r *snapReader) str(n *jsonvalue.Node, key string, required bool) (string, error) {
	v := n.Get(key)
	if v == nil {
		if required {
			return "", r.errorf(n, "no %q", key)
		}
		return "", nil
	}
	if v.Kind != jsonvalue.String {
		return "", r.errorf(v, "%q is a string", key)
	}
	return v.Str, nil
}

// object reads an object schema's properties as parameters or fields.
func (r *snapReader) object(s *jsonvalue.Node) ([]*check.Param, error) {
	if s.Kind != jsonvalue.Object {
		return nil, r.errorf(s, "a schema is a JSON object")
	}
	if ty := s.Get("type"); ty != nil && (ty.Kind != jsonvalue.String || ty.Str != "object") {
		return nil, r.errorf(ty, "an arguments or record schema has type \"object\"")
	}
	required := map[string]bool{}
	if req := s.Get("required"); req != nil {
		if req.Kind != jsonvalue.Array {
			return nil, r.errorf(req, "\"required\" is an array of names")
		}
		for _, e := range req.Arr {
			if e.Kind != jsonvalue.String {
				return nil, r.errorf(e, "\"required\" is an array of names")
			}
			required[e.Str] = true
		}
	}
	props := s.Get("properties")
	if props == nil {
		return nil, nil
	}
	if props.Kind != jsonvalue.Object {
		return nil, r.errorf(props, "\"properties\" is an object")
	}
	var out []*check.Param
	for _, k := range props.Keys {
		p, err := r.param(k, props.Obj[k], required[k])
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func (r *snapReader) param(name string, s *jsonvalue.Node, required bool) (*check.Param, error) {
	if s.Kind != jsonvalue.Object {
		return nil, r.errorf(s, "the schema of %q is a JSON object", name)
	}
	p := &check.Param{Name: name, Range: r.at(s), NameRange: r.at(s)}
	var err error
	if p.Description, err = r.str(s, "description", false); err != nil {
		return nil, err
	}
	if d := s.Get("default"); d != nil {
		p.Default, p.HasDefault = d.Value(), true
	}
	if d := s.Get("deprecated"); d != nil && d.Kind == jsonvalue.Bool {
		p.Deprecated = d.Bool
	}
	if ex := s.Get("examples"); ex != nil && ex.Kind == jsonvalue.Array {
		for _, e := range ex.Arr {
			p.Examples = append(p.Examples, e.Value())
		}
	}
	p.Optional = !required && !p.HasDefault
	if p.Type, err = r.typ(s); err != nil {
		return nil, err
	}
	c := &check.Constraints{}
	if e := s.Get("enum"); e != nil {
		if e.Kind != jsonvalue.Array {
			return nil, r.errorf(e, "\"enum\" is an array")
		}
		c.Enum = []any{}
		for _, v := range e.Arr {
			if v.Kind != jsonvalue.Null { // a nullable enum's null (openai-strict)
				c.Enum = append(c.Enum, v.Value())
			}
		}
	}
	nums := []struct {
		key string
		to  **json.Number
	}{{"minimum", &c.Minimum}, {"maximum", &c.Maximum}, {"exclusiveMinimum", &c.ExclusiveMinimum}, {"exclusiveMaximum", &c.ExclusiveMaximum}}
	for _, k := range nums {
		if v := s.Get(k.key); v != nil {
			if v.Kind != jsonvalue.Number {
				return nil, r.errorf(v, "%q is a number", k.key)
			}
			n := v.Num
			*k.to = &n
		}
	}
	counts := []struct {
		key string
		to  **int64
	}{{"minLength", &c.MinLength}, {"maxLength", &c.MaxLength}, {"minItems", &c.MinItems}, {"maxItems", &c.MaxItems}}
	for _, k := range counts {
		if v := s.Get(k.key); v != nil {
			n, err := strconv.ParseInt(string(v.Num), 10, 64)
			if v.Kind != jsonvalue.Number || err != nil || n < 0 {
				return nil, r.errorf(v, "%q is a count (a non-negative integer)", k.key)
			}
			*k.to = &n
		}
	}
	if c.Pattern, err = r.str(s, "pattern", false); err != nil {
		return nil, err
	}
	if c.Format, err = r.str(s, "format", false); err != nil {
		return nil, err
	}
	if u := s.Get("uniqueItems"); u != nil && u.Kind == jsonvalue.Bool {
		c.UniqueItems = u.Bool
	}
	if !reflect.ValueOf(*c).IsZero() {
		p.Constraints = c // as the checker: none when there are none
	}
	return p, nil
}

// nonNull returns the one alternative of a list that is not null (a
// "null" type name or a {"type": "null"} schema), or nil.
func nonNull(list *jsonvalue.Node) *jsonvalue.Node {
	if list == nil || list.Kind != jsonvalue.Array {
		return nil
	}
	var out *jsonvalue.Node
	for _, e := range list.Arr {
		if e.Kind == jsonvalue.String && e.Str == "null" || e.Kind == jsonvalue.Object && len(e.Keys) == 1 && e.Get("type") != nil && e.Get("type").Str == "null" {
			continue
		}
		if out != nil {
			return nil
		}
		out = e
	}
	return out
}

// typ reads the type a schema describes.
func (r *snapReader) typ(s *jsonvalue.Node) (*check.Type, error) {
	if ref := s.Get("$ref"); ref != nil {
		return r.ref(ref)
	}
	if alt := nonNull(s.Get("anyOf")); alt != nil {
		return r.typ(alt) // a nullable type: [T, {"type": "null"}]
	}
	ty := s.Get("type")
	if ty != nil && ty.Kind == jsonvalue.Array {
		ty = nonNull(ty) // a nullable type: [T, "null"]
	}
	if ty == nil {
		return nil, r.errorf(s, "a schema without \"type\" or \"$ref\": gramc diff reads the schemas gramc schema writes")
	}
	if ty.Kind != jsonvalue.String {
		return nil, r.errorf(ty, "\"type\" names one type here (or one and \"null\")")
	}
	switch ty.Str {
	case "object":
		if s.Get("properties") == nil {
			return &check.Type{Kind: check.Object, Range: r.at(s)}, nil
		}
		d, err := r.record(s, "")
		if err != nil {
			return nil, err
		}
		return &check.Type{Kind: check.Record, Decl: d, Range: r.at(s)}, nil
	case "array":
		t := &check.Type{Kind: check.Array, Range: r.at(s)}
		if items := s.Get("items"); items != nil {
			if items.Kind != jsonvalue.Object {
				return nil, r.errorf(items, "\"items\" is a schema (a JSON object)")
			}
			elem, err := r.typ(items)
			if err != nil {
				return nil, err
			}
			t.Elem = elem
		}
		return t, nil
	}
	if b, ok := check.BuiltinOfJSON(ty.Str); ok { // string, integer, number, boolean
		return &check.Type{Kind: b.Kind, Range: r.at(s)}, nil
	}
	return nil, r.errorf(ty, "unknown type %q", ty.Str)
}

// ref reads a $ref: "#" (the output schema's root record) or
// "#/$defs/NAME" (a :Type or an :Enum).
func (r *snapReader) ref(ref *jsonvalue.Node) (*check.Type, error) {
	if ref.Kind != jsonvalue.String {
		return nil, r.errorf(ref, "\"$ref\" is a string")
	}
	if ref.Str == "#" {
		d, err := r.record(r.root, "")
		if err != nil {
			return nil, err
		}
		return &check.Type{Kind: check.Record, Decl: d, Range: r.at(ref)}, nil
	}
	defs := r.defs
	frag, ok := strings.CutPrefix(ref.Str, "#/$defs/")
	if !ok {
		defs = r.oldDefs
		frag, ok = strings.CutPrefix(ref.Str, "#/definitions/")
	}
	if ok {
		frag, ok = unescapeRef(frag)
	}
	var def *jsonvalue.Node
	if ok && defs != nil {
		def = defs.Get(frag)
	}
	if def == nil || def.Kind != jsonvalue.Object {
		return nil, r.errorf(ref, "$ref %q names no definition of this schema's $defs", ref.Str)
	}
	if def.Get("enum") != nil {
		e, err := r.enum(def, frag)
		if err != nil {
			return nil, err
		}
		return &check.Type{Kind: check.EnumKind, Enum: e, Range: r.at(ref)}, nil
	}
	d, err := r.record(def, frag)
	if err != nil {
		return nil, err
	}
	return &check.Type{Kind: check.Record, Decl: d, Range: r.at(ref)}, nil
}

func unescapeRef(frag string) (string, bool) {
	s, err := url.PathUnescape(frag)
	if err != nil || strings.Contains(s, "/") {
		return "", false
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s), true
}

// record reads an object schema as a :Type; a schema read twice (a
// recursive type) is the same declaration.
func (r *snapReader) record(s *jsonvalue.Node, name string) (*check.TypeDecl, error) {
	if d, ok := r.decls[s]; ok {
		return d, nil
	}
	d := &check.TypeDecl{Name: name, Range: r.at(s), NameRange: r.at(s)}
	r.decls[s] = d
	var err error
	if d.Description, err = r.str(s, "description", false); err != nil {
		return nil, err
	}
	if d.Fields, err = r.object(s); err != nil {
		return nil, err
	}
	return d, nil
}

func (r *snapReader) enum(s *jsonvalue.Node, name string) (*check.Enum, error) {
	if e, ok := r.enums[s]; ok {
		return e, nil
	}
	e := &check.Enum{Name: name, Range: r.at(s), NameRange: r.at(s), ValueKind: check.String}
	if ty := s.Get("type"); ty != nil && ty.Kind == jsonvalue.String {
		if b, ok := check.BuiltinOfJSON(ty.Str); ok && b.Kind != check.Object && b.Kind != check.Array {
			e.ValueKind = b.Kind
		}
	}
	var err error
	if e.Description, err = r.str(s, "description", false); err != nil {
		return nil, err
	}
	vals := s.Get("enum")
	if vals.Kind != jsonvalue.Array {
		return nil, r.errorf(vals, "\"enum\" is an array")
	}
	e.Values = []any{}
	for _, v := range vals.Arr {
		e.Values = append(e.Values, v.Value())
	}
	r.enums[s] = e
	return e, nil
}

// rangeAt is offset off of the snapshot as a place: its line and column
// (in characters), or only the file without a source. ast.Source counts a
// column from a checkpoint, not from the start of the line: a snapshot on
// one line (a server's tools/list) costs the same as an indented one.
func rangeAt(src *ast.Source, file string, off int32) ast.Range {
	if src == nil {
		return ast.Range{File: file}
	}
	p := src.Position(int(off))
	return ast.Range{File: file, Start: p, End: p}
}
