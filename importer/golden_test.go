package importer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/syntax"
)

// TestThirdPartyDocuments imports the real OpenAPI documents of
// testdata/thirdparty (petstore, OpenAPI 3.0 and 3.1, JSON and YAML, and
// train-travel, 3.1 YAML, whose results are allOf envelopes): the
// gram and the warnings are goldens (testdata/golden, GRAMC_UPDATE=1),
// the gram checks clean and is formatted, and a second import gives the
// same bytes.
func TestThirdPartyDocuments(t *testing.T) {
	docs, _ := filepath.Glob("testdata/thirdparty/petstore-*")
	docs = append(docs, "testdata/thirdparty/train-travel-3.1.yaml")
	if len(docs) != 5 {
		t.Fatalf("%d documents in testdata/thirdparty", len(docs))
	}
	for _, doc := range docs {
		t.Run(filepath.Base(doc), func(t *testing.T) {
			data, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.ToSlash(doc)
			res, err := importer.Import([]importer.Source{{Name: name, Data: data}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Kinds[0], "OpenAPI 3.") {
				t.Errorf("read as %s", res.Kinds[0])
			}
			var w bytes.Buffer
			diag.WriteText(&w, res.Warnings, diag.TextOptions{ReadFile: func(string) ([]byte, error) { return data, nil }}) //nolint:errcheck
			base := filepath.Join("testdata/golden", filepath.Base(doc))
			golden.File(t, base+".gram", res.Gram)
			golden.File(t, base+".warnings", w.Bytes())
			if _, ds := checkText(t, "imported.gram", string(res.Gram)); len(ds) > 0 {
				t.Errorf("the import does not check clean: %v", ds)
			}
			if f, _ := syntax.FormatSource("imported.gram", res.Gram); !bytes.Equal(f, res.Gram) {
				t.Error("the import is not formatted")
			}
			again, err := importer.Import([]importer.Source{{Name: name, Data: data}})
			if err != nil || !bytes.Equal(again.Gram, res.Gram) {
				t.Errorf("a second import differs: %v", err)
			}
		})
	}
}

// TestOpenAPIFeatures imports testdata/openapi/features.yaml, a document
// of what OpenAPI 3.0 lets a tool's declaration come from: path-level
// parameters overridden by the operation's, referenced parameters, bodies
// and responses, allOf merged into one record, OpenAPI 3.0's nullable and
// boolean exclusiveMinimum, a cookie, an array body, a 2XX response of a
// +json media type, an operation without operationId.
func TestOpenAPIFeatures(t *testing.T) {
	const doc = "testdata/openapi/features.yaml"
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	res, err := importer.Import([]importer.Source{{Name: doc, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	diag.WriteText(&w, res.Warnings, diag.TextOptions{ReadFile: func(string) ([]byte, error) { return data, nil }}) //nolint:errcheck
	golden.File(t, "testdata/golden/openapi-features.gram", res.Gram)
	golden.File(t, "testdata/golden/openapi-features.warnings", w.Bytes())
	if _, ds := checkText(t, "imported.gram", string(res.Gram)); len(ds) > 0 {
		t.Errorf("the import does not check clean: %v", ds)
	}
}
