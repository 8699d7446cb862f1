package golang

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/model"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/toolspec"
)

// The template's view of the package: every string in it is either a Go
// identifier allocated by a namer, a type expression built from those, a
// literal made by quote, or comment lines made by commentLines.

type fileModel struct {
	Header      string
	Source      []string // comment lines naming the source files
	PackageName string
	Enums       []*enumModel
	Structs     []*structModel
	Tools       []*toolModel
	Agents      []*agentModel
	NeedFloat   bool // an agent sets a temperature
	NeedContext bool // a typed agent's Run takes a context
	NeedJSON    bool // an agent's signature holds schemas
	NeedManual  bool // a struct has hand-written JSON methods
	StubsType   string
}

type enumModel struct {
	Doc        []string
	Name       string
	Underlying string
	Consts     []constModel
}

type constModel struct {
	Name, Value string
	Dup         bool // an earlier constant has the same value
}

type structModel struct {
	Doc    []string
	Name   string
	Fields []*fieldModel
	// Manual is set when a JSON name cannot be written as a struct tag
	// (spaces, quotes, commas, "-", ""): the struct gets MarshalJSON and
	// UnmarshalJSON methods instead.
	Manual bool
}

type fieldModel struct {
	Doc  []string
	Name string
	Type string
	Tag  string // the whole tag literal, with its quotes
	// JSONKey is the Go literal of the JSON-encoded property name (Manual
	// structs); OmitEmpty says how absence is represented.
	JSONKey   string
	Key       string // the Go literal of the property name (Manual structs)
	OmitEmpty string // "", "nil" or "len"
}

// toolModel is what the templates need of a tool. Its names and docs are
// built with the model; its body — the argument struct, the embedded
// schemas, the defaults — is built by Body when the template writes the
// tool's code, and dropped after, so a package of many tools is never
// held in memory whole as Go.
type toolModel struct {
	MethodDoc  []string
	Gram       string // the tool's name as a Go literal
	Name       string // Go base name
	ArgsName   string
	ResultType string
	ResultName string
	FuncName   string
	SpecName   string
	NewName    string
	// NotImplemented is the literal of the skeleton's error message.
	NotImplemented string

	body func() (*toolBody, error)
}

// toolBody is the bulk of a tool's generated code.
type toolBody struct {
	Doc  []string
	Args *structModel
	Spec specModel
}

// Body builds the tool's body (called once per tool, by the template).
func (tm *toolModel) Body() (*toolBody, error) { return tm.body() }

type specModel struct {
	Name, Title, Description, Signature, Schema, OutputSchema string // literals; Title and OutputSchema may be ""
	Strict, Deprecated                                        bool
	// TargetSchemas are the other targets' parameters, sorted by target.
	TargetSchemas []targetSchemaModel
}

type targetSchemaModel struct {
	Target string // a literal
	Const  string // the constant's name suffix, e.g. "Gemini"
	Schema string // a literal
}

type agentModel struct {
	Doc      []string
	FuncName string
	// Signature is a typed agent's signature (literals); Runner its typed
	// entry point; both nil for an agent without a signature.
	Signature *signatureModel
	Runner    *runnerModel
	// Listed are the agents it lists (docs/language.md §2.7): each a tool
	// (its spec's literals) and an agent (its constructor).
	Listed        []*listedModel
	Name          string // literals from here on
	Description   string
	Model         string
	Instruction   string
	ToolSpecs     []string
	Temperature   string // Go float literal or ""
	MaxIterations int
	MaxTokens     int
	ToolChoice    string
}

// signatureModel is runtime.Signature's literals.
type signatureModel struct {
	Input, Message, Output, OutputStrict, OutputName, OutputMode string
	OutputRetries                                                int
}

// listedModel is an agent listed by another: the tool its model sees
// (schema.Spec of the listed agent's signature, as the .gram loader has
// it) and the listed agent's constructor.
type listedModel struct {
	FuncName string
	Spec     specModel
}

// runnerModel is a typed agent's entry point: a struct whose Run method
// takes its input as Go values and returns its output as the Go type.
type runnerModel struct {
	Doc, RunDoc []string
	Type        string       // the runner's type
	Param       string       // Run's input parameter: "ticket string"
	Message     string       // the expression of the message: "ticket"
	Input       *structModel // the input struct of a JSON-object input
	Result      string       // the output's Go type ("string" for text)
	Typed       bool
}

// builder holds the state of one Generate call.
type builder struct {
	// sending: structOf builds a struct the program sends (see there).
	sending bool
	// agentFunc is each agent's constructor's name.
	agentFunc map[*check.Agent]string
	req       Request
	pkg       *check.Package
	report    func(*diag.Diagnostic)
	names     *model.Namer
	model     *model.Package
	decls     []*check.TypeDecl
	enums     []*check.Enum
	declGo    map[*check.TypeDecl]string
	enumGo    map[*check.Enum]string
	tools     []*check.Tool
	toolGo    map[*check.Tool]*toolModel
	// toolByName finds an agent's tool that is a different *check.Tool
	// with the name of a generated one.
	toolByName map[string]*toolModel
}

func buildModel(req Request) (*fileModel, error) {
	b := &builder{
		req:    req,
		pkg:    req.Package,
		report: req.Report,
		declGo: map[*check.TypeDecl]string{},
		enumGo: map[*check.Enum]string{},
		toolGo: map[*check.Tool]*toolModel{},
	}
	b.names = newNamer("package", b.report, packageReserved...)
	b.model = model.New(req.Package)
	b.decls, b.enums, b.tools = b.model.Types, b.model.Enums, b.model.Tools
	m := &fileModel{
		Header:      Header,
		Source:      b.sourceLines(),
		PackageName: req.PackageName,
		StubsType:   StubsType,
	}
	if m.PackageName == "" {
		m.PackageName = packageName(b.model.Base)
	} else if !token.IsIdentifier(m.PackageName) || m.PackageName == "_" {
		return nil, fmt.Errorf("golang: invalid Go package name %q", m.PackageName)
	}

	// Package-scope names, in a fixed order: declared types, enums, tools,
	// agents, enum constants.
	for _, d := range b.decls {
		b.declGo[d] = b.names.Take(d.Name, d.NameRange, "Type", one)
	}
	for _, e := range b.enums {
		b.enumGo[e] = b.names.Take(e.Name, e.NameRange, "Enum", one)
	}
	for _, t := range b.tools {
		base := b.names.Take(t.Name, t.NameRange, "Tool", toolNames)
		tm := &toolModel{Name: base}
		n := toolNames(base)
		tm.ResultName, tm.FuncName, tm.SpecName, tm.NewName = n[1], n[2], n[3], n[4]
		b.toolGo[t] = tm
	}
	var agentNames, agentBases []string
	for _, a := range b.pkg.Agents {
		derive := func(base string) []string { return []string{"New" + base} }
		if a.HasSignature {
			// A typed entry point: the runner and its input struct.
			derive = func(base string) []string { return []string{"New" + base, base + "Agent", base + "Input"} }
		}
		base := b.names.Take(a.Name, a.NameRange, "Agent", derive)
		agentNames = append(agentNames, "New"+base)
		agentBases = append(agentBases, base)
	}
	for _, e := range b.enums {
		em, err := b.enum(e)
		if err != nil {
			return nil, err
		}
		m.Enums = append(m.Enums, em)
	}

	for _, d := range b.decls {
		goName := b.declGo[d]
		s := b.structOf(goName, "type "+goName, d.Fields, d)
		s.Doc = doc(fmt.Sprintf("%s is the gram type %s.", goName, quote(d.Name)), d.Description)
		m.Structs = append(m.Structs, s)
	}
	for _, t := range b.tools {
		tm, err := b.tool(t)
		if err != nil {
			return nil, err
		}
		m.Tools = append(m.Tools, tm)
	}
	b.agentFunc = map[*check.Agent]string{}
	for i, a := range b.pkg.Agents {
		b.agentFunc[a] = agentNames[i]
	}
	for i, a := range b.pkg.Agents {
		am, err := b.agent(a, agentNames[i], agentBases[i])
		if err != nil {
			return nil, err
		}
		m.Agents = append(m.Agents, am)
		if am.Runner != nil {
			m.NeedContext = true
			if am.Runner.Input != nil {
				m.Structs = append(m.Structs, am.Runner.Input)
				m.NeedManual = m.NeedManual || am.Runner.Input.Manual
			}
		}
		m.NeedJSON = m.NeedJSON || am.Signature != nil || len(am.Listed) > 0
	}
	for _, s := range m.Structs {
		m.NeedManual = m.NeedManual || s.Manual
	}
	for _, t := range b.tools {
		for _, p := range t.Params {
			// As structOf decides for the argument struct, built later.
			m.NeedManual = m.NeedManual || !simpleJSONName(p.Name)
		}
	}
	for _, a := range m.Agents {
		m.NeedFloat = m.NeedFloat || a.Temperature != ""
	}
	return m, nil
}

// toolNames derives the package-level names of a tool from its base.
func toolNames(base string) []string {
	return []string{base + "Args", base + "Result", base + "Func", base + "Spec", "New" + base + "Tool"}
}

func (b *builder) sourceLines() []string {
	names := b.model.Sources
	if len(names) == 0 {
		return nil
	}
	src := "Source: " + strings.Join(names, ", ")
	if b.pkg.Name != "" {
		src += " (gram package " + quote(b.pkg.Name) + ")"
	}
	return commentLines(src)
}

// enum builds an enum's type and constants.
func (b *builder) enum(e *check.Enum) (*enumModel, error) {
	goName := b.enumGo[e]
	em := &enumModel{
		Name: goName,
		Doc:  doc(fmt.Sprintf("%s is the gram enum %s.", goName, quote(e.Name)), e.Description),
	}
	em.Underlying = "string"
	if e.ValueKind == check.Integer {
		em.Underlying = "int64"
		// JSON integers may exceed int64; such an enum is a float64
		// (the nearest float of each value), like a JSON decoder would
		// read it.
		for _, v := range e.Values {
			if _, err := strconv.ParseInt(fmt.Sprint(v), 10, 64); err != nil {
				em.Underlying = "float64"
			}
		}
	}
	seen := map[string]bool{}
	for i, v := range e.Values {
		var lit, word string
		switch e.ValueKind {
		case check.Integer:
			s := fmt.Sprint(v)
			if em.Underlying == "int64" {
				n, _ := strconv.ParseInt(s, 10, 64)
				lit = strconv.FormatInt(n, 10)
			} else {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, fmt.Errorf("golang: enum %s: value %q is not a number: %w", e.Name, s, err)
				}
				if math.IsInf(f, 0) {
					return nil, fmt.Errorf("golang: enum %s: value %q is out of the range of float64", e.Name, s)
				}
				lit = strconv.FormatFloat(f, 'g', -1, 64)
			}
			word = strings.Replace(s, "-", "Minus", 1)
		default:
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("golang: enum %s: value %v is not a string", e.Name, v)
			}
			lit = quote(s)
			word = camel.Case(s)
			if s == "" {
				word = "Empty"
			}
		}
		if word == "" || !token.IsIdentifier(goName+word) {
			word = "Value" + strconv.Itoa(i+1)
		}
		name := b.names.TakeBase(fmt.Sprint(v), goName+word, e.NameRange, one)
		// Values that are equal in Go (rounded floats) share one case in
		// Valid's switch.
		em.Consts = append(em.Consts, constModel{Name: name, Value: lit, Dup: seen[lit]})
		seen[lit] = true
	}
	return em, nil
}

// simpleJSONName reports whether name can be written in a `json:"..."` tag
// that encoding/json honours and go vet accepts.
func simpleJSONName(name string) bool {
	if name == "" || name == "-" {
		return false
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~", r):
		default:
			return false
		}
	}
	return true
}

// structOf builds a struct of fields; owner is the declaration it belongs
// to (nil for a tool's arguments), used to break recursion with pointers.
func (b *builder) structOf(goName, scope string, fields []*check.Param, owner *check.TypeDecl) *structModel {
	s := &structModel{Name: goName}
	for _, f := range fields {
		if !simpleJSONName(f.Name) {
			s.Manual = true
		}
	}
	var reserved []string
	if s.Manual {
		reserved = []string{"MarshalJSON", "UnmarshalJSON"}
	}
	fn := newNamer(scope, b.report, reserved...)
	for _, f := range fields {
		fm := &fieldModel{Name: fn.Take(f.Name, f.NameRange, "Field", one)}
		typ := b.goType(f.Type)
		pointer := false
		switch {
		case f.Type != nil && f.Type.Kind == check.Record && owner != nil && b.model.Reaches(f.Type.Decl, owner):
			pointer = true // recursion
		}
		// A struct the program sends (a typed agent's input) leaves a
		// defaulted field out when unset, so the runtime fills its
		// default; one it receives has the default filled in.
		optional := f.Optional && (!f.HasDefault || b.sending)
		if optional && f.Type != nil {
			switch f.Type.Kind {
			case check.Array, check.Object:
				fm.OmitEmpty = "len"
			default:
				pointer = true
			}
		}
		if pointer {
			typ = "*" + typ
			if optional {
				fm.OmitEmpty = "nil"
			}
		}
		fm.Type = typ
		if s.Manual {
			fm.Tag = "`json:\"-\"`"
			key, _ := json.Marshal(f.Name)
			fm.JSONKey = quote(string(key))
			fm.Key = quote(f.Name)
		} else {
			opts := ""
			if fm.OmitEmpty != "" {
				opts = ",omitempty"
			}
			fm.Tag = "`json:\"" + f.Name + opts + "\"`"
		}
		fm.Doc = fieldDoc(f)
		s.Fields = append(s.Fields, fm)
	}
	return s
}

func fieldDoc(f *check.Param) []string {
	var parts []string
	if f.Description != "" {
		parts = append(parts, f.Description)
	}
	var buf [3]string
	notes := model.AppendFieldNotes(buf[:0], f, quote, " (filled in by the runtime when absent)")
	if f.Deprecated {
		notes = append(notes, "Deprecated: the gram declaration marks it deprecated.")
	}
	if len(notes) > 0 {
		parts = append(parts, strings.Join(notes, " "))
	}
	var lines []string
	for i, p := range parts {
		if i > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, commentLines(p)...)
	}
	return lines
}

// goType is the Go type expression of a gram type.
func (b *builder) goType(t *check.Type) string {
	if t == nil {
		return "any"
	}
	switch t.Kind {
	case check.Array:
		return "[]" + b.goType(t.Elem)
	case check.String, check.Integer, check.Number, check.Boolean, check.Object:
		bt, _ := t.Kind.Builtin()
		return bt.Go
	case check.Record:
		if n, ok := b.declGo[t.Decl]; ok {
			return n
		}
		return "map[string]any"
	case check.EnumKind:
		if n, ok := b.enumGo[t.Enum]; ok {
			return n
		}
		return "string"
	}
	return "any"
}

func (b *builder) tool(t *check.Tool) (*toolModel, error) {
	tm := b.toolGo[t]
	tm.Gram = quote(t.Name)
	tm.NotImplemented = quote(t.Name + ": not implemented")
	tm.MethodDoc = doc(fmt.Sprintf("%s implements the gram tool %s.", tm.Name, quote(t.Name)), t.Description)
	tm.ArgsName = toolNames(tm.Name)[0]
	tm.ResultType = b.goType(t.Result)
	tm.body = func() (*toolBody, error) { return b.toolBody(t, tm) }
	return tm, nil
}

func (b *builder) toolBody(t *check.Tool, tm *toolModel) (*toolBody, error) {
	// The embedded spec is schema.Spec's, as gramfile's, so
	// generated code and an agent loaded from .gram files agree by
	// construction.
	spec, err := schema.Spec(t, schema.OpenAI)
	if err != nil {
		return nil, fmt.Errorf("golang: tool %s: %w", t.Name, err)
	}
	body := &toolBody{}
	sent := "JSON"
	if t.Result != nil && t.Result.Kind == check.String {
		sent = "plain text"
	}
	body.Doc = doc(fmt.Sprintf("%s binds %s to the gram tool %s.\nThe runtime validates the model's arguments against %s and applies\ndefaults before fn sees them; fn's result is sent to the model as %s.",
		tm.NewName, english.A(tm.FuncName), quote(t.Name), tm.SpecName, sent), t.Description)
	body.Args = b.structOf(tm.ArgsName, "arguments of tool "+quote(t.Name), t.Params, nil)
	body.Args.Doc = doc(fmt.Sprintf("%s are the arguments of the gram tool %s.", tm.ArgsName, quote(t.Name)), "")
	body.Spec = specOf(spec)
	return body, nil
}

// specOf is the template's view of a tool's specification: its literals,
// Title and OutputSchema "" when absent, and the other targets' schemas
// sorted by target.
func specOf(spec toolspec.Spec) specModel {
	m := specModel{
		Name:        quote(spec.Name),
		Description: quote(spec.Description),
		Deprecated:  spec.Deprecated,
		Signature:   quote(spec.Signature),
		Schema:      quote(string(spec.Schema)),
		Strict:      spec.Strict,
	}
	if spec.Title != "" {
		m.Title = quote(spec.Title)
	}
	if len(spec.OutputSchema) > 0 {
		m.OutputSchema = quote(string(spec.OutputSchema))
	}
	targets := make([]string, 0, len(spec.TargetSchemas))
	for target := range spec.TargetSchemas {
		targets = append(targets, target)
	}
	sort.Strings(targets)
	for _, target := range targets {
		m.TargetSchemas = append(m.TargetSchemas, targetSchemaModel{Target: quote(target),
			Const: exportedName(target), Schema: quote(string(spec.TargetSchemas[target]))})
	}
	return m
}

func (b *builder) agent(a *check.Agent, funcName, base string) (*agentModel, error) {
	am := &agentModel{
		FuncName:      funcName,
		Doc:           doc(fmt.Sprintf("%s returns the gram agent %s.", funcName, quote(a.Name)), a.Description),
		Name:          quote(a.Name),
		Description:   quote(a.Description),
		Model:         quote(a.Model),
		Instruction:   quote(a.Instruction),
		MaxIterations: a.MaxIterations,
		MaxTokens:     a.MaxTokens,
	}
	if a.ToolChoice != "" {
		am.ToolChoice = quote(a.ToolChoice)
	}
	if a.Temperature != nil {
		am.Temperature = strconv.FormatFloat(*a.Temperature, 'g', -1, 64)
		if !strings.ContainsAny(am.Temperature, ".e") {
			am.Temperature += ".0"
		}
	}
	if b.toolByName == nil {
		b.toolByName = map[string]*toolModel{}
		for _, t := range b.tools {
			b.toolByName[t.Name] = b.toolGo[t]
		}
	}
	for _, t := range a.Tools {
		if t == nil {
			continue
		}
		tm, ok := b.toolGo[t]
		if !ok {
			tm = b.toolByName[t.Name]
		}
		if tm != nil {
			am.ToolSpecs = append(am.ToolSpecs, tm.SpecName)
		}
	}
	for _, listed := range a.Agents {
		spec, err := schema.Spec(listed.AsTool(), schema.OpenAI)
		if err != nil {
			return nil, fmt.Errorf("agent %s: listed agent %s: %w", a.Name, listed.Name, err)
		}
		lm := &listedModel{FuncName: b.agentFunc[listed], Spec: specOf(spec)}
		if lm.FuncName == "" {
			return nil, fmt.Errorf("agent %s: listed agent %s is not in the package", a.Name, listed.Name)
		}
		am.Listed = append(am.Listed, lm)
	}
	sig, err := schema.Signature(a)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.Name, err)
	}
	if sig == nil {
		return am, nil
	}
	am.Signature = &signatureModel{Input: quote(string(sig.Input)), Message: quote(sig.Message), Output: quote(string(sig.Output)),
		OutputStrict: quote(string(sig.OutputStrict)), OutputName: quote(sig.OutputName), OutputMode: quote(string(sig.OutputMode)), OutputRetries: sig.Retries()}
	r := &runnerModel{Type: base + "Agent", Result: "string", Typed: a.Typed()}
	if r.Typed {
		r.Result = b.goType(a.Signature.Result)
	}
	if a.MessageInput() {
		name := a.Signature.Params[0].Name
		if !token.IsIdentifier(name) || token.IsKeyword(name) || name == "ctx" || name == "a" {
			name = "message"
		}
		r.Param, r.Message = name+" string", name
	} else {
		b.sending = true
		r.Input = b.structOf(base+"Input", "type "+base+"Input", a.Signature.Params, nil)
		b.sending = false
		r.Input.Doc = doc(fmt.Sprintf("%s is the input of the gram agent %s, sent as one JSON object.", base+"Input", quote(a.Name)), "")
		r.Param = "input " + base + "Input"
	}
	r.Doc = doc(fmt.Sprintf("%s runs the gram agent %s with Model, its tools bound in Tools (nil for none), and Options for each run.", r.Type, quote(a.Name)), "")
	what := "its answer's text"
	if r.Typed {
		what = "its typed result, validated against the agent's output type with its defaults applied"
	}
	r.RunDoc = doc(fmt.Sprintf("Run runs the agent on its input and returns %s, with the run's Response.", what), "")
	am.Runner = r
	return am, nil
}
