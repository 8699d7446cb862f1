package typescript

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/model"
	"github.com/gramc-dev/gramc/internal/jsonstr"
)

// optionality says which fields of an object type are optional: in the
// wire form (what is sent: a record, a result, an agent's or a code-mode
// call's input) every optional or defaulted field; in the parsed form (a
// tool's arguments as its implementation gets them, after validation has
// filled the defaults) only the optional fields without a default.
type optionality int

const (
	wire optionality = iota
	parsed
)

func optional(f *check.Param, o optionality) bool {
	if o == parsed {
		return f.Optional && !f.HasDefault
	}
	return f.Optional || f.HasDefault
}

// tsType is the TypeScript type of a gram type; named types are prefixed
// with qual ("gramcTypes." in mcp.ts).
func (g *gen) tsType(t *check.Type, qual string) string {
	if t == nil {
		return "unknown"
	}
	switch t.Kind {
	case check.String:
		return "string"
	case check.Integer, check.Number:
		return "number"
	case check.Boolean:
		return "boolean"
	case check.Object:
		return "Record<string, unknown>"
	case check.Array:
		elem := g.tsType(t.Elem, qual)
		if t.Elem == nil {
			elem = "unknown"
		}
		return "Array<" + elem + ">"
	case check.Record:
		if n, ok := g.types[t.Decl]; ok {
			return qual + n
		}
		return "Record<string, unknown>"
	case check.EnumKind:
		if n, ok := g.enums[t.Enum]; ok {
			return qual + n
		}
		return "string"
	}
	return "unknown"
}

// zodType is the Zod schema of a gram type (without a field's
// constraints), built with types.ts's helpers, whose parameters and
// results are one small interface, GramcSchema: tsc then checks each
// schema's expression against a few plain signatures instead of
// instantiating Zod's generic types per schema (docs/performance.md).
// Named types and enums are referred to through their getters (see
// getter); records lazily (z.lazy), so declaration order and recursion
// need nothing more.
func (g *gen) zodType(t *check.Type) string {
	if t == nil {
		return g.call("gramcUnknown", "gramcUnknown()")
	}
	switch t.Kind {
	case check.String:
		return g.call("gramcString", "gramcString()")
	case check.Integer:
		return g.call("gramcInteger", "gramcInteger()")
	case check.Number:
		return g.call("gramcNumber", "gramcNumber()")
	case check.Boolean:
		return g.call("gramcBoolean", "gramcBoolean()")
	case check.Object:
		return g.call("gramcAnyObject", "gramcAnyObject()")
	case check.Array:
		return g.use("gramcArray") + "(" + g.zodType(t.Elem) + ")"
	case check.Record:
		if n, ok := g.types[t.Decl]; ok {
			return g.use("gramcLazy") + "(" + g.use(getter(n)) + ")"
		}
		return g.call("gramcAnyObject", "gramcAnyObject()")
	case check.EnumKind:
		if n, ok := g.enums[t.Enum]; ok {
			return g.use(getter(n)) + "()"
		}
		return g.call("gramcString", "gramcString()")
	}
	return g.call("gramcUnknown", "gramcUnknown()")
}

// getter is the name of the function types.ts declares to return a type's
// or an enum's schema (named n) as a GramcSchema: the schemas refer to
// each other through these (function declarations) rather than to the
// constants, since tsc's flow analysis of a constant read in the module's
// body (or an arrow function in it) walks back over every declaration
// between the read and the constant, quadratic in the number of schemas.
// The name cannot collide with a generated one (those are PascalCase) nor
// with a helper (none ends in Schema).
func getter(n string) string { return "gramc" + n + "Schema" }

// writeGetter writes the getter of the schema named n+"Schema". The
// getters a schema calls (g.helpers) are written after the schemas, so
// that every call is known (a function declaration is hoisted).
func writeGetter(b *strings.Builder, n string) {
	b.WriteString("function " + getter(n) + "(): GramcSchema {\n  return " + n + "Schema as unknown as GramcSchema;\n}\n")
}

// writeTyped writes `export const name = expr as unknown as
// z.ZodType<typ>;`: the schema declared its gram type. The assertion
// (through unknown) costs tsc nothing per schema, where an annotation made
// it prove the expression's type equal to the declared one; the three-way
// agreement tests (node_test.go) are what hold the schema to the type.
func writeTyped(b *strings.Builder, name, typ, expr string) {
	b.WriteString("export const " + name + " = " + expr + " as unknown as z.ZodType<" + typ + ">;\n")
}

// zodField is a field's or parameter's schema: its type's, its
// constraints (each a refinement whose message names the keyword), and
// .default(v) or .optional().
func (g *gen) zodField(f *check.Param, o optionality) string {
	var b strings.Builder
	c := f.Constraints.Value()
	lits, isEnum := enumConstraint(c)
	if isEnum {
		// The values are the type's: a union of literals, as the JSON
		// Schema's enum says.
		b.WriteString(g.use("gramcLiteral") + "([" + strings.Join(lits, ", ") + "])")
	} else {
		b.WriteString(g.zodType(f.Type))
	}
	refine := func(pred, msg string) {
		b.WriteString(".refine(")
		b.WriteString(pred)
		b.WriteString(", ")
		b.WriteString(jsString(msg))
		b.WriteString(")")
	}
	if len(c.Enum) > 0 && !isEnum {
		refine("(v) => "+g.use("gramcOneOf")+"(v, "+jsValue(c.Enum)+")", "must be one of "+jsonstr.Text(c.Enum))
	}
	num := func(n fmt.Stringer, op, word string) {
		s := jsNumber(n.String())
		refine("(v) => v "+op+" "+s, "must be "+word+" "+n.String())
	}
	if c.Minimum != nil {
		num(c.Minimum, ">=", "at least")
	}
	if c.Maximum != nil {
		num(c.Maximum, "<=", "at most")
	}
	if c.ExclusiveMinimum != nil {
		num(c.ExclusiveMinimum, ">", "greater than")
	}
	if c.ExclusiveMaximum != nil {
		num(c.ExclusiveMaximum, "<", "less than")
	}
	// count refines with a bound on a length: pred and msg with the bound
	// in place of %s.
	count := func(n *int64, pred, msg string) {
		if n != nil {
			s := strconv.FormatInt(*n, 10)
			refine(fmt.Sprintf(pred, s), fmt.Sprintf(msg, s))
		}
	}
	if c.MinLength != nil || c.MaxLength != nil {
		length := g.use("gramcLength")
		count(c.MinLength, "(v) => "+length+"(v) >= %s", "must be at least %s characters long")
		count(c.MaxLength, "(v) => "+length+"(v) <= %s", "must be at most %s characters long")
	}
	if c.Pattern != "" {
		refine(g.use("gramcMatch")+"("+jsString(c.Pattern)+")", "must match the pattern "+c.Pattern)
	}
	count(c.MinItems, "(v) => v.length >= %s", "must have at least %s items")
	count(c.MaxItems, "(v) => v.length <= %s", "must have at most %s items")
	if c.UniqueItems {
		refine(g.use("gramcUnique"), "items must be unique")
	}
	if c.Format != "" {
		// An annotation, as in the mcp target's JSON Schema (2020-12) and
		// gramc's validator, which do not assert formats.
		b.WriteString(".meta({ format: " + jsString(c.Format) + " })")
	}
	switch {
	case f.HasDefault:
		b.WriteString(".default(" + jsValue(f.Default) + ")")
	case optional(f, o):
		b.WriteString(".optional()")
	}
	return b.String()
}

// enumConstraint returns the literals of an enum constraint whose values
// are all strings or numbers (what the checker allows: scalars of the
// field's type), and whether there is one.
func enumConstraint(c check.Constraints) ([]string, bool) {
	if len(c.Enum) == 0 {
		return nil, false
	}
	var lits []string
	for _, v := range c.Enum {
		switch v.(type) {
		case string, json.Number, float64, int64, int:
			lits = append(lits, jsValue(v))
		default:
			return nil, false
		}
	}
	return lits, true
}

// fieldType is a field's TypeScript type: its type's, or the union of an
// enum constraint's literals.
func (g *gen) fieldType(f *check.Param, qual string) string {
	if lits, ok := enumConstraint(f.Constraints.Value()); ok {
		return strings.Join(lits, " | ")
	}
	return g.tsType(f.Type, qual)
}

// fieldDoc is a field's JSDoc: its description and a line of notes
// (constraints, default, optional, deprecated).
func fieldDoc(f *check.Param) []string {
	var buf [2]string
	return []string{f.Description, strings.Join(model.AppendFieldNotes(buf[:0], f, jsString, ""), " ")}
}

// writeDocParas writes a field's JSDoc: paragraphs, and a @deprecated tag
// (the only tag the generator writes itself; a description's "@" is
// escaped by commentText).
func writeDocParas(b *strings.Builder, indent string, paras []string, deprecated bool) {
	lines := docLines(paras)
	if deprecated {
		lines = append(lines, "@deprecated The gram declaration marks it deprecated.")
	}
	writeDocLines(b, indent, lines)
}

// writeFields writes an object type's members.
func (g *gen) writeFields(b *strings.Builder, indent string, fields []*check.Param, qual string, o optionality) {
	for _, f := range fields {
		writeDocParas(b, indent, fieldDoc(f), f.Deprecated)
		b.WriteString(indent)
		b.WriteString(typeKey(f.Name))
		if optional(f, o) {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		b.WriteString(g.fieldType(f, qual))
		b.WriteString(";\n")
	}
}

// writeObjectType writes `interface Name { ... }` (prefix "export " or
// "export " inside a namespace).
func (g *gen) writeInterface(b *strings.Builder, indent, name string, doc []string, fields []*check.Param, o optionality) {
	writeDoc(b, indent, doc...)
	b.WriteString(indent + "export interface " + name + " {\n")
	g.writeFields(b, indent+"  ", fields, "", o)
	b.WriteString(indent + "}\n")
}

// zodObject is a strict object schema of fields.
func (g *gen) zodObject(fields []*check.Param, o optionality) string {
	if len(fields) == 0 {
		return g.use("gramcObject") + "({})"
	}
	var b strings.Builder
	b.WriteString(g.use("gramcObject") + "({\n")
	for _, f := range fields {
		b.WriteString("  ")
		b.WriteString(propertyKey(f.Name))
		b.WriteString(": ")
		b.WriteString(g.zodField(f, o))
		b.WriteString(",\n")
	}
	b.WriteString("})")
	return b.String()
}

func enumLiterals(e *check.Enum) []string {
	var out []string
	for _, v := range e.Values {
		out = append(out, jsValue(v))
	}
	return out
}

// typeDecls writes the type declarations (interfaces, enum unions, tool
// arguments and results, agents' inputs and outputs) at indent, for
// types.ts (argsForm parsed) or tools.d.ts (argsForm wire).
func (g *gen) typeDecls(b *strings.Builder, indent string, argsForm optionality, agents bool) {
	for _, e := range g.m.Enums {
		name := g.enums[e]
		b.WriteByte('\n')
		writeDoc(b, indent, fmt.Sprintf("%s is the gram enum %s.", name, jsString(e.Name)), e.Description)
		lits := enumLiterals(e)
		union := strings.Join(lits, " | ")
		if union == "" {
			union = "never"
		}
		b.WriteString(indent + "export type " + name + " = " + union + ";\n")
	}
	for _, d := range g.m.Types {
		name := g.types[d]
		b.WriteByte('\n')
		g.writeInterface(b, indent, name, []string{fmt.Sprintf("%s is the gram type %s.", name, jsString(d.Name)), d.Description}, d.Fields, wire)
	}
	for _, tn := range g.tools {
		t := tn.t
		b.WriteByte('\n')
		what := "as its implementation gets them: validated, with the defaults filled in"
		if argsForm == wire {
			what = "as a call sends them (a defaulted one may be left out)"
		}
		g.writeInterface(b, indent, tn.base+"Args", []string{fmt.Sprintf("%sArgs are the arguments of the gram tool %s, %s.", tn.base, jsString(t.Name), what)}, t.Params, argsForm)
		b.WriteByte('\n')
		writeDoc(b, indent, fmt.Sprintf("%sResult is the result of the gram tool %s.", tn.base, jsString(t.Name)), t.ResultDescription)
		b.WriteString(indent + "export type " + tn.base + "Result = " + g.tsType(t.Result, "") + ";\n")
	}
	if !agents {
		return
	}
	for _, an := range g.agents {
		a := an.a
		b.WriteByte('\n')
		g.writeInterface(b, indent, an.base+"Input", []string{fmt.Sprintf("%sInput is the input of the gram agent %s, as a call sends it.", an.base, jsString(a.Name))}, a.Signature.Params, wire)
		b.WriteByte('\n')
		writeDoc(b, indent, fmt.Sprintf("%sOutput is the output of the gram agent %s.", an.base, jsString(a.Name)), a.Signature.ResultDescription)
		b.WriteString(indent + "export type " + an.base + "Output = " + g.agentOutputType(a, "") + ";\n")
	}
}

func (g *gen) agentOutputType(a *check.Agent, qual string) string {
	if !a.Typed() {
		return "string"
	}
	return g.tsType(a.Signature.Result, qual)
}

// typesFile is types.ts: types, Zod schemas and the registries.
func (g *gen) typesFile(b *strings.Builder) error {
	g.head(b, "Types and Zod 4 schemas of the package's types, enums, tools and agents.")
	if len(g.m.Types)+len(g.m.Enums)+len(g.tools)+len(g.agents) > 0 {
		// A package that declares nothing has no schema to build.
		b.WriteString("\nimport { z } from \"zod/v4\";\n")
	}
	g.typeDecls(b, "", parsed, true)

	b.WriteString("\n// Schemas.\n")
	for _, e := range g.m.Enums {
		name := g.enums[e]
		b.WriteByte('\n')
		writeDoc(b, "", fmt.Sprintf("%sValues are the values of the gram enum %s, in declaration order.", name, jsString(e.Name)))
		b.WriteString("export const " + name + "Values = [" + strings.Join(enumLiterals(e), ", ") + "] as const;\n")
		writeDoc(b, "", fmt.Sprintf("%sSchema accepts the values of the gram enum %s.", name, jsString(e.Name)))
		var expr string
		if len(e.Values) == 0 {
			expr = g.call("gramcNever", "gramcNever()")
		} else {
			expr = g.use("gramcLiteral") + "(" + name + "Values)"
		}
		writeTyped(b, name+"Schema", name, expr)
	}
	for _, d := range g.m.Types {
		name := g.types[d]
		b.WriteByte('\n')
		writeDoc(b, "", fmt.Sprintf("%sSchema validates the gram type %s.", name, jsString(d.Name)))
		writeTyped(b, name+"Schema", name, g.zodObject(d.Fields, wire))
	}
	for _, tn := range g.tools {
		b.WriteByte('\n')
		writeDoc(b, "", fmt.Sprintf("%sArgsSchema validates the arguments of the gram tool %s and fills in their defaults.", tn.base, jsString(tn.t.Name)))
		writeTyped(b, tn.base+"ArgsSchema", tn.base+"Args", g.zodObject(tn.t.Params, parsed))
		writeDoc(b, "", fmt.Sprintf("%sResultSchema validates the result of the gram tool %s.", tn.base, jsString(tn.t.Name)))
		writeTyped(b, tn.base+"ResultSchema", tn.base+"Result", g.zodType(tn.t.Result))
	}
	for _, an := range g.agents {
		a := an.a
		b.WriteByte('\n')
		writeDoc(b, "", fmt.Sprintf("%sInputSchema validates the input of the gram agent %s.", an.base, jsString(a.Name)))
		writeTyped(b, an.base+"InputSchema", an.base+"Input", g.zodObject(a.Signature.Params, wire))
		writeDoc(b, "", fmt.Sprintf("%sOutputSchema validates the output of the gram agent %s.", an.base, jsString(a.Name)))
		var out string
		if a.Typed() {
			out = g.zodType(a.Signature.Result)
		} else {
			out = g.call("gramcString", "gramcString()")
		}
		writeTyped(b, an.base+"OutputSchema", an.base+"Output", out)
	}

	b.WriteString("\n// Registries.\n\n")
	writeDoc(b, "", "toolSchemas maps each tool's gram name to the Zod schemas of its arguments and result.")
	var entries []string
	for _, tn := range g.tools {
		entries = append(entries, propertyKey(tn.t.Name)+": { args: "+tn.base+"ArgsSchema, result: "+tn.base+"ResultSchema }")
	}
	writeRegistry(b, "toolSchemas", entries)
	writeDoc(b, "", "typeSchemas maps each type's and enum's gram name to its Zod schema.")
	entries = nil
	for _, e := range g.m.Enums {
		entries = append(entries, propertyKey(e.Name)+": "+g.enums[e]+"Schema")
	}
	for _, d := range g.m.Types {
		entries = append(entries, propertyKey(d.Name)+": "+g.types[d]+"Schema")
	}
	writeRegistry(b, "typeSchemas", entries)
	writeDoc(b, "", "agentSchemas maps each agent's gram name to the Zod schemas of its input and output.")
	entries = nil
	for _, an := range g.agents {
		entries = append(entries, propertyKey(an.a.Name)+": { input: "+an.base+"InputSchema, output: "+an.base+"OutputSchema }")
	}
	writeRegistry(b, "agentSchemas", entries)

	// The getters a schema calls, in declaration order.
	var getters []string
	for _, e := range g.m.Enums {
		if n := g.enums[e]; g.helpers[getter(n)] {
			getters = append(getters, n)
		}
	}
	for _, d := range g.m.Types {
		if n := g.types[d]; g.helpers[getter(n)] {
			getters = append(getters, n)
		}
	}
	if len(getters) > 0 {
		b.WriteString("\n// Getters: the schemas as the others refer to them.\n")
	}
	for _, n := range getters {
		b.WriteByte('\n')
		writeGetter(b, n)
	}
	g.writeHelpers(b)
	return nil
}

func sep(b *strings.Builder, i int) {
	if i > 0 {
		b.WriteString(",")
	}
	b.WriteString("\n")
}

// writeRegistry writes a registry of entries ("key: value"): a constant
// set to what a function declaration returns, for the reason getter says
// (each entry reads a schema).
func writeRegistry(b *strings.Builder, name string, entries []string) {
	fn := "gramc" + strings.ToUpper(name[:1]) + name[1:]
	b.WriteString("export const " + name + " = " + fn + "();\n")
	b.WriteString("function " + fn + "() {\n  return {")
	for i, e := range entries {
		sep(b, i)
		b.WriteString("    " + e)
	}
	if len(entries) > 0 {
		b.WriteString(",\n")
	}
	b.WriteString("  } as const;\n}\n\n")
}

// typesHelpers are types.ts's private helpers, in the order they are
// written: the schemas' building blocks, then JSON Schema's semantics
// where Zod's differ (lengths count code points, integers need not be
// safe integers, patterns are ECMA-262 with the u flag as Ajv compiles
// them, uniqueness and enums compare JSON values). Each is written only
// when a schema calls it, with the helpers it calls (uses).
var typesHelpers = []struct {
	name string
	uses []string
	text string
}{
	{"gramcString", nil, `/** gramcString is z.string(). */
function gramcString(): GramcSchema {
  return z.string();
}
`},
	{"gramcNumber", nil, `/** gramcNumber is z.number(). */
function gramcNumber(): GramcSchema {
  return z.number();
}
`},
	{"gramcInteger", nil, `/** gramcInteger accepts a number without a fractional part (JSON Schema's integer). */
function gramcInteger(): GramcSchema {
  return z.number().refine(Number.isInteger, "expected an integer");
}
`},
	{"gramcBoolean", nil, `/** gramcBoolean is z.boolean(). */
function gramcBoolean(): GramcSchema {
  return z.boolean();
}
`},
	{"gramcAnyObject", nil, `/** gramcAnyObject accepts any JSON object (gram's Object). */
function gramcAnyObject(): GramcSchema {
  return z.record(z.string(), z.unknown());
}
`},
	{"gramcUnknown", nil, `/** gramcUnknown accepts any value. */
function gramcUnknown(): GramcSchema {
  return z.unknown();
}
`},
	{"gramcNever", nil, `/** gramcNever accepts no value (an enum without values). */
function gramcNever(): GramcSchema {
  return z.never();
}
`},
	{"gramcObject", nil, `/** gramcObject is a strict object schema (JSON Schema's additionalProperties: false). */
function gramcObject(shape: Record<string, GramcSchema>): GramcSchema {
  return z.strictObject(shape);
}
`},
	{"gramcArray", nil, `/** gramcArray is an array schema. */
function gramcArray(item: GramcSchema): GramcSchema {
  return z.array(item as unknown as z.ZodType);
}
`},
	{"gramcLazy", nil, `/** gramcLazy refers to a schema declared anywhere in the file (recursion, declaration order). */
function gramcLazy(get: () => GramcSchema): GramcSchema {
  return z.lazy(get as unknown as () => z.ZodType);
}
`},
	{"gramcLiteral", nil, `/** gramcLiteral accepts exactly values (an enum). */
function gramcLiteral(values: readonly (string | number)[]): GramcSchema {
  return z.literal(values);
}
`},
	{"gramcLength", nil, `/** gramcLength is a string's length in code points, as JSON Schema counts it. */
function gramcLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
`},
	{"gramcMatch", nil, `/** gramcMatch tests a string against a JSON Schema pattern (ECMA-262, the u flag, unanchored). */
function gramcMatch(source: string): (s: string) => boolean {
  let re: RegExp | undefined;
  try {
    re = new RegExp(source, "u");
  } catch {
    re = undefined;
  }
  return (s) => re !== undefined && re.test(s);
}
`},
	{"gramcEqual", nil, `/** gramcEqual compares two JSON values. */
function gramcEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => gramcEqual(x, b[i]));
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>, oa = a as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && gramcEqual(oa[k], ob[k]));
}
`},
	{"gramcOneOf", []string{"gramcEqual"}, `/** gramcOneOf reports whether a JSON value is one of values. */
function gramcOneOf(v: unknown, values: readonly unknown[]): boolean {
  return values.some((x) => gramcEqual(v, x));
}
`},
	{"gramcUnique", []string{"gramcEqual"}, `/** gramcUnique reports whether an array's items are distinct JSON values. */
function gramcUnique(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      if (gramcEqual(a[i], a[j])) return false;
    }
  }
  return true;
}
`},
}

// typesHelpersHead is written before the helpers when any is: the
// interface the builders return.
const typesHelpersHead = `// Helpers: the schemas' building blocks.

/**
 * GramcSchema is a Zod schema as the schemas above are built: through the
 * few methods they call, with plain signatures, so that tsc does not
 * instantiate Zod's generic types for each schema. Each exported schema is
 * then declared its gram type, z.ZodType<T>.
 */
interface GramcSchema {
  refine(check: (value: any) => unknown, message: string): GramcSchema;
  meta(meta: { format: string }): GramcSchema;
  default(value: unknown): GramcSchema;
  optional(): GramcSchema;
}
`

// writeHelpers writes the helpers the schemas call (g.helpers) and those
// they call, in typesHelpers' order; none, and no GramcSchema, when no
// schema calls one.
func (g *gen) writeHelpers(b *strings.Builder) {
	for changed := true; changed; {
		changed = false
		for _, h := range typesHelpers {
			if !g.helpers[h.name] {
				continue
			}
			for _, u := range h.uses {
				if !g.helpers[u] {
					g.helpers[u], changed = true, true
				}
			}
		}
	}
	if len(g.helpers) == 0 {
		return
	}
	b.WriteString(typesHelpersHead)
	for _, h := range typesHelpers {
		if g.helpers[h.name] {
			b.WriteString("\n" + h.text)
		}
	}
}

// use records that a schema calls the types.ts helper name, and returns
// the name.
func (g *gen) use(name string) string {
	g.helpers[name] = true
	return name
}

// call is use for a call without arguments: code is the call, written
// out (a constant, so nothing is allocated per schema).
func (g *gen) call(name, code string) string {
	g.helpers[name] = true
	return code
}
