package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/internal/jsonstr"
)

// maxHoverSchema bounds the JSON Schema a hover shows: a tool whose
// schema is larger shows its start and says how much was left out.
const maxHoverSchema = 8 << 10

func (s *server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (*protocol.Hover, error) {
		off, err := offsetAt(f, params.Position)
		if err != nil {
			return nil, err
		}
		x := r.index()
		var text string
		var start, end int
		if o, ok := x.at(f.key, off); ok {
			start, end = int(o.start), int(o.end)
			switch {
			case o.builtin != nil:
				text = hoverBuiltin(o.builtin)
			case o.sym != nil:
				text = s.hoverSymbol(p, o.sym)
			}
		} else if k, ok := x.propAt(f.key, off); ok {
			start, end = int(k.start), int(k.end)
			text = hoverProperty(k)
		}
		if text == "" {
			return nil, nil
		}
		rg := f.m.rng(start, end)
		return &protocol.Hover{Contents: s.markup(text), Range: &rg}, nil
	})
}

// markup is hover text as markdown, or as plain text for a client that
// reads no markdown.
func (s *server) markup(md string) *protocol.MarkupContent {
	if s.caps.markdown {
		return &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}
	}
	plain := strings.NewReplacer("```gram\n", "", "```json\n", "", "```\n", "", "```", "", "**", "", "`", "").Replace(md)
	return &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: plain}
}

func (s *server) hoverSymbol(p *pkg, sym *symbol) string {
	var b strings.Builder
	switch {
	case sym.tool() != nil:
		t := sym.tool()
		fmt.Fprintf(&b, "```gram\n%s\n```\n\n", t.Signature)
		if t.Deprecated {
			b.WriteString("**Deprecated.** ")
		}
		b.WriteString(t.Description + "\n")
		if len(t.Params) > 0 {
			b.WriteString("\n")
			for _, q := range t.Params {
				fmt.Fprintf(&b, "- `%s` %s — %s\n", q.Name, typeName(q.Type), paramSummary(q))
			}
		}
		if t.Result != nil {
			fmt.Fprintf(&b, "\nReturns %s.", typeName(t.Result))
			if t.ResultDescription != "" {
				b.WriteString(" " + t.ResultDescription)
			}
			b.WriteString("\n")
		}
		b.WriteString(s.hoverSchema(p, t))
	case sym.param() != nil:
		q := sym.param()
		what := "parameter"
		if sym.kind == symField {
			what = "field"
		}
		fmt.Fprintf(&b, "```gram\n(%s::%s)\n```\n\n%s of %s — %s\n", q.Name, typeName(q.Type), what, sym.parent.name, paramSummary(q))
		if q.Description != "" {
			b.WriteString("\n" + q.Description + "\n")
		}
		if c := constraints(q); c != "" {
			b.WriteString("\n" + c + "\n")
		}
		if len(q.Examples) > 0 {
			fmt.Fprintf(&b, "\nExamples: %s\n", jsonstr.List(q.Examples))
		}
	case sym.test() != nil:
		t := sym.test()
		fmt.Fprintf(&b, "```gram\n[%s:Test]\n```\n\n", t.Name)
		if t.Description != "" {
			b.WriteString(t.Description + "\n\n")
		}
		if t.Agent != nil {
			fmt.Fprintf(&b, "Runs agent `%s` on %s.\n", t.Agent.Name, jsonstr.Text(t.Input))
		}
		for i, c := range t.Calls {
			if c.Tool != nil {
				fmt.Fprintf(&b, "%d. calls `%s`\n", i+1, c.Tool.Name)
			}
		}
		fmt.Fprintf(&b, "\nTool results: %s. Run it with `gramc test -run '^%s$'`.\n", t.Results, t.Name)
	case sym.decl() != nil:
		d := sym.decl()
		fmt.Fprintf(&b, "```gram\n[%s:Type]\n```\n\n", d.Name)
		if d.Description != "" {
			b.WriteString(d.Description + "\n\n")
		}
		for _, q := range d.Fields {
			fmt.Fprintf(&b, "- `%s` %s — %s\n", q.Name, typeName(q.Type), paramSummary(q))
		}
	case sym.enum() != nil:
		e := sym.enum()
		fmt.Fprintf(&b, "```gram\n[%s:Enum]\n```\n\n", e.Name)
		if e.Description != "" {
			b.WriteString(e.Description + "\n\n")
		}
		fmt.Fprintf(&b, "Values: %s\n", jsonstr.List(e.Values))
	case sym.agent() != nil:
		a := sym.agent()
		sig := implicitSignature
		if a.Signature != nil {
			sig = a.Signature.Signature
		}
		fmt.Fprintf(&b, "```gram\n[%s:Agent | %s]\n```\n\n", a.Name, sig)
		if a.Description != "" {
			b.WriteString(a.Description + "\n\n")
		}
		fmt.Fprintf(&b, "Model: `%s`", a.Model)
		if len(a.Tools)+len(a.Agents) > 0 {
			names := make([]string, 0, len(a.Tools)+len(a.Agents))
			for _, t := range a.Tools {
				names = append(names, "`"+t.Name+"`")
			}
			for _, l := range a.Agents {
				names = append(names, "`"+l.Name+"` (agent)")
			}
			fmt.Fprintf(&b, " · tools: %s", strings.Join(names, ", "))
		}
		b.WriteString("\n")
		if t := a.Signature; t != nil {
			b.WriteString("\n")
			if a.MessageInput() {
				fmt.Fprintf(&b, "Input: the user's message (`%s`).\n", t.Params[0].Name)
			} else {
				b.WriteString("Input: the arguments, as one JSON object:\n")
				for _, q := range t.Params {
					fmt.Fprintf(&b, "- `%s` %s — %s\n", q.Name, typeName(q.Type), paramSummary(q))
				}
			}
			if a.Typed() {
				fmt.Fprintf(&b, "\nAnswers a %s (typed; outputMode `%s`, outputRetries %d).\n", typeName(t.Result), a.OutputMode, a.OutputRetries)
			} else {
				b.WriteString("\nAnswers text.\n")
			}
			if !a.MessageInput() {
				b.WriteString(s.hoverSchema(p, t))
			}
			if a.Typed() {
				raw, err := schema.Output(t)
				b.WriteString(hoverJSON("output (JSON Schema)", raw, err))
			}
		}
	default:
		fmt.Fprintf(&b, "%s `%s`", sym.kind, sym.name)
	}
	return b.String()
}

// implicitSignature is the signature of an agent without one (docs/language.md §2.6).
const implicitSignature = "(input::String)==>(::String)"

// typeName is a type's name in a hover; "?" for a type the checker could
// not resolve (an undefined name, which the diagnostics already report).
// typeName is a type as gram writes it, an array's with its element
// type: Array {elementType: String}.
func typeName(t *check.Type) string {
	if t != nil && t.Kind == check.Array {
		return "Array {elementType: " + typeName(t.Elem) + "}"
	}
	if n := t.Name(); n != "" {
		return n
	}
	return "?"
}

// paramSummary says whether a parameter is required and its default.
func paramSummary(q *check.Param) string {
	switch {
	case q.HasDefault:
		return "optional, default " + jsonstr.Text(q.Default)
	case q.Optional:
		return "optional"
	}
	return "required"
}

// constraints lists a parameter's constraints in gram's words.
func constraints(q *check.Param) string {
	c := q.Constraints.Value()
	var parts []string
	add := func(name string, v any) { parts = append(parts, fmt.Sprintf("%s %s", name, jsonstr.Text(v))) }
	if c.Enum != nil {
		parts = append(parts, "enum "+jsonstr.List(c.Enum))
	}
	if c.Minimum != nil {
		add("minimum", c.Minimum)
	}
	if c.Maximum != nil {
		add("maximum", c.Maximum)
	}
	if c.ExclusiveMinimum != nil {
		add("exclusiveMinimum", c.ExclusiveMinimum)
	}
	if c.ExclusiveMaximum != nil {
		add("exclusiveMaximum", c.ExclusiveMaximum)
	}
	if c.MinLength != nil {
		add("minLength", *c.MinLength)
	}
	if c.MaxLength != nil {
		add("maxLength", *c.MaxLength)
	}
	if c.Pattern != "" {
		add("pattern", c.Pattern)
	}
	if c.Format != "" {
		add("format", c.Format)
	}
	if c.MinItems != nil {
		add("minItems", *c.MinItems)
	}
	if c.MaxItems != nil {
		add("maxItems", *c.MaxItems)
	}
	if c.UniqueItems {
		parts = append(parts, "uniqueItems")
	}
	if len(parts) == 0 {
		return ""
	}
	return "Constraints: " + strings.Join(parts, ", ")
}

// hoverSchema is the JSON Schema a tool sends: for the first target of
// the package (the editor's setting, else gramc.json's, as its
// diagnostics) its whole tool entry, else the parameters' schema.
func (s *server) hoverSchema(p *pkg, t *check.Tool) string {
	var raw []byte
	var err error
	label := "parameters (JSON Schema)"
	if targets := s.ws.targetsOf(p.dir); len(targets) > 0 {
		target := targets[0]
		raw, err = schema.Entry(t, target)
		label = fmt.Sprintf("%s tool definition", target)
	} else {
		raw, err = schema.Parameters(t)
	}
	return hoverJSON(label, raw, err)
}

// hoverJSON shows a schema under its label, indented and bounded.
func hoverJSON(label string, raw []byte, err error) string {
	if err != nil {
		return fmt.Sprintf("\n%s: %v\n", label, err)
	}
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		out.Reset()
		out.Write(raw)
	}
	body := out.String()
	if len(body) > maxHoverSchema {
		body = body[:maxHoverSchema] + fmt.Sprintf("\n… (%d more bytes: gramc schema shows all)", len(body)-maxHoverSchema)
	}
	return fmt.Sprintf("\n%s:\n```json\n%s\n```\n", label, body)
}

func hoverBuiltin(b *check.BuiltinType) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "```gram\n::%s\n```\n\nbuilt-in type", b.Name)
	if len(b.Aliases) > 0 {
		fmt.Fprintf(&sb, " (also written %s)", strings.Join(b.Aliases, ", "))
	}
	fmt.Fprintf(&sb, " — JSON Schema `\"type\": %q`, Go `%s`", b.JSON, b.Go)
	if b.Kind == check.Array {
		sb.WriteString("; name the elements with `elementType`")
	}
	sb.WriteString("\n")
	return sb.String()
}

// hoverProperty says what a property key means where it is written.
func hoverProperty(k propKey) string {
	owner := k.owner.facts().owner
	info, ok := check.LookupProperty(owner, k.key)
	if !ok {
		return fmt.Sprintf("`%s` is not a property of a %s: gramc ignores it.", k.key, owner)
	}
	where := string(owner)
	if k.result {
		where = "return type"
	}
	text := fmt.Sprintf("**%s** (%s property)\n\n%s", info.Name, where, info.Doc)
	if len(info.Kinds) > 0 {
		names := make([]string, len(info.Kinds))
		for i, kd := range info.Kinds {
			names[i] = kd.String()
		}
		text += "\n\nApplies to: " + strings.Join(names, ", ") + "."
	}
	return text + "\n"
}
