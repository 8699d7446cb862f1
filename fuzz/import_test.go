package fuzz

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/syntax"
)

// hostileImports are documents built to hurt an importer: deep, cyclic,
// multiplying, huge and wrongly typed (the seed corpus runs in go test).
func hostileImports() [][]byte {
	deepJSON := strings.Repeat(`{"items":`, 3000) + `{"type":"string"}` + strings.Repeat("}", 3000)
	deepProps := `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"object","properties":{"a":`, 1200) + `{"type":"string"}` + strings.Repeat("}}", 1200) + "}}"
	var bomb strings.Builder
	bomb.WriteString("openapi: 3.0.0\npaths: {}\ncomponents:\n  schemas:\n    L0: &l0 {type: object, properties: {a: {type: string}}}\n")
	for i := 1; i < 30; i++ {
		bomb.WriteString("    L" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " {type: object, properties: {a: *l" + strconv.Itoa(i-1) + ", b: *l" + strconv.Itoa(i-1) + "}}\n")
	}
	var refs strings.Builder
	refs.WriteString(`{"$defs":{`)
	for i := 0; i < 40; i++ {
		if i > 0 {
			refs.WriteString(",")
		}
		refs.WriteString(`"A` + strconv.Itoa(i) + `":{"anyOf":[{"$ref":"#/$defs/A` + strconv.Itoa(i+1) + `"},{"$ref":"#/$defs/A` + strconv.Itoa(i+1) + `"}]}`)
	}
	refs.WriteString(`,"A40":{"type":"string"}},"type":"object","properties":{"x":{"$ref":"#/$defs/A0"}}}`)
	return [][]byte{
		[]byte(deepJSON),
		[]byte(`{"type":"object","properties":{"x":` + deepJSON + `}}`),
		[]byte(deepProps),
		[]byte(bomb.String()),
		[]byte(refs.String()),
		[]byte(`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"type":"object","properties":{"x":{"$ref":"#/$defs/A"}}}`),
		[]byte(`{"$defs":{"L":{"type":"array","items":{"$ref":"#/$defs/L"}}},"type":"object","properties":{"x":{"$ref":"#/$defs/L"}}}`),
		[]byte(`{"type":"object","properties":{"x":{"$ref":"#"}}}`),
		[]byte(`{"type":"object","properties":{"n":{"type":"number","minimum":1e999999999,"maximum":-1e-999999,"default":12345678901234567890123456789}}}`),
		[]byte(`{"type":"object","properties":{"n":{"type":"integer","enum":[1e2,1.5,"x",null,true]}}}`),
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":5}}}}]}`),
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":[]}}]}`),
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","required":"x"}}]}`),
		[]byte(`{"tools":[{"name":"","description":"","inputSchema":{"properties":{"":{"default":{"a":{"b":1}}},"\u0000":{"examples":[[],{},null]}}}}]}`),
		[]byte(`{"tools":[{"name":"String","inputSchema":{}},{"name":"String","inputSchema":{}},{"name":"` + strings.Repeat("x", 300) + `","inputSchema":{}}]}`),
		[]byte(`[{"type":"function","function":{"name":"f","strict":"yes","parameters":{}}}]`),
		[]byte(`openapi: 3.1.0
paths:
  /a/{id}:
    $ref: '#/paths/~1b'
  /b:
    $ref: '#/paths/~1a~1{id}'
`),
		[]byte(`openapi: 3.0.0
paths:
  /a:
    get:
      parameters: [{$ref: '#/components/parameters/p'}]
      requestBody: {$ref: '#/components/requestBodies/b'}
      responses: {"200": {$ref: '#/components/responses/r'}}
components:
  parameters: {p: {name: p, in: query, schema: {$ref: '#/components/schemas/S'}}}
  requestBodies: {b: {content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}}}
  responses: {r: {description: r, content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}}}
  schemas: {S: {type: object, properties: {p: {type: string}, s: {$ref: '#/components/schemas/S'}}}}
`),
		[]byte("a: &a [*a]\n"),
		[]byte("openapi: 3.0.0\npaths: !!binary AAAA\n"),
		[]byte("\xff\xfe{}"),
		[]byte(""),
	}
}

// FuzzImport: any document gives a positioned *importer.Error or a
// package that parses, checks without an error, is formatted, and is the
// same bytes when imported again; never a panic or a hang.
func FuzzImport(f *testing.F) {
	addSeeds(f, seedFiles(f, "../importer/testdata/thirdparty/*.json", "../importer/testdata/thirdparty/*.yaml", "../cli/testdata/script/import_*.txtar"))
	for _, s := range hostileImports() {
		f.Add(s)
	}
	f.Add([]byte(`{"tools":[{"name":"get weather","description":"W","inputSchema":{"type":"object","properties":{"q":{"type":["string","null"],"pattern":"(?<=a)b"}},"required":["q"]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Import([]importer.Source{{Name: "fuzz.json", Data: data}})
		if err != nil {
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("an error that is not an *importer.Error: %v", err)
			}
			if ie.At.File != "fuzz.json" || ie.Msg == "" {
				t.Fatalf("an error without its place: %+v", ie)
			}
			return
		}
		_, ds := checkSource("imported.gram", res.Gram)
		if ds.HasErrors() {
			t.Fatalf("the import does not check: %v\n%s", ds.Errors(), res.Gram)
		}
		if formatted, _ := syntax.FormatSource("imported.gram", res.Gram); !bytes.Equal(formatted, res.Gram) {
			t.Fatalf("the import is not formatted:\n%s", res.Gram)
		}
		again, err := importer.Import([]importer.Source{{Name: "fuzz.json", Data: data}})
		if err != nil || !bytes.Equal(again.Gram, res.Gram) || len(again.Warnings) != len(res.Warnings) {
			t.Fatalf("a second import differs (%v)", err)
		}
		for _, w := range res.Warnings {
			if w.Range.File != "fuzz.json" {
				t.Fatalf("a warning without its place: %v", w)
			}
		}
	})
}
