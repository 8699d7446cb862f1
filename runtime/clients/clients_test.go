package clients

import (
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// TestEveryProviderHasAClient holds the provider table and the
// constructors together: a row whose client has no constructor fails
// here, as does a constructor no row uses.
func TestEveryProviderHasAClient(t *testing.T) {
	used := map[provider.Client]bool{}
	for _, p := range provider.Table {
		used[p.Client] = true
		if constructors[p.Client] == nil {
			t.Errorf("provider %s: client %q has no constructor in package clients", p.Name, p.Client)
		}
	}
	for c := range constructors {
		if !used[c] {
			t.Errorf("constructor for client %q, which no provider in the table uses", c)
		}
	}
}

// TestNewChoosesTheClient makes a client for a model of each provider,
// aliases and any case included, and checks which client it is and that
// the shared options reached it.
func TestNewChoosesTheClient(t *testing.T) {
	for _, env := range []string{"OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GEMINI_BASE_URL"} {
		t.Setenv(env, "")
	}
	const base = "http://127.0.0.1:1/v9"
	for _, tc := range []struct {
		model string
		want  string
	}{
		{"OpenAI/gpt-4o-mini", "*openai.Client"},
		{"gpt-4o-mini", "*openai.Client"},
		{"Ollama/llama3.1", "*openai.Client"},
		{"Anthropic/claude-sonnet-4-5", "*anthropic.Client"},
		{"anthropic/claude-sonnet-4-5", "*anthropic.Client"},
		{"Gemini/gemini-2.5-flash", "*gemini.Client"},
		{"Google/gemini-2.5-flash", "*gemini.Client"},
		{"Acme/some-model", "*openai.Client"},
	} {
		m, err := New(tc.model, clientopt.WithAPIKey("k"), clientopt.WithBaseURL(base))
		if err != nil {
			t.Errorf("New(%q): %v", tc.model, err)
			continue
		}
		var got, url string
		switch c := m.(type) {
		case *openai.Client:
			got, url = "*openai.Client", c.BaseURL()
		case *anthropic.Client:
			got, url = "*anthropic.Client", c.BaseURL()
		case *gemini.Client:
			got, url = "*gemini.Client", c.BaseURL()
		}
		if got != tc.want || url != base {
			t.Errorf("New(%q) = %s at %q, want %s at %q", tc.model, got, url, tc.want, base)
		}
	}
}

// TestOwnOptionOfAnotherClient: a client's own option given to another
// client's New is an error naming it, not silently dropped.
func TestOwnOptionOfAnotherClient(t *testing.T) {
	_, err := New("Anthropic/claude-sonnet-4-5", clientopt.WithAPIKey("k"), openai.WithMode(openai.ResponsesMode))
	if err == nil || !strings.Contains(err.Error(), "*openai.Client") || !strings.Contains(err.Error(), "*anthropic.Client") {
		t.Fatalf("err = %v, want one naming *openai.Client and *anthropic.Client", err)
	}
	if _, err := New("OpenAI/gpt-4o", clientopt.WithAPIKey("k"), anthropic.WithMaxTokens(10)); err == nil {
		t.Fatal("anthropic.WithMaxTokens given to the OpenAI client: no error")
	}
}

// TestMissingKeyNamesTheVariable: the settings start from the provider
// table's variables, so a missing key is a configuration error naming
// the provider's own.
func TestMissingKeyNamesTheVariable(t *testing.T) {
	for _, env := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GOOGLE_API_KEY", "GEMINI_API_KEY", "GEMINI_BASE_URL"} {
		t.Setenv(env, "")
	}
	for model, want := range map[string]string{
		"OpenAI/gpt-4o":               "OPENAI_API_KEY",
		"Anthropic/claude-sonnet-4-5": "ANTHROPIC_API_KEY",
		"Gemini/gemini-2.5-flash":     "GEMINI_API_KEY",
	} {
		_, err := New(model)
		var ce *runtime.ConfigurationError
		if !errors.As(err, &ce) || ce.Setting != want {
			t.Errorf("New(%q) = %v, want a configuration error for %s", model, err, want)
		}
	}
	t.Setenv("GOOGLE_API_KEY", "g")
	if _, err := New("Gemini/gemini-2.5-flash"); err != nil {
		t.Errorf("GOOGLE_API_KEY set: %v", err)
	}
}
