package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/gramc-dev/gramc/runtime"
)

// telemetrySetup is what gramc run and gramc mcp export to an OTLP/HTTP
// endpoint: the runtime options that record, and shutdown, which flushes
// what is buffered (call it on every way out, an error or a signal too).
type telemetrySetup struct {
	tracer   *sdktrace.TracerProvider
	meter    *sdkmetric.MeterProvider
	capture  bool
	shutdown func()
}

// exporting reports whether the standard OTEL_* variables ask for export:
// an OTLP endpoint is set and the SDK is not disabled.
func exporting() bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// setupTelemetry makes the OTLP/HTTP trace and metric exporters the
// environment asks for (nil when it asks for none). The exporters read
// the standard variables themselves (endpoint, headers, timeout,
// compression); the resource honours OTEL_SERVICE_NAME (default gramc)
// and OTEL_RESOURCE_ATTRIBUTES.
func setupTelemetry(ctx context.Context) (*telemetrySetup, error) {
	if !exporting() {
		return nil, nil
	}
	res, err := resource.New(ctx, resource.WithFromEnv(), resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceVersion(versionString())))
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, err
	}
	if os.Getenv("OTEL_SERVICE_NAME") == "" && !strings.Contains(os.Getenv("OTEL_RESOURCE_ATTRIBUTES"), "service.name=") {
		res, _ = resource.Merge(res, resource.NewSchemaless(semconv.ServiceName("gramc")))
	}
	s := &telemetrySetup{capture: strings.EqualFold(os.Getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"), "true")}
	if os.Getenv("OTEL_TRACES_EXPORTER") != "none" {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, err
		}
		s.tracer = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	}
	if os.Getenv("OTEL_METRICS_EXPORTER") != "none" {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, err
		}
		s.meter = sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
	}
	s.shutdown = func() {
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
	return s, nil
}

// options are the runtime options that record to s.
func (s *telemetrySetup) options(provider string) []runtime.Option {
	if s == nil {
		return nil
	}
	opts := []runtime.Option{runtime.WithContentCapture(s.capture), runtime.WithContentRedactor(redactKeys), runtime.WithProviderName(provider)}
	if s.tracer != nil {
		opts = append(opts, runtime.WithTracerProvider(s.tracer))
	}
	if s.meter != nil {
		opts = append(opts, runtime.WithMeterProvider(s.meter))
	}
	return opts
}
