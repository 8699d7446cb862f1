package openai_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

const specialGram = `{ package: "special" }

[Level:Enum {values: ["low", "high"]}]

[Point:Type {description: "A <point> & more"} |
  (x::Number {default: 1.5}),
  (label::String {optional: true})
]

[strictTool:Tool {description: "Strict \"quoted\" & <angled>", strict: true} |
  (where::Point)==>
  (level::Level {default: "low"})==>
  (note::String {optional: true, description: "tab\there"})==>
  (::String)
]

[plain_tool:Tool {description: "Ünïcode — ok"} |
  (n::Integer {range: 1..5, default: 2})==>(::Array {elementType: Point})
]
`

// TestToolEntryMatchesGramcSchema proves the tools every provider client
// sends are byte-identical to the entries `gramc schema --target T` prints
// (openai, openai-functions, openai-responses, anthropic, gemini), and that
// every tool's spec holds the schema emitter's schemas.
func TestToolEntryMatchesGramcSchema(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "special.gram"), []byte(specialGram), 0o644); err != nil {
		t.Fatal(err)
	}
	var pkgs []*check.Package
	dirs, _ := filepath.Glob("../../examples/*")
	for _, d := range append(dirs, "../../testdata/examples", "../../testdata/examples/seed", dir) {
		ps, diags, err := load.Packages([]string{d}, nil)
		if err != nil || diags.HasErrors() {
			if d == dir || strings.HasPrefix(d, "../../testdata") {
				t.Fatalf("load %s: %v %v", d, err, diags.Err())
			}
			continue // examples/testdata/broken and the like
		}
		pkgs = append(pkgs, ps...)
	}
	n := 0
	for _, p := range pkgs {
		for _, tool := range p.Tools {
			spec, err := schema.Spec(tool, schema.OpenAI)
			if err != nil {
				t.Fatal(err)
			}
			// The spec a run sends holds the schema emitter's output.
			params, _ := schema.Parameters(tool)
			out, _ := schema.Output(tool)
			if string(spec.Schema) != string(params) || string(spec.OutputSchema) != string(out) || spec.Signature != tool.Signature {
				t.Errorf("%s: spec differs from the schema emitter", tool.Name)
			}
			got, err := openai.ToolEntry(spec)
			if err != nil {
				t.Fatal(err)
			}
			want, err := schema.Entry(tool, schema.OpenAI)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s: ToolEntry\n%s\nwant (gramc schema --target openai)\n%s", tool.Name, got, want)
			}
			// Every provider client's entry is its target's.
			for target, entry := range map[schema.Target]func(runtime.ToolSpecification) (json.RawMessage, error){
				schema.OpenAIResponses: openai.ResponsesToolEntry,
				schema.Anthropic:       anthropic.ToolEntry,
				schema.Gemini:          gemini.FunctionDeclaration,
			} {
				want, err := schema.Entry(tool, target)
				if err != nil {
					continue // the target refuses the tool (gramc check --target says why)
				}
				got, err := entry(spec)
				if err != nil || string(got) != string(want) {
					t.Errorf("%s: %s entry\n%s (%v)\nwant (gramc schema --target %s)\n%s", tool.Name, target, got, err, target, want)
				}
			}
			if !spec.Strict {
				got, _ := openai.FunctionEntry(spec)
				want, _ := schema.Entry(tool, schema.OpenAIFunctions)
				if string(got) != string(want) {
					t.Errorf("%s: FunctionEntry\n%s\nwant (gramc schema --target openai-functions)\n%s", tool.Name, got, want)
				}
			}
			n++
		}
	}
	if n < 5 {
		t.Errorf("only %d tools compared", n)
	}
}

// TestWeatherAgentAgainstFake runs the weather example (enums, records,
// defaults in $defs) through the fake server's reference checks.
func TestWeatherAgentAgainstFake(t *testing.T) {
	agent, err := gramfile.LoadAgent("../../testdata/examples/weather.gram", "weather_agent")
	if err != nil {
		t.Fatal(err)
	}
	lib, got := runtimetest.WeatherLibrary(agent.Tools)
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	c, _ := client(t, srv)
	resp, err := runtime.Run(context.Background(), c, agent, lib, "What is the weather in Paris", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got()) != `{"city":"Paris","unit":"celsius"}` {
		t.Errorf("tool got %s", got())
	}
	if resp.Content != `{"conditions":"sunny","humidity":40,"position":{"latitude":48.85,"longitude":2.35},"temperature":21.5}` {
		t.Errorf("content %s", resp.Content)
	}
	if *srv.Chats()[0].Temperature != 0.2 {
		t.Errorf("temperature not sent: %s", srv.Chats()[0].Raw)
	}
}
