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
	// described memoizes describedDefault by description text: a strict
	// schema's defaults are read from descriptions once, not on every call.
	described sync.Map // string -> describedValue
}

type describedValue struct {
	v  any
	ok bool
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

func compileArgSchema(schema json.RawMessage) (*argSchema, error) {
	text := string(bytes.TrimSpace(schema))
	if text == "" || text == "null" {
		text = `{"type":"object"}`
	}
	if v, ok := schemaCache.Load(text); ok {
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
	as := &argSchema{doc: doc2, compiled: compiled}
	schemaCacheMu.Lock()
	if schemaCacheN < schemaCacheSize {
		if _, loaded := schemaCache.LoadOrStore(text, as); !loaded {
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

// MaxNumberLength bounds the text of a number in a tool's arguments
// (internal/limits: check enforces the same bound on declarations).
const MaxNumberLength = limits.MaxNumberLength

// checkNumbers reports the first number in v longer than MaxNumberLength.
func checkNumbers(v any, ptr string) error {
	switch x := v.(type) {
	case json.Number:
		if len(x) > MaxNumberLength {
			where := ptr
			if where == "" {
				where = "/"
			}
			return fmt.Errorf("at '%s': number has %d characters; numbers are limited to %d: send it as a shorter number", where, len(x), MaxNumberLength)
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

// defaultOf returns a property schema's default: its own `default`, the
// default of the schema its $ref names, or, for a nullable property
// without one (OpenAI's strict mode has no `default`), the value of the
// "Default: <JSON>." note gramc's schema emitter writes in its
// description.
func (as *argSchema) defaultOf(s map[string]any) (any, bool) {
	if d, ok := s["default"]; ok {
		return d, true
	}
	r := resolve(as.doc, s, 0)
	if d, ok := r["default"]; ok {
		return d, true
	}
	if desc, ok := s["description"].(string); ok && nullable(s) {
		if m, ok := as.described.Load(desc); ok {
			return m.(describedValue).v, m.(describedValue).ok
		}
		v, ok := describedDefault(desc)
		as.described.Store(desc, describedValue{v, ok})
		return v, ok
	}
	return nil, false
}

// nullable reports whether a schema is a strict-mode union with null.
func nullable(s map[string]any) bool {
	switch t := s["type"].(type) {
	case []any:
		for _, x := range t {
			if x == "null" {
				return true
			}
		}
	}
	if branches, ok := s["anyOf"].([]any); ok {
		for _, b := range branches {
			if bm, ok := b.(map[string]any); ok && bm["type"] == "null" {
				return true
			}
		}
	}
	return false
}

// describedDefault reads the last "Default: <JSON>." note of desc (notes
// are separated by spaces, so the value ends at a "." followed by a space
// or the end). It is linear in len(desc) for each note: a value is read
// once by a JSON decoder (an object, array or string ends where its
// brackets or quotes close) or, for a number, true, false or null, up to
// the next space.
func describedDefault(desc string) (any, bool) {
	const note = "Default: "
	for end := len(desc); ; {
		i := strings.LastIndex(desc[:end], note)
		if i < 0 {
			return nil, false
		}
		if v, ok := leadingValue(desc[i+len(note):]); ok {
			return v, true
		}
		end = i
	}
}

// leadingValue decodes the JSON value at the start of s when it is
// followed by "." and then a space or the end of s.
func leadingValue(s string) (any, bool) {
	if s == "" {
		return nil, false
	}
	var text string
	switch s[0] {
	case '{', '[', '"':
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		text = s[:dec.InputOffset()]
	default:
		text = s
		if sp := strings.IndexByte(s, ' '); sp >= 0 {
			text = s[:sp]
		}
		text = strings.TrimSuffix(text, ".")
	}
	rest := s[len(text):]
	if !strings.HasPrefix(rest, ".") || len(rest) > 1 && rest[1] != ' ' {
		return nil, false
	}
	v, err := decodeJSON([]byte(text))
	if err != nil || text == "" {
		return nil, false
	}
	return v, true
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

// ValidateOutput checks a tool's JSON result against spec's OutputSchema
// with the validator that checks arguments (nothing to check without an
// output schema). The error says where the result differs, as argument
// errors do.
func ValidateOutput(spec ToolSpecification, result json.RawMessage) error {
	if len(bytes.TrimSpace(spec.OutputSchema)) == 0 {
		return nil
	}
	as, err := compileArgSchema(spec.OutputSchema)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", spec.Name, err)
	}
	v, err := decodeJSON(result)
	if err != nil {
		return fmt.Errorf("the result of tool %s is not JSON: %v", spec.Name, err)
	}
	if err := checkNumbers(v, ""); err != nil {
		return fmt.Errorf("the result of tool %s: %v", spec.Name, err)
	}
	if err := as.compiled.Validate(v); err != nil {
		return fmt.Errorf("the result of tool %s does not match its output schema: %s", spec.Name, validationMessage(err))
	}
	return nil
}
