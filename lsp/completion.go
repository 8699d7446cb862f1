package lsp

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/provider"
)

// A frame is an unclosed bracket before the cursor.
type frame struct {
	open byte // '[', '(' or '{'
	pos  int
}

// cursorContext is what surrounds the cursor, read from the text itself:
// while the user types, the tree is partial, but brackets, strings and
// comments are enough to know what may come next.
type cursorContext struct {
	stack    []frame
	inString byte // the quote of the string the cursor is in, 0 if none
	strStart int  // where that string starts (its quote)
	comment  bool
}

// scanTo reads src up to off, tracking brackets, strings and comments.
func scanTo(src string, off int) cursorContext {
	var c cursorContext
	for i := 0; i < off; i++ {
		ch := src[i]
		switch {
		case ch == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if j >= off {
				c.comment = true
				return c
			}
			i = j
		case ch == '`' && i+2 < len(src) && src[i+1] == '`' && src[i+2] == '`':
			end := strings.Index(src[i+3:], "```")
			if end < 0 || i+3+end+3 > off {
				c.inString, c.strStart = '`', i
				return c
			}
			i += 3 + end + 2
		case ch == '"' || ch == '\'' || ch == '`':
			j := i + 1
			for j < len(src) && src[j] != ch && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= off {
				c.inString, c.strStart = ch, i
				return c
			}
			i = j
		case ch == '[' || ch == '(' || ch == '{':
			c.stack = append(c.stack, frame{ch, i})
		case ch == ']' || ch == ')' || ch == '}':
			if n := len(c.stack); n > 0 {
				c.stack = c.stack[:n-1]
			}
		}
	}
	return c
}

func isNameByte(b byte) bool {
	return b == '_' || b == '.' || b == '-' || b == '@' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// wordBefore is the start of the name being typed at off.
func wordBefore(src string, off int) int {
	s := off
	for s > 0 && isNameByte(src[s-1]) {
		s--
	}
	return s
}

// prevNonSpace returns the index of the last non-space byte before i, or -1.
func prevNonSpace(src string, i int) int {
	for i--; i >= 0; i-- {
		if b := src[i]; b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return i
		}
	}
	return -1
}

var (
	declLabelRE = regexp.MustCompile(`:+\s*` + "`?" + `(Tool|Agent|Type|Enum|Test)\b`)
	typeLabelRE = regexp.MustCompile(`::?\s*` + "`?" + `([A-Za-z_][0-9A-Za-z_.\-@]*)`)
	keyBeforeRE = regexp.MustCompile(`([A-Za-z_][0-9A-Za-z_]*)\s*::?\s*$`)
)

func (s *server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (protocol.CompletionResult, error) {
		off, err := offsetAt(f, params.Position)
		if err != nil {
			return nil, err
		}
		items := s.complete(f, r, off)
		return &protocol.CompletionList{Items: items}, nil
	})
}

// complete lists what may be written at off.
func (s *server) complete(f *file, r *result, off int) []protocol.CompletionItem {
	src := f.text
	c := scanTo(src, off)
	items := []protocol.CompletionItem{}
	if c.comment {
		return items
	}
	if c.inString != 0 {
		return s.completeInString(f, r, c, off)
	}
	ws := wordBefore(src, off)
	edit := func(label string, kind protocol.CompletionItemKind, detail, doc, insert string) protocol.CompletionItem {
		it := protocol.CompletionItem{Label: label, Kind: kind}
		if detail != "" {
			it.Detail = protocol.NewOptional(detail)
		}
		if doc != "" {
			it.Documentation = s.markup(doc)
		}
		if insert == "" {
			insert = label
		}
		it.TextEdit = &protocol.TextEdit{Range: f.m.rng(ws, off), NewText: insert}
		return it
	}
	before := prevNonSpace(src, ws)
	// After a colon: a label. In a record a colon ends a key instead.
	var top frame
	if n := len(c.stack); n > 0 {
		top = c.stack[n-1]
	}
	if before >= 0 && src[before] == ':' && top.open != '{' {
		if top.open == '[' && !strings.Contains(src[top.pos:before], "|") {
			for _, k := range []string{"Tool", "Agent", "Type", "Enum"} {
				items = append(items, edit(k, protocol.CompletionItemKindKeyword, "declaration", "Declares a "+strings.ToLower(k)+".", ""))
			}
			return items
		}
		return append(items, s.typeItems(r, edit)...)
	}
	switch top.open {
	case '{':
		owner, node := s.recordOwner(src, c.stack)
		if before >= 0 && (src[before] == '{' || src[before] == ',') {
			kind, known := s.labelKind(r, node)
			for _, info := range check.Properties() {
				if info.Owner != owner {
					continue
				}
				if owner == check.OnParam && known && info.Kinds != nil && !slices.Contains(info.Kinds, kind) {
					continue // a constraint that does not apply to the node's type
				}
				items = append(items, edit(info.Name, protocol.CompletionItemKindProperty, string(owner)+" property", info.Doc, info.Name+": "))
			}
			return items
		}
		if m := keyBeforeRE.FindStringSubmatch(src[top.pos+1 : ws]); m != nil {
			return append(items, s.valueItems(r, owner, string(m[1]), node, edit)...)
		}
	case '[':
		head := src[top.pos:ws]
		if bar := strings.Index(head, "|"); bar >= 0 && declLabelRE.MatchString(head[:bar]) {
			if m := declLabelRE.FindStringSubmatch(head[:bar]); m[1] == "Agent" {
				self := "" // the agent itself, which may not list itself
				if colon := strings.IndexByte(head, ':'); colon > 0 {
					self = strings.Trim(strings.TrimSpace(head[1:colon]), "`")
				}
				signed := false // the agent has its signature already
				for _, sym := range r.index().syms {
					if sym.kind == symAgent && sym.name == self {
						signed = signed || sym.agent() != nil && sym.agent().HasSignature
						continue
					}
					switch sym.kind {
					case symTool:
						doc := ""
						if sym.tool() != nil {
							doc = sym.tool().Description
						}
						items = append(items, edit(sym.name, protocol.CompletionItemKindFunction, detail(sym), doc, ""))
					case symAgent:
						// Another agent, listed as a tool (docs/language.md §2.7).
						doc := ""
						if a := sym.agent(); a != nil {
							doc = a.Description
						}
						items = append(items, edit(sym.name, protocol.CompletionItemKindClass, detail(sym), doc, ""))
					}
				}
				if !signed {
					// The agent's signature, first by convention.
					items = append(items, edit(implicitSignature, protocol.CompletionItemKindSnippet, "signature", "The agent's input and output (docs/language.md §2.6): parameters joined by ==>, ending with the type it answers with.", ""))
				}
				return items
			}
		}
	case 0:
		return s.snippets(f, ws, off)
	}
	return items
}

// recordOwner says what the innermost record describes, from the text
// before its brace: a declaration's labels, or a node's.
func (s *server) recordOwner(src string, stack []frame) (check.Owner, string) {
	n := len(stack)
	rec := stack[n-1]
	if n == 1 {
		return check.OnHeader, ""
	}
	parent := stack[n-2]
	head := src[parent.pos:rec.pos]
	if parent.open == '[' {
		if m := declLabelRE.FindStringSubmatch(head); m != nil {
			switch m[1] {
			case "Tool":
				return check.OnTool, ""
			case "Agent":
				return check.OnAgent, ""
			case "Type":
				return check.OnType, ""
			case "Enum":
				return check.OnEnum, ""
			case "Test":
				return check.OnTest, ""
			}
		}
		return "", ""
	}
	if parent.open == '(' {
		label := ""
		if m := typeLabelRE.FindStringSubmatch(head); m != nil {
			label = m[1]
		}
		if label == "Call" && n >= 3 && stack[n-3].open == '[' && strings.Contains(src[stack[n-3].pos:parent.pos], ":Test") {
			return check.OnCall, ""
		}
		return check.OnParam, label
	}
	return "", ""
}

// typeItems are the built-in types and the package's types and enums.
func (s *server) typeItems(r *result, edit func(string, protocol.CompletionItemKind, string, string, string) protocol.CompletionItem) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, b := range check.Builtins() {
		items = append(items, edit(b.Name, protocol.CompletionItemKindTypeParameter, "built-in type", hoverBuiltin(&b), ""))
	}
	for _, sym := range r.index().syms {
		switch sym.kind {
		case symType:
			items = append(items, edit(sym.name, protocol.CompletionItemKindStruct, "type", descOf(sym), ""))
		case symEnum:
			items = append(items, edit(sym.name, protocol.CompletionItemKindEnum, "enum", descOf(sym), ""))
		}
	}
	return items
}

func descOf(sym *symbol) string {
	switch {
	case sym.decl() != nil:
		return sym.decl().Description
	case sym.enum() != nil:
		return sym.enum().Description
	}
	return ""
}

// valueItems are the values that fit property key of owner: a parameter's
// enum values and booleans for default, types for elementType, formats,
// booleans for flags, tool choices.
func (s *server) valueItems(r *result, owner check.Owner, key, label string, edit func(string, protocol.CompletionItemKind, string, string, string) protocol.CompletionItem) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	boolean := func() {
		for _, v := range []string{"true", "false"} {
			items = append(items, edit(v, protocol.CompletionItemKindValue, "Boolean", "", ""))
		}
	}
	switch {
	case key == "default" && owner == check.OnParam:
		for _, sym := range r.index().lookupTop(label) {
			if sym.enum() != nil {
				for _, v := range sym.enum().Values {
					t := jsonstr.Text(v)
					items = append(items, edit(t, protocol.CompletionItemKindEnumMember, sym.name, "", ""))
				}
			}
		}
		if b, ok := builtinNamed(label); ok && b.Kind == check.Boolean {
			boolean()
		}
	case key == "elementType":
		items = s.typeItems(r, edit)
	case key == "format":
		for _, f := range check.Formats() {
			items = append(items, edit(`"`+f+`"`, protocol.CompletionItemKindValue, "format", "", ""))
		}
	case key == "model" && owner == check.OnAgent:
		for _, p := range check.Providers() {
			items = append(items, edit(`"`+p+`/`, protocol.CompletionItemKindModule, "provider", "", ""))
		}
	case key == "toolChoice":
		for _, v := range []string{"auto", "none", "required"} {
			items = append(items, edit(`"`+v+`"`, protocol.CompletionItemKindValue, "toolChoice", "", ""))
		}
	case key == "outputMode" && owner == check.OnAgent:
		for _, m := range provider.AllOutputModes {
			items = append(items, edit(`"`+string(m)+`"`, protocol.CompletionItemKindValue, "outputMode", "", ""))
		}
	case key == "strict" || key == "deprecated" || key == "optional" || key == "uniqueItems":
		boolean()
	}
	return items
}

// labelKind is the kind of the type a node's label names: a built-in,
// or a declared type or enum of the package.
func (s *server) labelKind(r *result, label string) (check.Kind, bool) {
	if b, ok := builtinNamed(label); ok {
		return b.Kind, true
	}
	for _, sym := range r.index().lookupTop(label) {
		switch sym.kind {
		case symType:
			return check.Record, true
		case symEnum:
			return check.EnumKind, true
		}
	}
	return 0, false
}

func builtinNamed(name string) (check.BuiltinType, bool) {
	for _, b := range check.Builtins() {
		if b.Name == name || slices.Contains(b.Aliases, name) {
			return b, true
		}
	}
	return check.BuiltinType{}, false
}

// completeInString completes inside a string: the provider prefix of an
// agent's model, a tool name for toolChoice, a format.
func (s *server) completeInString(f *file, r *result, c cursorContext, off int) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	if c.inString == '`' && len(c.stack) == 0 || len(c.stack) == 0 {
		return items
	}
	top := c.stack[len(c.stack)-1]
	if top.open != '{' {
		return items
	}
	m := keyBeforeRE.FindStringSubmatch(f.text[top.pos+1 : c.strStart])
	if m == nil {
		return items
	}
	owner, node := s.recordOwner(f.text, c.stack)
	rg := f.m.rng(c.strStart+1, off)
	add := func(label, detail string, kind protocol.CompletionItemKind) {
		items = append(items, protocol.CompletionItem{Label: label, Kind: kind, Detail: protocol.NewOptional(detail), TextEdit: &protocol.TextEdit{Range: rg, NewText: label}})
	}
	// A value that is not a string replaces the quotes too (the editor
	// closed them: "default: \"|\"" becomes "default: true").
	end := off
	if end < len(f.text) && f.text[end] == c.inString {
		end++
	}
	whole := f.m.rng(c.strStart, end)
	addLiteral := func(label, detail string, kind protocol.CompletionItemKind) {
		items = append(items, protocol.CompletionItem{Label: label, Kind: kind, Detail: protocol.NewOptional(detail), TextEdit: &protocol.TextEdit{Range: whole, NewText: label}})
	}
	switch key := string(m[1]); {
	case key == "default" && owner == check.OnParam:
		// The node's enum values and booleans, inside the quotes the
		// editor closed as the user typed one (issue 22.7).
		for _, sym := range r.index().lookupTop(node) {
			if sym.enum() == nil {
				continue
			}
			for _, v := range sym.enum().Values {
				if str, ok := v.(string); ok {
					add(str, sym.name, protocol.CompletionItemKindEnumMember)
				} else {
					addLiteral(jsonstr.Text(v), sym.name, protocol.CompletionItemKindEnumMember)
				}
			}
		}
		if b, ok := builtinNamed(node); ok && b.Kind == check.Boolean {
			for _, v := range []string{"true", "false"} {
				addLiteral(v, "Boolean", protocol.CompletionItemKindValue)
			}
		}
	case key == "model" && owner == check.OnAgent:
		for _, p := range check.Providers() {
			add(p+"/", "provider", protocol.CompletionItemKindModule)
		}
	case key == "agent" && owner == check.OnTest:
		for _, sym := range r.index().syms {
			if sym.kind == symAgent {
				add(sym.name, "agent", protocol.CompletionItemKindClass)
			}
		}
	case key == "tool" && owner == check.OnCall:
		for _, sym := range r.index().syms {
			if sym.kind == symTool {
				add(sym.name, "tool", protocol.CompletionItemKindFunction)
			}
		}
	case (key == "calls" || key == "results") && owner == check.OnTest:
		choices := check.CallOrders()
		if key == "results" {
			choices = check.ResultSources()
		}
		for _, v := range choices {
			add(v, key, protocol.CompletionItemKindValue)
		}
	case key == "toolChoice" && owner == check.OnAgent:
		for _, v := range []string{"auto", "none", "required"} {
			add(v, "toolChoice", protocol.CompletionItemKindValue)
		}
		for _, sym := range r.index().syms {
			switch sym.kind {
			case symTool:
				add(sym.name, "tool", protocol.CompletionItemKindFunction)
			case symAgent:
				add(sym.name, "agent", protocol.CompletionItemKindClass)
			}
		}
	case key == "outputMode" && owner == check.OnAgent:
		for _, m := range provider.AllOutputModes {
			add(string(m), "outputMode", protocol.CompletionItemKindValue)
		}
	case key == "format":
		for _, fm := range check.Formats() {
			add(fm, "format", protocol.CompletionItemKindValue)
		}
	case key == "elementType":
		for _, b := range check.Builtins() {
			add(b.Name, "built-in type", protocol.CompletionItemKindTypeParameter)
		}
	}
	return items
}

// snippets are new declarations, offered at the top level.
func (s *server) snippets(f *file, ws, off int) []protocol.CompletionItem {
	type snip struct{ label, detail, body, plain string }
	all := []snip{
		{"tool", "new tool", "[${1:name}:Tool {description: \"${2:What it does}\"} |\n  (${3:param}::${4:String} {description: \"${5}\"})==>(::${6:String})\n]",
			"[name:Tool {description: \"What it does\"} |\n  (param::String {description: \"\"})==>(::String)\n]"},
		{"type", "new record type", "[${1:Name}:Type {description: \"${2}\"} |\n  (${3:field}::${4:String})\n]",
			"[Name:Type {description: \"\"} |\n  (field::String)\n]"},
		{"enum", "new enum", "[${1:Name}:Enum {values: [\"${2:a}\", \"${3:b}\"], description: \"${4}\"}]",
			"[Name:Enum {values: [\"a\", \"b\"], description: \"\"}]"},
		{"agent", "new agent", "[${1:name}:Agent {\n  description: \"${2}\",\n  instruction: \"${3:You are a helpful assistant.}\",\n  model: \"${4:OpenAI/gpt-4o-mini}\"\n} |\n  ${5:tool}\n]",
			"[name:Agent {\n  description: \"\",\n  instruction: \"You are a helpful assistant.\",\n  model: \"OpenAI/gpt-4o-mini\"\n} |\n  tool\n]"},
		{"test", "new test of an agent", "[${1:name}:Test {\n  agent: \"${2:agent}\",\n  input: \"${3:What the user says}\",\n  answerContains: \"${4}\"\n} |\n  (::Call {tool: \"${5:tool}\", args: {${6}}, returns: ${7:\"result\"}})\n]",
			"[name:Test {\n  agent: \"agent\",\n  input: \"What the user says\",\n  answerContains: \"\"\n} |\n  (::Call {tool: \"tool\", args: {}, returns: \"result\"})\n]"},
	}
	items := []protocol.CompletionItem{}
	for _, sn := range all {
		it := protocol.CompletionItem{Label: sn.label, Kind: protocol.CompletionItemKindSnippet, Detail: protocol.NewOptional(sn.detail)}
		body := sn.plain
		if s.caps.snippets {
			body = sn.body
			it.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		it.TextEdit = &protocol.TextEdit{Range: f.m.rng(ws, off), NewText: body}
		items = append(items, it)
	}
	return items
}
