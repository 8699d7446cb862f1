package typescript

import (
	"strings"
	"unicode"

	"github.com/gramc-dev/gramc/codegen/model"
	"github.com/gramc-dev/gramc/diag"
)

// tsNaming is TypeScript's naming table (codegen/model): PascalCase for
// types and schemas, camelCase (derived from it) for functions and
// methods.
var tsNaming = &model.Naming{
	Language: "TypeScript",
	Ident:    pascalName,
	Rule:     "TypeScript names keep only ASCII letters and digits of a gram name and capitalise its words",
}

// tsMemberNaming is the naming table of ToolsImpl's methods and the
// code-mode tools: camelCase.
var tsMemberNaming = &model.Naming{
	Language: "TypeScript",
	Ident:    func(gram string) string { return camelName(pascalName(gram)) },
	Rule:     tsNaming.Rule,
}

// pascalName derives a PascalCase identifier from a gram name: its words
// (model.Words), each reduced to its ASCII letters and digits and
// capitalised ("get_weather", "get-weather" and "getWeather" all give
// "GetWeather"; "member_id" gives "MemberId"). A name that does not then
// start with a letter gets the prefix "X"; a name with no ASCII letter or
// digit gives "". Only ASCII is kept so that every TypeScript and
// JavaScript engine, whatever its Unicode version, reads the identifier.
func pascalName(name string) string {
	var b strings.Builder
	for _, w := range model.Words(name) {
		start := b.Len()
		for _, r := range w {
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				if b.Len() == start {
					r = unicode.ToUpper(r)
				}
				b.WriteRune(r)
			}
		}
	}
	s := b.String()
	if s == "" {
		return ""
	}
	if c := s[0]; c >= '0' && c <= '9' {
		s = "X" + s
	}
	return s
}

// camelName lowers a PascalCase name's first word: "GetWeather" gives
// "getWeather", "HTTPServer" "httpServer", "URL" "url", "X1tool"
// "x1tool".
func camelName(pascal string) string {
	n := 0
	for n < len(pascal) && pascal[n] >= 'A' && pascal[n] <= 'Z' {
		n++
	}
	switch {
	case n == 0:
		return pascal
	case n == 1 || n == len(pascal):
		return strings.ToLower(pascal[:n]) + pascal[n:]
	case pascal[n] >= 'a' && pascal[n] <= 'z':
		// "HTTPServer": the last capital starts the next word.
		return strings.ToLower(pascal[:n-1]) + pascal[n-1:]
	}
	return strings.ToLower(pascal[:n]) + pascal[n:]
}

// reservedWords are JavaScript's and TypeScript's reserved words and the
// strict mode's, which no generated function may be named.
var reservedWords = []string{
	"break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
	"else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import",
	"in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true",
	"try", "typeof", "var", "void", "while", "with", "implements", "interface", "let", "package",
	"private", "protected", "public", "static", "yield", "await", "arguments", "eval", "any",
	"unknown", "never", "number", "string", "boolean", "object", "symbol", "bigint", "undefined",
	"type", "declare", "namespace", "module", "as", "async", "of", "satisfies", "keyof",
}

// packageReserved are the names of the module scope the generated code
// declares or reads itself (the globals its types use, its imports, its
// declarations and helpers), which no gram name takes (docs/codegen.md
// lists them).
var packageReserved = []string{
	// Globals the generated code reads.
	"Array", "Boolean", "Error", "JSON", "Number", "Object", "Promise", "Record", "RegExp",
	"String", "Set", "Map", "Symbol", "Math", "Date", "NaN", "Infinity", "globalThis",
	// Imports and namespaces.
	"z", "McpServer", "ListToolsRequestSchema", "gramcTypes", "tools",
	// Declarations.
	"ToolsImpl", "registerTools", "toolSchemas", "typeSchemas", "agentSchemas",
	"AgentCaller", "AgentInputError", "AgentError",
	// Helpers (all start with gramc; listed because a gram name may too).
	"gramcLength", "gramcMatch", "gramcUnique", "gramcOneOf", "gramcEqual", "gramcIssues",
	"gramcPointer", "gramcTool", "gramcToolDef", "gramcCall", "gramcCallResult", "gramcRegister",
	"gramcEntries", "gramcCallAgent", "gramcText", "gramcInteger",
	"GramcSchema", "gramcString", "gramcNumber", "gramcBoolean", "gramcAnyObject", "gramcUnknown",
	"gramcNever", "gramcObject", "gramcArray", "gramcLazy", "gramcLiteral",
	"gramcToolSchemas", "gramcTypeSchemas", "gramcAgentSchemas",
}

// memberReserved are the method names ToolsImpl cannot have: a class
// implementing it would make "constructor" its constructor.
var memberReserved = []string{"constructor"}

func newNamer(scope string, report func(*diag.Diagnostic), reserved ...string) *model.Namer {
	return model.NewNamer(tsNaming, scope, report, reserved...)
}
