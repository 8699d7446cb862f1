package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/gramc-dev/gramc/runtime"
)

// Variant is one of the things an eval compares: the same tests run with
// a tool library, a model, an instruction or a temperature of its own.
type Variant struct {
	// Name names the variant in the report; it is a file name too (a
	// recording's directory), so it is letters, digits, '.', '_', '-' and
	// '/' (a model's name) only.
	Name string
	// Tools are implementations that run for real, whatever a test's
	// results say: the A/B of tool libraries.
	Tools map[string]runtime.ToolFunc
	// Model, Instruction and Temperature, when set, replace the tested
	// agent's (not its listed agents').
	Model       string
	Instruction *string
	Temperature *float64
}

// apply is the agent as v runs it.
func (v Variant) apply(a runtime.Agent) runtime.Agent {
	if v.Model != "" {
		a.Model = v.Model
	}
	if v.Instruction != nil {
		a.Instruction = *v.Instruction
	}
	if v.Temperature != nil {
		t := *v.Temperature
		a.Temperature = &t
	}
	return a
}

var variantName = regexp.MustCompile(`^[A-Za-z0-9_.-][A-Za-z0-9_./-]{0,99}$`)

// CheckVariantName says what is wrong with a variant's name (nil when
// nothing is).
func CheckVariantName(name string) error {
	if !variantName.MatchString(name) || name == "." || name == ".." {
		return fmt.Errorf("variant name %q: use letters, digits, '.', '_', '-' and '/' (at most 100)", name)
	}
	return nil
}

// VariantFile is a variant as gramc eval --variant NAME=FILE reads it:
// tools bound to shell commands (as gramc run --tool binds them) and the
// agent's settings to override.
//
//	{"tools": {"lookupCustomer": "./lookup-v2.sh"}, "model": "OpenAI/gpt-4.1",
//	 "instruction": "…", "temperature": 0}
type VariantFile struct {
	Tools       map[string]string `json:"tools"`
	Model       string            `json:"model"`
	Instruction *string           `json:"instruction"`
	Temperature *float64          `json:"temperature"`
}

// MaxVariantFileBytes bounds a variant file.
const MaxVariantFileBytes = 1 << 20

// decodeFile decodes data, a file of what (bounded by
// MaxVariantFileBytes), into v: one JSON value, as want says, with no
// field v does not have.
func decodeFile(data []byte, what, want string, v any) error {
	if len(data) > MaxVariantFileBytes {
		return fmt.Errorf("the file has %d bytes; %s is limited to %d", len(data), what, MaxVariantFileBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not %s: %w", want, err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// ParseVariantFile reads a variant file; an unknown field is an error
// (a misspelt "tool" must not silently bind nothing).
func ParseVariantFile(data []byte) (*VariantFile, error) {
	var f VariantFile
	if err := decodeFile(data, "a variant file", "a variant (a JSON object with tools, model, instruction, temperature)", &f); err != nil {
		return nil, err
	}
	if f.Temperature != nil && (*f.Temperature < 0 || *f.Temperature > 2) {
		return nil, fmt.Errorf("temperature %g: want a number from 0 to 2", *f.Temperature)
	}
	return &f, nil
}
