package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gramc-dev/gramc/internal/limits"
	"github.com/gramc-dev/gramc/toolspec"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders jsonschema's error messages.
var printer = message.NewPrinter(language.English)

// argSchema is a tool's compiled argument schema. Compiling is the costly
// part, so compiled schemas are cached by their text: a tool spec is
// compiled once however many agents, bindings and runs use it.
type argSchema struct {
	doc      any // the decoded schema, for defaults and $ref lookups
	compiled *jsonschema.Schema
	// strictNulls: the schema is the standard form of a strict tool,
	// whose model sends null for an optional argument it leaves out
	// (OpenAI's strict mode makes every property required, optional ones
	// nullable); such a null is taken as absent, and gets the default.
	strictNulls bool
}

var (
	schemaCache sync.Map // string(schema text) -> *argSchema
	// schemaCacheSize bounds the cache; beyond it schemas are compiled
	// per binding (only programs that make schemas on the fly get there).
	schemaCacheSize = 4096
	schemaCacheN    int
	schemaCacheMu   sync.Mutex
)

const argSchemaURL = "gram:///arguments.schema.json"

// argSchemaOf compiles the schema a tool's arguments are checked against
// and take their defaults from: the specification's standard schema
// (ToolSpecification.StandardSchema), where defaults are data — never a
// description's prose.
func argSchemaOf(spec ToolSpecification) (*argSchema, error) {
	return compileSchema(spec.StandardSchema(), spec.Strict && len(spec.TargetSchemas[toolspec.StandardTarget]) > 0)
}

func compileArgSchema(schema json.RawMessage) (*argSchema, error) {
	return compileSchema(schema, false)
}

func compileSchema(schema json.RawMessage, strictNulls bool) (*argSchema, error) {
	text := string(bytes.TrimSpace(schema))
	if text == "" || text == "null" {
		text = `{"type":"object"}`
	}
	key := text
	if strictNulls {
		key = "strict:" + text
	}
	if v, ok := schemaCache.Load(key); ok {
		return v.(*argSchema), nil
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(argSchemaURL, doc); err != nil {
		return nil, err
	}
	compiled, err := c.Compile(argSchemaURL)
	if err != nil {
		return nil, err
	}
	// Decode again for defaults: the compiler may keep references into doc.
	doc2, _ := jsonschema.UnmarshalJSON(strings.NewReader(text))
	as := &argSchema{doc: doc2, compiled: compiled, strictNulls: strictNulls}
	schemaCacheMu.Lock()
	if schemaCacheN < schemaCacheSize {
		if _, loaded := schemaCache.LoadOrStore(key, as); !loaded {
			schemaCacheN++
		}
	}
	schemaCacheMu.Unlock()
	return as, nil
}

// prepareArgs parses a tool call's arguments text, applies the schema's
// defaults and validates the result. It returns the arguments as compact
// JSON, or an error message fit for the model.
func (as *argSchema) prepareArgs(text string) (json.RawMessage, error) {
	v, err := parseArgs(text)
	if err != nil {
		return nil, err
	}
	v = as.applyDefaults(as.doc, v, 0)
	if err := as.compiled.Validate(v); err != nil {
		return nil, errors.New(validationMessage(err))
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("arguments cannot be encoded: %v", err)
	}
	return out, nil
}

// parseArgs decodes arguments that are the JSON text of an object, or a
// JSON string holding such text (some servers double-encode). Empty text
// means no arguments.
func parseArgs(text string) (any, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return map[string]any{}, nil
	}
	v, err := decodeJSON([]byte(t))
	if err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if s, ok := v.(string); ok {
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		v, err = decodeJSON([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
		}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("arguments must be a JSON object, got %s", jsonKind(v))
	}
	if err := checkNumbers(v, ""); err != nil {
		return nil, err
	}
	return v, nil
}

// checkNumbers reports the first number in v longer than limits.MaxNumberLength.
func checkNumbers(v any, ptr string) error {
	switch x := v.(type) {
	case json.Number:
		if len(x) > limits.MaxNumberLength {
			where := ptr
			if where == "" {
				where = "/"
			}
			return fmt.Errorf("at '%s': number has %d characters; numbers are limited to %d: send it as a shorter number", where, len(x), limits.MaxNumberLength)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the same first problem every time
		for _, k := range keys {
			if err := checkNumbers(x[k], ptr+"/"+escapePointer(k)); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := checkNumbers(e, fmt.Sprintf("%s/%d", ptr, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// validationMessage flattens a jsonschema error into one line per
// problem: `at '/days': maximum: got 20, want 14`.
func validationMessage(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			lines = append(lines, fmt.Sprintf("at '%s': %s", loc, e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Stable(sort.StringSlice(lines))
	lines = dedupe(lines)
	return strings.Join(lines, "; ")
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

const maxSchemaDepth = 64

// resolve follows a local $ref ("#/$defs/Name") in root.
func resolve(root any, s map[string]any, depth int) map[string]any {
	for range maxSchemaDepth {
		ref, ok := s["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return s
		}
		target := lookupPointer(root, strings.TrimPrefix(ref, "#"))
		m, ok := target.(map[string]any)
		if !ok {
			return s
		}
		s = m
	}
	return s
}

func lookupPointer(root any, ptr string) any {
	if ptr == "" {
		return root
	}
	cur := root
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	return cur
}

// defaultOf returns a property schema's default: its own `default`, or
// the default of the schema its $ref names.
func (as *argSchema) defaultOf(s map[string]any) (any, bool) {
	if d, ok := s["default"]; ok {
		return d, true
	}
	r := resolve(as.doc, s, 0)
	if d, ok := r["default"]; ok {
		return d, true
	}
	return nil, false
}

// acceptsNull reports whether a property schema allows null.
func (as *argSchema) acceptsNull(s map[string]any) bool {
	s = resolve(as.doc, s, 0)
	switch t := s["type"].(type) {
	case string:
		return t == "null"
	case []any:
		for _, x := range t {
			if x == "null" {
				return true
			}
		}
	case nil:
		_, typed := s["enum"]
		_, konst := s["const"]
		if !typed && !konst && s["anyOf"] == nil && s["oneOf"] == nil {
			return true // no constraint on the type
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[key].([]any); ok {
			for _, b := range branches {
				if bm, ok := b.(map[string]any); ok && as.acceptsNull(bm) {
					return true
				}
			}
		}
	}
	if e, ok := s["enum"].([]any); ok {
		for _, x := range e {
			if x == nil {
				return true
			}
		}
	}
	return false
}

// applyDefaults fills in missing (or null) object properties that have a
// default, recursively through nested objects, arrays, $refs and
// anyOf/oneOf branches whose type fits the value.
func (as *argSchema) applyDefaults(schema any, v any, depth int) any {
	root := as.doc
	s, ok := schema.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return v
	}
	s = resolve(root, s, 0)
	switch val := v.(type) {
	case map[string]any:
		if props, ok := s["properties"].(map[string]any); ok {
			required := map[string]bool{}
			if req, ok := s["required"].([]any); ok {
				for _, r := range req {
					if name, ok := r.(string); ok {
						required[name] = true
					}
				}
			}
			for name, ps := range props {
				psm, ok := ps.(map[string]any)
				if !ok {
					continue
				}
				cur, present := val[name]
				if !present || cur == nil {
					if d, ok := as.defaultOf(psm); ok {
						val[name] = deepCopy(d)
						cur, present = val[name], true
					} else if present && as.strictNulls && !required[name] && !as.acceptsNull(psm) {
						// A strict model's way of leaving it out.
						delete(val, name)
						present = false
					}
				}
				if present {
					val[name] = as.applyDefaults(psm, cur, depth+1)
				}
			}
			return val
		}
		for _, key := range []string{"anyOf", "oneOf"} {
			if branches, ok := s[key].([]any); ok {
				for _, br := range branches {
					if bm, ok := br.(map[string]any); ok {
						r := resolve(root, bm, 0)
						if _, ok := r["properties"]; ok {
							return as.applyDefaults(r, val, depth+1)
						}
					}
				}
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i := range val {
				val[i] = as.applyDefaults(items, val[i], depth+1)
			}
		}
	}
	return v
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// OutputJSON is the JSON value a tool's result text stands for under
// spec's OutputSchema, read as ValidateOutput reads it: the text as a JSON
// string when it matches the schema as a string (a String tool's result),
// else the text itself, which is JSON. It is nil without an output schema.
func OutputJSON(spec ToolSpecification, result string) (json.RawMessage, error) {
	if len(bytes.TrimSpace(spec.OutputSchema)) == 0 {
		return nil, nil
	}
	as, err := compileArgSchema(spec.OutputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: output schema: %w", spec.Name, err)
	}
	if as.compiled.Validate(result) == nil {
		return json.Marshal(result)
	}
	if !json.Valid([]byte(result)) {
		return nil, fmt.Errorf("the result of tool %s is not JSON", spec.Name)
	}
	return json.RawMessage(result), nil
}

// ValidateOutput checks a tool's result text against spec's OutputSchema
// (its declared return type) with the validator that checks arguments;
// there is nothing to check without an output schema. The result matches
// when its JSON value does, or when the text itself, as a string, does: a
// String tool's result is its text (`Hello`, or `42`), any other type's is
// JSON. The error says where and how the result differs, as argument
// errors do. Run and BoundAgent.Call (so gramc run and gramc mcp) check
// every tool's result with it.
func ValidateOutput(spec ToolSpecification, result json.RawMessage) error {
	if len(bytes.TrimSpace(spec.OutputSchema)) == 0 {
		return nil
	}
	as, err := compileArgSchema(spec.OutputSchema)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", spec.Name, err)
	}
	if as.compiled.Validate(string(result)) == nil {
		return nil // a string result
	}
	v, err := decodeJSON(result)
	if err != nil {
		return fmt.Errorf("the result of tool %s does not match its output schema: %s (the result is not JSON: %v)", spec.Name, validationMessage(as.compiled.Validate(string(result))), err)
	}
	if err := checkNumbers(v, ""); err != nil {
		return fmt.Errorf("the result of tool %s: %v", spec.Name, err)
	}
	if err := as.compiled.Validate(v); err != nil {
		return fmt.Errorf("the result of tool %s does not match its output schema: %s", spec.Name, validationMessage(err))
	}
	return nil
}
