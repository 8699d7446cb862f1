package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
)

// testPackages are the packages every property test runs over: the
// hand-built models plus every example gram package (golden_test.go).
func testPackages(t *testing.T) []*check.Package {
	return append(handPackages(), examplePackages(t)...)
}

// strictKeywords are the keywords OpenAI's strict mode accepts.
var strictKeywords = map[string]bool{
	"type": true, "description": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "anyOf": true, "$ref": true, "$defs": true, "const": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true,
}

// schemaNodes calls f with every schema node of s (following properties,
// items, anyOf and $defs).
func schemaNodes(s map[string]any, ptr string, f func(ptr string, m map[string]any)) {
	f(ptr, s)
	if props, ok := s["properties"].(map[string]any); ok {
		for k, p := range props {
			schemaNodes(p.(map[string]any), ptr+"/properties/"+k, f)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		schemaNodes(items, ptr+"/items", f)
	}
	for i, a := range anyOf(s) {
		schemaNodes(a.(map[string]any), fmt.Sprintf("%s/anyOf/%d", ptr, i), f)
	}
	if defs, ok := s["$defs"].(map[string]any); ok {
		for k, d := range defs {
			schemaNodes(d.(map[string]any), ptr+"/$defs/"+k, f)
		}
	}
}

func isObjectNode(m map[string]any) bool {
	if m["type"] == "object" {
		return true
	}
	if ts, ok := m["type"].([]any); ok && slices.Contains(ts, any("object")) {
		return true
	}
	return m["properties"] != nil
}

func admitsNull(r resolver, p map[string]any) bool {
	if ts, ok := p["type"].([]any); ok && slices.Contains(ts, any("null")) {
		return true
	}
	for _, a := range anyOf(p) {
		if a.(map[string]any)["type"] == "null" {
			return true
		}
	}
	return false
}

// strictRules are OpenAI's strict-mode rules, one check each. Each returns
// the violations found in the parameters schema of tool.
var strictRules = []struct {
	name  string
	check func(tool *check.Tool, params map[string]any) []string
}{
	{"root is a plain object", func(_ *check.Tool, p map[string]any) []string {
		if p["type"] != "object" || p["anyOf"] != nil {
			return []string{"root is not type object"}
		}
		return nil
	}},
	{"additionalProperties false on every object", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if isObjectNode(m) && m["additionalProperties"] != false {
				bad = append(bad, ptr)
			}
		})
		return bad
	}},
	{"every property required", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			props, _ := m["properties"].(map[string]any)
			req, _ := m["required"].([]any)
			if len(props) != len(req) {
				bad = append(bad, ptr)
			}
			for _, k := range req {
				if _, ok := props[k.(string)]; !ok {
					bad = append(bad, ptr+" requires unknown "+k.(string))
				}
			}
		})
		return bad
	}},
	{"optional parameters are unions with null, required ones are not", func(tool *check.Tool, p map[string]any) (bad []string) {
		props := p["properties"].(map[string]any)
		for _, param := range tool.Params {
			got := admitsNull(resolver{root: p}, props[param.Name].(map[string]any))
			if got != !param.Required() {
				bad = append(bad, fmt.Sprintf("%s: admits null=%v, optional=%v", param.Name, got, !param.Required()))
			}
		}
		return bad
	}},
	{"no default", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if _, ok := m["default"]; ok {
				bad = append(bad, ptr)
			}
		})
		return bad
	}},
	{"only supported keywords", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			for k := range m {
				if !strictKeywords[k] {
					bad = append(bad, ptr+": "+k)
				}
			}
		})
		return bad
	}},
	{"only supported formats", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if f, ok := m["format"].(string); ok && !openAIStrict.formats[f] {
				bad = append(bad, ptr+": "+f)
			}
		})
		return bad
	}},
	{"$ref stands alone", func(_ *check.Tool, p map[string]any) (bad []string) {
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if _, ok := m["$ref"]; ok && len(m) != 1 {
				bad = append(bad, ptr)
			}
		})
		return bad
	}},
	{"within the size limits", func(_ *check.Tool, p map[string]any) (bad []string) {
		props, enums, chars := 0, 0, 0
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if ps, ok := m["properties"].(map[string]any); ok {
				props += len(ps)
				for k := range ps {
					chars += len([]rune(k))
				}
			}
			if e, ok := m["enum"].([]any); ok {
				enums += len(e)
				for _, v := range e {
					if s, ok := v.(string); ok {
						chars += len([]rune(s))
					}
				}
			}
		})
		if defs, ok := p["$defs"].(map[string]any); ok {
			for k := range defs {
				chars += len([]rune(k))
			}
		}
		if props > StrictMaxProperties || enums > StrictMaxEnumValues || chars > StrictMaxStringLength {
			bad = append(bad, fmt.Sprintf("properties %d, enum values %d, characters %d", props, enums, chars))
		}
		if d := jsonDepth(p, p, map[string]bool{}); d > StrictMaxDepth {
			bad = append(bad, fmt.Sprintf("nesting %d", d))
		}
		return bad
	}},
}

// jsonDepth is the object nesting depth of s, following $refs once.
func jsonDepth(root, s map[string]any, seen map[string]bool) int {
	if ref, ok := s["$ref"].(string); ok {
		if seen[ref] {
			return 0
		}
		seen[ref] = true
		defer delete(seen, ref)
		return jsonDepth(root, resolver{root: root}.resolve(s), seen)
	}
	d := 0
	if props, ok := s["properties"].(map[string]any); ok {
		for _, p := range props {
			d = max(d, jsonDepth(root, p.(map[string]any), seen))
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		d = max(d, jsonDepth(root, items, seen))
	}
	for _, a := range anyOf(s) {
		d = max(d, jsonDepth(root, a.(map[string]any), seen))
	}
	if isObjectNode(s) {
		d++
	}
	return d
}

func TestStrictRules(t *testing.T) {
	n := 0
	for _, c := range entries(t, testPackages(t)) {
		fn, _ := c.entry["function"].(map[string]any)
		isStrict := c.target == OpenAIStrict || (c.target == OpenAI && fn["strict"] == true) ||
			(c.target == OpenAIResponses && c.entry["strict"] == true)
		if !isStrict {
			continue
		}
		n++
		params := inputSchemaOf(c.target, c.entry).(map[string]any)
		for _, rule := range strictRules {
			if bad := rule.check(c.tool, params); len(bad) > 0 {
				t.Errorf("%v: rule %q broken at %v", c, rule.name, bad)
			}
		}
	}
	if n == 0 {
		t.Fatal("no strict output checked")
	}
}

// TestStrictRulesCatchViolations: each rule fails on a schema that breaks
// it, so the rules are not vacuous.
func TestStrictRulesCatchViolations(t *testing.T) {
	opt := &check.Tool{Params: []*check.Param{{Name: "a", Optional: true}}}
	broken := map[string]string{
		"root is a plain object":                                          `{"anyOf":[{"type":"object"}]}`,
		"additionalProperties false on every object":                      `{"type":"object","properties":{}}`,
		"every property required":                                         `{"type":"object","properties":{"a":{"type":"string"}},"required":[]}`,
		"optional parameters are unions with null, required ones are not": `{"type":"object","properties":{"a":{"type":"string"}}}`,
		"no default":              `{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		"only supported keywords": `{"type":"object","properties":{"a":{"type":"string","minLength":1}}}`,
		"only supported formats":  `{"type":"object","properties":{"a":{"type":"string","format":"uri"}}}`,
		"$ref stands alone":       `{"type":"object","properties":{"a":{"$ref":"#/$defs/X","description":"d"}}}`,
		"within the size limits":  `{"type":"object","properties":{"a":{"type":"string","enum":[` + strings.Repeat(`"v",`, StrictMaxEnumValues) + `"v"]}}}`,
	}
	for _, rule := range strictRules {
		src, ok := broken[rule.name]
		if !ok {
			t.Errorf("no violation example for rule %q", rule.name)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(src), &m); err != nil {
			t.Fatal(err)
		}
		if len(rule.check(opt, m)) == 0 {
			t.Errorf("rule %q accepted %s", rule.name, src)
		}
	}
}

func TestGeminiSubset(t *testing.T) {
	forbidden := []string{"$ref", "$defs", "additionalProperties", "$schema", "anyOf", "exclusiveMinimum", "exclusiveMaximum", "uniqueItems", "examples", "deprecated"}
	n := 0
	for _, c := range entries(t, testPackages(t)) {
		if c.target != Gemini {
			continue
		}
		n++
		for _, k := range forbidden {
			if strings.Contains(string(c.raw), `"`+k+`":`) {
				t.Errorf("%v: Gemini output contains %q:\n%s", c, k, c.raw)
			}
		}
		p, hasParams := c.entry["parameters"].(map[string]any)
		if hasParams != (len(c.tool.Params) > 0) {
			t.Errorf("%v: parameters present=%v with %d parameters", c, hasParams, len(c.tool.Params))
		}
		if !hasParams {
			continue
		}
		schemaNodes(p, "", func(ptr string, m map[string]any) {
			if _, ok := m["enum"]; ok && (m["type"] != "string" || m["format"] != "enum") {
				t.Errorf("%v %s: enum on %v with format %v", c, ptr, m["type"], m["format"])
			}
			if props, ok := m["properties"].(map[string]any); ok {
				for k := range props {
					if !geminiProperty.re.MatchString(k) {
						t.Errorf("%v %s: property name %q", c, ptr, k)
					}
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no Gemini output checked")
	}
}

func TestEmitStableAndShaped(t *testing.T) {
	for _, pkg := range testPackages(t) {
		for _, target := range Targets() {
			a, errA := Emit(pkg.Tools, target)
			b, errB := Emit(pkg.Tools, target)
			if (errA == nil) != (errB == nil) || string(a) != string(b) {
				t.Fatalf("%s/%s: output differs between runs", pkg.Name, target)
			}
			if errA != nil {
				continue
			}
			if !strings.HasSuffix(string(a), "\n") || strings.HasSuffix(string(a), "\n\n") {
				t.Errorf("%s/%s: output must end in exactly one newline", pkg.Name, target)
			}
			var entries []json.RawMessage
			if err := json.Unmarshal(a, &entries); err != nil || len(entries) != len(pkg.Tools) {
				t.Errorf("%s/%s: not an array of %d entries: %v", pkg.Name, target, len(pkg.Tools), err)
			}
			if len(pkg.Tools) > 0 && !strings.HasPrefix(string(a), "[\n  {\n    \"") {
				t.Errorf("%s/%s: not indented with two spaces:\n%.80s", pkg.Name, target, a)
			}
			// Property order is declaration order.
			for i, tool := range pkg.Tools {
				raw, _ := Entry(tool, target)
				if i < len(entries) && string(compact(t, entries[i])) != string(raw) {
					t.Errorf("%s/%s/%s: Emit and Entry differ", pkg.Name, target, tool.Name)
				}
				last := -1
				for _, p := range tool.Params {
					at := strings.Index(string(raw), `"`+p.Name+`":{`)
					if at < last {
						t.Errorf("%s/%s/%s: property %s out of declaration order", pkg.Name, target, tool.Name, p.Name)
					}
					last = at
				}
			}
		}
	}
}

func compact(t *testing.T, raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParameters(t *testing.T) {
	for _, pkg := range testPackages(t) {
		for _, tool := range pkg.Tools {
			p, err := Parameters(tool)
			raw, errE := Entry(tool, OpenAI)
			// Entry also checks the tool name; Parameters only the schema.
			if err != nil && errE == nil {
				t.Fatalf("%s: Parameters err %v, Entry ok", tool.Name, err)
			}
			if errE != nil {
				continue
			}
			var e struct {
				Function struct {
					Parameters json.RawMessage `json:"parameters"`
				} `json:"function"`
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			if string(p) != string(e.Function.Parameters) {
				t.Errorf("%s: Parameters\n%s\nopenai parameters\n%s", tool.Name, p, e.Function.Parameters)
			}
			if _, err := Output(tool); err != nil {
				t.Errorf("%s: Output: %v", tool.Name, err)
			}
		}
	}
	noParams := &check.Tool{Name: "ping", Description: "Ping", Result: &check.Type{Kind: check.Boolean}}
	p, err := Parameters(noParams)
	if err != nil || string(p) != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Errorf("no parameters: %s, %v", p, err)
	}
}

func TestParseTarget(t *testing.T) {
	for _, target := range Targets() {
		if got, err := ParseTarget(string(target)); err != nil || got != target {
			t.Errorf("ParseTarget(%q) = %q, %v", target, got, err)
		}
	}
	_, err := ParseTarget("opneai")
	if err == nil || !strings.Contains(err.Error(), `did you mean openai?`) {
		t.Errorf("ParseTarget(opneai): %v", err)
	}
	ts, err := ParseTargets("gemini, openai,gemini")
	if err != nil || len(ts) != 2 || ts[0] != Gemini || ts[1] != OpenAI {
		t.Errorf("ParseTargets: %v, %v", ts, err)
	}
	if ts, err := ParseTargets("all"); err != nil || len(ts) != len(Targets()) {
		t.Errorf("ParseTargets(all): %v, %v", ts, err)
	}
	if _, err := ParseTargets("openai,antropic"); err == nil || !strings.Contains(err.Error(), `did you mean anthropic?`) {
		t.Errorf("ParseTargets(openai,antropic): %v", err)
	}
	if _, err := Emit(nil, "nope"); err == nil {
		t.Error("Emit accepted an unknown target")
	}
}

// TestLintCodes: each code is produced, at the expected place, by the
// hand-built kitchen model.
func TestLintCodes(t *testing.T) {
	ds := Lint(kitchenModel(), Targets())
	want := []struct {
		code diag.Code
		line int
		sev  diag.Severity
		sub  string
	}{
		{diag.CodeTargetEnumInDescription, 1, diag.Warning, "gemini enums hold strings only; the values of Level"},
		{diag.CodeTargetRecursiveType, 5, diag.Error, "gemini cannot express the recursive type Comment"},
		{diag.CodeTargetKeywordInDescription, 10, diag.Warning, "openai-strict does not support minLength"},
		{diag.CodeTargetKeywordInDescription, 12, diag.Warning, "gemini does not support format uri"},
		{diag.CodeTargetDefaultInDescription, 13, diag.Warning, "openai-strict does not support default"},
		{diag.CodeTargetKeywordInDescription, 13, diag.Warning, "gemini does not support exclusiveMinimum"},
		{diag.CodeTargetKeywordInDescription, 16, diag.Warning, "openai-strict does not support uniqueItems"},
		{diag.CodeTargetInvalidName, 27, diag.Error, `anthropic does not accept the tool name "store-blob.v2"`},
		{diag.CodeTargetStrictFreeFormObject, 28, diag.Error, "openai-strict does not accept a free-form Object"},
		{diag.CodeTargetInvalidPropertyName, 29, diag.Error, `gemini does not accept the property name "content-type"`},
	}
	for _, w := range want {
		found := false
		for _, d := range ds {
			if d.Code == w.code && int(d.Range.Start.Line) == w.line && d.Severity == w.sev && strings.Contains(d.Summary, w.sub) {
				found = d.Detail != ""
			}
		}
		if !found {
			t.Errorf("missing %s %s at line %d: %q", w.sev, w.code, w.line, w.sub)
		}
	}
	// Sorted and without duplicates.
	for i := 1; i < len(ds); i++ {
		if ds[i-1].Range.Start.Offset > ds[i].Range.Start.Offset {
			t.Errorf("not sorted: %v before %v", ds[i-1], ds[i])
		}
		if ds[i-1].Error() == ds[i].Error() {
			t.Errorf("duplicate: %v", ds[i])
		}
	}
	// The weather example is clean for every target but strict mode's
	// fallbacks.
	for _, d := range Lint(weatherModel(), Targets()) {
		if d.Severity == diag.Error || !strings.HasPrefix(d.Summary, "openai-strict") {
			t.Errorf("weather: unexpected %v", d)
		}
	}
	if ds := Lint(weatherModel(), []Target{"opneai"}); len(ds) != 1 || ds[0].Code != diag.CodeTargetUnknown {
		t.Errorf("unknown target: %v", ds)
	}
}

func TestStrictLimits(t *testing.T) {
	// 1,001 enum values and deep nesting exceed the limits.
	values := make([]any, StrictMaxEnumValues+1)
	for i := range values {
		values[i] = fmt.Sprintf("v%d", i)
	}
	big := &check.Tool{Name: "big", Description: "Big", Params: []*check.Param{{Name: "e", Type: &check.Type{Kind: check.String},
		Constraints: &check.Constraints{Enum: values}}}, Result: &check.Type{Kind: check.String}}
	var inner *check.TypeDecl
	for i := 0; i < StrictMaxDepth+1; i++ {
		d := &check.TypeDecl{Name: fmt.Sprintf("L%d", i)}
		if inner != nil {
			d.Fields = []*check.Param{{Name: "next", Type: &check.Type{Kind: check.Record, Decl: inner}}}
		}
		inner = d
	}
	deep := &check.Tool{Name: "deep", Description: "Deep", Params: []*check.Param{{Name: "x", Type: &check.Type{Kind: check.Record, Decl: inner}}},
		Result: &check.Type{Kind: check.String}}
	for _, tool := range []*check.Tool{big, deep} {
		_, err := Entry(tool, OpenAIStrict)
		if err == nil || !strings.Contains(err.Error(), string(diag.CodeTargetStrictLimit)) {
			t.Errorf("%s: want a %s error, got %v", tool.Name, diag.CodeTargetStrictLimit, err)
		}
		if _, err := Entry(tool, OpenAI); err != nil {
			t.Errorf("%s: non-strict openai must not apply strict limits: %v", tool.Name, err)
		}
	}
}
