// Package check gives gram files their meaning: it lowers syntax trees into
// a typed model of tools, parameters, types, enums and agents, and reports
// every rule of the language that a package breaks as a diagnostic.
//
// The model is what the schema emitters, the Go code generator and the
// runtime consume. Every model value keeps the source range it came from.
//
// CheckSources checks a package's parsed files; a Cache does the same
// again after an edit at the cost of the changed files, as the language
// server does on every keystroke.
package check

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/toolspec"
)

// Package is a checked gram package: a directory of .gram files (or the
// files named together on a command line) sharing one namespace.
type Package struct {
	// Dir is the package's directory ("" when made of named files).
	Dir string
	// Name is the package name: the header record's `package` value when
	// a file declares one, else the directory's base name.
	Name  string
	Files []*ast.File
	// Declarations in source order (files in lexical order of their names).
	Tools  []*Tool
	Agents []*Agent
	Types  []*TypeDecl
	Enums  []*Enum
	Tests  []*Test
}

// Tool is a `:Tool` declaration: a named, described, curried signature.
type Tool struct {
	Name        string
	Title       string
	Description string
	// Strict is the tool's `strict` property (nil when not given).
	Strict     *bool
	Deprecated bool
	// Params are the signature's parameters in declaration order.
	Params []*Param
	// Result is the return type; ResultDescription its description, if any.
	Result            *Type
	ResultDescription string
	// Signature is the canonical one-line gram text of the signature, e.g.
	// `(personName::String {default: "world"})==>(::String)`.
	Signature string
	Range     ast.Range // the whole tool pattern
	NameRange ast.Range // the tool's identifier
}

// Param is a tool parameter or a record field.
type Param struct {
	Name        string
	Type        *Type
	Description string
	// Default is the JSON-ready default value (see Value) when HasDefault.
	Default    any
	HasDefault bool
	// Optional is true for `optional: true` or a parameter with a default.
	Optional    bool
	Deprecated  bool
	Examples    []any
	Constraints *Constraints // nil when there are none; read it with Value
	Range       ast.Range    // the parameter's node
	NameRange   ast.Range
}

// Required reports whether the parameter must be supplied (no default and
// not optional).
func (p *Param) Required() bool { return !p.Optional && !p.HasDefault }

// Constraints are the JSON Schema validation keywords of a parameter.
// Numbers are kept as json.Number so integers print without a decimal
// point and large values keep their exact digits.
type Constraints struct {
	Enum             []any // allowed values (JSON-ready), nil when absent
	Minimum          *json.Number
	Maximum          *json.Number
	ExclusiveMinimum *json.Number
	ExclusiveMaximum *json.Number
	MinLength        *int64
	MaxLength        *int64
	Pattern          string
	Format           string
	MinItems         *int64
	MaxItems         *int64
	UniqueItems      bool
}

// Value returns the constraints, or none for nil.
func (c *Constraints) Value() Constraints {
	if c == nil {
		return Constraints{}
	}
	return *c
}

// Kind is the kind of a Type.
type Kind int

const (
	String Kind = iota
	Integer
	Number
	Boolean
	Object // free-form JSON object
	Array  // Elem is the element type
	Record // a declared :Type; Decl is set
	EnumKind
)

// String returns the gram name of the kind ("String", "Integer", ...).
func (k Kind) String() string {
	if b, ok := k.Builtin(); ok {
		return b.Name
	}
	switch k {
	case Record:
		return "Record"
	case EnumKind:
		return "Enum"
	}
	return "unknown"
}

// Type is the type of a parameter, field or result.
type Type struct {
	Kind Kind
	Elem *Type     // Array: the element type
	Decl *TypeDecl // Record: the declared type
	Enum *Enum     // EnumKind: the declared enum
	// Range is where the type was written (the label).
	Range ast.Range
}

// Name returns the type's gram name: a declared type's or enum's name, or
// the kind name ("Array" for arrays).
func (t *Type) Name() string {
	switch {
	case t == nil:
		return ""
	case t.Kind == Record && t.Decl != nil:
		return t.Decl.Name
	case t.Kind == EnumKind && t.Enum != nil:
		return t.Enum.Name
	}
	return t.Kind.String()
}

// TypeDecl is a `:Type` declaration: a named record of fields.
type TypeDecl struct {
	Name        string
	Description string
	Fields      []*Param
	Range       ast.Range
	NameRange   ast.Range
}

// Enum is an `:Enum` declaration.
type Enum struct {
	Name        string
	Description string
	// ValueKind is String or Integer.
	ValueKind Kind
	// Values are JSON-ready: string or json.Number.
	Values    []any
	Range     ast.Range
	NameRange ast.Range
}

// Agent is an `:Agent` declaration.
type Agent struct {
	Name        string
	Description string
	Instruction string
	// Model is the full `Provider/model-name`; Provider and ModelName are
	// its parts.
	Model     string
	Provider  string
	ModelName string
	// Temperature is nil when not given.
	Temperature *float64
	// MaxIterations is 0 when not given (the runtime default applies).
	MaxIterations int
	// MaxTokens is 0 when not given (no limit).
	MaxTokens  int
	ToolChoice string
	// Tools are the agent's tools, inline or referenced, in listed order.
	Tools []*Tool
	// Agents are the agents it lists (docs/language.md §2.7), in listed
	// order: to its model each is the tool AsTool returns.
	Agents []*Agent
	// Signature is the agent's signature (docs/language.md §2.6) as a tool named and
	// described as the agent: its Params are the agent's input, its
	// Result the agent's output. codegen/schema's Parameters and Output
	// give their JSON Schemas, and an agent listing this one sees it as
	// this tool. Without a signature element it is the implicit
	// (input::String)==>(::String) and HasSignature is false. Never nil
	// in a checked package.
	Signature    *Tool
	HasSignature bool
	// OutputMode is how the model is held to a typed output:
	// provider.OutputAuto when not given (the runtime picks the mode from the provider's
	// capabilities).
	OutputMode OutputMode
	// OutputRetries is how many repair turns an invalid answer gets (1
	// when not given).
	OutputRetries int
	Range         ast.Range
	NameRange     ast.Range
}

// AsTool is the tool an agent listing a is given: a's Signature, named
// and described as a.
func (a *Agent) AsTool() *Tool { return a.Signature }

// ModelTools are the tools a's model is offered, in the one order every
// place uses (the request, gramc schema --agent, the runtime's and the
// generated code's specifications): its tools in listed order, then the
// agents it lists, in listed order, each as AsTool gives it.
func (a *Agent) ModelTools() []*Tool {
	out := make([]*Tool, 0, len(a.Tools)+len(a.Agents))
	out = append(out, a.Tools...)
	for _, l := range a.Agents {
		out = append(out, l.AsTool())
	}
	return out
}

// Typed reports whether the agent's output is typed: a return type other
// than String, whose answer is a JSON value of that type.
func (a *Agent) Typed() bool {
	return a.Signature != nil && a.Signature.Result != nil && a.Signature.Result.Kind != String
}

// MessageInput reports whether the agent's input is the user's message
// itself: exactly one String parameter. Otherwise the message is the
// validated arguments as one JSON object.
func (a *Agent) MessageInput() bool {
	if a.Signature == nil {
		return true
	}
	ps := a.Signature.Params
	return len(ps) == 1 && ps[0].Type != nil && ps[0].Type.Kind == String
}

// OutputMode says how a typed agent's model is held to its output type
// (docs/language.md §2.6): provider.OutputMode, whose constants and table of what each
// provider honours are the one source.
type OutputMode = provider.OutputMode

// MaxAgentNesting is how deep agents may list agents: an agent that
// lists none is one level, one that lists such an agent two, and so on.
// Deeper is agent-nesting; the runtime bounds a run's nesting by it too.
// The value is toolspec's, the one place both read it.
const MaxAgentNesting = toolspec.MaxAgentNesting

// Test is a `:Test` declaration: one run of an agent on one input and
// what the run must do (docs/language.md §2.5). gramc test runs it.
type Test struct {
	Name        string
	Description string
	// Agent is the agent under test (nil when the name is unknown).
	Agent *Agent
	// Input is the user's message, when input is a string (for an agent
	// whose input is not one String parameter, the arguments as one JSON
	// object).
	Input string
	// Arguments is the input given as a map: the agent's arguments,
	// JSON-ready and checked against its parameters; nil when input is a
	// string. The message is then the one String argument of an agent
	// whose input is that (MessageInput), else the arguments as a JSON
	// object.
	Arguments map[string]any
	// Answer is the typed result the run must give, when HasAnswer: a
	// JSON-ready scalar or array it must equal, or a map[string]any whose
	// keys it must have, each equal as JSON (others may have any value).
	Answer    any
	HasAnswer bool
	// AnswerContains are texts the answer must contain, each.
	AnswerContains []string
	// AnswerMatches is a regular expression (RE2) the answer must match;
	// "" when not given.
	AnswerMatches string
	// AnyOrder: the expected calls are a set, not a sequence.
	AnyOrder bool
	// Results is where the tools' results come from.
	Results ToolResults
	// Cassette is the cassette of the model's traffic as written ("" for
	// the default, testdata/<name>.cassette), relative to the test's file.
	Cassette string
	// IgnoreRequests are JSON paths of the request bodies a replay does
	// not compare ($.temperature), as VCR's match_on.
	IgnoreRequests []string
	// Calls are the tool calls the run must make: all of them and no
	// others, in order unless AnyOrder.
	Calls     []*ExpectedCall
	Range     ast.Range
	NameRange ast.Range
}

// ToolResults says where a test's tool results come from.
type ToolResults string

// The sources of a test's tool results.
const (
	// MockResults: each call's `returns`; no tool runs.
	MockResults ToolResults = "mock"
	// BoundResults: the tools' bound implementations run.
	BoundResults ToolResults = "bound"
	// CassetteResults: recorded with the bound implementations, replayed
	// from the cassette without running them.
	CassetteResults ToolResults = "cassette"
)

// ExpectedCall is a `(::Call {tool: ..., args: {...}, returns: ...})`
// element of a test.
type ExpectedCall struct {
	// Tool is the tool called; for an agent the test's agent lists, that
	// agent's Signature (Agent.AsTool).
	Tool *Tool
	// Args is the subset of the arguments the call must have (JSON-ready
	// values, compared as JSON).
	Args map[string]any
	// Returns is the mocked result (JSON-ready) when HasReturns.
	Returns    any
	HasReturns bool
	Range      ast.Range
}

// Value conversion: gram values become JSON-ready Go values —
// string, json.Number, bool, []any and map[string]any — so that
// encoding/json prints them exactly and deterministically.
