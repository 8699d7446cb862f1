package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gramc-dev/gramc/toolspec"
)

// TestSpecTargetSchemas: the other targets' parameters a spec carries
// are exactly what those targets' entries hold, so a provider client that
// sends them sends what `gramc schema` prints.
func TestSpecTargetSchemas(t *testing.T) {
	for _, pkg := range []string{"weather", "kitchen"} {
		p := weatherModel()
		if pkg == "kitchen" {
			p = kitchenModel()
		}
		for _, tool := range p.Tools {
			for _, strict := range []bool{false, true} {
				tool.Strict = &strict
				spec, err := Spec(tool, OpenAI)
				if err != nil {
					continue // what the openai target refuses has no spec
				}
				for _, target := range []Target{Anthropic, Gemini} {
					entry, err := Entry(tool, target)
					if err != nil {
						if _, ok := spec.TargetSchemas[string(target)]; ok {
							t.Errorf("%s %s: a %s schema for a tool the target refuses", pkg, tool.Name, target)
						}
						continue
					}
					var e map[string]json.RawMessage
					if err := json.Unmarshal(entry, &e); err != nil {
						t.Fatal(err)
					}
					want := e["input_schema"]
					if target == Gemini {
						want = e["parameters"]
					}
					got, ok := spec.TargetSchemas[string(target)]
					if !ok {
						got = spec.Schema // the client sends Schema
						if target == Gemini && want == nil {
							continue // no parameters: none sent
						}
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s %s (strict %v) %s:\n got %s\nwant %s", pkg, tool.Name, strict, target, got, want)
					}
				}
			}
		}
	}
}

// TestStandardTargetIsAnthropic: the runtime takes a strict tool's
// defaults from TargetSchemas[toolspec.StandardTarget], which Spec fills
// with the anthropic target's standard schema.
func TestStandardTargetIsAnthropic(t *testing.T) {
	if toolspec.StandardTarget != string(Anthropic) {
		t.Fatalf("toolspec.StandardTarget is %q, Spec stores the standard schema under %q", toolspec.StandardTarget, Anthropic)
	}
}
