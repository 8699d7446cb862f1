// Package otelexport exports a gramc run's OpenTelemetry spans and
// metrics (runtime's telemetry, docs/observability.md) where the standard
// OTEL_* variables say: OTLP/HTTP, and for traces the console. gramc run,
// gramc mcp and gramc-temporal's worker and run set it up the same way.
package otelexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
)

// Setup is what a command exports: the runtime options that record
// (Options), and Shutdown, which flushes what is buffered (call it on
// every way out, an error or a signal too). A nil *Setup exports nothing.
type Setup struct {
	tracer  *sdktrace.TracerProvider
	meter   *sdkmetric.MeterProvider
	console *consoleExporter
	capture bool
}

// Exporters are the exporters OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER (variable) names, as the OpenTelemetry
// environment specification reads it: a comma-separated list of otlp,
// console and none, "none" alone meaning no exporter. Unset, a signal
// goes to OTLP when an OTLP endpoint is set, and nowhere else (gramc
// sends nothing to a default address nobody configured). A value gramc
// does not know is a warning and ignored, as the specification says.
func Exporters(variable string, known []string, warn func(string)) []string {
	v := strings.TrimSpace(os.Getenv(variable))
	if v == "" {
		for _, e := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_" + signalOf(variable) + "_ENDPOINT"} {
			if os.Getenv(e) != "" {
				return []string{"otlp"}
			}
		}
		return nil
	}
	var out []string
	for _, name := range strings.Split(v, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		switch {
		case name == "none":
			return nil
		case slices.Contains(known, name):
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		default:
			warn(fmt.Sprintf("%s: unknown exporter %q, ignored (gramc exports to %s)", variable, termsafe.Line(name, 100), strings.Join(known, ", ")))
		}
	}
	return out
}

// signalOf is the signal of OTEL_TRACES_EXPORTER (TRACES) or
// OTEL_METRICS_EXPORTER (METRICS).
func signalOf(variable string) string {
	return strings.TrimSuffix(strings.TrimPrefix(variable, "OTEL_"), "_EXPORTER")
}

// otlpEndpoint is the OTLP/HTTP endpoint a signal is sent to and the
// variable that set it, for the warning about an unreachable collector.
func otlpEndpoint(signal string) (endpoint, variable string) {
	variable = "OTEL_EXPORTER_OTLP_" + signal + "_ENDPOINT"
	if e := os.Getenv(variable); e != "" {
		return e, variable
	}
	variable = "OTEL_EXPORTER_OTLP_ENDPOINT"
	if e := os.Getenv(variable); e != "" {
		return e, variable
	}
	return "http://localhost:4318", "the default of OTEL_EXPORTER_OTLP_ENDPOINT"
}

// rootCause is what went wrong under the exporter's words: the network's
// error ("dial tcp ...: connection refused") when there is one, so that
// each signal's failure reads the same.
func rootCause(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		return op
	}
	return err
}

// Config names the command for its warnings and its telemetry.
type Config struct {
	// Prog prefixes the warnings ("gramc run").
	Prog string
	// Service is the resource's service.name when OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES do not set one ("gramc").
	Service string
	// Version is the resource's service.version.
	Version string
}

// Start is New as a command starts it: the SDK's own errors go to stderr
// through ReportErrors (prefixed with the first word of cfg.Prog). stop
// flushes what is buffered (defer it; with nothing exported it does
// nothing). An error is an environment it cannot read: a usage error.
func Start(ctx context.Context, stderr io.Writer, cfg Config) (tel *Setup, stop func(), err error) {
	tel, err = New(ctx, stderr, cfg)
	if err != nil {
		return nil, nil, err
	}
	if tel == nil {
		return nil, func() {}, nil
	}
	prog, _, _ := strings.Cut(cfg.Prog, " ")
	ReportErrors(stderr, prog)
	return tel, tel.Shutdown, nil
}

// New makes the trace and metric exporters the environment
// asks for (nil when it asks for none): OTLP/HTTP, and for traces the
// console, where each span is printed on stderr as it ends. The OTLP
// exporters read the standard variables themselves (endpoint, headers,
// timeout, compression); the resource honours OTEL_SERVICE_NAME (default
// cfg.Service) and OTEL_RESOURCE_ATTRIBUTES. An export that fails (an
// unreachable collector) is one warning on stderr naming the endpoint;
// it never changes the command's exit status.
func New(ctx context.Context, stderr io.Writer, cfg Config) (*Setup, error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil
	}
	var warnMu sync.Mutex
	warned := map[string]bool{}
	warn := func(msg string) {
		warnMu.Lock()
		defer warnMu.Unlock()
		if !warned[msg] {
			warned[msg] = true
			fmt.Fprintf(stderr, "%s: warning: %s\n", cfg.Prog, msg)
		}
	}
	traces := Exporters("OTEL_TRACES_EXPORTER", []string{"otlp", "console"}, warn)
	metrics := Exporters("OTEL_METRICS_EXPORTER", []string{"otlp"}, warn)
	if len(traces) == 0 && len(metrics) == 0 {
		return nil, nil
	}
	res, err := resource.New(ctx, resource.WithFromEnv(), resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceVersion(cfg.Version)))
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, err
	}
	if os.Getenv("OTEL_SERVICE_NAME") == "" && !strings.Contains(os.Getenv("OTEL_RESOURCE_ATTRIBUTES"), "service.name=") {
		res, _ = resource.Merge(res, resource.NewSchemaless(semconv.ServiceName(cfg.Service)))
	}
	// One warning per collector that cannot be reached, however often
	// and for however many signals the export fails, through the error
	// handler Start sets (ReportErrors: the terminal filter, the keys
	// redacted).
	var failMu sync.Mutex
	failedAt := map[string]bool{}
	failed := func(signal string) func(error) {
		return func(err error) {
			endpoint, variable := otlpEndpoint(signal)
			failMu.Lock()
			said := failedAt[endpoint]
			failedAt[endpoint] = true
			failMu.Unlock()
			if !said {
				otel.Handle(fmt.Errorf("cannot export telemetry to %s (%s): %w; the run goes on", endpoint, variable, rootCause(err)))
			}
		}
	}
	s := &Setup{capture: strings.EqualFold(os.Getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"), "true")}
	if len(traces) > 0 {
		opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
		for _, name := range traces {
			switch name {
			case "otlp":
				exp, err := otlptracehttp.New(ctx)
				if err != nil {
					return nil, err
				}
				opts = append(opts, sdktrace.WithBatcher(&warningSpanExporter{SpanExporter: exp, failed: failed("TRACES")}))
			case "console":
				s.console = &consoleExporter{w: stderr}
				opts = append(opts, sdktrace.WithSyncer(s.console))
			}
		}
		s.tracer = sdktrace.NewTracerProvider(opts...)
	}
	if len(metrics) > 0 {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, err
		}
		s.meter = sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(&warningMetricExporter{Exporter: exp, failed: failed("METRICS")})), sdkmetric.WithResource(res))
	}
	return s, nil
}

// Shutdown flushes what is buffered, waiting at most 5 seconds.
func (s *Setup) Shutdown() {
	if s == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Exiting: what could not be sent is lost, and said.
	if s.tracer != nil {
		if err := s.tracer.Shutdown(sctx); err != nil {
			otel.Handle(fmt.Errorf("traces not all sent before exit (waited at most 5s): %w", err))
		}
	}
	if s.meter != nil {
		if err := s.meter.Shutdown(sctx); err != nil {
			otel.Handle(fmt.Errorf("metrics not all sent before exit (waited at most 5s): %w", err))
		}
	}
}

// warningSpanExporter reports a failed export once per collector, through
// failed, rather than each failure.
type warningSpanExporter struct {
	sdktrace.SpanExporter
	failed func(error)
}

func (w *warningSpanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := w.SpanExporter.ExportSpans(ctx, spans)
	if err == nil || exportTimedOut(ctx, err) {
		return err // a collector too slow before exit: the shutdown says what was not sent
	}
	w.failed(err)
	return nil
}

// exportTimedOut reports whether an export ran out of time (the export
// timeout, or the flush's before exit) rather than failed.
func exportTimedOut(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)
}

// warningMetricExporter is warningSpanExporter's twin for metrics.
type warningMetricExporter struct {
	sdkmetric.Exporter
	failed func(error)
}

func (w *warningMetricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	err := w.Exporter.Export(ctx, rm)
	if err == nil || exportTimedOut(ctx, err) {
		return err
	}
	w.failed(err)
	return nil
}

// BeforeConsoleSpan sets what runs before the console prints a span (see
// consoleExporter.before); nothing without the console exporter.
func (s *Setup) BeforeConsoleSpan(f func()) {
	if s == nil || s.console == nil {
		return
	}
	s.console.mu.Lock()
	defer s.console.mu.Unlock()
	s.console.before = f
}

// TracerProvider is the provider the spans go to (nil: no traces
// exported), for instrumentation beside the runtime's (Temporal's
// interceptor).
func (s *Setup) TracerProvider() *sdktrace.TracerProvider {
	if s == nil {
		return nil
	}
	return s.tracer
}

// Options are the runtime options that record to s: its providers, the
// content capture OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT asks
// for, with the API keys of the environment redacted (KeyRedactor), and
// provider as gen_ai.provider.name ("": the agent's model's).
func (s *Setup) Options(provider string) []runtime.Option {
	if s == nil {
		return nil
	}
	opts := []runtime.Option{runtime.WithContentCapture(s.capture), runtime.WithContentRedactor(KeyRedactor())}
	if provider != "" {
		opts = append(opts, runtime.WithProviderName(provider))
	}
	if s.tracer != nil {
		opts = append(opts, runtime.WithTracerProvider(s.tracer))
	}
	if s.meter != nil {
		opts = append(opts, runtime.WithMeterProvider(s.meter))
	}
	return opts
}

// KeySecrets are the API keys of the environment, as gramc redacts them
// from what it prints and records.
func KeySecrets() []redact.Secret {
	var secrets []redact.Secret
	for _, key := range provider.KeyValues() {
		secrets = append(secrets, redact.NewSecret(key))
	}
	return secrets
}

// RedactWith removes each of secrets from text.
func RedactWith(secrets []redact.Secret, text string) string {
	for _, s := range secrets {
		text = s.String(text)
	}
	return text
}

// KeyRedactor removes the API keys of the environment from text, as gramc
// run redacts what it prints: content capture (runtime.WithContentRedactor)
// sends nothing gramc would not show. The keys are read once, not for each
// attribute recorded.
func KeyRedactor() func(string) string {
	secrets := KeySecrets()
	return func(text string) string { return RedactWith(secrets, text) }
}

// maxOTLPErrors bounds the export errors said in one run: a collector that
// is down would otherwise fill the terminal.
const maxOTLPErrors = 5

// ReportErrors says the OpenTelemetry SDK's errors (a collector that
// refuses an export, one that does not answer before exit) on w, one line
// each prefixed with prog ("gramc"), through the terminal filter — a
// collector's error body is not gramc's to print raw — and with the API
// keys redacted.
func ReportErrors(w io.Writer, prog string) {
	var mu sync.Mutex
	n := 0
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		switch {
		case n <= maxOTLPErrors:
			fmt.Fprintf(w, "%s: OpenTelemetry export: %s\n", prog, termsafe.Line(RedactWith(KeySecrets(), err.Error()), 300))
		case n == maxOTLPErrors+1:
			fmt.Fprintf(w, "%s: OpenTelemetry export: more errors, not shown\n", prog)
		}
	}))
}
