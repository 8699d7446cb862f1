package importer

import (
	"fmt"
	"mime"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
)

var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// openapi reads an OpenAPI 3.0 or 3.1 document: its named schemas as
// types, each operation as a tool.
func (im *importer) openapi(s *source) {
	root := s.root
	if comps := root.Get("components"); comps != nil {
		if comps.Kind != jsonvalue.Object {
			s.fail(comps, "\"components\" is an object, not %s", kindName(comps))
		}
		if schemas := comps.Get("schemas"); schemas != nil {
			if schemas.Kind != jsonvalue.Object {
				s.fail(schemas, "\"components.schemas\" is an object, not %s", kindName(schemas))
			}
			for _, name := range schemas.Keys {
				d := schemas.Obj[name]
				if d.Kind == jsonvalue.Object && !has(d, "$ref") && (im.isRecord(d, 0) || has(d, "enum")) {
					im.named(d, name, 0)
				}
			}
		}
	}
	paths := root.Get("paths")
	if paths == nil {
		return // a 3.1 document may have only webhooks or components
	}
	if paths.Kind != jsonvalue.Object {
		s.fail(paths, "\"paths\" is an object, not %s", kindName(paths))
	}
	for _, path := range paths.Keys {
		item := im.follow(paths.Obj[path], "path item")
		if item.Kind != jsonvalue.Object {
			s.fail(item, "a path item is an object, not %s", kindName(item))
		}
		shared := item.Get("parameters")
		for _, method := range item.Keys {
			if methods[method] {
				im.operation(path, method, item.Obj[method], shared)
			}
		}
	}
}

// follow resolves the $ref of a path item, parameter, request body or
// response (within the document).
func (im *importer) follow(n *node, what string) *node {
	for i := 0; n.Kind == jsonvalue.Object && has(n, "$ref"); i++ {
		if i == 64 {
			im.s.fail(n, "a chain of more than 64 references")
		}
		target, _ := im.resolve(n.Get("$ref"))
		if target == nil {
			im.s.fail(n, "the %s's $ref cannot be followed", what)
		}
		n = target
	}
	return n
}

// operation reads one operation as a tool.
func (im *importer) operation(path, method string, op, shared *node) {
	s := im.s
	if op.Kind != jsonvalue.Object {
		s.fail(op, "an operation is an object, not %s", kindName(op))
	}
	t := &tool{src: s, at: op}
	if id := op.Get("operationId"); id != nil {
		if id.Kind != jsonvalue.String {
			s.fail(id, "\"operationId\" is a string, not %s", kindName(id))
		}
		t.name, t.at = id.Str, id
	} else {
		t.name = method + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(path, "/", "_"), "{", ""), "}", "")
		im.warn(diag.CodeImportRenamed, op, fmt.Sprintf("%s %s has no operationId; the tool is named %s", strings.ToUpper(method), path, jsonstr.Text(sanitizeTool(t.name))),
			"A tool's name is what the model calls: give the operation an operationId to choose it.")
	}
	summary, desc := im.str(op, "summary"), im.str(op, "description")
	t.description = desc
	if desc == "" {
		t.description = summary
	} else if summary != desc {
		t.title = summary
	}
	if t.description == "" {
		t.description = strings.ToUpper(method) + " " + path
		im.warn(diag.CodeImportMissingDescription, op, fmt.Sprintf("%s %s has no summary or description; it is described as %s", strings.ToUpper(method), path, jsonstr.Text(t.description)),
			"A gram tool needs a description: the model chooses tools by it. Describe the operation.")
	}
	t.deprecated = im.boolean(op, "deprecated")
	hint := camel.Case(t.name)

	// Parameters: the path item's, overridden by the operation's (by name and in).
	type key struct{ name, in string }
	var order []key
	byKey := map[key]*node{}
	for _, list := range []*node{shared, op.Get("parameters")} {
		if list == nil {
			continue
		}
		if list.Kind != jsonvalue.Array {
			s.fail(list, "\"parameters\" is an array, not %s", kindName(list))
		}
		for _, pn := range list.Arr {
			pn = im.follow(pn, "parameter")
			if pn.Kind != jsonvalue.Object {
				s.fail(pn, "a parameter is an object, not %s", kindName(pn))
			}
			name, in := pn.Get("name"), pn.Get("in")
			if name == nil || name.Kind != jsonvalue.String || in == nil || in.Kind != jsonvalue.String {
				s.fail(pn, "a parameter has a \"name\" and an \"in\" string")
			}
			k := key{name.Str, in.Str}
			if _, ok := byKey[k]; !ok {
				order = append(order, k)
			}
			byKey[k] = pn
		}
	}
	taken := map[string]bool{}
	add := func(p *param, at *node) {
		if taken[p.name] {
			old := p.name
			for i := 2; taken[p.name]; i++ {
				p.name = fmt.Sprintf("%s_%d", old, i)
			}
			im.warn(diag.CodeImportRenamed, at, fmt.Sprintf("a second parameter named %s is named %s", jsonstr.Text(old), jsonstr.Text(p.name)),
				"A tool's parameters have distinct names: a path, query or header parameter and a property of the request body share this one. The tool's implementation must map it back.")
		}
		taken[p.name] = true
		t.params = append(t.params, p)
	}
	for _, k := range order {
		pn := byKey[k]
		switch k.in {
		case "path", "query", "header":
		default:
			im.warn(diag.CodeImportParameterDropped, pn.Get("in"), fmt.Sprintf("the %s parameter %s is dropped", k.in, jsonstr.Text(k.name)),
				"gramc import makes path, query and header parameters and the JSON request body's properties a tool's parameters; a cookie is the HTTP client's to send.")
			continue
		}
		schema := pn.Get("schema")
		if schema == nil {
			if content := pn.Get("content"); content != nil {
				schema, _ = im.jsonMedia(content)
			}
		}
		if schema == nil {
			im.warn(diag.CodeImportParameterDropped, pn, fmt.Sprintf("parameter %s has no JSON schema; dropped", jsonstr.Text(k.name)),
				"A parameter needs a schema (or a JSON content with one) to have a type.")
			continue
		}
		required := k.in == "path" || im.boolean(pn, "required")
		p := im.param(k.name, schema, required, hint+camel.Case(k.name), 1)
		if d := im.str(pn, "description"); d != "" {
			p.description = d
			p.props["description"] = pn.Get("description")
		}
		if im.boolean(pn, "deprecated") {
			p.deprecated = true
		}
		if ex := pn.Get("example"); ex != nil && len(p.examples) == 0 {
			if v, ok := im.value(ex, "example"); ok {
				p.examples, p.props["examples"] = []any{v}, ex
			}
		}
		add(p, pn)
	}

	if body := op.Get("requestBody"); body != nil {
		body = im.follow(body, "request body")
		required := im.boolean(body, "required")
		content := body.Get("content")
		schema, _ := im.jsonMedia(content)
		switch {
		case schema == nil && content != nil && content.Kind == jsonvalue.Object && len(content.Keys) > 0:
			im.warn(diag.CodeImportNonJSONBody, content, fmt.Sprintf("the request body (%s) is not JSON; dropped", strings.Join(content.Keys, ", ")),
				"gramc import makes the properties of a JSON request body parameters; a form, a file or other media cannot be a tool's arguments. Add an application/json body, or declare the tool by hand.")
		case schema != nil:
			before := len(im.decls)
			bt, _ := im.typ(schema, hint+"Body", 1)
			if bt.kind == check.Record {
				// The body's properties are the tool's parameters.
				if len(im.decls) > before && im.decls[before] == any(bt.rec) && !im.given[bt.rec] && !im.used(bt.rec) {
					im.decls = append(im.decls[:before], im.decls[before+1:]...)
				}
				for _, f := range bt.rec.fields {
					p := *f
					if !required && !p.optional {
						p.optional = true
					}
					add(&p, f.at)
				}
			} else {
				p := im.param("body", schema, required, hint+"Body", 1)
				if d := im.str(body, "description"); d != "" && p.description == "" {
					p.description = d
				}
				add(p, schema)
			}
		}
	}

	t.result, t.resultDescription = im.response(op, method, path, hint)
	im.addTool(t, op)
}

// used reports whether a record is the type of a field of another
// declaration (so it stays declared).
func (im *importer) used(r *record) bool {
	for _, d := range im.decls {
		if o, ok := d.(*record); ok && o != r {
			for _, f := range o.fields {
				if refers(f.typ, r) {
					return true
				}
			}
		}
	}
	for _, f := range r.fields {
		if refers(f.typ, r) {
			return true
		}
	}
	return false
}

func refers(t *typ, r *record) bool {
	for ; t != nil; t = t.elem {
		if t.rec == r {
			return true
		}
	}
	return false
}

// jsonMedia picks the JSON media type of a content map: application/json,
// else the first JSON one (application/problem+json, ...).
func (im *importer) jsonMedia(content *node) (*node, string) {
	if content == nil {
		return nil, ""
	}
	if content.Kind != jsonvalue.Object {
		im.s.fail(content, "\"content\" is an object, not %s", kindName(content))
	}
	pick := ""
	for _, k := range content.Keys {
		mt, _, err := mime.ParseMediaType(k)
		if err != nil {
			continue
		}
		if mt == "application/json" {
			pick = k
			break
		}
		if pick == "" && strings.HasSuffix(mt, "+json") {
			pick = k
		}
	}
	if pick == "" {
		return nil, ""
	}
	m := content.Obj[pick]
	if m.Kind != jsonvalue.Object {
		im.s.fail(m, "a media type is an object, not %s", kindName(m))
	}
	schema := m.Get("schema")
	if schema == nil {
		return nil, ""
	}
	return schema, pick
}

// response reads an operation's first 2xx JSON response as its result.
func (im *importer) response(op *node, method, path, hint string) (*typ, string) {
	resps := op.Get("responses")
	if resps != nil && resps.Kind != jsonvalue.Object {
		im.s.fail(resps, "\"responses\" is an object, not %s", kindName(resps))
	}
	var codes []string
	for _, k := range keysOrNil(resps) {
		if len(k) == 3 && k[0] == '2' && (k[1] >= '0' && k[1] <= '9' || k == "2XX" || k == "2xx") {
			codes = append(codes, k)
		}
	}
	sort.SliceStable(codes, func(i, j int) bool { return strings.ToUpper(codes[i]) < strings.ToUpper(codes[j]) })
	at := op
	if resps != nil {
		at = resps
	}
	none := func(why string) (*typ, string) {
		im.warn(diag.CodeImportNoJSONResponse, at, fmt.Sprintf("%s %s %s; the result is String", strings.ToUpper(method), path, why),
			"A tool's result is the 2xx JSON response's schema. Without one, the result is declared String (the response's text); describe a JSON response to type it.")
		return &typ{kind: check.String}, ""
	}
	if len(codes) == 0 {
		return none("has no 2xx response")
	}
	resp := im.follow(resps.Obj[codes[0]], "response")
	if resp.Kind != jsonvalue.Object {
		im.s.fail(resp, "a response is an object, not %s", kindName(resp))
	}
	at = resp
	schema, _ := im.jsonMedia(resp.Get("content"))
	if schema == nil {
		if has(resp, "content") {
			return none(fmt.Sprintf("responds %s without JSON", codes[0]))
		}
		return none(fmt.Sprintf("responds %s without content", codes[0]))
	}
	desc := im.str(resp, "description")
	old := im.refRoot
	defer func() { im.refRoot = old }()
	if im.isRecord(schema, 0) && !has(schema, "$ref") {
		r := im.newRecord(schema, hint+"Response", false)
		im.fillRecord(r, schema, 1)
		if r.description == "" {
			return &typ{kind: check.Record, rec: r}, desc
		}
		return &typ{kind: check.Record, rec: r}, ""
	}
	t, d := im.resultType(schema, hint+"Response")
	if d == "" {
		d = desc
	}
	return t, d
}

func keysOrNil(n *node) []string {
	if n == nil {
		return nil
	}
	return n.Keys
}
