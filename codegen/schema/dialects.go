package schema

import (
	"regexp"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/invopop/jsonschema"
)

// This file is the one place that says what each target is. A target is a
// dialect record: its name rules, which schema subset its parameters use
// and when, and the envelope its tool entries have. A schema subset is a
// record of what that JSON Schema dialect can express; a keyword it lacks
// moves into the description with a warning. Adding a target is one
// dialect record (and a subset when its schema language is new), a section
// of docs/schema.md and regenerated goldens.

// subset is what one schema dialect can express.
type subset struct {
	// provider names the dialect in messages ("OpenAI's strict mode").
	provider string
	// inlineDefs: no $defs or $ref; named types are copied at every use
	// (so recursion cannot be expressed).
	inlineDefs bool
	// allRequired: every property is required and an optional one is a
	// union with null; there is no default.
	allRequired bool
	// closedObjects: every object says additionalProperties: false.
	closedObjects bool
	// freeFormObjects: an Object without declared properties is accepted.
	freeFormObjects bool
	// stringEnums: enum holds strings only and is written with format
	// "enum"; a numeric enum's values go into the description.
	stringEnums bool
	// formats are the string formats accepted; nil means all of gram's.
	formats map[string]bool
	// Keywords the dialect has.
	exclusiveBounds, lengths, uniqueItems, examples, deprecated bool
}

var (
	// standard is JSON Schema draft 2020-12: $defs and $ref for named
	// types, every keyword gram has.
	standard = &subset{
		provider: "JSON Schema", closedObjects: true, freeFormObjects: true,
		exclusiveBounds: true, lengths: true, uniqueItems: true, examples: true, deprecated: true,
	}
	// openAIStrict is OpenAI's strict subset (structured outputs).
	openAIStrict = &subset{
		provider: "OpenAI's strict mode", allRequired: true, closedObjects: true, exclusiveBounds: true,
		formats: map[string]bool{
			"date-time": true, "time": true, "date": true, "duration": true, "email": true,
			"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
		},
	}
	// geminiOpenAPI is Gemini's OpenAPI 3.0 schema subset.
	geminiOpenAPI = &subset{
		provider: "Gemini", inlineDefs: true, freeFormObjects: true, stringEnums: true, lengths: true,
		formats: map[string]bool{"date-time": true},
	}
)

// strictness says when a target's parameters use OpenAI's strict subset.
type strictness int

const (
	neverStrict  strictness = iota
	alwaysStrict            // every tool (openai-strict)
	strictByTool            // tools that say strict: true
)

// nameRule is a provider's rule for a name: the pattern and, for the
// message, the rule in words.
type nameRule struct {
	re       *regexp.Regexp
	words    string
	severity diag.Severity
}

var (
	// openAIName is OpenAI's and Anthropic's function name rule.
	openAIName = &nameRule{regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`), "letters, digits, underscores and dashes only, 1 to 64 characters", diag.Error}
	// geminiName: a letter or underscore first; letters, digits,
	// underscores, dots and dashes; at most 64 characters.
	geminiName = &nameRule{regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$`), "a letter or underscore first, then letters, digits, underscores, dots and dashes, at most 64 characters", diag.Error}
	// geminiProperty: parameter names; no dots or dashes.
	geminiProperty = &nameRule{regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`), "start with a letter or an underscore and hold only letters, digits and underscores, at most 64 characters", diag.Error}
	// mcpName is MCP's recommended (SHOULD) tool name rule.
	mcpName = &nameRule{regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,128}$`), "letters, digits, underscores, dashes and dots only, 1 to 128 characters", diag.Warning}
)

// envelope builds a tool's entry for a target from its schemas: build
// returns a builder of the dialect's subset (every builder's issues are
// reported).
type envelope func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics)

// dialect is one target.
type dialect struct {
	target Target
	// toolName and propertyName are the provider's name rules (nil: none).
	toolName, propertyName *nameRule
	// subset is the parameters' schema dialect; strict says when OpenAI's
	// strict subset replaces it.
	subset *subset
	strict strictness
	entry  envelope
	// schemas are the JSON pointers, in an entry, of the schemas it holds
	// (arguments first), which the validation tests check; reference is
	// the provider's published schema of a tool entry that checks whole
	// entries (a file of testdata/reference and a pointer in it), or, for
	// a provider that publishes none, "test:" and the test that checks the
	// entry's shape instead.
	schemas   []string
	reference string
}

// dialects are the targets, in documentation order.
var dialects = []*dialect{
	{target: JSONSchema, schemas: []string{"/inputSchema", "/outputSchema"}, reference: "test: gramc's own format; its schemas compile against the metaschema (TestSchemasCompile)",
		subset: standard, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			in, out := build(standard).input(t), build(standard).output(t)
			in.Version, out.Version = jsonschema.Version, jsonschema.Version
			return object{{"name", t.Name}, {"description", t.Description}, {"inputSchema", in}, {"outputSchema", out}}, nil
		}},
	{target: OpenAI, schemas: []string{"/function/parameters"}, reference: "openai-chat-tools.schema.json#/components/schemas/ChatCompletionTool",
		toolName: openAIName, subset: standard, strict: strictByTool, entry: chatTool},
	{target: OpenAIStrict, schemas: []string{"/function/parameters"}, reference: "openai-chat-tools.schema.json#/components/schemas/ChatCompletionTool",
		toolName: openAIName, subset: standard, strict: alwaysStrict, entry: chatTool},
	{target: OpenAIFunctions, schemas: []string{"/parameters"}, reference: "openai-chat-tools.schema.json#/components/schemas/ChatCompletionFunctions",
		toolName: openAIName, subset: standard, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			return object{{"name", t.Name}, {"description", t.Description}, {"parameters", build(standard).input(t)}}, nil
		}},
	{target: OpenAIResponses, schemas: []string{"/parameters"}, reference: "openai-chat-tools.schema.json#/components/schemas/FunctionTool",
		toolName: openAIName, subset: standard, strict: strictByTool, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			s, st, issues := parameters(t, d)
			return object{{"type", "function"}, {"name", t.Name}, {"description", t.Description}, {"parameters", s}, {"strict", st}}, issues
		}},
	{target: Anthropic, schemas: []string{"/input_schema"}, reference: "test: TestAnthropicShape",
		toolName: openAIName, subset: standard, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			return object{{"name", t.Name}, {"description", t.Description}, {"input_schema", build(standard).input(t)}}, nil
		}},
	{target: MCP, schemas: []string{"/inputSchema", "/outputSchema"}, reference: "mcp-2026-07-28.schema.json#/$defs/Tool",
		toolName: mcpName, subset: standard, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			e := object{{"name", t.Name}}
			if t.Title != "" {
				e = append(e, member{"title", t.Title})
			}
			e = append(e, member{"description", t.Description}, member{"inputSchema", build(standard).input(t)})
			// _meta states the MCP version the entry is written for (its
			// output schema may be any JSON Schema from that version on);
			// MCP has no deprecation field, so _meta carries that too for
			// hosts and agents that look.
			meta := object{{MCPVersionKey, MCPVersion}}
			if t.Deprecated {
				meta = append(meta, member{"deprecated", true})
			}
			e = append(e, member{"_meta", meta})
			// Every result's schema: MCP 2026-07-28 (SEP-2106) allows any
			// JSON Schema as outputSchema, an array's or a scalar's too
			// (gramc mcp keeps a non-object one from an earlier client).
			if t.Result != nil {
				e = append(e, member{"outputSchema", build(standard).output(t)})
			}
			return e, nil
		}},
	{target: Gemini, schemas: []string{"/parameters"}, reference: "test: TestGeminiSubset",
		toolName: geminiName, propertyName: geminiProperty, subset: geminiOpenAPI, entry: func(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
			e := object{{"name", t.Name}, {"description", t.Description}}
			// "For function with no parameters, this can be left unset": an
			// OBJECT with no properties is rejected.
			if len(t.Params) > 0 {
				e = append(e, member{"parameters", build(geminiOpenAPI).input(t)})
			}
			return e, nil
		}},
}

// MCPVersion is the MCP protocol version the mcp target's entries
// describe: the first whose tool output schema may be any JSON Schema
// (SEP-2106), an array's or a scalar's. Each entry states it in its
// _meta under MCPVersionKey.
const MCPVersion = "2026-07-28"

// MCPVersionKey is the _meta key of an mcp entry's MCPVersion.
const MCPVersionKey = "dev.gramc/protocolVersion"

// chatTool is a Chat Completions `tools` entry.
func chatTool(t *check.Tool, d *dialect, build func(*subset) *builder) (object, diag.Diagnostics) {
	s, st, issues := parameters(t, d)
	return object{{"type", "function"}, {"function", object{{"name", t.Name}, {"description", t.Description}, {"parameters", s}, {"strict", st}}}}, issues
}

// dialectOf returns target's record, or nil for an unknown target.
func dialectOf(target Target) *dialect {
	for _, d := range dialects {
		if d.target == target {
			return d
		}
	}
	return nil
}

// strictFor reports whether t's parameters use OpenAI's strict subset
// for d.
func (d *dialect) strictFor(t *check.Tool) bool {
	switch d.strict {
	case alwaysStrict:
		return true
	case strictByTool:
		return t.Strict != nil && *t.Strict
	}
	return false
}
