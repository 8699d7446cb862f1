package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const toolsGram = `[getWeather:Tool {description: "Current weather for a city"} |
  (city::String {description: "City name", minLength: 1})==>
  (unit::Unit {default: "celsius"})==>
  (::String)
]
`

const typesGram = `[Unit:Enum {values: ["celsius", "fahrenheit"], description: "Temperature unit"}]
`

// A package is one namespace across files: removing a type in one file
// breaks a tool in another, and putting it back clears the error there.
func TestDiagnosticsAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"tools.gram": toolsGram, "types.gram": typesGram})
	c := newTestClient(t, dir, clientOptions{})
	c.open("types.gram")
	if ds := c.diagnostics("types.gram", "tools.gram"); len(ds["types.gram"]) != 0 || len(ds["tools.gram"]) != 0 {
		t.Fatalf("clean package has diagnostics: %+v", ds)
	}
	c.replaceAll("types.gram", "")
	ds := c.diagnostics("types.gram", "tools.gram")
	if len(ds["tools.gram"]) == 0 || !strings.Contains(string(ds["tools.gram"][0].Code.(protocol.String)), "unknown-type") {
		t.Fatalf("want unknown-type in tools.gram, got %+v", ds)
	}
	c.replaceAll("types.gram", typesGram)
	ds = c.diagnostics("types.gram", "tools.gram")
	if len(ds["tools.gram"]) != 0 {
		t.Fatalf("fixing types.gram did not clear tools.gram: %+v", ds["tools.gram"])
	}
}
