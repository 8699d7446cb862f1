package otelexport

import (
	"strings"
	"testing"
)

// TestExporters: OTEL_*_EXPORTER as the OpenTelemetry environment
// specification reads it (issue 36.3).
func TestExporters(t *testing.T) {
	known := []string{"otlp", "console"}
	for _, c := range []struct {
		value, endpoint string
		want            []string
		warning         string
	}{
		{"", "", nil, ""},
		{"", "http://collector:4318", []string{"otlp"}, ""},
		{"console", "", []string{"console"}, ""},
		{" OTLP , console,otlp", "", []string{"otlp", "console"}, ""},
		{"console,none", "http://collector:4318", nil, ""},
		{"zipkin,console", "", []string{"console"}, `OTEL_TRACES_EXPORTER: unknown exporter "zipkin", ignored (gramc exports to otlp, console)`},
	} {
		t.Setenv("OTEL_TRACES_EXPORTER", c.value)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.endpoint)
		t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
		var warning string
		got := Exporters("OTEL_TRACES_EXPORTER", known, func(s string) { warning = s })
		if strings.Join(got, ",") != strings.Join(c.want, ",") || warning != c.warning {
			t.Errorf("%q (endpoint %q): %v, warning %q; want %v, %q", c.value, c.endpoint, got, warning, c.want, c.warning)
		}
	}
}
