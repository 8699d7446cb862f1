package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

func TestParse(t *testing.T) {
	c, ds := Parse("gramc.json", []byte(`{
  "targets": ["openai-strict", "gemini"],
  "disable": ["target-keyword-in-description"],
  "severity": {"unknown-property": "error", "arrow-subject": "warning"},
  "baseline": "origin/main",
  "prices": {"OpenAI/gpt-4.1": {"input": 2, "output": 8.5}}
}`))
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	if len(c.Targets) != 2 || len(c.Disable) != 1 || c.Severity["unknown-property"] != diag.Error || c.Baseline != "origin/main" {
		t.Errorf("config %+v", c)
	}
	if p := c.Prices["OpenAI/gpt-4.1"]; p != (Price{Input: 2, Output: 8.5}) || len(c.Prices) != 1 {
		t.Errorf("prices %+v", c.Prices)
	}
}

// TestParseProblems: each problem is an invalid-config diagnostic at its
// place in the file, and the valid rest is kept.
func TestParseProblems(t *testing.T) {
	src := `{
  "targets": ["opneai", "gemini"],
  "disable": ["unknown-type", "unknwn-property", 7],
  "severity": {"syntax": "warning", "unknown-property": "fatal"},
  "colour": true,
  "baseline": "--output=x",
  "prices": {"OpenAI/a": {"input": -1, "output": 1}, "OpenAI/b": {"input": 1}, "OpenAI/c": {"input": 1, "output": 2}}
}`
	c, ds := Parse("gramc.json", []byte(src))
	want := []struct {
		line    int32
		summary string
	}{
		{2, `unknown target "opneai"`},
		{3, "disable must be a list of strings"},
		{4, "syntax is an error and cannot be made a warning"},
		{4, `the severity of unknown-property must be "error" or "warning"`},
		{5, `unknown key "colour"`},
		{6, `baseline "--output=x": a revision cannot begin with -`},
		{7, `prices of "OpenAI/a": want numbers of USD per million tokens, 0 or more`},
		{7, `prices of "OpenAI/b": want {"input": USD, "output": USD}`},
	}
	for _, w := range want {
		found := false
		for _, d := range ds {
			if d.Code == diag.CodeInvalidConfig && d.Range.Start.Line == w.line && strings.Contains(d.Summary, w.summary) {
				found = true
			}
		}
		if !found {
			t.Errorf("no diagnostic at line %d saying %q; got %v", w.line, w.summary, ds)
		}
	}
	if len(c.Targets) != 1 || c.Targets[0] != "gemini" {
		t.Errorf("the valid target was not kept: %v", c.Targets)
	}
	if len(c.Prices) != 1 || c.Prices["OpenAI/c"] != (Price{1, 2}) {
		t.Errorf("the valid price was not kept: %v", c.Prices)
	}
	for _, bad := range []string{`[]`, `{"targets": [`, `not json`} {
		if _, ds := Parse("gramc.json", []byte(bad)); len(ds) == 0 {
			t.Errorf("%q: no diagnostic", bad)
		}
	}
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	os.MkdirAll(deep, 0o755)
	if Find(deep) != "" && !strings.HasPrefix(Find(deep), os.TempDir()) {
		t.Skip("a gramc.json above the temporary directory")
	}
	os.WriteFile(filepath.Join(root, FileName), []byte(`{}`), 0o644)
	if got := Find(deep); got != filepath.Join(root, FileName) {
		t.Errorf("Find = %q", got)
	}
}

func TestApply(t *testing.T) {
	c := &Config{Disable: []diag.Code{"unknown-property"}, Severity: map[diag.Code]diag.Severity{"arrow-subject": diag.Error}}
	ds := diag.Diagnostics{
		{Severity: diag.Warning, Code: "unknown-property"},
		{Severity: diag.Warning, Code: "arrow-subject"},
		{Severity: diag.Warning, Code: "unknown-pattern"},
	}
	out := c.Apply(ds, nil)
	if len(out) != 2 || out[0].Severity != diag.Error || ds[1].Severity != diag.Warning {
		t.Errorf("Apply: %v (input changed: %v)", out, ds[1].Severity)
	}
	// The flags' list replaces the file's.
	if out := c.Apply(ds, []diag.Code{"unknown-pattern"}); len(out) != 2 || out[0].Code != "unknown-property" {
		t.Errorf("flag override: %v", out)
	}
}

// manyUnknownCodes is a gramc.json of almost MaxSize bytes that disables
// code after unknown code.
func manyUnknownCodes() []byte {
	var b strings.Builder
	b.WriteString(`{"disable":[`)
	for b.Len() < MaxSize-100 {
		b.WriteString(`"no-such-code",`)
	}
	b.WriteString(`"x"]}`)
	return []byte(b.String())
}

// TestManyProblemsBounded: a 1 MiB gramc.json of unknown codes is read at
// once, its first MaxProblems problems said and the rest counted (issue
// 35.3: it took two minutes, the language server's with it).
func TestManyProblemsBounded(t *testing.T) {
	_, ds := Parse(FileName, manyUnknownCodes())
	if len(ds) != MaxProblems+1 || !strings.Contains(ds[MaxProblems].Summary, "more problems in gramc.json, not reported") {
		t.Fatalf("%d diagnostics, the last %v", len(ds), ds[len(ds)-1])
	}
}

// BenchmarkParseLarge measures Parse on a 1 MiB gramc.json of unknown
// codes (MaxProblems reported).
func BenchmarkParseLarge(b *testing.B) {
	data := manyUnknownCodes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Parse(FileName, data)
	}
}
