package importer

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/syntax"
)

// The kinds of source, as Result.Kinds and messages name them.
const (
	kindMCP             = "MCP tools/list"
	kindMCPEntries      = "MCP tool entries"
	kindGramcSchema     = "gramc schema --target jsonschema output"
	kindOpenAIChat      = "OpenAI chat tools"
	kindOpenAIFunctions = "OpenAI functions"
	kindOpenAIResponses = "OpenAI Responses tools"
	kindAnthropic       = "Anthropic tools"
	kindJSONSchema      = "JSON Schema"
)

const wantDocument = "want an OpenAPI 3.0 or 3.1 document, an MCP tools/list result, what gramc schema --target mcp or jsonschema writes, OpenAI or Anthropic tool definitions, or a JSON Schema"

// detect says what a source is, from its content.
func (im *importer) detect(s *source) string {
	root := s.root
	switch root.Kind {
	case jsonvalue.Array:
		return im.entryKind(s, root)
	case jsonvalue.Object:
	default:
		s.fail(root, "the document is %s: %s", kindName(root), wantDocument)
	}
	if v := root.Get("openapi"); v != nil {
		if v.Kind != jsonvalue.String || !(strings.HasPrefix(v.Str, "3.0") || strings.HasPrefix(v.Str, "3.1")) {
			version := kindName(v)
			if v.Kind == jsonvalue.String || v.Kind == jsonvalue.Number {
				version = jsonstr.Text(v.Str + string(v.Num))
			}
			s.fail(v, "OpenAPI %s: gramc import reads OpenAPI 3.0 and 3.1", version)
		}
		return "OpenAPI " + v.Str
	}
	if v := root.Get("swagger"); v != nil {
		s.fail(v, "Swagger (OpenAPI 2.0) is not read: convert the document to OpenAPI 3 first")
	}
	for _, k := range []string{"tools", "functions", "mcp", "jsonschema"} {
		if v := root.Get(k); v != nil && v.Kind == jsonvalue.Array {
			return im.entryKind(s, v)
		}
	}
	if has(root, "name") && (has(root, "inputSchema") || has(root, "input_schema") || has(root, "parameters") || has(root, "function")) {
		return im.entryKind(s, &node{Kind: jsonvalue.Array, Arr: []*node{root}})
	}
	for _, k := range []string{"$schema", "type", "properties", "$defs", "definitions", "enum", "allOf", "anyOf", "oneOf", "$ref"} {
		if has(root, k) {
			return kindJSONSchema
		}
	}
	s.fail(root, "not a document gramc import reads: %s", wantDocument)
	return ""
}

// entryKind names a tool list by its first entry.
func (im *importer) entryKind(s *source, list *node) string {
	if len(list.Arr) == 0 {
		return kindMCP
	}
	e := list.Arr[0]
	switch {
	case e.Kind != jsonvalue.Object:
		s.fail(e, "a tool definition is an object, not %s", kindName(e))
	case has(e, "function"):
		return kindOpenAIChat
	case has(e, "input_schema"):
		return kindAnthropic
	case has(e, "inputSchema"):
		switch {
		case has(e.Get("inputSchema"), "$schema") && !s.Server:
			// (a live server's listing is what it is, whoever wrote
			// its schemas)
			return kindGramcSchema
		case list == s.root:
			return kindMCPEntries // an array: gramc schema --target mcp writes one
		}
		return kindMCP
	case has(e, "parameters") && e.Get("type") != nil:
		return kindOpenAIResponses
	case has(e, "parameters") || has(e, "name"):
		return kindOpenAIFunctions
	}
	s.fail(e, "not a tool definition: %s", wantDocument)
	return ""
}

// importSource reads one source's tools and types into the package.
func (im *importer) importSource(s *source) {
	im.s = s
	im.refRoot = s.root
	im.records, im.enums, im.inlining = map[*node]*record{}, map[*node]*enum{}, map[*node]bool{}
	switch {
	case strings.HasPrefix(s.kind, "OpenAPI"):
		im.openapi(s)
	case s.kind == kindJSONSchema:
		im.jsonSchema(s)
	default:
		list := s.root
		if list.Kind == jsonvalue.Object {
			if v := list.Get("tools"); v != nil && v.Kind == jsonvalue.Array {
				list = v
			} else if v := list.Get("functions"); v != nil && v.Kind == jsonvalue.Array {
				list = v
			} else if v := list.Get("mcp"); v != nil && v.Kind == jsonvalue.Array {
				list = v
			} else if v := list.Get("jsonschema"); v != nil && v.Kind == jsonvalue.Array {
				list = v
			} else {
				list = &node{Kind: jsonvalue.Array, Arr: []*node{list}}
			}
		}
		for _, e := range list.Arr {
			im.entry(e)
		}
	}
}

// entry reads one tool definition, whatever its shape.
func (im *importer) entry(e *node) {
	s := im.s
	if e.Kind != jsonvalue.Object {
		s.fail(e, "a tool definition is an object, not %s", kindName(e))
	}
	def := e
	var in, out *node
	var strict *bool
	switch {
	case has(e, "function"): // OpenAI chat: {"type": "function", "function": {...}}
		def = e.Get("function")
		if def.Kind != jsonvalue.Object {
			s.fail(def, "\"function\" is an object, not %s", kindName(def))
		}
		in = def.Get("parameters")
		strict = im.strict(def)
	case has(e, "input_schema"): // Anthropic
		in = e.Get("input_schema")
	case has(e, "inputSchema"): // MCP, gramc schema
		in, out = e.Get("inputSchema"), e.Get("outputSchema")
	case has(e, "parameters") || has(e, "name"): // OpenAI functions, Responses
		in = e.Get("parameters")
		strict = im.strict(e)
	default:
		s.fail(e, "not a tool definition: %s", wantDocument)
	}
	nameNode := def.Get("name")
	if nameNode == nil || nameNode.Kind != jsonvalue.String {
		s.fail(def, "a tool definition has a \"name\" string")
	}
	t := &tool{name: nameNode.Str, at: nameNode, src: s, strict: strict}
	t.description = im.str(def, "description")
	t.title = im.str(def, "title")
	if a := def.Get("annotations"); a != nil && a.Kind == jsonvalue.Object && t.title == "" {
		t.title = im.str(a, "title")
	}
	if meta := def.Get("_meta"); meta != nil && meta.Kind == jsonvalue.Object {
		if d := meta.Get("deprecated"); d != nil && d.Kind == jsonvalue.Bool {
			t.deprecated = d.Bool
		}
	}
	im.strictTool = strict != nil && *strict
	if in != nil {
		im.refRoot = in
		t.params = im.arguments(in, t.name)
	}
	im.strictTool = false
	if out != nil {
		im.refRoot = out
		t.result, t.resultDescription = im.result(out, t.name)
	} else {
		t.result = &typ{kind: check.String} // content, not structured: text
	}
	im.refRoot = s.root
	im.addTool(t, def)
}

func (im *importer) strict(def *node) *bool {
	v := def.Get("strict")
	if v == nil || v.Kind == jsonvalue.Null {
		return nil
	}
	if v.Kind != jsonvalue.Bool {
		im.s.fail(v, "\"strict\" is a boolean, not %s", kindName(v))
	}
	b := v.Bool
	return &b
}

// addTool adds t, with a description gram requires. A tool of more
// parameters than a gram signature chains (syntax.MaxNesting arrows) is
// an error at its place: no gram can declare it.
func (im *importer) addTool(t *tool, at *node) {
	if len(t.params) > syntax.MaxNesting {
		im.s.fail(at, "tool %s has %d parameters; a gram tool's signature chains at most %d (syntax.MaxNesting), so it cannot be imported: split the tool, or take its arguments as one record", jsonstr.Text(t.name), len(t.params), syntax.MaxNesting)
	}
	if strings.TrimSpace(t.description) == "" {
		t.description = "A tool"
		for _, d := range []string{t.name, t.title} {
			if strings.TrimSpace(d) != "" {
				t.description = d
			}
		}
		im.warn(diag.CodeImportMissingDescription, at, fmt.Sprintf("tool %s has no description; it is described as %s", jsonstr.Text(t.name), jsonstr.Text(t.description)),
			"A gram tool needs a description: the model chooses tools by it. gramc import wrote its title or name; write what the tool does.")
	}
	im.pkg.tools = append(im.pkg.tools, t)
}

// arguments reads a tool's arguments schema as its parameters.
func (im *importer) arguments(in *node, tool string) []*param {
	im.step(in, 0)
	if in.Kind != jsonvalue.Object {
		im.s.fail(in, "a tool's input schema is an object schema, not %s", kindName(in))
	}
	s := in
	for i := 0; has(s, "$ref") && i < 64; i++ {
		im.report(s)
		target, _ := im.resolve(s.Get("$ref"))
		if target == nil || target.Kind != jsonvalue.Object {
			return nil
		}
		s = target
	}
	if t := s.Get("type"); t != nil && !(t.Kind == jsonvalue.String && t.Str == "object") {
		im.s.fail(t, "a tool's input schema has type \"object\"")
	}
	im.report(s)
	if has(s, "allOf") {
		r := &record{name: camel.Case(tool) + "Arguments"}
		im.fillRecord(r, s, 0)
		return r.fields
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v := s.Get(k); v != nil {
			im.warn(diag.CodeImportUnion, v, k+" of argument objects is dropped; the arguments are the properties beside it",
				"A gram tool has one list of parameters. Declare one tool per alternative, or one parameter list with the fields of all of them (optional where they differ).")
		}
	}
	return im.properties(s, camel.Case(tool), 1)
}

// result reads an output schema: a record at its root is a :Type of its
// own (what "#" refers to), anything else the result's type.
func (im *importer) result(out *node, tool string) (*typ, string) {
	im.step(out, 0)
	if out.Kind != jsonvalue.Object {
		im.s.fail(out, "an output schema is an object, not %s", kindName(out))
	}
	name := camel.Case(tool) + "Output"
	if im.isRecord(out, 0) && !has(out, "$ref") {
		r := im.newRecord(out, name, false)
		im.resultRoot, im.resultRec = out, r
		im.fillRecord(r, out, 0)
		im.resultRoot, im.resultRec = nil, nil
		return &typ{kind: check.Record, rec: r}, ""
	}
	if len(out.Keys) == 0 || len(out.Keys) == 1 && has(out, "$schema") {
		return &typ{kind: check.String}, "" // no result described
	}
	return im.resultType(out, name)
}

// resultType reads the schema of a result that is not a record of its
// own: a result takes only a description (and an array its element
// type), so an inline enumeration becomes an :Enum and other constraints
// are dropped with a warning.
func (im *importer) resultType(s *node, name string) (*typ, string) {
	if s.Kind == jsonvalue.Object && !has(s, "$ref") {
		if e := im.enumDecl(s, name); e != nil {
			im.given[e] = false
			desc := e.description
			e.description = ""
			return &typ{kind: check.EnumKind, enum: e}, desc
		}
	}
	p := im.param("result", s, true, name, 0)
	for _, k := range []string{"default", "examples", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "deprecated"} {
		if v := p.props[k]; v != nil {
			im.warn(diag.CodeImportResultConstraint, v, fmt.Sprintf("%s on a result is dropped", k),
				"A gram tool's return type takes a description only (and an array its element type): what the result promises beyond its type is not declared.")
		}
	}
	return p.typ, p.description
}

// jsonSchema reads a JSON Schema document: its definitions, and its root
// (an object or an enumeration) as a type named by its title, or else
// by the file's name.
func (im *importer) jsonSchema(s *source) {
	root := s.root
	name := im.str(root, "title")
	if name == "" {
		name = fileStem(s.Name)
	}
	named := false
	if im.isRecord(root, 0) && !has(root, "$ref") {
		im.named(root, camel.Case(name), 0)
		named = true
	} else if has(root, "enum") && im.enumDecl(root, camel.Case(name)) != nil {
		named = true
	}
	for _, k := range []string{"$defs", "definitions"} {
		defs := root.Get(k)
		if defs == nil {
			continue
		}
		if defs.Kind != jsonvalue.Object {
			s.fail(defs, "%q is an object of schemas, not %s", k, kindName(defs))
		}
		for _, name := range defs.Keys {
			d := defs.Obj[name]
			if d.Kind == jsonvalue.Object && !has(d, "$ref") && (im.isRecord(d, 0) || has(d, "enum")) {
				im.named(d, name, 0)
			}
		}
		named = true
	}
	if !named {
		s.fail(root, "a JSON Schema imports as a :Type (an object schema with properties) or an :Enum, or as the definitions under $defs; this one is %s", describeSchema(root))
	}
}

func describeSchema(s *node) string {
	if t := s.Get("type"); t != nil && t.Kind == jsonvalue.String {
		return "of type " + t.Str
	}
	return "without properties"
}

func fileStem(name string) string {
	if i := strings.LastIndexAny(name, "/\\"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if name == "" || name == "-" {
		return "Schema"
	}
	return name
}
