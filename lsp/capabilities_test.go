package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gramc-dev/gramc/docs"
)

// served maps every method of protocol.Server that the server implements
// to the LSP method it answers and the field of ServerCapabilities that
// announces it ("" with why, where the protocol has no field: lifecycle
// messages, and notifications the client sends unasked or on the
// server's dynamic registration), and the command of the protocol scripts
// (script_test.go, testdata/*.txtar) that sends it (or the test that does,
// where no script can). Written once, read by TestEveryMethodIsAnnounced,
// which fails until a new handler has its row, its capability in
// initialize, its line in docs/editors.md and a script that sends it.
var served = map[string]struct{ method, capability, why, script, untested string }{
	"Initialize":                {protocol.MethodInitialize, "", "lifecycle", "", "lifecycle: every script starts with it"},
	"Initialized":               {protocol.MethodInitialized, "", "lifecycle", "", "lifecycle: every script starts with it"},
	"Shutdown":                  {protocol.MethodShutdown, "", "lifecycle", "shutdown", ""},
	"Exit":                      {protocol.MethodExit, "", "lifecycle", "", "lifecycle: shutdown sends it"},
	"SetTrace":                  {protocol.MethodSetTrace, "", "every server takes it", "", "TestSetTrace"},
	"DidOpen":                   {protocol.MethodTextDocumentDidOpen, "TextDocumentSync.OpenClose", "", "open", ""},
	"DidClose":                  {protocol.MethodTextDocumentDidClose, "TextDocumentSync.OpenClose", "", "", "TestEveryRequestEveryPosition (exercise)"},
	"DidChange":                 {protocol.MethodTextDocumentDidChange, "TextDocumentSync.Change", "", "edit", ""},
	"DidSave":                   {protocol.MethodTextDocumentDidSave, "TextDocumentSync.Save", "", "", "TestProjectConfig"},
	"DidChangeConfiguration":    {protocol.MethodWorkspaceDidChangeConfiguration, "", "the client's capability: it sends it unasked", "", "TestTargetsSetting, TestBaseline"},
	"DidChangeWatchedFiles":     {protocol.MethodWorkspaceDidChangeWatchedFiles, "", "registered dynamically in initialized (client/registerCapability)", "", "TestWatchedFiles"},
	"DidChangeWorkspaceFolders": {protocol.MethodWorkspaceDidChangeWorkspaceFolders, "Workspace.WorkspaceFolders.ChangeNotifications", "", "", "TestWorkspaceFolderAdded"},
	"Hover":                     {protocol.MethodTextDocumentHover, "HoverProvider", "", "hover", ""},
	"Completion":                {protocol.MethodTextDocumentCompletion, "CompletionProvider", "", "completion", ""},
	"SignatureHelp":             {protocol.MethodTextDocumentSignatureHelp, "SignatureHelpProvider", "", "signature", ""},
	"Definition":                {protocol.MethodTextDocumentDefinition, "DefinitionProvider", "", "definition", ""},
	"References":                {protocol.MethodTextDocumentReferences, "ReferencesProvider", "", "references", ""},
	"DocumentHighlight":         {protocol.MethodTextDocumentDocumentHighlight, "DocumentHighlightProvider", "", "highlight", ""},
	"DocumentSymbol":            {protocol.MethodTextDocumentDocumentSymbol, "DocumentSymbolProvider", "", "symbols", ""},
	"Symbols":                   {protocol.MethodWorkspaceSymbol, "WorkspaceSymbolProvider", "", "workspace-symbols", ""},
	"CodeAction":                {protocol.MethodTextDocumentCodeAction, "CodeActionProvider", "", "codeaction", ""},
	"Formatting":                {protocol.MethodTextDocumentFormatting, "DocumentFormattingProvider", "", "format", ""},
	"RangeFormatting":           {protocol.MethodTextDocumentRangeFormatting, "DocumentRangeFormattingProvider", "", "rangeformat", ""},
	"Rename":                    {protocol.MethodTextDocumentRename, "RenameProvider", "", "rename", ""},
	"PrepareRename":             {protocol.MethodTextDocumentPrepareRename, "RenameProvider.PrepareProvider", "", "prepare-rename", ""},
	"FoldingRanges":             {protocol.MethodTextDocumentFoldingRange, "FoldingRangeProvider", "", "folding", ""},
	"SemanticTokensFull":        {protocol.MethodTextDocumentSemanticTokensFull, "SemanticTokensProvider.Full", "", "tokens", ""},
	"SemanticTokensRange":       {protocol.MethodTextDocumentSemanticTokensRange, "SemanticTokensProvider.Range", "", "", "TestEveryRequestEveryPosition (exercise)"},
}

// TestEveryMethodIsAnnounced: every protocol.Server method the server
// implements has its row in served, its capability set in what initialize
// answers (a handler never announced is never called by a client that
// follows the protocol) and its LSP method named in docs/editors.md's
// "What the server serves and what it ignores".
func TestEveryMethodIsAnnounced(t *testing.T) {
	implemented, _ := serverMethods(t)
	caps := reflect.ValueOf(newServer(Options{}).capabilities())
	section := docs.Page("editors.md")
	if i := strings.Index(section, "## What the server serves and what it ignores"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
	} else {
		t.Fatal(`docs/editors.md has no "What the server serves and what it ignores"`)
	}
	scripts := ""
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		scripts += string(data)
	}
	for m := range implemented {
		row, ok := served[m]
		if !ok {
			t.Errorf("the server implements %s: add its row to served (its LSP method and capability)", m)
			continue
		}
		if row.capability == "" && row.why == "" {
			t.Errorf("%s: served gives no capability and no reason", m)
		}
		if row.capability != "" && !announced(caps, row.capability) {
			t.Errorf("%s: initialize does not announce ServerCapabilities.%s: add it to capabilities()", m, row.capability)
		}
		if row.script == "" && row.untested == "" {
			t.Errorf("%s: served names no script command and no test that sends it", m)
		}
		if row.script != "" && !scriptUses(scripts, row.script) {
			t.Errorf("%s: no protocol script (testdata/*.txtar) sends it with %q: add the command to script_test.go and a script that uses it", m, row.script)
		}
		if !strings.Contains(section, "`"+row.method+"`") {
			t.Errorf("%s: docs/editors.md's \"What the server serves\" does not name `%s`", m, row.method)
		}
	}
	for m := range served {
		if !implemented[m] {
			t.Errorf("served lists %s, which the server does not implement", m)
		}
	}
}

// scriptUses reports whether a line of the scripts starts with the
// command cmd.
func scriptUses(scripts, cmd string) bool {
	for _, line := range strings.Split(scripts, "\n") {
		if line == cmd || strings.HasPrefix(line, cmd+" ") {
			return true
		}
	}
	return false
}

// announced reports whether the field at path (dotted, through pointers
// and interfaces) of the capabilities v is set, and not false.
func announced(v reflect.Value, path string) bool {
	for _, name := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return false
		}
		v = v.FieldByName(name)
		if !v.IsValid() {
			return false
		}
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	return !v.IsZero()
}
