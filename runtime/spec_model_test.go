package runtime_test

import (
	"testing"

	"github.com/gramc-dev/gramc/runtime"
)

func TestSplitModel(t *testing.T) {
	for _, tc := range []struct{ model, provider, name string }{
		{"OpenAI/gpt-4o-mini", "OpenAI", "gpt-4o-mini"},
		{"Ollama/library/llama3:8b", "Ollama", "library/llama3:8b"},
		{"gpt-4o", "", "gpt-4o"},
		{"", "", ""},
	} {
		p, n := runtime.SplitModel(tc.model)
		if p != tc.provider || n != tc.name {
			t.Errorf("SplitModel(%q) = %q, %q; want %q, %q", tc.model, p, n, tc.provider, tc.name)
		}
	}
}
