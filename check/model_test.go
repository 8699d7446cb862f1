package check

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/toolspec"
	"reflect"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/provider"
)

func mustLoad(t *testing.T, src string) *Package {
	t.Helper()
	pkg, ds := loadSource("t.gram", []byte(src))
	for _, d := range ds {
		t.Errorf("unexpected: %s", d.Error())
	}
	return pkg
}

func TestModelWeather(t *testing.T) {
	pkgs, ds, err := loadPaths("../examples/weather")
	if err != nil || len(ds) > 0 || len(pkgs) != 1 {
		t.Fatalf("load: %v %v %d", err, ds, len(pkgs))
	}
	p := pkgs[0]
	if p.Name != "weather" || p.Dir != "../examples/weather" {
		t.Errorf("name %q dir %q", p.Name, p.Dir)
	}
	var tools []string
	for _, tl := range p.Tools {
		tools = append(tools, tl.Name)
	}
	// Files in lexical order (agent.gram first), declarations in source order.
	if want := []string{"convertTemperature", "getWeather", "getForecast", "getAlerts", "findStations"}; !reflect.DeepEqual(tools, want) {
		t.Errorf("tools = %v, want %v", tools, want)
	}
	a := p.Agents[0]
	if a.Provider != "OpenAI" || a.ModelName != "gpt-4o-mini" || a.Model != "OpenAI/gpt-4o-mini" || a.MaxIterations != 6 || a.Temperature == nil || *a.Temperature != 0.2 || a.ToolChoice != "auto" {
		t.Errorf("agent = %+v", a)
	}
	if len(a.Tools) != 4 || a.Tools[0] != p.Tools[1] || a.Tools[3] != p.Tools[0] {
		t.Errorf("agent tools do not point at the package's tools")
	}
	fc := p.Tools[2]
	if fc.Title != "Forecast" || len(fc.Params) != 3 {
		t.Fatalf("getForecast = %+v", fc)
	}
	days := fc.Params[1]
	if days.Name != "days" || days.Type.Kind != Integer || days.Default != json.Number("3") || !days.HasDefault || !days.Optional || days.Required() {
		t.Errorf("days = %+v", days)
	}
	if *days.Constraints.Minimum != "1" || *days.Constraints.Maximum != "14" {
		t.Errorf("days constraints = %+v", days.Constraints)
	}
	if fc.Result.Kind != Array || fc.Result.Elem.Kind != Record || fc.Result.Elem.Decl.Name != "WeatherReport" || fc.ResultDescription != "One report per day" {
		t.Errorf("result = %+v", fc.Result)
	}
	city := fc.Params[0]
	if !city.Required() || *city.Constraints.MinLength != 1 || !reflect.DeepEqual(city.Examples, []any{"Paris", "Tokyo"}) {
		t.Errorf("city = %+v", city)
	}
	if city.NameRange.Start.Line != 10 || city.NameRange.Start.Column != 4 || city.NameRange.File != "../examples/weather/tools.gram" {
		t.Errorf("city range = %v", city.NameRange)
	}
	al := p.Tools[3]
	if al.Strict == nil || !*al.Strict || al.Params[1].Constraints.ExclusiveMinimum == nil || al.Params[2].Type.Kind != EnumKind || al.Params[2].Default != json.Number("1") {
		t.Errorf("getAlerts = %+v", al)
	}
	var sev *Enum
	for _, e := range p.Enums {
		if e.Name == "Severity" {
			sev = e
		}
	}
	if sev == nil || sev.ValueKind != Integer || !reflect.DeepEqual(sev.Values, []any{json.Number("1"), json.Number("2"), json.Number("3")}) {
		t.Errorf("Severity = %+v", sev)
	}
	var alert *TypeDecl
	for _, td := range p.Types {
		if td.Name == "Alert" {
			alert = td
		}
	}
	if alert == nil || alert.Fields[2].Type.Elem.Decl != alert {
		t.Errorf("Alert is not recursive: %+v", alert)
	}
	if fs := p.Tools[4].Params[0].Constraints.Pattern; fs != "^[A-Z]{4}$" {
		t.Errorf("pattern = %q", fs)
	}
}

func TestModelValues(t *testing.T) {
	p := mustLoad(t, "[Point:Type | (x::Number), (y::Number)]\n"+
		"[t:Tool {description: \"d\", deprecated: true} |\n"+
		"  (a::Integer {default: 0x1F})==>\n"+
		"  (b::Integer {default: 017, deprecated: true})==>\n"+
		"  (c::Number {default: -2.50})==>\n"+
		"  (d::String {default: ```\n  fenced\n  ```})==>\n"+
		"  (e::Array {elementType: \"Int\", default: [1, 2]})==>\n"+
		"  (f::Object {default: {k: \"v\", n: true}})==>\n"+
		"  (g::Point {default: {x: 1, y: 2}, description: \"A point\"})==>\n"+
		"  (h::Boolean {optional: true})==>\n"+
		"  (i::String {enum: [\"x\", \"y\"], format: \"email\"})==>\n"+
		"  (::Object)\n"+
		"]\n")
	tl := p.Tools[0]
	if !tl.Deprecated {
		t.Error("deprecated not set")
	}
	want := []any{json.Number("31"), json.Number("15"), json.Number("-2.50"), nil, []any{json.Number("1"), json.Number("2")},
		map[string]any{"k": "v", "n": true}, map[string]any{"x": json.Number("1"), "y": json.Number("2")}}
	for i, w := range want {
		if w == nil {
			continue
		}
		if got := tl.Params[i].Default; !reflect.DeepEqual(got, w) {
			t.Errorf("param %s default = %#v, want %#v", tl.Params[i].Name, got, w)
		}
	}
	if s, ok := tl.Params[3].Default.(string); !ok || s == "" {
		t.Errorf("fenced default = %#v", tl.Params[3].Default)
	}
	if tl.Params[4].Type.Elem.Kind != Integer {
		t.Errorf("elementType Int = %v", tl.Params[4].Type.Elem)
	}
	if h := tl.Params[7]; !h.Optional || h.HasDefault || h.Required() {
		t.Errorf("h = %+v", h)
	}
	if !tl.Params[1].Deprecated || tl.Params[6].Description != "A point" {
		t.Error("param properties lost")
	}
	if i := tl.Params[8]; !reflect.DeepEqual(i.Constraints.Enum, []any{"x", "y"}) || i.Constraints.Format != "email" {
		t.Errorf("i = %+v", i.Constraints)
	}
}

func TestSignatureText(t *testing.T) {
	p := mustLoad(t, "[sayHello:Tool {description: \"d\"} | (personName::String {default:\"world\"})~~>(::String)]")
	if got, want := p.Tools[0].Signature, `(personName::String {default: "world"})==>(::String)`; got != want {
		t.Errorf("Signature = %s, want %s", got, want)
	}
	p = mustLoad(t, "[now:Tool {description: \"d\"} | ()==>(::String)]")
	if tl := p.Tools[0]; tl.Signature != "()==>(::String)" || len(tl.Params) != 0 {
		t.Errorf("no-param tool = %q %d", tl.Signature, len(tl.Params))
	}
}

// TestModelTypedAgent: an agent's signature, output mode and retries, the
// implicit signature of an agent without one, and a listed agent, as the
// runtime reads them.
func TestModelTypedAgent(t *testing.T) {
	p := mustLoad(t, `
[Triage:Type | (priority::Priority), (summary::String)]
[Priority:Enum {values: ["low", "urgent"]}]
[lookup:Tool {description: "Looks up"} | (email::String)==>(::String)]
[triage:Agent {description: "Triages", instruction: "Triage", model: "Gemini/gemini-3-pro", outputMode: "tool", outputRetries: 3} |
  lookup,
  (ticket::String)==>(::Triage)
]
[plain:Agent {description: "Chats", instruction: "Chat", model: "OpenAI/gpt-4o-mini"}]
[estimate:Agent {instruction: "Estimate", model: "OpenAI/gpt-4o-mini", toolChoice: "triage"} |
  (title::String)==>(hours::Integer {default: 1})==>(::Integer),
  triage, plain
]
`)
	triage, plain, estimate := p.Agents[0], p.Agents[1], p.Agents[2]
	sig := triage.Signature
	if !triage.HasSignature || sig.Name != "triage" || sig.Description != "Triages" || len(sig.Params) != 1 || sig.Params[0].Name != "ticket" ||
		sig.Result == nil || sig.Result.Decl != p.Types[0] || sig.Signature != "(ticket::String)==>(::Triage)" {
		t.Errorf("triage's signature = %+v", sig)
	}
	if !triage.Typed() || !triage.MessageInput() || triage.OutputMode != provider.OutputTool || triage.OutputRetries != 3 || len(triage.Tools) != 1 {
		t.Errorf("triage = typed %v, message %v, mode %q, retries %d, tools %d", triage.Typed(), triage.MessageInput(), triage.OutputMode, triage.OutputRetries, len(triage.Tools))
	}
	if plain.HasSignature || plain.Typed() || !plain.MessageInput() || plain.OutputMode != provider.OutputAuto || plain.OutputRetries != toolspec.DefaultOutputRetries ||
		plain.Signature.Signature != "(input::String)==>(::String)" || plain.Signature.Params[0].Name != "input" {
		t.Errorf("plain = %+v, signature %+v", plain, plain.Signature)
	}
	if estimate.MessageInput() || !estimate.Typed() || len(estimate.Signature.Params) != 2 || estimate.Signature.Params[1].Required() {
		t.Errorf("estimate's input = %+v", estimate.Signature.Params)
	}
	if !reflect.DeepEqual(estimate.Agents, []*Agent{triage, plain}) || estimate.Agents[0].AsTool() != sig || estimate.ToolChoice != "triage" {
		t.Errorf("estimate lists %v, toolChoice %q", estimate.Agents, estimate.ToolChoice)
	}
}

// TestLongAgentCycle: a circle of many agents is reported once, at the
// reference that closes it, named by its ends; no recursion. The chain
// it holds is too deep too, and reported once.
func TestLongAgentCycle(t *testing.T) {
	const n = 20000
	var b []byte
	for i := 0; i < n; i++ {
		b = fmt.Appendf(b, "[a%d:Agent {description: \"A\", instruction: \"I\", model: \"OpenAI/gpt-4o-mini\"} | a%d]\n", i, (i+1)%n)
	}
	_, ds := loadSource("cycle.gram", b)
	var cycles, nesting int
	for _, d := range ds {
		switch d.Code {
		case diag.CodeAgentCycle:
			cycles++
			if want := "cycle of agents: a0 → a1 → a2 → a3 → a4 → a5 → … (19989 more agents) → a19995 → a19996 → a19997 → a19998 → a19999 → a0"; d.Summary != want || d.Range.Start.Line != n {
				t.Errorf("%s: %s, want %s on line %d", d.Range, d.Summary, want, n)
			}
		case diag.CodeAgentNesting:
			nesting++
		default:
			t.Errorf("unexpected: %s", d.Error())
		}
	}
	if cycles != 1 || nesting != 1 {
		t.Errorf("%d cycles and %d nestings reported, want 1 and 1", cycles, nesting)
	}
}
