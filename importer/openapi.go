package importer

import (
	"fmt"
	"mime"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
)

var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// openapi reads an OpenAPI 3.0 or 3.1 document: its named schemas as
// types, each operation as a tool.
func (im *importer) openapi(s *source) {
	root := s.root
	if comps := root.get("components"); comps != nil {
		if comps.kind != 'o' {
			s.fail(comps, "\"components\" is an object, not %s", comps.kindName())
		}
		if schemas := comps.get("schemas"); schemas != nil {
			if schemas.kind != 'o' {
				s.fail(schemas, "\"components.schemas\" is an object, not %s", schemas.kindName())
			}
			for _, name := range schemas.keys {
				d := schemas.obj[name]
				if d.kind == 'o' && !d.has("$ref") && (im.isRecord(d, 0) || d.has("enum")) {
					im.named(d, name, 0)
				}
			}
		}
	}
	paths := root.get("paths")
	if paths == nil {
		return // a 3.1 document may have only webhooks or components
	}
	if paths.kind != 'o' {
		s.fail(paths, "\"paths\" is an object, not %s", paths.kindName())
	}
	for _, path := range paths.keys {
		item := im.follow(paths.obj[path], "path item")
		if item.kind != 'o' {
			s.fail(item, "a path item is an object, not %s", item.kindName())
		}
		shared := item.get("parameters")
		for _, method := range item.keys {
			if methods[method] {
				im.operation(path, method, item.obj[method], shared)
			}
		}
	}
}

// follow resolves the $ref of a path item, parameter, request body or
// response (within the document).
func (im *importer) follow(n *node, what string) *node {
	for i := 0; n.kind == 'o' && n.has("$ref"); i++ {
		if i == 64 {
			im.s.fail(n, "a chain of more than 64 references")
		}
		target, _ := im.resolve(n.get("$ref"))
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
	if op.kind != 'o' {
		s.fail(op, "an operation is an object, not %s", op.kindName())
	}
	t := &tool{src: s, at: op}
	if id := op.get("operationId"); id != nil {
		if id.kind != 's' {
			s.fail(id, "\"operationId\" is a string, not %s", id.kindName())
		}
		t.name, t.at = id.str, id
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
	hint := upperFirst(t.name)

	// Parameters: the path item's, overridden by the operation's (by name and in).
	type key struct{ name, in string }
	var order []key
	byKey := map[key]*node{}
	for _, list := range []*node{shared, op.get("parameters")} {
		if list == nil {
			continue
		}
		if list.kind != 'a' {
			s.fail(list, "\"parameters\" is an array, not %s", list.kindName())
		}
		for _, pn := range list.arr {
			pn = im.follow(pn, "parameter")
			if pn.kind != 'o' {
				s.fail(pn, "a parameter is an object, not %s", pn.kindName())
			}
			name, in := pn.get("name"), pn.get("in")
			if name == nil || name.kind != 's' || in == nil || in.kind != 's' {
				s.fail(pn, "a parameter has a \"name\" and an \"in\" string")
			}
			k := key{name.str, in.str}
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
			im.warn(diag.CodeImportParameterDropped, pn.get("in"), fmt.Sprintf("the %s parameter %s is dropped", k.in, jsonstr.Text(k.name)),
				"gramc import makes path, query and header parameters and the JSON request body's properties a tool's parameters; a cookie is the HTTP client's to send.")
			continue
		}
		schema := pn.get("schema")
		if schema == nil {
			if content := pn.get("content"); content != nil {
				schema, _ = im.jsonMedia(content)
			}
		}
		if schema == nil {
			im.warn(diag.CodeImportParameterDropped, pn, fmt.Sprintf("parameter %s has no JSON schema; dropped", jsonstr.Text(k.name)),
				"A parameter needs a schema (or a JSON content with one) to have a type.")
			continue
		}
		required := k.in == "path" || im.boolean(pn, "required")
		p := im.param(k.name, schema, required, hint+upperFirst(k.name), 1)
		if d := im.str(pn, "description"); d != "" {
			p.description = d
			p.props["description"] = pn.get("description")
		}
		if im.boolean(pn, "deprecated") {
			p.deprecated = true
		}
		if ex := pn.get("example"); ex != nil && len(p.examples) == 0 {
			if v, ok := im.value(ex, "example"); ok {
				p.examples, p.props["examples"] = []any{v}, ex
			}
		}
		add(p, pn)
	}

	if body := op.get("requestBody"); body != nil {
		body = im.follow(body, "request body")
		required := im.boolean(body, "required")
		content := body.get("content")
		schema, _ := im.jsonMedia(content)
		switch {
		case schema == nil && content != nil && content.kind == 'o' && len(content.keys) > 0:
			im.warn(diag.CodeImportNonJSONBody, content, fmt.Sprintf("the request body (%s) is not JSON; dropped", strings.Join(content.keys, ", ")),
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
	if content.kind != 'o' {
		im.s.fail(content, "\"content\" is an object, not %s", content.kindName())
	}
	pick := ""
	for _, k := range content.keys {
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
	m := content.obj[pick]
	if m.kind != 'o' {
		im.s.fail(m, "a media type is an object, not %s", m.kindName())
	}
	schema := m.get("schema")
	if schema == nil {
		return nil, ""
	}
	return schema, pick
}

// response reads an operation's first 2xx JSON response as its result.
func (im *importer) response(op *node, method, path, hint string) (*typ, string) {
	resps := op.get("responses")
	if resps != nil && resps.kind != 'o' {
		im.s.fail(resps, "\"responses\" is an object, not %s", resps.kindName())
	}
	var codes []string
	for _, k := range resps.keysOrNil() {
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
	resp := im.follow(resps.obj[codes[0]], "response")
	if resp.kind != 'o' {
		im.s.fail(resp, "a response is an object, not %s", resp.kindName())
	}
	at = resp
	schema, _ := im.jsonMedia(resp.get("content"))
	if schema == nil {
		if resp.has("content") {
			return none(fmt.Sprintf("responds %s without JSON", codes[0]))
		}
		return none(fmt.Sprintf("responds %s without content", codes[0]))
	}
	desc := im.str(resp, "description")
	old := im.refRoot
	defer func() { im.refRoot = old }()
	if im.isRecord(schema, 0) && !schema.has("$ref") {
		r := im.newRecord(schema, hint+"Result", false)
		im.fillRecord(r, schema, 1)
		if r.description == "" {
			return &typ{kind: check.Record, rec: r}, desc
		}
		return &typ{kind: check.Record, rec: r}, ""
	}
	t, d := im.resultType(schema, hint+"Result")
	if d == "" {
		d = desc
	}
	return t, d
}

func (n *node) keysOrNil() []string {
	if n == nil {
		return nil
	}
	return n.keys
}
