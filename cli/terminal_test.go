package cli

import (
	"os"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
)

// TestNotATerminal: /dev/null and pipes are character devices or FIFOs, not
// terminals; gramc run must not prompt on them.
func TestNotATerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) || isTerminal(w) {
		t.Error("a pipe is taken for a terminal")
	}
	if isTerminal(nil) {
		t.Error("nil is taken for a terminal")
	}
}

func TestChatBanner(t *testing.T) {
	agent := runtime.Agent{Name: "hello_world_agent", Model: "OpenAI/gpt-4o-mini"}
	for _, tc := range []struct {
		model, want string
	}{
		{"", "Chatting with hello_world_agent (OpenAI/gpt-4o-mini). End with Ctrl-D."},
		{"gpt-4.1", "Chatting with hello_world_agent (OpenAI/gpt-4.1). End with Ctrl-D."},
		{"Ollama/llama3.1", "Chatting with hello_world_agent (Ollama/llama3.1). End with Ctrl-D."},
	} {
		if got := chatBanner(agent, runOptions{model: tc.model}); got != tc.want {
			t.Errorf("--model %q: banner %q, want %q", tc.model, got, tc.want)
		}
	}
}
