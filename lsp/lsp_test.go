package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if c, ok := d.Code.(protocol.String); ok {
			out = append(out, string(c))
		}
	}
	return out
}

// Files that change on disk while not open are picked up from the
// client's watched-file events: a deleted file's declarations go away (the
// open file that used them now has an error), a created one comes back.
func TestWatchedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"tools.gram": toolsGram, "types.gram": typesGram})
	c := newTestClient(t, dir, clientOptions{})
	c.open("tools.gram")
	if ds := c.diagnostics("tools.gram"); len(ds["tools.gram"]) != 0 {
		t.Fatalf("clean package: %v", codes(ds["tools.gram"]))
	}
	if err := os.Remove(filepath.Join(dir, "types.gram")); err != nil {
		t.Fatal(err)
	}
	c.server.DidChangeWatchedFiles(c.ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("types.gram"), Type: protocol.FileChangeTypeDeleted}}})
	c.waitFor("tools.gram", hasCode("unknown-type"))
	writeFiles(t, dir, map[string]string{"types.gram": typesGram})
	c.server.DidChangeWatchedFiles(c.ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("types.gram"), Type: protocol.FileChangeTypeCreated}}})
	c.waitFor("tools.gram", noDiagnostics)
}

const geminiGram = "[`9lives`:Tool {description: \"Counts lives\"} |\n  ()==>(::Integer)\n]\n"

// Provider lint is a setting: initializationOptions, or the "gramc"
// section the server asks for with workspace/configuration (again after
// didChangeConfiguration).
func TestTargetsSetting(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.gram": geminiGram})

	c := newTestClient(t, dir, clientOptions{initOptions: `{"targets": ["gemini"]}`})
	c.open("a.gram")
	if got := codes(c.diagnostics("a.gram")["a.gram"]); !slices.Contains(got, "target-invalid-name") {
		t.Fatalf("targets from initializationOptions: %v", got)
	}

	c2 := newTestClient(t, dir, clientOptions{configuration: `{"targets": []}`})
	c2.open("a.gram")
	if got := codes(c2.diagnostics("a.gram")["a.gram"]); len(got) != 0 {
		t.Fatalf("no targets: %v", got)
	}
	c2.mu.Lock()
	c2.settings = []byte(`{"targets": ["openai", "gemini"]}`)
	c2.mu.Unlock()
	c2.server.DidChangeConfiguration(c2.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte("null")})
	c2.waitFor("a.gram", hasCode("target-invalid-name"))

	// An unknown target is refused with the known ones.
	c3 := newTestClient(t, dir, clientOptions{configuration: `{"targets": ["gemni"]}`})
	c3.open("a.gram")
	c3.diagnostics("a.gram")
	deadline := time.Now().Add(waitLimit)
	for {
		c3.mu.Lock()
		msgs := strings.Join(c3.messages, "\n")
		c3.mu.Unlock()
		if strings.Contains(msgs, "gemini") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message about the unknown target: %q", msgs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProjectConfig (issue 22.4): the language server applies the
// project's gramc.json as gramc check does — its targets and disabled
// codes — and reads it again when it changes (a watched-file event, or a
// save of the file open in the editor), so CI and editor agree.
func TestProjectConfig(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.gram":     geminiGram + "[w:Tool {description: \"W\", colour: \"blue\"} | (x::String)==>(::String)]\n",
		"gramc.json": `{"targets": ["gemini"], "disable": ["unknown-property"]}`,
	})
	c := newTestClient(t, dir, clientOptions{})
	c.open("a.gram")
	c.waitFor("a.gram", func(ds []protocol.Diagnostic) bool {
		return hasCode("target-invalid-name")(ds) && !hasCode("unknown-property")(ds)
	})
	writeFiles(t, dir, map[string]string{"gramc.json": `{"severity": {"unknown-property": "error"}}`})
	c.server.DidChangeWatchedFiles(c.ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("gramc.json"), Type: protocol.FileChangeTypeChanged}}})
	c.waitFor("a.gram", func(ds []protocol.Diagnostic) bool {
		cs := codes(ds)
		for i, d := range ds {
			if cs[i] == "unknown-property" && d.Severity == protocol.DiagnosticSeverityError {
				return !hasCode("target-invalid-name")(ds)
			}
		}
		return false
	})
	writeFiles(t, dir, map[string]string{"gramc.json": `{"disable": ["unknown-property"]}`})
	c.server.DidSave(c.ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("gramc.json")}})
	c.waitFor("a.gram", noDiagnostics)
}

// TestApplyChangesInOrder: each edit of one didChange is positioned in the
// text the edits before it made, whatever mapper the first is given.
func TestApplyChangesInOrder(t *testing.T) {
	src := "ab\ncd\n"
	at := func(l, c uint32) protocol.Position { return protocol.Position{Line: l, Character: c} }
	changes := []protocol.TextDocumentContentChangeEvent{
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at(0, 1), End: at(0, 1)}, Text: "XZ\n"},
		// Line 1 is now "b", at offset 4: after the first edit, not before it ("cd", at 3).
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at(1, 0), End: at(1, 1)}, Text: "Y"},
		&protocol.TextDocumentContentChangeWholeDocument{Text: "new\n"},
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at(0, 3), End: at(0, 3)}, Text: "!"},
	}
	for _, m := range []*mapper{nil, newMapper(src, utf16Units)} {
		got, err := applyChanges(src, m, changes[:2], utf16Units)
		if err != nil || got != "aXZ\nY\ncd\n" {
			t.Errorf("two edits (mapper %v): %q, %v", m != nil, got, err)
		}
		got, err = applyChanges(src, m, changes, utf16Units)
		if err != nil || got != "new!\n" {
			t.Errorf("edits, the whole text, an edit (mapper %v): %q, %v", m != nil, got, err)
		}
	}
}

// TestWorkspaceFolderAdded: a folder added while the server runs
// (workspace/didChangeWorkspaceFolders, which initialize announces) is
// loaded as the folders given at start are: a document opened in it is
// checked with the rest of its package, not as a package of its own.
func TestWorkspaceFolderAdded(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeFiles(t, a, map[string]string{"other.gram": toolsGram})
	writeFiles(t, b, map[string]string{"tools.gram": toolsGram, "types.gram": typesGram})
	c := newTestClient(t, a, clientOptions{})
	c.server.DidChangeWorkspaceFolders(c.ctx(), &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Added: []protocol.WorkspaceFolder{{URI: c.uri("../b"), Name: "b"}},
	}})
	c.open("../b/tools.gram")
	if ds := c.diagnostics("../b/tools.gram"); len(ds["../b/tools.gram"]) != 0 {
		t.Errorf("a document of the added folder, checked with its package: %v", codes(ds["../b/tools.gram"]))
	}
	// The control: a folder never added leaves the document alone, a
	// package of its own, whose type is unknown.
	d := filepath.Join(root, "d")
	writeFiles(t, d, map[string]string{"tools.gram": toolsGram, "types.gram": typesGram})
	c.open("../d/tools.gram")
	c.waitFor("../d/tools.gram", hasCode("unknown-type"))
}
