package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/internal/gramgen"
)

// mcpSnapshot is what gramc schema --target mcp writes for a generated
// package of n tools (10,000 tools: about 10 MB).
func mcpSnapshot(tb testing.TB, n int) []byte {
	pkg, ds := checkText(tb, "t.gram", string(gramgen.Document(n)))
	if ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	data, err := schema.Emit(pkg.Tools, schema.MCP)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// openAPI is an OpenAPI 3.1 document of n operations (7,000: about 10 MB
// in JSON, 8.6 MB in YAML): path, query and
// header parameters, a JSON body of a component, a 200 JSON response of
// another (about 1 KB an operation).
func openAPI(n int) map[string]any {
	paths := map[string]any{}
	for i := range n {
		paths[fmt.Sprintf("/things%d/{id}", i)] = map[string]any{
			"post": map[string]any{
				"operationId": fmt.Sprintf("updateThing%d", i),
				"summary":     "Update a thing",
				"description": fmt.Sprintf("Updates thing %d with the fields given; the others stay as they are.", i),
				"parameters": []any{
					map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "integer", "minimum": 1}},
					map[string]any{"name": "dryRun", "in": "query", "schema": map[string]any{"type": "boolean", "default": false}},
					map[string]any{"name": "X-Request-ID", "in": "header", "schema": map[string]any{"type": "string", "format": "uuid"}},
				},
				"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": fmt.Sprintf("#/components/schemas/Thing%d", i%500)}}}},
				"responses":   map[string]any{"200": map[string]any{"description": "The thing", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Result"}}}}},
			},
		}
	}
	schemas := map[string]any{
		"Result": map[string]any{"type": "object", "additionalProperties": false, "required": []any{"ok"}, "properties": map[string]any{"ok": map[string]any{"type": "boolean"}, "status": map[string]any{"$ref": "#/components/schemas/Status"}}},
		"Status": map[string]any{"type": "string", "enum": []any{"active", "archived", "deleted"}},
	}
	for i := range 500 {
		schemas[fmt.Sprintf("Thing%d", i)] = map[string]any{"type": "object", "additionalProperties": false, "required": []any{"name"}, "properties": map[string]any{
			"name":  map[string]any{"type": "string", "minLength": 1, "maxLength": 200, "description": "The thing's name"},
			"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": 10},
			"score": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
		}}
	}
	return map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "Things", "version": "1"}, "paths": paths, "components": map[string]any{"schemas": schemas}}
}

// tenMB are the 10 MB documents: an MCP snapshot, an OpenAPI document in
// JSON and in YAML.
func tenMB(tb testing.TB) []struct {
	name  string
	data  []byte
	tools int
} {
	doc := openAPI(7000)
	js, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	ym, err := yaml.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return []struct {
		name  string
		data  []byte
		tools int
	}{{"mcp.json", mcpSnapshot(tb, 10000), 10000}, {"openapi.json", js, 7000}, {"openapi.yaml", ym, 7000}}
}

// TestTenMegabytes: 10 MB documents import within the limits every
// command keeps (importer.MaxSourceBytes, as compat.MaxSnapshotBytes), to
// a package of a tool per operation or entry that checks clean.
func TestTenMegabytes(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 30 MB")
	}
	// One document here (the benchmark imports all three): the MCP
	// snapshot of a 10,000-tool package.
	for _, d := range []struct {
		name  string
		data  []byte
		tools int
	}{{"mcp.json", mcpSnapshot(t, 10000), 10000}} {
		if len(d.data) < 8<<20 || len(d.data) > importer.MaxSourceBytes {
			t.Fatalf("%s: %d bytes", d.name, len(d.data))
		}
		res, err := importer.Import([]importer.Source{{Name: d.name, Data: d.data}})
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		pkg, ds := checkText(t, "imported.gram", string(res.Gram))
		if ds.HasErrors() || len(pkg.Tools) != d.tools {
			t.Fatalf("%s: %d tools, %v", d.name, len(pkg.Tools), ds.Errors())
		}
		t.Logf("%s: %.1f MB, %d warnings, %d bytes of gram", d.name, float64(len(d.data))/1e6, len(res.Warnings), len(res.Gram))
	}
}

// BenchmarkImport10MB imports each 10 MB document: reading, converting,
// writing, checking and formatting the gram (what gramc import does but
// for the file system).
func BenchmarkImport10MB(b *testing.B) {
	for _, d := range tenMB(b) {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(int64(len(d.data)))
			for b.Loop() {
				res, err := importer.Import([]importer.Source{{Name: d.name, Data: d.data}})
				if err != nil || !bytes.HasPrefix(res.Gram, []byte("// Imported")) {
					b.Fatal(err)
				}
			}
		})
	}
}
