package importer_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
)

// enumDocument is an OpenAPI document whose one tool takes nEnums
// parameters, each an :Enum of per string values.
func enumDocument(nEnums, per int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/x":{"get":{"operationId":"getX","description":"X","parameters":[`)
	for i := range nEnums {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"e%d","in":"query","schema":{"$ref":"#/components/schemas/E%d"}}`, i, i)
	}
	b.WriteString(`],"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"type":"string"}}}}}}}},"components":{"schemas":{`)
	for i := range nEnums {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"E%d":{"type":"string","enum":[`, i)
		for j := range per {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"v%d"`, j)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// TestEnumLimits (issue 44): an enumeration of more than
// importer.MaxEnumValues values, or past importer.MaxEnumValuesTotal in
// all, is dropped with a warning naming the limit, so what an import
// writes (and gramc check then reads) is bounded however many values the
// document holds.
func TestEnumLimits(t *testing.T) {
	res, err := importer.Import([]importer.Source{{Name: "big.json", Data: enumDocument(1, importer.MaxEnumValues+1)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Code != diag.CodeImportUnsupportedKeyword || !strings.Contains(res.Warnings[0].Summary, fmt.Sprintf("an enum of %d values is dropped: more than %d (importer.MaxEnumValues)", importer.MaxEnumValues+1, importer.MaxEnumValues)) {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	if !strings.Contains(string(res.Gram), "(e0::String {optional: true})") || strings.Contains(string(res.Gram), "v10000") {
		t.Errorf("the enumeration is not dropped:\n%.400s", res.Gram)
	}

	// Many enumerations within MaxEnumValues each: the first ones up to
	// MaxEnumValuesTotal are written, the others dropped.
	n := importer.MaxEnumValuesTotal/importer.MaxEnumValues + 5
	res, err = importer.Import([]importer.Source{{Name: "many.json", Data: enumDocument(n, importer.MaxEnumValues)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(res.Gram), `"v9999"`); got != importer.MaxEnumValuesTotal/importer.MaxEnumValues {
		t.Errorf("%d enumerations written, want %d", got, importer.MaxEnumValuesTotal/importer.MaxEnumValues)
	}
	dropped := 0
	for _, w := range res.Warnings {
		if strings.Contains(w.Summary, "(importer.MaxEnumValuesTotal)") {
			dropped++
		}
	}
	if dropped != 5 {
		t.Errorf("%d enumerations dropped past the total, want 5: %v", dropped, res.Warnings)
	}
	if _, ds := checkText(t, "imported.gram", string(res.Gram)); ds.HasErrors() {
		t.Fatal(ds)
	}
}

// BenchmarkImportEnums imports 1,000,000 enum values (100 enumerations of
// 10,000): what a value of a document costs past the limits, reported
// per value.
func BenchmarkImportEnums(b *testing.B) {
	data := enumDocument(100, 10000)
	b.SetBytes(int64(len(data)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if _, err := importer.Import([]importer.Source{{Name: "enums.json", Data: data}}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1e6, "allocated-bytes/value")
}
