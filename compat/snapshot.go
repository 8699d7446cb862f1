package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"sort"
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
	pointers map[int32]string // a value's byte offset -> its JSON pointer
}

// Pointer returns the JSON pointer of the value at r, when r is a place
// in this snapshot.
func (s *Snapshot) Pointer(r ast.Range) (string, bool) {
	if s == nil || r.File != s.File {
		return "", false
	}
	p, ok := s.pointers[r.Start.Offset]
	return p, ok
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
	var root *jnode
	var err error
	if payload {
		// gramc's own output, whose places are not shown: decoded whole,
		// without the offsets and pointers (several times faster).
		root, err = decodeJSON(data)
	} else {
		root, err = parseJSON(data)
	}
	if err != nil {
		var se *jsonSyntaxError
		if errors.As(err, &se) {
			return nil, &SnapshotError{At: rangeAt(src, file, se.off), Msg: se.msg}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	r := &snapReader{file: file, src: src, payload: payload, snap: &Snapshot{File: file, pointers: map[int32]string{}}}
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
	defs, oldDefs *jnode
	decls         map[*jnode]*check.TypeDecl
	enums         map[*jnode]*check.Enum
	root          *jnode
}

func (r *snapReader) at(n *jnode) ast.Range {
	if r.payload {
		return ast.Range{File: r.file} // placed at the declarations (locate)
	}
	r.snap.pointers[n.off] = pointerOr(n.ptr)
	return rangeAt(r.src, r.file, n.off)
}

func pointerOr(p string) string {
	if p == "" {
		return "/" // the document itself: "" is its pointer, shown as /
	}
	return p
}

func (r *snapReader) errorf(n *jnode, format string, args ...any) error {
	return &SnapshotError{At: rangeAt(r.src, r.file, n.off), Pointer: pointerOr(n.ptr), Msg: fmt.Sprintf(format, args...)}
}

func (r *snapReader) toolList(n *jnode) ([]*check.Tool, error) {
	list := n
	if n.kind == 'o' {
		// An MCP tools/list result, or gramc schema's output for several
		// targets ({"target": [entries], ...}): its mcp or jsonschema list.
		for _, k := range []string{"tools", "mcp", "jsonschema"} {
			if t := n.get(k); t != nil && list == n {
				list = t
			}
		}
	}
	if list.kind != 'a' {
		return nil, r.errorf(n, "not a tool list: want the JSON array gramc schema --target mcp or --target jsonschema writes (or its output for several targets with one of them), or an MCP tools/list result {\"tools\": [...]}")
	}
	var tools []*check.Tool
	seen := map[string]bool{}
	for _, e := range list.arr {
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

func (r *snapReader) tool(n *jnode) (*check.Tool, error) {
	if n.kind != 'o' {
		return nil, r.errorf(n, "a tool entry is an object {name, description, inputSchema, ...}")
	}
	inKey := "inputSchema"
	if r.payload {
		if f := n.get("function"); f != nil {
			n = f // openai, openai-strict: {"type": "function", "function": {...}}
		}
		for _, k := range []string{"parameters", "input_schema"} {
			if n.get(k) != nil {
				inKey = k
			}
		}
	} else if n.get("function") != nil || n.get("input_schema") != nil || n.get("parameters") != nil {
		return nil, r.errorf(n, "this entry is another target's (openai, anthropic or gemini): gramc diff reads the mcp and jsonschema targets' snapshots")
	}
	name, err := r.str(n, "name", true)
	if err != nil {
		return nil, err
	}
	t := &check.Tool{Name: name, Range: r.at(n), NameRange: r.at(n.get("name"))}
	if t.Description, err = r.str(n, "description", false); err != nil {
		return nil, err
	}
	if t.Title, err = r.str(n, "title", false); err != nil {
		return nil, err
	}
	if meta := n.get("_meta"); meta != nil && meta.kind == 'o' {
		r.meta = true
		if d := meta.get("deprecated"); d != nil && d.kind == 'b' {
			t.Deprecated = d.b
		}
	}
	in := n.get(inKey)
	if in.get("$schema") != nil {
		r.schemas++
	}
	if in == nil && r.payload {
		in = &jnode{kind: 'o', off: n.off, ptr: n.ptr, obj: map[string]*jnode{}} // gemini: no parameters
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
	out := n.get("outputSchema")
	if out == nil {
		t.Result = unknownResult
		return t, nil
	}
	r.begin(out)
	if out.kind != 'o' {
		return nil, r.errorf(out, "a schema is a JSON object")
	}
	switch {
	case out.get("properties") != nil:
		d, err := r.record(out, "")
		if err != nil {
			return nil, err
		}
		t.Result = &check.Type{Kind: check.Record, Decl: d, Range: r.at(out)}
	case out.get("type") == nil && out.get("$ref") == nil:
		// {} (with $schema): no result
	default:
		if t.Result, err = r.typ(out); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// begin starts a schema: its $defs and the record "#" names.
func (r *snapReader) begin(s *jnode) {
	r.defs, r.oldDefs = nil, nil
	if s.kind == 'o' {
		r.defs = s.get("$defs")
		r.oldDefs = s.get("definitions") // draft-07's, as other servers write them
	}
	r.decls = map[*jnode]*check.TypeDecl{}
	r.enums = map[*jnode]*check.Enum{}
	r.root = s
}

func (r *snapReader) str(n *jnode, key string, required bool) (string, error) {
	v := n.get(key)
	if v == nil {
		if required {
			return "", r.errorf(n, "no %q", key)
		}
		return "", nil
	}
	if v.kind != 's' {
		return "", r.errorf(v, "%q is a string", key)
	}
	return v.str, nil
}

// object reads an object schema's properties as parameters or fields.
func (r *snapReader) object(s *jnode) ([]*check.Param, error) {
	if s.kind != 'o' {
		return nil, r.errorf(s, "a schema is a JSON object")
	}
	if ty := s.get("type"); ty != nil && (ty.kind != 's' || ty.str != "object") {
		return nil, r.errorf(ty, "an arguments or record schema has type \"object\"")
	}
	required := map[string]bool{}
	if req := s.get("required"); req != nil {
		if req.kind != 'a' {
			return nil, r.errorf(req, "\"required\" is an array of names")
		}
		for _, e := range req.arr {
			if e.kind != 's' {
				return nil, r.errorf(e, "\"required\" is an array of names")
			}
			required[e.str] = true
		}
	}
	props := s.get("properties")
	if props == nil {
		return nil, nil
	}
	if props.kind != 'o' {
		return nil, r.errorf(props, "\"properties\" is an object")
	}
	var out []*check.Param
	for _, k := range props.keys {
		p, err := r.param(k, props.obj[k], required[k])
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func (r *snapReader) param(name string, s *jnode, required bool) (*check.Param, error) {
	if s.kind != 'o' {
		return nil, r.errorf(s, "the schema of %q is a JSON object", name)
	}
	p := &check.Param{Name: name, Range: r.at(s), NameRange: r.at(s)}
	var err error
	if p.Description, err = r.str(s, "description", false); err != nil {
		return nil, err
	}
	if d := s.get("default"); d != nil {
		p.Default, p.HasDefault = d.value(), true
	}
	if d := s.get("deprecated"); d != nil && d.kind == 'b' {
		p.Deprecated = d.b
	}
	if ex := s.get("examples"); ex != nil && ex.kind == 'a' {
		for _, e := range ex.arr {
			p.Examples = append(p.Examples, e.value())
		}
	}
	p.Optional = !required && !p.HasDefault
	if p.Type, err = r.typ(s); err != nil {
		return nil, err
	}
	c := &check.Constraints{}
	if e := s.get("enum"); e != nil {
		if e.kind != 'a' {
			return nil, r.errorf(e, "\"enum\" is an array")
		}
		c.Enum = []any{}
		for _, v := range e.arr {
			if v.kind != 'z' { // a nullable enum's null (openai-strict)
				c.Enum = append(c.Enum, v.value())
			}
		}
	}
	nums := []struct {
		key string
		to  **json.Number
	}{{"minimum", &c.Minimum}, {"maximum", &c.Maximum}, {"exclusiveMinimum", &c.ExclusiveMinimum}, {"exclusiveMaximum", &c.ExclusiveMaximum}}
	for _, k := range nums {
		if v := s.get(k.key); v != nil {
			if v.kind != 'n' {
				return nil, r.errorf(v, "%q is a number", k.key)
			}
			n := v.num
			*k.to = &n
		}
	}
	counts := []struct {
		key string
		to  **int64
	}{{"minLength", &c.MinLength}, {"maxLength", &c.MaxLength}, {"minItems", &c.MinItems}, {"maxItems", &c.MaxItems}}
	for _, k := range counts {
		if v := s.get(k.key); v != nil {
			n, err := strconv.ParseInt(string(v.num), 10, 64)
			if v.kind != 'n' || err != nil || n < 0 {
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
	if u := s.get("uniqueItems"); u != nil && u.kind == 'b' {
		c.UniqueItems = u.b
	}
	if !reflect.ValueOf(*c).IsZero() {
		p.Constraints = c // as the checker: none when there are none
	}
	return p, nil
}

// nonNull returns the one alternative of a list that is not null (a
// "null" type name or a {"type": "null"} schema), or nil.
func nonNull(list *jnode) *jnode {
	if list == nil || list.kind != 'a' {
		return nil
	}
	var out *jnode
	for _, e := range list.arr {
		if e.kind == 's' && e.str == "null" || e.kind == 'o' && len(e.keys) == 1 && e.get("type") != nil && e.get("type").str == "null" {
			continue
		}
		if out != nil {
			return nil
		}
		out = e
	}
	return out
}

var scalarKinds = map[string]check.Kind{"string": check.String, "integer": check.Integer, "number": check.Number, "boolean": check.Boolean}

// typ reads the type a schema describes.
func (r *snapReader) typ(s *jnode) (*check.Type, error) {
	if ref := s.get("$ref"); ref != nil {
		return r.ref(ref)
	}
	if alt := nonNull(s.get("anyOf")); alt != nil {
		return r.typ(alt) // a nullable type: [T, {"type": "null"}]
	}
	ty := s.get("type")
	if ty != nil && ty.kind == 'a' {
		ty = nonNull(ty) // a nullable type: [T, "null"]
	}
	if ty == nil {
		return nil, r.errorf(s, "a schema without \"type\" or \"$ref\": gramc diff reads the schemas gramc schema writes")
	}
	if ty.kind != 's' {
		return nil, r.errorf(ty, "\"type\" names one type here (or one and \"null\")")
	}
	if k, ok := scalarKinds[ty.str]; ok {
		return &check.Type{Kind: k, Range: r.at(s)}, nil
	}
	switch ty.str {
	case "object":
		if s.get("properties") == nil {
			return &check.Type{Kind: check.Object, Range: r.at(s)}, nil
		}
		d, err := r.record(s, "")
		if err != nil {
			return nil, err
		}
		return &check.Type{Kind: check.Record, Decl: d, Range: r.at(s)}, nil
	case "array":
		t := &check.Type{Kind: check.Array, Range: r.at(s)}
		if items := s.get("items"); items != nil {
			if items.kind != 'o' {
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
	return nil, r.errorf(ty, "unknown type %q", ty.str)
}

// ref reads a $ref: "#" (the output schema's root record) or
// "#/$defs/NAME" (a :Type or an :Enum).
func (r *snapReader) ref(ref *jnode) (*check.Type, error) {
	if ref.kind != 's' {
		return nil, r.errorf(ref, "\"$ref\" is a string")
	}
	if ref.str == "#" {
		d, err := r.record(r.root, "")
		if err != nil {
			return nil, err
		}
		return &check.Type{Kind: check.Record, Decl: d, Range: r.at(ref)}, nil
	}
	defs := r.defs
	frag, ok := strings.CutPrefix(ref.str, "#/$defs/")
	if !ok {
		defs = r.oldDefs
		frag, ok = strings.CutPrefix(ref.str, "#/definitions/")
	}
	if ok {
		frag, ok = unescapeRef(frag)
	}
	var def *jnode
	if ok && defs != nil {
		def = defs.get(frag)
	}
	if def == nil || def.kind != 'o' {
		return nil, r.errorf(ref, "$ref %q names no definition of this schema's $defs", ref.str)
	}
	if def.get("enum") != nil {
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
func (r *snapReader) record(s *jnode, name string) (*check.TypeDecl, error) {
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

func (r *snapReader) enum(s *jnode, name string) (*check.Enum, error) {
	if e, ok := r.enums[s]; ok {
		return e, nil
	}
	e := &check.Enum{Name: name, Range: r.at(s), NameRange: r.at(s), ValueKind: check.String}
	if ty := s.get("type"); ty != nil && ty.kind == 's' {
		if k, ok := scalarKinds[ty.str]; ok {
			e.ValueKind = k
		}
	}
	var err error
	if e.Description, err = r.str(s, "description", false); err != nil {
		return nil, err
	}
	vals := s.get("enum")
	if vals.kind != 'a' {
		return nil, r.errorf(vals, "\"enum\" is an array")
	}
	e.Values = []any{}
	for _, v := range vals.arr {
		e.Values = append(e.Values, v.value())
	}
	r.enums[s] = e
	return e, nil
}

// jnode is a JSON value with its byte offset and JSON pointer.
type jnode struct {
	off  int32
	ptr  string
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	keys []string
	obj  map[string]*jnode
	arr  []*jnode
	str  string
	num  json.Number
	b    bool
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.obj[key]
}

// value is n as encoding/json decodes it with UseNumber.
func (n *jnode) value() any {
	switch n.kind {
	case 'o':
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k] = n.obj[k].value()
		}
		return m
	case 'a':
		out := make([]any, len(n.arr))
		for i, e := range n.arr {
			out[i] = e.value()
		}
		return out
	case 's':
		return n.str
	case 'n':
		return n.num
	case 'b':
		return n.b
	}
	return nil
}

// decodeJSON is parseJSON without offsets and pointers.
func decodeJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return nodeOf(v), nil
}

func nodeOf(v any) *jnode {
	switch v := v.(type) {
	case map[string]any:
		n := &jnode{kind: 'o', obj: make(map[string]*jnode, len(v))}
		for k, e := range v {
			n.keys = append(n.keys, k)
			n.obj[k] = nodeOf(e)
		}
		sort.Strings(n.keys)
		return n
	case []any:
		n := &jnode{kind: 'a', arr: make([]*jnode, len(v))}
		for i, e := range v {
			n.arr[i] = nodeOf(e)
		}
		return n
	case string:
		return &jnode{kind: 's', str: v}
	case json.Number:
		return &jnode{kind: 'n', num: v}
	case bool:
		return &jnode{kind: 'b', b: v}
	}
	return &jnode{kind: 'z'}
}

type jsonSyntaxError struct {
	off int32
	msg string
}

func (e *jsonSyntaxError) Error() string { return e.msg }

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// parseJSON reads one JSON value (encoding/json's tokenizer, which bounds
// nesting), keeping each value's offset and pointer.
func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start := func() int32 {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++
		}
		return int32(off)
	}
	fail := func(err error) error {
		off := int32(dec.InputOffset())
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int32(se.Offset)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return &jsonSyntaxError{off: int32(len(data)), msg: "unexpected end of JSON"}
		}
		return &jsonSyntaxError{off: off, msg: "invalid JSON: " + err.Error()}
	}
	var value func(ptr string) (*jnode, error)
	value = func(ptr string) (*jnode, error) {
		n := &jnode{off: start(), ptr: ptr}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' {
				n.kind, n.obj = 'o', map[string]*jnode{}
				for dec.More() {
					keyOff := start()
					k, err := dec.Token()
					if err != nil {
						return nil, fail(err)
					}
					key := k.(string)
					if _, dup := n.obj[key]; dup {
						return nil, &jsonSyntaxError{off: keyOff, msg: fmt.Sprintf("key %q appears twice", key)}
					}
					v, err := value(ptr + "/" + pointerEscaper.Replace(key))
					if err != nil {
						return nil, err
					}
					n.keys = append(n.keys, key)
					n.obj[key] = v
				}
			} else {
				n.kind = 'a'
				for dec.More() {
					v, err := value(ptr + "/" + strconv.Itoa(len(n.arr)))
					if err != nil {
						return nil, err
					}
					n.arr = append(n.arr, v)
				}
			}
			if _, err := dec.Token(); err != nil { // the closing delimiter
				return nil, fail(err)
			}
		case string:
			n.kind, n.str = 's', tok
		case json.Number:
			n.kind, n.num = 'n', tok
		case bool:
			n.kind, n.b = 'b', tok
		default:
			n.kind = 'z'
		}
		return n, nil
	}
	root, err := value("")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &jsonSyntaxError{off: start(), msg: "more than one JSON value"}
	}
	return root, nil
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
