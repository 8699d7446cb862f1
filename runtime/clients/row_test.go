package clients

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestARowAloneAddsAProvider: the provider table is the one source of a
// provider's facts. A Mistral row (OpenAI-compatible, its own key
// variable, header, address and telemetry name) added here and nowhere
// else runs an agent end to end: the client is chosen by the row, its key
// is read from the row's variable and sent in the row's header to the
// row's address, and the chat span names the row's telemetry provider.
//
// The row is tried twice: naming its key header, and leaving it (and
// Output) out, as a row may: the key then goes as a bearer token
// (provider.DefaultKeyHeader), not as a header with no name.
func TestARowAloneAddsAProvider(t *testing.T) {
	for _, header := range []string{"Authorization", ""} {
		t.Run("header="+header, func(t *testing.T) { testARowAlone(t, header) })
	}
}

func testARowAlone(t *testing.T, header string) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	srv.APIKey = "mistral-secret"
	saved := provider.Table
	t.Cleanup(func() { provider.Table = saved })
	provider.Table = append(append([]provider.Info(nil), saved...), provider.Info{
		Name: "Mistral", KeyEnv: []string{"MISTRAL_API_KEY"}, KeyHeader: header,
		BaseURLEnv: "MISTRAL_BASE_URL", BaseURL: srv.URL, Client: provider.OpenAI, Telemetry: "mistral_ai"})
	t.Setenv("MISTRAL_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "not-this-one")

	// Without its key (the row's address is its own host, which needs
	// one), the row's own variable is named.
	t.Setenv("MISTRAL_API_KEY", "")
	var ce *runtime.ConfigurationError
	if _, err := New("Mistral/mistral-small-latest"); !errors.As(err, &ce) || ce.Setting != "MISTRAL_API_KEY" {
		t.Fatalf("no key: %v, want a configuration error naming MISTRAL_API_KEY", err)
	}

	t.Setenv("MISTRAL_API_KEY", "mistral-secret")
	model, err := New("Mistral/mistral-small-latest")
	if err != nil {
		t.Fatal(err)
	}
	spans := tracetest.NewSpanRecorder()
	agent := runtime.Agent{Name: "hello", Model: "Mistral/mistral-small-latest", Instruction: "Greet.",
		Tools: []runtime.ToolSpecification{{Name: "sayHello", Description: "Greets",
			Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)}}}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: agent.Tools[0], Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		return "Hello!", nil
	}})
	resp, err := runtime.Run(context.Background(), model, agent, lib, "Hi", nil,
		runtime.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content == "" || len(srv.Turns()) != 2 {
		t.Fatalf("answer %q after %d requests, want a text after a tool call", resp.Content, len(srv.Turns()))
	}
	if got := srv.Turns()[0].Model; got != "mistral-small-latest" {
		t.Errorf("model sent %q", got)
	}
	chats := 0
	for _, s := range spans.Ended() {
		for _, kv := range s.Attributes() {
			if kv.Key == attribute.Key("gen_ai.provider.name") {
				chats++
				if kv.Value.AsString() != "mistral_ai" {
					t.Errorf("span %s: provider %q, want the row's mistral_ai", s.Name(), kv.Value.AsString())
				}
			}
		}
	}
	if chats == 0 {
		t.Error("no span named the provider")
	}
}

// TestUnknownProviderNeedsABaseURL: a provider the table does not know is
// served by an OpenAI-compatible API whose address must be given.
func TestUnknownProviderNeedsABaseURL(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	var ce *runtime.ConfigurationError
	if _, err := New("Acme/model-1", clientopt.WithAPIKey("k")); !errors.As(err, &ce) || ce.Setting != "base URL" ||
		!strings.Contains(err.Error(), `model "Acme/model-1": provider Acme has no built-in endpoint`) {
		t.Errorf("Acme without a base URL: %v", err)
	}
	if _, err := New("Acme/model-1", clientopt.WithAPIKey("k"), clientopt.WithBaseURL("http://127.0.0.1:1/v1")); err != nil {
		t.Errorf("Acme with a base URL: %v", err)
	}
	if p := Row("Acme/model-1"); p.Name != "Acme" || p.Client != provider.OpenAI || p.Telemetry != "acme" {
		t.Errorf("Row(Acme/...) = %+v", p)
	}
}
