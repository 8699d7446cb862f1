package gramctemporal

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/server/temporaltest"

	"github.com/gramc-dev/gramc/cli"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/devserver"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gramc-temporal":     func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
		"gramc-temporal-dev": func() { os.Exit(devserver.Main(os.Args[1:], os.Stdout, os.Stderr)) },
		// gramc is the compiler's own command, for a local gramc eval to
		// hold gramc-temporal eval's report to (eval.txtar).
		"gramc": func() { os.Exit(cli.Main()) },
	})
}

// TestScript runs testdata/script/*.txtar against a real Temporal server
// started here, a fake OpenAI server that checks every request, and an
// OTLP/HTTP receiver of each script's own ($OTLP; otlpspans reads it).
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
			r := &runtimetest.OTLPReceiver{}
			srv := httptest.NewServer(r)
			env.Defer(srv.Close)
			env.Setenv("OTLP", srv.URL)
			env.Values[otlpKey{}] = r
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// otlpspans FILE writes what the script's OTLP receiver
			// has received: a line per span, "NAME <- PARENT" ("-" for
			// a root, "?" for a parent not received), sorted; then
			// "traces: N"; then each span's attributes, "NAME: KEY=VALUE",
			// and the metrics' names, "metric NAME".
			"otlpspans": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: otlpspans FILE")
				}
				r := ts.Value(otlpKey{}).(*runtimetest.OTLPReceiver)
				if err := os.WriteFile(ts.MkAbs(args[0]), []byte(spanReport(r)), 0o644); err != nil {
					ts.Fatalf("%v", err)
				}
			},
		},
		UpdateScripts: os.Getenv("GRAMC_UPDATE") != "",
	})
}

type otlpKey struct{}

// spanReport is otlpspans' file.
func spanReport(r *runtimetest.OTLPReceiver) string {
	spans := r.Spans()
	byID := map[string]runtimetest.ReceivedSpan{}
	traces := map[string]bool{}
	for _, s := range spans {
		byID[s.SpanID] = s
		traces[s.TraceID] = true
	}
	var tree, attrs []string
	for _, s := range spans {
		parent := "-"
		if p, ok := byID[s.Parent]; ok {
			parent = p.Name
		} else if s.Parent != "" {
			parent = "?"
		}
		tree = append(tree, s.Name+" <- "+parent)
		for _, a := range append(append([]string(nil), s.Attrs...), s.Ints...) {
			attrs = append(attrs, s.Name+": "+a)
		}
	}
	sort.Strings(tree)
	sort.Strings(attrs)
	var b strings.Builder
	for _, l := range tree {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "traces: %d\n", len(traces))
	for _, l := range attrs {
		b.WriteString(l + "\n")
	}
	for _, m := range r.Metrics() {
		b.WriteString("metric " + m + "\n")
	}
	return b.String()
}
