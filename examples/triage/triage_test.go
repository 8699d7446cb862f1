package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestTriageFromCassette runs the generated typed entry point,
// TriageAgent.Run, from a cassette on each provider: a plain go test
// replays with no network and no key; GRAMC_RECORD=1 go test re-records
// against the repository's fakes (which check every request, its
// structured-output fields included, against the provider's rules). The
// result is a Triage, validated, its default filled in: natively on
// OpenAI and Anthropic, through the final-answer tool on Gemini 2.5 (which
// refuses a response schema beside function declarations).
func TestTriageFromCassette(t *testing.T) {
	for _, tc := range []struct {
		provider, model string
		mode            provider.OutputMode
	}{
		{runtimetest.OpenAI, "OpenAI/gpt-4o-mini", provider.OutputNative},
		{runtimetest.Anthropic, "Anthropic/claude-sonnet-4-5", provider.OutputNative},
		{runtimetest.Gemini, "Gemini/gemini-2.5-flash", provider.OutputTool},
	} {
		// The cassette set-up of ../hello/cassette_test.go: each example
		// shows the whole golden-file habit on its own.
		t.Run(tc.provider, func(t *testing.T) {
			mode := cassette.ModeFromEnv()
			key, base := cassette.ReplayKey, "http://127.0.0.1:1"+runtimetest.BasePath(tc.provider)
			if mode == cassette.Record {
				key, base = "test-key", runtimetest.NewProviderServer(t, tc.provider, runtimetest.Echo).URL
			}
			s, err := cassette.Open(filepath.Join("testdata", "triage-"+tc.provider+".cassette"), mode, key)
			if err != nil {
				t.Fatal(err)
			}
			model, err := clients.New(tc.model, clientopt.WithHTTPClient(s.Client), clientopt.WithAPIKey(key), clientopt.WithBaseURL(base))
			if err != nil {
				t.Fatal(err)
			}
			// The agent as generated, moved to the provider under test.
			moved := NewTriage()
			moved.Model = tc.model
			agent := &TriageAgent{Model: model, Tools: NewToolLibrary(Customers{}), Agent: &moved}
			result, resp, err := agent.Run(context.Background(), "ada@example.com: the site is down")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			want := Triage{Priority: PriorityLow, Minutes: 30, Summary: "gold"}
			if result != want {
				t.Errorf("result %+v, want %+v", result, want)
			}
			if resp.OutputMode != tc.mode || resp.Repairs != 0 || len(resp.Invocations) != 1 {
				t.Errorf("mode %s, %d repairs, %d tool calls", resp.OutputMode, resp.Repairs, len(resp.Invocations))
			}
		})
	}
}
