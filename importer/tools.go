package importer

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
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
	switch root.kind {
	case 'a':
		return im.entryKind(s, root)
	case 'o':
	default:
		s.fail(root, "the document is %s: %s", root.kindName(), wantDocument)
	}
	if v := root.get("openapi"); v != nil {
		if v.kind != 's' || !(strings.HasPrefix(v.str, "3.0") || strings.HasPrefix(v.str, "3.1")) {
			version := v.kindName()
			if v.kind == 's' || v.kind == 'n' {
				version = jsonstr.Text(v.str + v.num)
			}
			s.fail(v, "OpenAPI %s: gramc import reads OpenAPI 3.0 and 3.1", version)
		}
		return "OpenAPI " + v.str
	}
	if v := root.get("swagger"); v != nil {
		s.fail(v, "Swagger (OpenAPI 2.0) is not read: convert the document to OpenAPI 3 first")
	}
	for _, k := range []string{"tools", "functions", "mcp", "jsonschema"} {
		if v := root.get(k); v != nil && v.kind == 'a' {
			return im.entryKind(s, v)
		}
	}
	if root.has("name") && (root.has("inputSchema") || root.has("input_schema") || root.has("parameters") || root.has("function")) {
		return im.entryKind(s, &node{kind: 'a', arr: []*node{root}})
	}
	for _, k := range []string{"$schema", "type", "properties", "$defs", "definitions", "enum", "allOf", "anyOf", "oneOf", "$ref"} {
		if root.has(k) {
			return kindJSONSchema
		}
	}
	s.fail(root, "not a document gramc import reads: %s", wantDocument)
	return ""
}

// entryKind names a tool list by its first entry.
func (im *importer) entryKind(s *source, list *node) string {
	if len(list.arr) == 0 {
		return kindMCP
	}
	e := list.arr[0]
	switch {
	case e.kind != 'o':
		s.fail(e, "a tool definition is an object, not %s", e.kindName())
	case e.has("function"):
		return kindOpenAIChat
	case e.has("input_schema"):
		return kindAnthropic
	case e.has("inputSchema"):
		switch {
		case e.get("inputSchema").has("$schema"):
			return kindGramcSchema
		case list == s.root:
			return kindMCPEntries // an array: gramc schema --target mcp writes one
		}
		return kindMCP
	case e.has("parameters") && e.get("type") != nil:
		return kindOpenAIResponses
	case e.has("parameters") || e.has("name"):
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
		if list.kind == 'o' {
			if v := list.get("tools"); v != nil && v.kind == 'a' {
				list = v
			} else if v := list.get("functions"); v != nil && v.kind == 'a' {
				list = v
			} else if v := list.get("mcp"); v != nil && v.kind == 'a' {
				list = v
			} else if v := list.get("jsonschema"); v != nil && v.kind == 'a' {
				list = v
			} else {
				list = &node{kind: 'a', arr: []*node{list}}
			}
		}
		for _, e := range list.arr {
			im.entry(e)
		}
	}
}

// entry reads one tool definition, whatever its shape.
func (im *importer) entry(e *node) {
	s := im.s
	if e.kind != 'o' {
		s.fail(e, "a tool definition is an object, not %s", e.kindName())
	}
	def := e
	var in, out *node
	var strict *bool
	switch {
	case e.has("function"): // OpenAI chat: {"type": "function", "function": {...}}
		def = e.get("function")
		if def.kind != 'o' {
			s.fail(def, "\"function\" is an object, not %s", def.kindName())
		}
		in = def.get("parameters")
		strict = im.strict(def)
	case e.has("input_schema"): // Anthropic
		in = e.get("input_schema")
	case e.has("inputSchema"): // MCP, gramc schema
		in, out = e.get("inputSchema"), e.get("outputSchema")
	case e.has("parameters") || e.has("name"): // OpenAI functions, Responses
		in = e.get("parameters")
		strict = im.strict(e)
	default:
		s.fail(e, "not a tool definition: %s", wantDocument)
	}
	nameNode := def.get("name")
	if nameNode == nil || nameNode.kind != 's' {
		s.fail(def, "a tool definition has a \"name\" string")
	}
	t := &tool{name: nameNode.str, at: nameNode, src: s, strict: strict}
	t.description = im.str(def, "description")
	t.title = im.str(def, "title")
	if a := def.get("annotations"); a != nil && a.kind == 'o' && t.title == "" {
		t.title = im.str(a, "title")
	}
	if meta := def.get("_meta"); meta != nil && meta.kind == 'o' {
		if d := meta.get("deprecated"); d != nil && d.kind == 'b' {
			t.deprecated = d.b
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
	v := def.get("strict")
	if v == nil || v.kind == 'z' {
		return nil
	}
	if v.kind != 'b' {
		im.s.fail(v, "\"strict\" is a boolean, not %s", v.kindName())
	}
	b := v.b
	return &b
}

// addTool adds t, with a description gram requires.
func (im *importer) addTool(t *tool, at *node) {
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
	if in.kind != 'o' {
		im.s.fail(in, "a tool's input schema is an object schema, not %s", in.kindName())
	}
	s := in
	for i := 0; s.has("$ref") && i < 64; i++ {
		im.report(s)
		target, _ := im.resolve(s.get("$ref"))
		if target == nil || target.kind != 'o' {
			return nil
		}
		s = target
	}
	if t := s.get("type"); t != nil && !(t.kind == 's' && t.str == "object") {
		im.s.fail(t, "a tool's input schema has type \"object\"")
	}
	im.report(s)
	if s.has("allOf") {
		r := &record{name: upperFirst(tool) + "Arguments"}
		im.fillRecord(r, s, 0)
		return r.fields
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v := s.get(k); v != nil {
			im.warn(diag.CodeImportUnion, v, k+" of argument objects is dropped; the arguments are the properties beside it",
				"A gram tool has one list of parameters. Declare one tool per alternative, or one parameter list with the fields of all of them (optional where they differ).")
		}
	}
	return im.properties(s, upperFirst(tool), 1)
}

// result reads an output schema: a record at its root is a :Type of its
// own (what "#" refers to), anything else the result's type.
func (im *importer) result(out *node, tool string) (*typ, string) {
	im.step(out, 0)
	if out.kind != 'o' {
		im.s.fail(out, "an output schema is an object, not %s", out.kindName())
	}
	name := upperFirst(tool) + "Result"
	if im.isRecord(out, 0) && !out.has("$ref") {
		r := im.newRecord(out, name, false)
		im.resultRoot, im.resultRec = out, r
		im.fillRecord(r, out, 0)
		im.resultRoot, im.resultRec = nil, nil
		return &typ{kind: check.Record, rec: r}, ""
	}
	if len(out.keys) == 0 || len(out.keys) == 1 && out.has("$schema") {
		return &typ{kind: check.String}, "" // no result described
	}
	return im.resultType(out, name)
}

// resultType reads the schema of a result that is not a record of its
// own: a result takes only a description (and an array its element
// type), so an inline enumeration becomes an :Enum and other constraints
// are dropped with a warning.
func (im *importer) resultType(s *node, name string) (*typ, string) {
	if s.kind == 'o' && !s.has("$ref") {
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
	if im.isRecord(root, 0) && !root.has("$ref") {
		im.named(root, upperFirst(name), 0)
		named = true
	} else if root.has("enum") && im.enumDecl(root, upperFirst(name)) != nil {
		named = true
	}
	for _, k := range []string{"$defs", "definitions"} {
		defs := root.get(k)
		if defs == nil {
			continue
		}
		if defs.kind != 'o' {
			s.fail(defs, "%q is an object of schemas, not %s", k, defs.kindName())
		}
		for _, name := range defs.keys {
			d := defs.obj[name]
			if d.kind == 'o' && !d.has("$ref") && (im.isRecord(d, 0) || d.has("enum")) {
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
	if t := s.get("type"); t != nil && t.kind == 's' {
		return "of type " + t.str
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
