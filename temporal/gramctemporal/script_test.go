package gramctemporal

import (
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/server/temporaltest"

	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/devserver"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gramc-temporal":     func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
		"gramc-temporal-dev": func() { os.Exit(devserver.Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScript runs testdata/script/*.txtar against a real Temporal server
// started here and a fake OpenAI server that checks every request.
func TestScript(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t),
		temporaltest.WithBaseClientOptions(client.Options{Logger: log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}))
	fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("TEMPORAL_ADDRESS", ts.GetFrontendHostPort())
			env.Setenv("TEMPORAL_NAMESPACE", ts.GetDefaultNamespace())
			env.Setenv("OPENAI_API_KEY", "sk-test")
			env.Setenv("BASE", fake.URL)
			return nil
		},
		UpdateScripts: os.Getenv("GRAMC_UPDATE") != "",
	})
}
