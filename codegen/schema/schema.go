// Package schema turns checked gram tools into JSON Schema and into the
// exact tool payloads LLM providers accept: plain JSON Schema (draft
// 2020-12), OpenAI Chat Completions tools (plain and strict), OpenAI's
// legacy functions, OpenAI Responses tools, Anthropic tools, MCP tools/list
// entries and Gemini function declarations.
//
// Everything here is a pure function of the checked model. Output is
// byte-stable: properties keep declaration order, named types are $defs
// sorted by name, and every object's keys print in a documented order
// (docs/schema.md). What a target cannot express is either moved into a
// description (reported by Lint as a warning) or refused (an error from
// Emit, Entry and Lint alike, so nothing a provider would reject is ever
// printed).
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/toolspec"
	"github.com/invopop/jsonschema"
)

// Target is an output format of `gramc schema --target`.
type Target string

// The targets, each a provider's documented wire shape.
const (
	// JSONSchema: {"name","description","inputSchema","outputSchema"} with
	// draft 2020-12 schemas carrying $schema.
	JSONSchema Target = "jsonschema"
	// OpenAI: Chat Completions `tools` entries
	// {"type":"function","function":{name, description, parameters, strict}}.
	OpenAI Target = "openai"
	// OpenAIStrict: like OpenAI with strict true and a schema in OpenAI's
	// strict subset.
	OpenAIStrict Target = "openai-strict"
	// OpenAIFunctions: the legacy Chat Completions `functions` entries
	// {name, description, parameters}.
	OpenAIFunctions Target = "openai-functions"
	// OpenAIResponses: Responses API tools
	// {type:"function", name, description, parameters, strict}.
	OpenAIResponses Target = "openai-responses"
	// Anthropic: Messages API tools {name, description, input_schema}.
	Anthropic Target = "anthropic"
	// MCP: tools/list entries {name, title?, description, inputSchema,
	// outputSchema?}.
	MCP Target = "mcp"
	// Gemini: function declarations {name, description, parameters?} in
	// Gemini's OpenAPI 3.0 schema subset.
	Gemini Target = "gemini"
)

// Targets returns every target in documentation order.
func Targets() []Target {
	out := make([]Target, len(dialects))
	for i, d := range dialects {
		out[i] = d.target
	}
	return out
}

// ParseTarget returns the target named s. An unknown name is an error that
// lists the targets and suggests the closest one.
func ParseTarget(s string) (Target, error) {
	names := make([]string, 0, len(Targets()))
	for _, t := range Targets() {
		if string(t) == s {
			return t, nil
		}
		names = append(names, string(t))
	}
	return "", fmt.Errorf("unknown target %q%s", s, suggest.Hint(s, names, "targets"))
}

// ParseTargets parses a comma-separated list of targets (as `gramc check
// --target openai,gemini` takes), in order and without duplicates. "all"
// stands for every target.
func ParseTargets(s string) ([]Target, error) {
	var out []Target
	seen := map[Target]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "all" {
			for _, t := range Targets() {
				if !seen[t] {
					seen[t] = true
					out = append(out, t)
				}
			}
			continue
		}
		t, err := ParseTarget(name)
		if err != nil {
			return nil, err
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// Spec returns t's specification as target emits it, the one value every
// consumer takes: the runtime's .gram loader (gramfile), gramc mcp
// and generated Go code (codegen/golang), so a tool loaded at run time and
// the same tool compiled into Go are identical by construction. Its Schema
// is target's parameters schema: OpenAI's is what generated code embeds
// and runtime.Run sends, and then TargetSchemas carries the other
// targets' where they differ (Anthropic's standard schema of a strict
// tool, Gemini's OpenAPI subset); an MCP server serves the mcp target's
// inputSchema (a strict tool's OpenAI schema is shaped for OpenAI's
// strict mode).
func Spec(t *check.Tool, target Target) (toolspec.Spec, error) {
	d := dialectOf(target)
	if d == nil {
		_, err := ParseTarget(string(target))
		return toolspec.Spec{}, err
	}
	ps, s, issues := parameters(t, d)
	if issues.HasErrors() {
		return toolspec.Spec{}, &Error{Tool: t.Name, Target: target, Diagnostics: issues}
	}
	params, err := marshal(ps)
	if err != nil {
		return toolspec.Spec{}, err
	}
	out, err := Output(t)
	if err != nil {
		return toolspec.Spec{}, err
	}
	spec := toolspec.Spec{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		Signature:    t.Signature,
		Schema:       params,
		OutputSchema: out,
		Strict:       t.Strict != nil && *t.Strict,
		Deprecated:   t.Deprecated,
	}
	if target != OpenAI {
		return spec, nil
	}
	add := func(target Target, sub *subset) {
		b := newBuilder(sub, dialectOf(target))
		if p, err := marshal(b.input(t)); err == nil && !b.issues.HasErrors() {
			if spec.TargetSchemas == nil {
				spec.TargetSchemas = map[string]json.RawMessage{}
			}
			spec.TargetSchemas[string(target)] = p
		}
	}
	if s {
		add(Anthropic, standard)
	}
	if len(t.Params) > 0 {
		add(Gemini, geminiOpenAPI)
	}
	return spec, nil
}

// entry builds t's payload for target and every issue found on the way.
// The value is nil when an issue is an error.
func entry(t *check.Tool, target Target) (any, diag.Diagnostics, error) {
	d := dialectOf(target)
	if d == nil {
		_, err := ParseTarget(string(target))
		return nil, nil, err
	}
	var issues diag.Diagnostics
	checkName(t, d, &issues)
	// Every builder's issues count, whatever the target.
	var builders []*builder
	build := func(sub *subset) *builder {
		b := newBuilder(sub, d)
		builders = append(builders, b)
		return b
	}
	e, more := d.entry(t, d, build)
	issues = append(issues, more...)
	for _, b := range builders {
		issues = append(issues, b.issues...)
	}
	if issues.HasErrors() {
		return nil, issues, nil
	}
	return e, issues, nil
}

// parameters is the arguments schema of d's tool entries and whether it
// is strict; for a strict schema it also checks the size limits.
func parameters(t *check.Tool, d *dialect) (*jsonschema.Schema, bool, diag.Diagnostics) {
	if !d.strictFor(t) {
		b := newBuilder(d.subset, d)
		return b.input(t), false, b.issues
	}
	b := newBuilder(openAIStrict, d)
	s := b.input(t)
	checkStrictLimits(t, s, b)
	return s, true, b.issues
}

func checkName(t *check.Tool, d *dialect, issues *diag.Diagnostics) {
	rule := d.toolName
	if rule == nil || rule.re.MatchString(t.Name) {
		return
	}
	*issues = append(*issues, &diag.Diagnostic{
		Severity: rule.severity,
		Code:     diag.CodeTargetInvalidName,
		Summary:  fmt.Sprintf("%s does not accept the tool name %q", d.target, t.Name),
		Detail:   fmt.Sprintf("Tool names for %s must use %s. Rename the tool.", d.target, rule.words),
		Range:    t.NameRange,
	})
}

// Error is returned by Parameters, Output, Entry and Emit when a tool
// cannot be expressed for a target; Diagnostics says why and where.
type Error struct {
	Tool        string
	Target      Target
	Diagnostics diag.Diagnostics
}

func (e *Error) Error() string {
	return fmt.Sprintf("tool %q cannot be emitted for %s: %v", e.Tool, e.Target, diag.ErrorList(e.Diagnostics.Errors()))
}

// Unwrap returns the diagnostics as an error.
func (e *Error) Unwrap() error { return e.Diagnostics.Err() }

// Parameters returns the compact JSON Schema of t's arguments object,
// exactly what the openai target prints under function.parameters (the
// strict subset when the tool says `strict: true`).
func Parameters(t *check.Tool) (json.RawMessage, error) {
	s, _, issues := parameters(t, dialectOf(OpenAI))
	if issues.HasErrors() {
		return nil, &Error{Tool: t.Name, Target: OpenAI, Diagnostics: issues}
	}
	return marshal(s)
}

// Output returns the compact JSON Schema of t's result (draft 2020-12,
// without $schema). A record result is the root object itself.
func Output(t *check.Tool) (json.RawMessage, error) {
	return marshal(newBuilder(standard, dialectOf(JSONSchema)).output(t))
}

// Signature returns a's signature as data (toolspec.Signature, what the
// runtime runs and generated Go code embeds); nil for an agent without a
// signature element (it takes a message and answers text).
func Signature(a *check.Agent) (*toolspec.Signature, error) {
	if !a.HasSignature || a.Signature == nil {
		return nil, nil
	}
	spec, err := Spec(a.Signature, OpenAI)
	if err != nil {
		return nil, err
	}
	retries := a.OutputRetries
	sig := &toolspec.Signature{Input: spec.StandardSchema(), OutputMode: a.OutputMode, OutputRetries: &retries}
	if a.MessageInput() {
		sig.Message = a.Signature.Params[0].Name
	}
	if a.Typed() {
		if sig.Output, err = Output(a.Signature); err != nil {
			return nil, err
		}
		// A type OpenAI's strict subset cannot say is sent without strict.
		sig.OutputStrict, _ = OutputStrict(a.Signature)
		sig.OutputName = a.Signature.Result.Name()
	}
	return sig, nil
}

// OutputStrict returns t's result schema in OpenAI's strict subset (the
// openai-strict target's transform: every object closed, every property
// required, optional ones nullable): what a typed agent's structured
// output sends OpenAI. It is an error when the type cannot be said there.
func OutputStrict(t *check.Tool) (json.RawMessage, error) {
	b := newBuilder(openAIStrict, dialectOf(OpenAI))
	s := b.output(t)
	if b.issues.HasErrors() {
		return nil, &Error{Tool: t.Name, Target: OpenAIStrict, Diagnostics: b.issues}
	}
	return marshal(s)
}

// Entry returns t's compact payload for target.
func Entry(t *check.Tool, target Target) (json.RawMessage, error) {
	e, issues, err := entry(t, target)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, &Error{Tool: t.Name, Target: target, Diagnostics: issues}
	}
	raw, err := marshal(e)
	if err != nil {
		return nil, fmt.Errorf("tool %q, target %s: %w", t.Name, target, err)
	}
	return raw, nil
}

// Emit returns the target's entries for tools, in the given order, as an
// indented JSON array (two spaces) ending in a newline. The bytes depend
// only on the tools and the target.
func Emit(tools []*check.Tool, target Target) ([]byte, error) {
	if _, err := ParseTarget(string(target)); err != nil {
		return nil, err
	}
	e := encoder{buf: make([]byte, 0, 2048*len(tools)+2)}
	e.buf = append(e.buf, '[')
	for i, t := range tools {
		v, issues, err := entry(t, target)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, &Error{Tool: t.Name, Target: target, Diagnostics: issues}
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v); err != nil {
			return nil, fmt.Errorf("tool %q, target %s: %w", t.Name, target, err)
		}
	}
	e.buf = append(e.buf, ']')
	var out bytes.Buffer
	out.Grow(len(e.buf) * 3) // indentation can more than double the size
	if err := json.Indent(&out, e.buf, "", "  "); err != nil {
		return nil, fmt.Errorf("indenting %s output: %w", target, err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// EmitTargets is Emit for one target or several: several print as one
// indented object, {"target": [entries], ...}, in the order given (the
// registry's, from ParseTargets). It is what gramc schema --target prints,
// and the playground's schema pane.
func EmitTargets(tools []*check.Tool, targets []Target) ([]byte, error) {
	if len(targets) == 1 {
		return Emit(tools, targets[0])
	}
	var buf bytes.Buffer
	buf.WriteString("{\n")
	for i, target := range targets {
		out, err := Emit(tools, target)
		if err != nil {
			return nil, err
		}
		name, _ := json.Marshal(string(target))
		fmt.Fprintf(&buf, "  %s: ", name)
		buf.Write(bytes.ReplaceAll(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"), []byte("\n  ")))
		if i < len(targets)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// Lint reports, for every tool of pkg, what each target's provider would
// reject (errors) and what gramc had to move into descriptions (warnings),
// positioned at the offending declaration. Each problem is reported once
// even when several tools or targets share it.
func Lint(pkg *check.Package, targets []Target) diag.Diagnostics {
	var out diag.Diagnostics
	seen := map[string]bool{}
	for _, target := range targets {
		if _, err := ParseTarget(string(target)); err != nil {
			out = append(out, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTargetUnknown, Summary: err.Error(),
				Detail: "Name one of the listed targets."})
			continue
		}
		for _, t := range pkg.Tools {
			_, issues, err := entry(t, target)
			if err != nil {
				continue // unreachable: the target is known
			}
			for _, d := range issues {
				k := fmt.Sprintf("%s\x00%s\x00%d\x00%s", d.Code, d.Range.File, d.Range.Start.Offset, d.Summary)
				if seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	out.Sort()
	return out
}
