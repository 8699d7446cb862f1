package lsp

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// served maps every method of protocol.Server that the server implements
// to the LSP method it answers and the field of ServerCapabilities that
// announces it ("" with why, where the protocol has no field: lifecycle
// messages, and notifications the client sends unasked or on the
// server's dynamic registration). Written once, read by
// TestEveryMethodIsAnnounced, which fails until a new handler has its row,
// its capability in initialize and its line in docs/editors.md.
var served = map[string]struct{ method, capability, why string }{
	"Initialize":                {protocol.MethodInitialize, "", "lifecycle"},
	"Initialized":               {protocol.MethodInitialized, "", "lifecycle"},
	"Shutdown":                  {protocol.MethodShutdown, "", "lifecycle"},
	"Exit":                      {protocol.MethodExit, "", "lifecycle"},
	"SetTrace":                  {protocol.MethodSetTrace, "", "every server takes it"},
	"DidOpen":                   {protocol.MethodTextDocumentDidOpen, "TextDocumentSync.OpenClose", ""},
	"DidClose":                  {protocol.MethodTextDocumentDidClose, "TextDocumentSync.OpenClose", ""},
	"DidChange":                 {protocol.MethodTextDocumentDidChange, "TextDocumentSync.Change", ""},
	"DidSave":                   {protocol.MethodTextDocumentDidSave, "TextDocumentSync.Save", ""},
	"DidChangeConfiguration":    {protocol.MethodWorkspaceDidChangeConfiguration, "", "the client's capability: it sends it unasked"},
	"DidChangeWatchedFiles":     {protocol.MethodWorkspaceDidChangeWatchedFiles, "", "registered dynamically in initialized (client/registerCapability)"},
	"DidChangeWorkspaceFolders": {protocol.MethodWorkspaceDidChangeWorkspaceFolders, "Workspace.WorkspaceFolders.ChangeNotifications", ""},
	"Hover":                     {protocol.MethodTextDocumentHover, "HoverProvider", ""},
	"Completion":                {protocol.MethodTextDocumentCompletion, "CompletionProvider", ""},
	"SignatureHelp":             {protocol.MethodTextDocumentSignatureHelp, "SignatureHelpProvider", ""},
	"Definition":                {protocol.MethodTextDocumentDefinition, "DefinitionProvider", ""},
	"References":                {protocol.MethodTextDocumentReferences, "ReferencesProvider", ""},
	"DocumentHighlight":         {protocol.MethodTextDocumentDocumentHighlight, "DocumentHighlightProvider", ""},
	"DocumentSymbol":            {protocol.MethodTextDocumentDocumentSymbol, "DocumentSymbolProvider", ""},
	"Symbols":                   {protocol.MethodWorkspaceSymbol, "WorkspaceSymbolProvider", ""},
	"CodeAction":                {protocol.MethodTextDocumentCodeAction, "CodeActionProvider", ""},
	"Formatting":                {protocol.MethodTextDocumentFormatting, "DocumentFormattingProvider", ""},
	"RangeFormatting":           {protocol.MethodTextDocumentRangeFormatting, "DocumentRangeFormattingProvider", ""},
	"Rename":                    {protocol.MethodTextDocumentRename, "RenameProvider", ""},
	"PrepareRename":             {protocol.MethodTextDocumentPrepareRename, "RenameProvider.PrepareProvider", ""},
	"FoldingRanges":             {protocol.MethodTextDocumentFoldingRange, "FoldingRangeProvider", ""},
	"SemanticTokensFull":        {protocol.MethodTextDocumentSemanticTokensFull, "SemanticTokensProvider.Full", ""},
	"SemanticTokensRange":       {protocol.MethodTextDocumentSemanticTokensRange, "SemanticTokensProvider.Range", ""},
}

// TestEveryMethodIsAnnounced: every protocol.Server method the server
// implements has its row in served, its capability set in what initialize
// answers (a handler never announced is never called by a client that
// follows the protocol) and its LSP method named in docs/editors.md's
// "What the server serves and what it ignores".
func TestEveryMethodIsAnnounced(t *testing.T) {
	implemented, _ := serverMethods(t)
	caps := reflect.ValueOf(newServer(Options{}).capabilities())
	doc, err := os.ReadFile("../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	if i := strings.Index(section, "## What the server serves and what it ignores"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
	} else {
		t.Fatal(`docs/editors.md has no "What the server serves and what it ignores"`)
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
