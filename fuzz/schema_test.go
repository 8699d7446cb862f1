package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
)

// FuzzSchema checks that any input that checks clean yields, for every
// target, either valid JSON (an array of one entry per tool, ending in a
// newline, the same bytes twice) or a *schema.Error whose diagnostics Lint
// also reports — never a panic; and that Lint survives the partial model
// of a package with errors.
func FuzzSchema(f *testing.F) {
	addSeeds(f, seedFiles(f, "../testdata/examples/*.gram", "../testdata/examples/*/*.gram", "../examples/*/*.gram", "../codegen/schema/testdata/examples/*/*.gram"))
	f.Add([]byte(`[t:Tool {description: "d"} | (a::String {default: "\u2028<&>", pattern: "\\d+"})==>(::String)]`))
	f.Add([]byte(`[T:Type | (self::Array {elementType: T, optional: true})] [t:Tool {description: "d", strict: true} | (x::T)==>(::T)]`))
	f.Add([]byte(`[E:Enum {values: [1, 2]}] [t:Tool {description: "d"} | (e::E {default: 2})==>(n::Number {exclusiveMinimum: 1e3})==>(::E)]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		pkg, ds := checkSource("fuzz.gram", src)
		if pkg == nil {
			return
		}
		if ds.HasErrors() {
			// gramc check --target lints packages with errors too: the
			// partial model must not panic it.
			schema.Lint(pkg, schema.Targets())
			return
		}
		for _, target := range schema.Targets() {
			out, err := schema.Emit(pkg.Tools, target)
			if err != nil {
				var se *schema.Error
				if !errors.As(err, &se) || !se.Diagnostics.HasErrors() {
					t.Fatalf("%s: error without diagnostics: %v", target, err)
				}
				if !schema.Lint(pkg, []schema.Target{target}).HasErrors() {
					t.Fatalf("%s: Emit refused (%v) but Lint found no error", target, err)
				}
				continue
			}
			var entries []json.RawMessage
			if err := json.Unmarshal(out, &entries); err != nil {
				t.Fatalf("%s: invalid JSON: %v\n%s", target, err, out)
			}
			if len(entries) != len(pkg.Tools) || !bytes.HasSuffix(out, []byte("]\n")) {
				t.Fatalf("%s: %d entries for %d tools", target, len(entries), len(pkg.Tools))
			}
			again, _ := schema.Emit(pkg.Tools, target)
			if !bytes.Equal(out, again) {
				t.Fatalf("%s: output differs between runs", target)
			}
		}
		for _, tool := range pkg.Tools {
			if p, err := schema.Parameters(tool); err == nil && !json.Valid(p) {
				t.Fatalf("%s: Parameters is not JSON: %s", tool.Name, p)
			}
			if o, err := schema.Output(tool); err != nil || !json.Valid(o) {
				t.Fatalf("%s: Output: %v %s", tool.Name, err, o)
			}
		}
	})
}
