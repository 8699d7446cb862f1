package cli

import (
	"io"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// TestRunModelKeepsTheAgentsProvider: --model without a provider keeps
// the agent's (an Ollama agent run with --model llama3.2 still talks to
// Ollama, where before it went to OpenAI's address), and --model with
// one switches client.
func TestRunModelKeepsTheAgentsProvider(t *testing.T) {
	for _, v := range []string{"OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"} {
		t.Setenv(v, "")
	}
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("ANTHROPIC_API_KEY", "k")
	e := &env{stdout: io.Discard, stderr: io.Discard}
	ollama, _ := provider.Lookup("Ollama")
	m, err := runModel(e, runtime.Agent{Name: "a", Model: "Ollama/llama3.1"}, runOptions{model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := m.(*openai.Client); !ok || c.BaseURL() != ollama.BaseURL {
		t.Errorf("Ollama agent with --model llama3.2: %T %v, want the OpenAI client at Ollama's address", m, m)
	}
	m, err = runModel(e, runtime.Agent{Name: "a", Model: "Ollama/llama3.1"}, runOptions{model: "Anthropic/claude-sonnet-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*anthropic.Client); !ok {
		t.Errorf("--model Anthropic/...: %T, want *anthropic.Client", m)
	}
}
