package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

// schemasIn returns the JSON Schemas inside a target entry, by name.
func schemasIn(target Target, entry map[string]any) map[string]any {
	out := map[string]any{}
	add := func(name string, v any) {
		if v != nil {
			out[name] = v
		}
	}
	switch target {
	case JSONSchema:
		add("inputSchema", entry["inputSchema"])
		add("outputSchema", entry["outputSchema"])
	case OpenAI, OpenAIStrict:
		add("parameters", entry["function"].(map[string]any)["parameters"])
	case OpenAIFunctions, OpenAIResponses, Gemini:
		add("parameters", entry["parameters"])
	case Anthropic:
		add("input_schema", entry["input_schema"])
	case MCP:
		add("inputSchema", entry["inputSchema"])
		add("outputSchema", entry["outputSchema"])
	default:
		// A target without a case would have its schemas go unchecked by
		// every test below: fail instead (TestSchemasInEveryTarget).
		panic(fmt.Sprintf("schemasIn: no case for target %s; say where its entries hold their schemas", target))
	}
	return out
}

// TestSchemasInEveryTarget: schemasIn knows where every target's entry
// holds its arguments schema, so the validation tests miss no target.
func TestSchemasInEveryTarget(t *testing.T) {
	tool := weatherModel().Tools[0]
	for _, target := range Targets() {
		raw, err := Entry(tool, target)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Error(r)
				}
			}()
			if inputSchemaOf(target, decode(t, raw).(map[string]any)) == nil {
				t.Errorf("%s: schemasIn finds no arguments schema in %s", target, raw)
			}
		}()
	}
}

// inputSchemaOf is the arguments schema of an entry.
func inputSchemaOf(target Target, entry map[string]any) any {
	for _, k := range []string{"inputSchema", "parameters", "input_schema"} {
		if s, ok := schemasIn(target, entry)[k]; ok {
			return s
		}
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
	openai, mcp := load("openai-chat-tools.schema.json"), load("mcp-2025-11-25.schema.json")
	compile := func(doc any, loc, ptr string) *sjs.Schema {
		c := sjs.NewCompiler()
		if err := c.AddResource(loc, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(loc + "#" + ptr)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const oa, mc = "https://reference.test/openai.json", "https://reference.test/mcp.json"
	refs := map[Target]*sjs.Schema{
		OpenAI:          compile(openai, oa, "/components/schemas/ChatCompletionTool"),
		OpenAIStrict:    compile(openai, oa, "/components/schemas/ChatCompletionTool"),
		OpenAIFunctions: compile(openai, oa, "/components/schemas/ChatCompletionFunctions"),
		OpenAIResponses: compile(openai, oa, "/components/schemas/FunctionTool"),
		MCP:             compile(mcp, mc, "/$defs/Tool"),
	}
	// The targets with no published schema of a tool, and what checks
	// their entries instead: a new target without either fails here
	// rather than going unchecked.
	noReference := map[Target]string{
		Anthropic:  "TestAnthropicShape",
		Gemini:     "TestGeminiSubset",
		JSONSchema: "gramc's own format; its schemas compile against the metaschema (TestSchemasCompile)",
	}
	for _, target := range Targets() {
		if _, ok := refs[target]; !ok && noReference[target] == "" {
			t.Errorf("target %s has no reference schema here and no shape test in noReference", target)
		}
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
		keys := sortedKeys(c.entry)
		if !slices.Equal(keys, []string{"description", "input_schema", "name"}) {
			t.Errorf("%v: keys %v", c, keys)
		}
		if s := c.entry["input_schema"].(map[string]any); s["type"] != "object" {
			t.Errorf("%v: input_schema type %v", c, s["type"])
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
