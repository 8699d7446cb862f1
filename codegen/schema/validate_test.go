package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// These tests hold for every package testPackages returns: hand-built
// models and, through golden_test.go, every example gram package.

// decode parses JSON into the values santhosh-tekuri/jsonschema validates
// (numbers as json.Number).
func decode(t testing.TB, raw []byte) any {
	t.Helper()
	v, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, raw)
	}
	return v
}

// schemasIn returns the JSON Schemas inside a target entry, by their
// pointer, where the target's dialect row says its entries hold them.
func schemasIn(target Target, entry map[string]any) map[string]any {
	out := map[string]any{}
	for _, ptr := range dialectOf(target).schemas {
		var v any = entry
		for _, key := range strings.Split(ptr, "/")[1:] {
			m, _ := v.(map[string]any)
			v = m[key]
		}
		if v != nil {
			out[ptr] = v
		}
	}
	return out
}

// TestSchemasInEveryTarget: every target's dialect row says where its
// entries hold their arguments schema, so the validation tests miss no
// target.
func TestSchemasInEveryTarget(t *testing.T) {
	tool := weatherModel().Tools[0]
	for _, target := range Targets() {
		raw, err := Entry(tool, target)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if len(dialectOf(target).schemas) == 0 {
			t.Errorf("%s: its dialect row names no schemas (the schemas field)", target)
		} else if inputSchemaOf(target, decode(t, raw).(map[string]any)) == nil {
			t.Errorf("%s: no arguments schema at %s in %s", target, dialectOf(target).schemas[0], raw)
		}
	}
}

// inputSchemaOf is the arguments schema of an entry: the first its
// dialect row names.
func inputSchemaOf(target Target, entry map[string]any) any {
	if ptrs := dialectOf(target).schemas; len(ptrs) > 0 {
		return schemasIn(target, entry)[ptrs[0]]
	}
	return nil
}

// compileAt compiles the schema document doc at the JSON pointer ptr.
func compileAt(doc any, ptr string) (*sjs.Schema, error) {
	c := sjs.NewCompiler()
	c.AssertFormat()
	const loc = "mem://gramc/schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	if ptr == "" {
		return c.Compile(loc)
	}
	return c.Compile(loc + "#" + (&url.URL{Fragment: ptr}).EscapedFragment())
}

// entryCase is one tool's successful payload for one target.
type entryCase struct {
	pkg    string
	tool   *check.Tool
	target Target
	raw    json.RawMessage
	entry  map[string]any
}

func (c entryCase) String() string { return fmt.Sprintf("%s/%s/%s", c.pkg, c.tool.Name, c.target) }

// entries returns every tool × target payload of pkgs that emits without
// error, and checks that every refusal is a *Error that Lint also reports.
func entries(t *testing.T, pkgs []*check.Package) []entryCase {
	t.Helper()
	var out []entryCase
	for _, pkg := range pkgs {
		for _, target := range Targets() {
			lint := Lint(pkg, []Target{target})
			for _, tool := range pkg.Tools {
				raw, err := Entry(tool, target)
				if err != nil {
					var se *Error
					if !errors.As(err, &se) || !se.Diagnostics.HasErrors() {
						t.Errorf("%s/%s/%s: error without diagnostics: %v", pkg.Name, tool.Name, target, err)
					} else if !lint.HasErrors() {
						t.Errorf("%s/%s/%s: Entry refused (%v) but Lint reports no error", pkg.Name, tool.Name, target, err)
					}
					continue
				}
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatalf("%s/%s/%s: invalid JSON: %v", pkg.Name, tool.Name, target, err)
				}
				out = append(out, entryCase{pkg: pkg.Name, tool: tool, target: target, raw: raw, entry: decode(t, raw).(map[string]any)})
			}
		}
	}
	return out
}

func handPackages() []*check.Package { return []*check.Package{weatherModel(), kitchenModel()} }

// TestSchemasCompile: every emitted schema compiles against the draft
// 2020-12 metaschema.
func TestSchemasCompile(t *testing.T) {
	for _, c := range entries(t, testPackages(t)) {
		for name, s := range schemasIn(c.target, c.entry) {
			if _, err := compileAt(s, ""); err != nil {
				t.Errorf("%v %s: %v", c, name, err)
			}
		}
	}
}

// walk calls f with every JSON object inside v and its JSON pointer.
func walk(v any, ptr string, f func(ptr string, m map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		f(ptr, v)
		for k, x := range v {
			walk(x, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k), f)
		}
	case []any:
		for i, x := range v {
			walk(x, fmt.Sprintf("%s/%d", ptr, i), f)
		}
	}
}

// isSchemaPointer reports whether ptr addresses a schema (not, say, a
// default value that happens to be an object).
func isSchemaPointer(ptr string) bool {
	parts := strings.Split(ptr, "/")[1:]
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "$defs":
			i++ // the name
		case "items":
		case "anyOf":
			i++ // the index
		default:
			return false
		}
	}
	return true
}

// TestDefaultsAndExamplesValidate: every default and examples value
// validates against the schema it is attached to.
func TestDefaultsAndExamplesValidate(t *testing.T) {
	n := 0
	for _, c := range entries(t, testPackages(t)) {
		for name, s := range schemasIn(c.target, c.entry) {
			walk(s, "", func(ptr string, m map[string]any) {
				if !isSchemaPointer(ptr) {
					return
				}
				var values []any
				if d, ok := m["default"]; ok {
					values = append(values, d)
				}
				if ex, ok := m["examples"].([]any); ok {
					values = append(values, ex...)
				}
				if len(values) == 0 {
					return
				}
				sch, err := compileAt(s, ptr)
				if err != nil {
					t.Errorf("%v %s#%s: %v", c, name, ptr, err)
					return
				}
				for _, v := range values {
					n++
					if err := sch.Validate(v); err != nil {
						t.Errorf("%v %s#%s: value %v does not validate: %v", c, name, ptr, v, err)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no default or examples value was checked")
	}
}

// TestReferenceSchemas: every entry validates against the provider's own
// published schema of a tool.
func TestReferenceSchemas(t *testing.T) {
	load := func(file string) any {
		raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "reference", file))
		if err != nil {
			t.Fatal(err)
		}
		return decode(t, raw)
	}
	compile := func(file, ptr string) *sjs.Schema {
		loc := "https://reference.test/" + file
		c := sjs.NewCompiler()
		if err := c.AddResource(loc, load(file)); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(loc + "#" + ptr)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Each target's row says which published schema checks its entries,
	// or which test checks them instead.
	refs := map[Target]*sjs.Schema{}
	for _, d := range dialects {
		if test, ok := strings.CutPrefix(d.reference, "test: "); ok && test != "" {
			continue
		}
		file, ptr, ok := strings.Cut(d.reference, "#")
		if !ok {
			t.Errorf("target %s: its dialect row's reference %q is neither a published schema (file#pointer) nor \"test: \" and the test that checks its entries", d.target, d.reference)
			continue
		}
		refs[d.target] = compile(file, ptr)
	}
	n := 0
	for _, c := range entries(t, testPackages(t)) {
		ref, ok := refs[c.target]
		if !ok {
			continue
		}
		n++
		if err := ref.Validate(c.entry); err != nil {
			t.Errorf("%v does not match the provider's schema: %v\n%s", c, err, c.raw)
		}
	}
	if n == 0 {
		t.Fatal("nothing checked")
	}
	// The reference schemas are not vacuous: a broken entry fails.
	bad := decode(t, []byte(`{"type":"function","function":{"description":"no name"}}`))
	if refs[OpenAI].Validate(bad) == nil {
		t.Error("ChatCompletionTool accepted an entry without a name")
	}
	if refs[MCP].Validate(decode(t, []byte(`{"name":"x","inputSchema":{"type":"string"}}`))) == nil {
		t.Error("MCP Tool accepted a non-object inputSchema")
	}
}

// TestAnthropicShape: Anthropic publishes no JSON Schema of a tool here;
// check its documented shape directly.
func TestAnthropicShape(t *testing.T) {
	for _, c := range entries(t, testPackages(t)) {
		if c.target != Anthropic {
			continue
		}
		keys := slices.Sorted(maps.Keys(c.entry))
		if !slices.Equal(keys, []string{"description", "input_schema", "name"}) {
			t.Errorf("%v: keys %v", c, keys)
		}
		if s := c.entry["input_schema"].(map[string]any); s["type"] != "object" {
			t.Errorf("%v: input_schema type %v", c, s["type"])
		}
	}
}

// TestEveryTargetHasADocsSection: docs/schema.md's "Targets" has a
// section for every target, headed by its name, in the order of the
// dialect rows (the order --target all and the docs list them in).
func TestEveryTargetHasADocsSection(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "\n## Targets\n")
	if start < 0 {
		t.Fatal(`docs/schema.md has no "## Targets"`)
	}
	doc = doc[start+1:]
	if end := strings.Index(doc[3:], "\n## "); end >= 0 {
		doc = doc[:end+3]
	}
	var headed []string
	for _, line := range strings.Split(doc, "\n") {
		if rest, ok := strings.CutPrefix(line, "### `"); ok {
			name, _, _ := strings.Cut(rest, "`")
			headed = append(headed, name)
		}
	}
	var want []string
	for _, d := range dialects {
		want = append(want, string(d.target))
	}
	if strings.Join(headed, " ") != strings.Join(want, " ") {
		t.Errorf("docs/schema.md's Targets has sections %v, want one per target in the dialect rows' order: %v", headed, want)
	}
}
