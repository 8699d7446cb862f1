package lsp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestBaseline (issue 23): with a baseline revision in gramc.json or the
// editor's settings, the breaking and dangerous changes since it are
// warnings as the user edits, where they are; safe ones are not shown.
func TestBaseline(t *testing.T) {
	old := `[w:Tool {description: "Weather"} | (city::String)==>(days::Integer {default: 3})==>(::String)]
[gone:Tool {description: "Gone"} | (x::String)==>(::String)]
`
	dir := committed(t, map[string]string{"tools.gram": old, "gramc.json": `{"baseline": "HEAD"}`})

	edited := `[w:Tool {description: "Weather"} | (city::String)==>(days::Integer)==>(hours::Integer {optional: true})==>(::String)]
`
	writeFiles(t, dir, map[string]string{"tools.gram": edited})
	c := newTestClient(t, dir, clientOptions{})
	c.open("tools.gram")
	c.waitFor("tools.gram", func(ds []protocol.Diagnostic) bool {
		return hasCode("diff-param-now-required")(ds) && hasCode("diff-tool-removed")(ds)
	})
	for _, d := range c.diagnostics("tools.gram")["tools.gram"] {
		code, _ := d.Code.(protocol.String)
		msg := fmt.Sprint(d.Message)
		switch string(code) {
		case "diff-param-now-required":
			if d.Severity != protocol.DiagnosticSeverityWarning || d.Range.Start.Line != 0 || !strings.Contains(msg, "breaking change since HEAD: ") {
				t.Errorf("now required: %+v", d)
			}
		case "diff-tool-removed":
			if d.Range.Start.Line != 0 || d.Range.Start.Character != 0 || !strings.Contains(msg, "gone") {
				t.Errorf("removed: %+v", d)
			}
		case "diff-param-added-optional":
			t.Errorf("a safe change is shown: %+v", d)
		}
	}

	// A type typo is an unknown type and nothing else (issue 36.5): not
	// a change of the parameter's type "to none", nor a free-form Object
	// under a strict target.
	c.server.DidChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte(`{"gramc": {"targets": ["openai-strict"]}}`)})
	c.replaceAll("tools.gram", strings.Replace(edited, "(city::String)", "(city::Strng)", 1))
	c.waitFor("tools.gram", hasCode("unknown-type"))
	for _, d := range c.diagnostics("tools.gram")["tools.gram"] {
		if code, _ := d.Code.(protocol.String); code == "diff-type-changed" || code == "target-strict-free-form-object" {
			t.Errorf("an unknown type has a companion: %s %v", code, d.Message)
		}
	}
	c.replaceAll("tools.gram", edited)
	c.server.DidChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte(`{"gramc": {}}`)})

	// The editor's setting overrides gramc.json: a baseline equal to the
	// edited version shows nothing.
	writeFiles(t, dir, map[string]string{"tools.gram": edited})
	runGit(t, dir, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-am", "new")
	runGit(t, dir, "tag", "v2")
	c.server.DidChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte(`{"gramc": {"baseline": "v2"}}`)})
	c.waitFor("tools.gram", noDiagnostics)

	// A revision that would read as an option is refused, and said so.
	c.server.DidChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte(`{"gramc": {"baseline": "--output=x"}}`)})
	c.wait("tools.gram", func() bool {
		for _, m := range c.messages {
			if strings.Contains(m, `baseline "--output=x": a revision cannot begin with -`) {
				return true
			}
		}
		return false
	})
}

// TestBaselineAccepted: a change accepted with `// gramc:ignore CODE --
// reason` is not shown against the baseline, as gramc diff does not
// report it; a comment without a reason is gramc diff's error, there.
func TestBaselineAccepted(t *testing.T) {
	dir := committed(t, map[string]string{
		"tools.gram": "[w:Tool {description: \"Weather\"} |\n  (city::String {optional: true})==>\n  (days::Integer {default: 3})==>\n  (::String)\n]\n",
		"gramc.json": `{"baseline": "HEAD"}`,
	})
	writeFiles(t, dir, map[string]string{"tools.gram": "[w:Tool {description: \"Weather, now\"} |\n  // gramc:ignore diff-param-now-required\n  (city::String)==>\n  // gramc:ignore diff-param-now-required -- every caller sends it\n  (days::Integer)==>\n  (::String)\n]\n"})
	c := newTestClient(t, dir, clientOptions{})
	c.open("tools.gram")
	c.waitFor("tools.gram", func(ds []protocol.Diagnostic) bool {
		return hasCode("diff-description-changed")(ds) && hasCode("diff-invalid-ignore")(ds)
	})
	shown := 0
	for _, d := range c.diagnostics("tools.gram")["tools.gram"] {
		code, _ := d.Code.(protocol.String)
		switch code {
		case "diff-invalid-ignore":
			if d.Range.Start.Line != 1 || !strings.Contains(fmt.Sprint(d.Message), "without a reason") {
				t.Errorf("invalid ignore: %+v", d)
			}
		case "diff-param-now-required":
			// city's comment has no reason, so its change stays; days's
			// is accepted.
			shown++
			if d.Range.Start.Line != 2 {
				t.Errorf("shown at line %d: %+v", d.Range.Start.Line, d)
			}
		case "unused-ignore":
			t.Errorf("gramc check's unused-ignore for a diff rule: %+v", d)
		}
	}
	if shown != 1 {
		t.Errorf("%d diff-param-now-required shown, want city's only", shown)
	}
}

// commitAll makes dir a repository with its files committed.
func commitAll(t *testing.T, dir string) {
	t.Helper()
	runGit(t, dir, "init", "-q", "-b", "main")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "v1")
}

// runGit runs git with args in dir.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// committed is a new git repository holding files, committed; without
// git the test is skipped.
func committed(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	commitAll(t, dir)
	return dir
}

// TestBaselineRunsNothingAClonedRepositoryPlants (issue 35.1): opening
// tools/a.gram of a repository whose tools/ is committed laid out as a
// bare repository (a partial clone whose promisor remote's upload-pack is
// a command), with {"baseline": "main"} in its gramc.json, must not run
// that command; the baseline is read from the repository whose .git holds
// the workspace.
func TestBaselineRunsNothingAClonedRepositoryPlants(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	dir := committed(t, map[string]string{
		"tools/a.gram":            "[a:Tool {description: \"Says a\"} | (x::String)==>(::String)]\n[gone:Tool {description: \"Gone\"} | (::String)]\n",
		"tools/gramc.json":        `{"baseline": "main"}`,
		"tools/HEAD":              "ref: refs/heads/main\n",
		"tools/refs/heads/main":   "0123456789012345678901234567890123456789\n",
		"tools/objects/info/keep": "",
		"tools/config":            "[core]\n\trepositoryformatversion = 1\n\tbare = true\n[extensions]\n\tpartialClone = origin\n[remote \"origin\"]\n\turl = /nowhere\n\tpromisor = true\n\tuploadpack = touch " + marker + "; false\n",
	})
	writeFiles(t, dir, map[string]string{"tools/a.gram": "[a:Tool {description: \"Says a\"} | (x::String)==>(::String)]\n"})
	for _, folder := range []string{dir, filepath.Join(dir, "tools")} {
		c := newTestClient(t, folder, clientOptions{})
		name := strings.TrimPrefix(filepath.Join(dir, "tools", "a.gram"), folder+string(filepath.Separator))
		c.open(name)
		c.waitFor(name, hasCode("diff-tool-removed"))
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("workspace %s: git ran the command the repository planted", folder)
		}
	}
}

// TestBaselineOffTheRequestPath (issue 35.2): the baseline is read off the
// request path, so a hover is answered while git has not answered yet;
// when it does, the baseline's changes are published.
func TestBaselineOffTheRequestPath(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tools.gram": "[w:Tool {description: \"Weather\"} | (city::String)==>(::String)]\n[gone:Tool {description: \"Gone\"} | (::String)]\n",
		"gramc.json": `{"baseline": "HEAD"}`,
	})
	commitAll(t, dir)
	writeFiles(t, dir, map[string]string{"tools.gram": "[w:Tool {description: \"Weather\"} | (city::String)==>(::String)]\n"})
	// A git that waits until the test lets it go.
	bin, release := t.TempDir(), filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\nwhile [ ! -e " + release + " ]; do sleep 0.05; done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := newTestClient(t, dir, clientOptions{})
	c.open("tools.gram")
	h, err := c.server.Hover(c.ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("tools.gram")}, Position: protocol.Position{Line: 0, Character: 2}}})
	if err != nil || h == nil {
		t.Fatalf("hover while git is busy: %v, %v", h, err)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor("tools.gram", hasCode("diff-tool-removed"))
}

// TestBaselineUntrusted: an editor that does not trust the workspace
// (VS Code's restricted mode) says so in initializationOptions, and the
// server then reads no baseline, whatever gramc.json says: git never runs.
func TestBaselineUntrusted(t *testing.T) {
	dir := committed(t, map[string]string{
		"tools.gram": "[w:Tool {description: \"Weather\"} | (city::String)==>(::String)]\n",
		"gramc.json": `{"baseline": "HEAD"}`,
	})
	c := newTestClient(t, dir, clientOptions{initOptions: `{"untrustedWorkspace": true}`})
	c.open("tools.gram", "[w:Tool {description: \"Weather\"} | (city::Strin)==>(::String)]\n")
	c.waitFor("tools.gram", hasCode("unknown-type"))
	c.srv.mu.Lock()
	n := len(c.srv.ws.baselines)
	c.srv.mu.Unlock()
	if n != 0 {
		t.Errorf("%d baselines read in an untrusted workspace", n)
	}
}
