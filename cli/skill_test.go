package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/docs"
)

// TestSkillFromDocs holds the skill's text to the pages gramc embeds: the
// workflow is the server's instructions, word for word, and the
// language's sections are language.md's, their headings one level
// deeper; a page that loses a section fails here (docSection panics).
func TestSkillFromDocs(t *testing.T) {
	body := skillBody()
	if !strings.Contains(body, compilerInstructions()) {
		t.Error("the skill lacks the server's instructions")
	}
	for _, s := range [][2]string{
		{"## 1. Gram notation", "## 2. Declarations"},
		{"### 2.1 Tool", "### 2.5 Test"},
		{"## 3. Types", "## 4. From a signature"},
	} {
		lang := docs.Page("language.md")
		start := lineIndex(lang, s[0], 0)
		end := lineIndex(lang, s[1], start+1)
		for _, para := range strings.Split(strings.TrimSpace(lang[start:end]), "\n\n") {
			if strings.HasPrefix(para, "#") {
				para = "#" + para
			}
			if !strings.Contains(body, para) {
				t.Errorf("the skill lacks language.md's paragraph %.80q", para)
			}
		}
	}
	if !strings.Contains(body, "claude mcp add gramc -- gramc mcp --compiler") {
		t.Error("the skill lacks docs/mcp.md's set-up lines")
	}
	if !strings.Contains(body, "gramc check --fix ./...") {
		t.Error("the skill lacks gramc check's examples")
	}
}

// TestSkillInstallAndCheck installs the skill for every agent, then makes
// gramc newer: skill check and gramc check say the skills are older,
// gramc check once and never with --format json.
func TestSkillInstallAndCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, dir, map[string]string{"ok.gram": "[Unit:Enum {values: [\"c\", \"f\"], description: \"A unit\"}]\n"})
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Do(args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	for _, a := range skillAgents {
		if code, out, errs := run("skill", "install", "--for", a.name); code != 0 || !strings.Contains(out, "wrote") {
			t.Fatalf("install --for %s: %d %s %s", a.name, code, out, errs)
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.path)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), a.header) || !strings.Contains(string(data), compilerInstructions()) || !skillStampRE.Match(data) {
			t.Errorf("%s: the file is not the header, the stamp and the skill", a.path)
		}
	}
	if code, out, _ := run("skill", "check"); code != 0 || strings.Count(out, "up to date") != len(skillAgents) {
		t.Errorf("skill check of fresh skills: %d %s", code, out)
	}
	if _, _, errs := run("check"); strings.Contains(errs, "skill") {
		t.Errorf("gramc check with fresh skills: %s", errs)
	}

	old := Version
	Version = "v99.0.0"
	defer func() { Version = old }()
	code, out, _ := run("skill", "check")
	if code != ExitProblem || strings.Count(out, "older than this gramc (v99.0.0)") != len(skillAgents) {
		t.Errorf("skill check after a version bump: %d %s", code, out)
	}
	_, _, errs := run("check")
	if n := strings.Count(errs, "older than this gramc"); n != 1 || strings.Count(errs, "\n") != 1 {
		t.Errorf("gramc check after a version bump: want one line, got %q", errs)
	}
	if _, out, errs := run("check", "--format", "json"); strings.Contains(errs+out, "skill") {
		t.Errorf("gramc check --format json spoke of the skill: %q %q", out, errs)
	}
	if code, _, errs := run("skill", "install", "--for", "vim"); code != ExitUsage || !strings.Contains(errs, "want one of claude, codex, cursor, copilot, gemini") {
		t.Errorf("--for vim: %d %s", code, errs)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"v1.2.3", "v1.2.4", -1}, {"v1.10.0", "v1.9.9", 1}, {"v1.0.0", "v1.0.0", 0},
		{"devel", "v1.0.0", 0}, {"v1.0.0-rc.1", "v1.0.0", 0}, {"v1.2", "v1.2.0", 0},
	} {
		if got := compareVersions(c.a, c.b); got != c.want {
			t.Errorf("compareVersions(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
