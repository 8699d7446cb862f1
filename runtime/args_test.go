package runtime

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/toolspec"
)

// weatherSchema is the openai parameters of testdata/examples/weather.gram's
// getForecast, plus a nested record with defaults in $defs.
const weatherSchema = `{"type":"object","properties":{
 "city":{"type":"string","description":"City name","minLength":1},
 "days":{"type":"integer","minimum":1,"maximum":14,"default":3},
 "unit":{"$ref":"#/$defs/Unit","default":"celsius"},
 "where":{"$ref":"#/$defs/Place"},
 "stops":{"type":"array","items":{"$ref":"#/$defs/Place"}}
},"required":["city"],"additionalProperties":false,
"$defs":{
 "Unit":{"type":"string","enum":["celsius","fahrenheit"]},
 "Place":{"type":"object","properties":{"name":{"type":"string"},"zoom":{"type":"integer","default":5}},"required":["name"],"additionalProperties":false}
}}`

func TestPrepareArgs(t *testing.T) {
	as, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, want string
	}{
		{"defaults", `{"city":"Paris"}`, `{"city":"Paris","days":3,"unit":"celsius"}`},
		{"given values kept", `{"city":"Paris","days":7,"unit":"fahrenheit"}`, `{"city":"Paris","days":7,"unit":"fahrenheit"}`},
		{"null takes the default", `{"city":"Paris","days":null}`, `{"city":"Paris","days":3,"unit":"celsius"}`},
		{"nested $defs defaults", `{"city":"Paris","where":{"name":"Louvre"},"stops":[{"name":"a"},{"name":"b","zoom":9}]}`,
			`{"city":"Paris","days":3,"stops":[{"name":"a","zoom":5},{"name":"b","zoom":9}],"unit":"celsius","where":{"name":"Louvre","zoom":5}}`},
		{"double-encoded string", `"{\"city\":\"Paris\"}"`, `{"city":"Paris","days":3,"unit":"celsius"}`},
		{"big integers keep their digits", `{"city":"x","days":14.0}`, `{"city":"x","days":14.0,"unit":"celsius"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := as.prepareArgs(tt.in)
			if err != nil {
				t.Fatalf("prepareArgs(%s): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("prepareArgs(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestPrepareArgsErrors(t *testing.T) {
	as, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in string
		want     []string
	}{
		{"missing required", `{}`, []string{"at '/'", "missing property 'city'"}},
		{"empty", ``, []string{"missing property 'city'"}},
		{"out of range", `{"city":"Paris","days":20}`, []string{"at '/days'", "14"}},
		{"wrong type", `{"city":5}`, []string{"at '/city'", "want string"}},
		{"enum", `{"city":"x","unit":"kelvin"}`, []string{"at '/unit'", "celsius"}},
		{"unknown property", `{"city":"x","cty":"y"}`, []string{"cty"}},
		{"nested", `{"city":"x","where":{"zoom":"far"}}`, []string{"at '/where'", "name", "at '/where/zoom'"}},
		{"not json", `{"city":`, []string{"arguments are not valid JSON"}},
		{"trailing", `{"city":"x"} {}`, []string{"arguments are not valid JSON"}},
		{"array", `[1]`, []string{"must be a JSON object, got an array"}},
		{"string of array", `"[1]"`, []string{"must be a JSON object, got an array"}},
		{"min length", `{"city":""}`, []string{"at '/city'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := as.prepareArgs(tt.in)
			if err == nil {
				t.Fatalf("prepareArgs(%s) succeeded", tt.in)
			}
			t.Log(err)
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("prepareArgs(%s) = %q, want it to contain %q", tt.in, err, w)
				}
			}
			if strings.Contains(err.Error(), "gram:///") {
				t.Errorf("error leaks the internal schema URL: %q", err)
			}
		})
	}
}

func TestCompileArgSchemaCached(t *testing.T) {
	a, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compileArgSchema(json.RawMessage(" " + weatherSchema + "\n"))
	if a != b {
		t.Error("the same schema was compiled twice")
	}
	if _, err := compileArgSchema(json.RawMessage(`[]`)); err == nil {
		t.Error("an array schema compiled")
	}
	empty, err := compileArgSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.prepareArgs(`{"anything":1}`); err != nil {
		t.Errorf("no schema: %v", err)
	}
}

func TestSpecDifferenceNumbers(t *testing.T) {
	a := ToolSpecification{Name: "t", Schema: json.RawMessage(`{"maximum":14}`)}
	b := ToolSpecification{Name: "t", Schema: json.RawMessage(`{"maximum":14.0}`)}
	if d := specDifference(a, b); d != "" {
		t.Errorf("14 vs 14.0: %s", d)
	}
	b.Schema = json.RawMessage(`{"maximum":15}`)
	if d := specDifference(a, b); !strings.Contains(d, "at /maximum: agent 14, library 15") {
		t.Errorf("14 vs 15: %q", d)
	}
	b.Schema = json.RawMessage(`{"maximum":14,"enum":["a"]}`)
	a.Schema = json.RawMessage(`{"maximum":14,"enum":["a","b"]}`)
	if d := specDifference(a, b); !strings.Contains(d, "at /enum: agent has 2 items, library 1") {
		t.Errorf("enum: %q", d)
	}
}

// BenchmarkPrepareArgs measures parsing, defaulting and validating one
// call's arguments against the weather tool's nested schema.
func BenchmarkPrepareArgs(b *testing.B) {
	as, err := compileArgSchema(json.RawMessage(weatherSchema))
	if err != nil {
		b.Fatal(err)
	}
	args := `{"city":"Paris","where":{"name":"Louvre"},"stops":[{"name":"a"}]}`
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := as.prepareArgs(args); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpecDifferenceStrictOverMCP: a strict tool served over MCP has its
// standard schema (the mcp target's inputSchema), not OpenAI's strict
// form; that is the same tool, anything else still differs.
func TestSpecDifferenceStrictOverMCP(t *testing.T) {
	strict := `{"type":"object","properties":{"n":{"type":["integer","null"]}},"required":["n"],"additionalProperties":false}`
	standard := `{"type":"object","properties":{"n":{"type":"integer","default":1}},"additionalProperties":false}`
	agent := ToolSpecification{Name: "t", Strict: true, Schema: json.RawMessage(strict),
		TargetSchemas: map[string]json.RawMessage{toolspec.StandardTarget: json.RawMessage(standard)}}
	served := ToolSpecification{Name: "t", Schema: json.RawMessage(standard)}
	if d := specDifference(agent, served); d != "" {
		t.Errorf("the standard form over MCP: %s", d)
	}
	served.Schema = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":2}},"additionalProperties":false}`)
	if d := specDifference(agent, served); !strings.Contains(d, "schema differs") {
		t.Errorf("another default: %q", d)
	}
	agent.Strict = false
	served.Schema = json.RawMessage(standard)
	if d := specDifference(agent, served); !strings.Contains(d, "schema differs") {
		t.Errorf("a tool that is not strict compares its Schema: %q", d)
	}
}
