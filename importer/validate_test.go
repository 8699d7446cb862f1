package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
)

// TestRefusedValues: what the checker would refuse of a parameter's or a
// field's values is dropped before the package is written, with a
// warning at its source that says the checker's own message, and what it
// warns of is said at its source too; the package checks without an
// error.
func TestRefusedValues(t *testing.T) {
	tool := func(props string, defs string) string {
		return fmt.Sprintf(`{"tools":[{"name":"t","description":"T","inputSchema":{"type":"object","additionalProperties":false,"properties":{%s}%s}}]}`, props, defs)
	}
	point := `,"$defs":{"Point":{"type":"object","additionalProperties":false,"required":["x"],"properties":{"x":{"type":"integer","default":"bad"}}},` +
		`"Color":{"type":"string","enum":["red","green"]}}`
	big := "1" + strings.Repeat("0", 399) // within gram's numbers, beyond float64
	for _, tc := range []struct {
		name, doc string
		want      []string // warnings: "code at needle: summary", the needle `"key":value...` (where the value starts)
		gone      []string // not in the gram
		kept      []string // in the gram
	}{
		{"pattern", tool(`"s":{"type":"string","pattern":"a(","default":"b"}`, ""),
			[]string{`import-invalid-value at "pattern":"a(": pattern of "s" is dropped: pattern is not a valid regular expression`},
			[]string{"pattern"}, []string{`default: "b"`}},
		{"default against the pattern", tool(`"s":{"type":"string","pattern":"^a","default":"b"}`, ""),
			[]string{`import-invalid-value at "default":"b": default of "s" is dropped: default of parameter s does not match the pattern "^a"`},
			[]string{"default"}, []string{`pattern: "^a"`}},
		{"portability", tool(`"s":{"type":"string","pattern":"(?i)^a"}`, ""),
			[]string{`pattern-portability at "pattern":"(?i)^a": pattern uses syntax JSON Schema validators do not support`},
			nil, []string{`pattern: "(?i)^a"`}},
		{"bound beyond float64", tool(`"n":{"type":"number","minimum":`+big+`,"default":3}`, ""),
			[]string{`import-invalid-value at "minimum":1: minimum of "n" is dropped: minimum bound: number of 400 digits is beyond the range of a JSON number (about ±1.8·10^308)`},
			[]string{"minimum"}, []string{"default: 3"}},
		{"lengths", tool(`"s":{"type":"string","minLength":4,"maxLength":2}`, ""),
			[]string{`import-invalid-value at "maxLength":2: maxLength of "s" is dropped: minLength 4 is above maxLength 2`},
			[]string{"maxLength"}, []string{"minLength: 4"}},
		{"item counts", tool(`"a":{"type":"array","items":{"type":"string"},"minItems":4,"maxItems":2}`, ""),
			[]string{`import-invalid-value at "maxItems":2: maxItems of "a" is dropped: minItems 4 is above maxItems 2`},
			[]string{"maxItems"}, []string{"minItems: 4"}},
		{"enum beyond int64", tool(`"n":{"type":"integer","enum":[1,99999999999999999999]}`, ""),
			[]string{`import-invalid-value at "enum":[1,: enum of "n" is dropped: enum value of parameter n must be an integer from -9223372036854775808 to 9223372036854775807, not the integer 99999999999999999999`},
			[]string{"enum"}, nil},
		{"array default", tool(`"a":{"type":"array","items":{"type":"integer"},"default":[1,"x"]}`, ""),
			[]string{`import-invalid-value at "default":[1,: default of "a" is dropped: element of default of parameter a must be an integer, not the string "x"`},
			[]string{"default"}, nil},
		{"enum type default", tool(`"c":{"$ref":"#/$defs/Color","default":"blue"}`, point),
			[]string{`import-invalid-value at "default":"blue": default of "c" is dropped: default of parameter c is "blue", not a value of the enum Color`},
			[]string{`default: "blue"`}, nil},
		// The field x loses its default (a string for an Integer), so it
		// is required, as its source says: p's default, which leaves it
		// out, is then refused too (held again after the fields).
		{"record default", tool(`"p":{"$ref":"#/$defs/Point","default":{}}`, point),
			[]string{
				`import-invalid-value at "default":{: default of "p" is dropped: default of parameter p lacks the required field x`,
				`import-invalid-value at "default":"bad": default of "x" is dropped: default of field x must be an integer, not the string "bad"`,
			},
			[]string{"default"}, nil},
		{"record default that holds", tool(`"p":{"$ref":"#/$defs/Point","default":{"x":1}}`, point),
			[]string{`import-invalid-value at "default":"bad": default of "x" is dropped: default of field x must be an integer, not the string "bad"`},
			nil, []string{"default: {x: 1}"}},
		// The scanner's warning of the text written, placed at the value's source.
		{"unsafe character", tool(`"k":{"type":"string","enum":["v\u001bw"]}`, ""),
			[]string{`unsafe-character at "enum":[: a control character, U+001B, in the source`},
			nil, []string{"enum: "}},
		// A named enum's value too, at its declaration's source (the
		// write-check rounds kept no span for it and said nothing).
		{"unsafe character in a named enum", tool(`"c":{"$ref":"#/$defs/E"}`, `,"$defs":{"E":{"type":"string","enum":["a\u001bb","c"]}}`),
			[]string{`unsafe-character at "E":{: a control character, U+001B, in the source`},
			nil, []string{"[E:Enum"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := importer.Import([]importer.Source{{Name: "doc.json", Data: []byte(tc.doc)}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range res.Warnings {
				if w.Code == diag.CodeImportMadeOptional {
					continue // x is required and has a default: not the matter here
				}
				got = append(got, fmt.Sprintf("%s at %s: %s", w.Code, keyAt(tc.doc, tc.want, w), w.Summary))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			gram := string(res.Gram)
			params := gram[strings.Index(gram, "[t:Tool"):]
			for _, s := range tc.gone {
				if strings.Contains(params, s) {
					t.Errorf("%q is still written:\n%s", s, gram)
				}
			}
			for _, s := range tc.kept {
				if !strings.Contains(gram, s) {
					t.Errorf("%q is not written:\n%s", s, gram)
				}
			}
			if _, ds := checkText(t, "imported.gram", gram); ds.HasErrors() {
				t.Errorf("the import does not check: %v\n%s", ds.Errors(), gram)
			}
		})
	}
}

// keyAt is the needle of want (`"key":value...`) whose value starts
// where w is, or w's offset.
func keyAt(doc string, want []string, w *diag.Diagnostic) string {
	for _, line := range want {
		_, rest, _ := strings.Cut(line, " at ")
		for i := len(rest); i > 0; i-- {
			needle := rest[:i]
			if !strings.HasSuffix(needle, ":") {
				continue
			}
			needle = needle[:len(needle)-1]
			at := strings.Index(doc, needle)
			colon := strings.Index(needle, `":`)
			if at >= 0 && colon >= 0 && at+colon+2 == int(w.Range.Start.Offset) {
				return needle
			}
		}
	}
	return fmt.Sprint(w.Range.Start.Offset)
}

// TestSourceNameInHeader: a source's name with control and bidirectional
// characters is escaped in the header comment, so the gram written has
// nothing the scanner warns of and shows what the name holds.
func TestSourceNameInHeader(t *testing.T) {
	doc := []byte(`{"tools": [{"name": "ping", "description": "Ping", "inputSchema": {"type": "object", "additionalProperties": false}}]}`)
	res, err := importer.Import([]importer.Source{{Name: "tools\u202e.json\r\nfake line", Data: doc}})
	if err != nil {
		t.Fatal(err)
	}
	gram := string(res.Gram)
	if !strings.Contains(gram, `tools\u202e.json\r\nfake line`) {
		t.Errorf("the name is not shown escaped:\n%s", gram)
	}
	if strings.ContainsRune(gram, '\u202e') || strings.Contains(gram, "\nfake line") {
		t.Errorf("the name reached the gram raw:\n%s", gram)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
}
