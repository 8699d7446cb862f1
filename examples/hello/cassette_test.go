package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestHelloFromCassette runs the typed agent from a cassette in testdata,
// on each provider: the golden-file habit for agents. A plain go test
// replays with no network and no key; GRAMC_RECORD=1 go test re-records
// (here against the repository's fake of each provider, which checks every
// request against the provider's documented rules; a user's own tests
// record against the real provider with their key instead).
func TestHelloFromCassette(t *testing.T) {
	for _, tc := range []struct{ provider, model string }{
		{runtimetest.OpenAI, "OpenAI/gpt-4o-mini"},
		{runtimetest.Anthropic, "Anthropic/claude-sonnet-4-5"},
		{runtimetest.Gemini, "Gemini/gemini-2.5-flash"},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			mode := cassette.ModeFromEnv()
			key, base := cassette.ReplayKey, "http://127.0.0.1:1"+runtimetest.BasePath(tc.provider)
			if mode == cassette.Record {
				key, base = "test-key", runtimetest.NewProviderServer(t, tc.provider, runtimetest.Echo).URL
			}
			s, err := cassette.Open(filepath.Join("testdata", "hello-"+tc.provider+".cassette"), mode, key)
			if err != nil {
				t.Fatal(err)
			}
			model, err := clients.New(tc.model, clientopt.WithHTTPClient(s.Client), clientopt.WithAPIKey(key), clientopt.WithBaseURL(base))
			if err != nil {
				t.Fatal(err)
			}
			agent := NewHelloWorldAgent()
			agent.Model = tc.model
			var streamed strings.Builder
			resp, err := runtime.Run(context.Background(), model, agent, NewToolLibrary(ToolsImpl{}), "Hello, I am Ada", nil,
				runtime.WithEvents(func(ev runtime.Event) {
					if ev.Kind == runtime.EventText {
						streamed.WriteString(ev.Text)
					}
				}))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if len(resp.Invocations) != 1 || resp.Invocations[0].Result != "Hello, Ada!" {
				t.Errorf("invocations: %+v, want one sayHello giving Hello, Ada!", resp.Invocations)
			}
			if resp.Content != "Hello, Ada!" || streamed.String() != resp.Content {
				t.Errorf("answer %q, streamed %q; want Hello, Ada! both", resp.Content, streamed.String())
			}
		})
	}
}
