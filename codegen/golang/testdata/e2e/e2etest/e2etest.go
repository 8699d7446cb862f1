// Package e2etest runs generated code end to end for the tests beside it
// (weather, notes; codegen/golang's TestCompile runs them): an agent
// through runtime.Run and the OpenAI client against the repository's fake
// OpenAI server.
package e2etest

import (
	"context"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// Run runs agent with the tools of lib on message, the model being a fake
// OpenAI server that answers with replies in turn (no retries). It returns
// the run's response and the server, which holds the requests it was
// sent; a failed run fails the test.
func Run(t *testing.T, agent runtime.Agent, lib *runtime.ToolLibrary, message string, replies ...runtimetest.Reply) (*runtime.Response, *runtimetest.ProviderServer) {
	t.Helper()
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(replies...))
	client, err := openai.New(clientopt.WithBaseURL(srv.URL), clientopt.WithAPIKey("test-key"), clientopt.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := runtime.Run(context.Background(), client, agent, lib, message, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp, srv
}
