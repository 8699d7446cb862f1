package provider

import (
	"os"
	"strings"
	"testing"
)

// TestDocsListEveryProvider: docs/runtime.md names every provider with its
// key and base-URL variables, so the docs cannot fall behind the table.
func TestDocsListEveryProvider(t *testing.T) {
	data, err := os.ReadFile("../docs/runtime.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok {
			name, _, _ = strings.Cut(name, "`")
			rows[name] = line
		}
	}
	for _, p := range Table {
		row, ok := rows[p.Name]
		if !ok {
			t.Errorf("docs/runtime.md's provider table has no row for %s", p.Name)
			continue
		}
		words := append(append([]string{p.BaseURL}, p.KeyEnv...), p.Aliases...)
		if p.BaseURLEnv != "" {
			words = append(words, p.BaseURLEnv)
		}
		for _, w := range words {
			if !strings.Contains(row, "`"+w+"`") {
				t.Errorf("docs/runtime.md's row for %s does not name %s", p.Name, w)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{"openai": "OpenAI", "Google": "Gemini", "GEMINI": "Gemini", "ollama": "Ollama"} {
		if p, ok := Lookup(name); !ok || p.Name != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", name, p.Name, ok, want)
		}
	}
	if _, ok := Lookup("vllm"); ok {
		t.Error("an unknown provider was found")
	}
	if p, ok := Of("gpt-4o"); !ok || p.Name != "OpenAI" {
		t.Errorf("a model without a provider: %v", p)
	}
}
