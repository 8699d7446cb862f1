// Package hostile is the code generators' shared hostile corpus: names
// and text that try to break out of a comment or a string literal, to
// smuggle a directive or a declaration into a generated file, or to
// collide with the generated code's own names. Every emitter's tests
// generate code from it (codegen/golang, codegen/typescript).
package hostile

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/check"
)

// Text is description and default text that tries to break out of
// a comment or a string literal, or to smuggle a directive into the file.
const Text = "ends */ here /* and\nnext line\r\nCR line\rpackage main\u2028func init() { panic(1) }\u2029" +
	"`backtick` \"quote\" \\ backslash\n//go:generate rm -rf /\n//line evil.go:1\n" +
	"nul\x00 bom\ufeff bidi\u202e reversed\u202c nel\u0085 vt\v ff\f invalid\xff utf8 ``` fence"

// Models are checked models (built by hand, so they reach corners the
// checker might reject) whose generated code must still compile in every
// language, and inject nothing. Each call builds them afresh.
func Models() map[string]*check.Package {
	str := func() *check.Type { return &check.Type{Kind: check.String} }
	integer := func() *check.Type { return &check.Type{Kind: check.Integer} }
	models := map[string]*check.Package{}

	// Names: keywords, leading digits, -, ., @, spaces, quotes, collisions.
	words := &check.Enum{Name: "words", Description: Text, ValueKind: check.String,
		Values: []any{"celsius", "Celsius", "", "a b", "1st", "-", "*/", "\n", "type", "go:generate"}}
	ints := &check.Enum{Name: "1levels", ValueKind: check.Integer, Values: []any{json.Number("-1"), json.Number("0"), json.Number("1"), json.Number("9223372036854775807")}}
	// Integers beyond int64 (JSON allows them): a float64 enum; two
	// values round to the same float.
	huge := &check.Enum{Name: "huge", ValueKind: check.Integer, Values: []any{json.Number("1"), json.Number("99999999999999999999"), json.Number("100000000000000000000"), json.Number("-99999999999999999999")}}
	fooBar := &check.TypeDecl{Name: "foo_bar", Description: Text, Fields: []*check.Param{
		{Name: "type", Type: str()},
		{Name: "func", Type: integer(), Optional: true},
		{Name: "1st", Type: &check.Type{Kind: check.Boolean}, Optional: true},
		{Name: "a-b", Type: &check.Type{Kind: check.Number}, HasDefault: true, Optional: true, Default: json.Number("2.5")},
		{Name: "a.b", Type: str(), Description: Text},
		{Name: "x@y", Type: &check.Type{Kind: check.Object}, Optional: true},
		{Name: "aB", Type: str()},
	}}
	fooBar2 := &check.TypeDecl{Name: "fooBar", Fields: []*check.Param{
		{Name: "my name", Type: str(), Description: "a backtick name with a space"},
		{Name: "-", Type: str(), Optional: true},
		{Name: "", Type: integer(), Optional: true},
		{Name: "quote\"d", Type: str(), HasDefault: true, Optional: true, Default: Text},
		{Name: "back`tick", Type: &check.Type{Kind: check.Array, Elem: str()}, Optional: true},
		{Name: "comma,name", Type: &check.Type{Kind: check.EnumKind, Enum: words}, Optional: true},
		{Name: "MarshalJSON", Type: str()},
		{Name: "line\u2028sep", Type: str()},
	}}
	toolsType := &check.TypeDecl{Name: "Tools", Fields: []*check.Param{{Name: "x", Type: str()}}}
	getArgs := &check.TypeDecl{Name: "GetWeatherArgs", Fields: []*check.Param{{Name: "x", Type: str()}}}
	tool := func(name string, params []*check.Param, result *check.Type) *check.Tool {
		return &check.Tool{Name: name, Description: Text, Params: params, Result: result, Signature: Text}
	}
	t1 := tool("getWeather", []*check.Param{
		{Name: "city", Type: str(), Description: Text, HasDefault: true, Optional: true, Default: Text},
		{Name: "level", Type: &check.Type{Kind: check.EnumKind, Enum: ints}, Optional: true},
		{Name: "rec", Type: &check.Type{Kind: check.Record, Decl: fooBar2}},
	}, &check.Type{Kind: check.Record, Decl: fooBar})
	t2 := tool("get_weather", []*check.Param{{Name: "w", Type: &check.Type{Kind: check.EnumKind, Enum: words}, HasDefault: true, Optional: true, Default: "*/"}}, str())
	t3 := tool("type", nil, &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Array, Elem: integer()}})
	t4 := tool("go-tool", nil, &check.Type{Kind: check.Object})
	t5 := tool("newToolLibrary", nil, &check.Type{Kind: check.EnumKind, Enum: words})
	t6 := tool("1tool", []*check.Param{{Name: "n", Type: integer(), Optional: true}}, &check.Type{Kind: check.Boolean})
	temp := 1.0
	models["names"] = &check.Package{
		Name:  "type",
		Types: []*check.TypeDecl{fooBar, fooBar2, toolsType, getArgs},
		Enums: []*check.Enum{words, ints, huge},
		Tools: []*check.Tool{t1, t2, t3, t4, t5, t6},
		Agents: []*check.Agent{
			{Name: "agent", Description: Text, Instruction: Text, Model: "OpenAI/x\n*/", Temperature: &temp, ToolChoice: Text, Tools: []*check.Tool{t1, t3}},
			{Name: "agent-", Instruction: "x", Model: "OpenAI/gpt-4o-mini"},
			{Name: "Tool", Instruction: "x", Model: "OpenAI/gpt-4o-mini"},
		},
	}

	// Recursion: self-reference through a field, an optional field and an
	// array; mutual recursion between two types.
	comment := &check.TypeDecl{Name: "Comment", Description: "A tree of comments"}
	a := &check.TypeDecl{Name: "A"}
	b := &check.TypeDecl{Name: "B"}
	comment.Fields = []*check.Param{
		{Name: "text", Type: str()},
		{Name: "replies", Type: &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Record, Decl: comment}}},
		{Name: "parent", Type: &check.Type{Kind: check.Record, Decl: comment}, Optional: true},
		{Name: "next", Type: &check.Type{Kind: check.Record, Decl: comment}},
		{Name: "a", Type: &check.Type{Kind: check.Record, Decl: a}},
	}
	a.Fields = []*check.Param{{Name: "b", Type: &check.Type{Kind: check.Record, Decl: b}}}
	b.Fields = []*check.Param{{Name: "a", Type: &check.Type{Kind: check.Record, Decl: a}}, {Name: "n", Type: integer()}}
	thread := tool("thread", []*check.Param{{Name: "root", Type: &check.Type{Kind: check.Record, Decl: comment}}}, &check.Type{Kind: check.Record, Decl: comment})
	models["recursion"] = &check.Package{Name: "recursion", Types: []*check.TypeDecl{comment, a, b}, Tools: []*check.Tool{thread}}

	// Nothing but an agent without tools, in a package whose name is a
	// keyword-ish path.
	models["empty"] = &check.Package{Name: "_1-go.pkg", Agents: []*check.Agent{{Name: "lonely", Instruction: "Say hi.", Model: "OpenAI/gpt-4o-mini"}}}
	models["nothing"] = &check.Package{Name: "init"}
	return models
}
