package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	collmetric "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

func init() {
	// otlpreceiver ADDR FILE is an OTLP/HTTP receiver: it decodes every
	// trace and metric export and keeps FILE up to date with one line per
	// span, "NAME <- PARENT" ("-" for a root), then "traces: N" and the
	// metric names received; FILE.attrs holds the spans' string
	// attributes, KEY=VALUE.
	scriptCommands["otlpreceiver"] = func() { os.Exit(otlpReceiverMain(os.Args[1], os.Args[2])) }
	// otlpbad ADDR MODE is an OTLP/HTTP collector that misbehaves: "error"
	// refuses every export with a body of terminal escapes, "hang" never
	// answers.
	scriptCommands["otlpbad"] = func() {
		err := http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			if os.Args[2] == "hang" {
				<-r.Context().Done()
				return
			}
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "\x1b]0;owned\x07\x1b[31mcollector says no\x1b[0m")
		}))
		fmt.Fprintln(os.Stderr, "otlpbad:", err)
		os.Exit(1)
	}
}

func otlpReceiverMain(addr, file string) int {
	var mu sync.Mutex
	type span struct{ name, parent, trace string }
	spans := map[string]span{}
	metrics := map[string]bool{}
	var attrs []string // every span's string attributes, KEY=VALUE
	write := func() {
		var lines []string
		traces := map[string]bool{}
		for _, s := range spans {
			parent := "-"
			if p, ok := spans[s.parent]; ok {
				parent = p.name
			} else if s.parent != "" {
				parent = "(remote " + s.parent + ")"
			}
			lines = append(lines, s.name+" <- "+parent)
			traces[s.trace] = true
		}
		sort.Strings(lines)
		lines = append(lines, fmt.Sprintf("traces: %d", len(traces)))
		var ms []string
		for m := range metrics {
			ms = append(ms, "metric "+m)
		}
		sort.Strings(ms)
		lines = append(lines, ms...)
		os.WriteFile(file+".attrs", []byte(strings.Join(attrs, "\n")+"\n"), 0o644)
		os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}
	err := http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/traces":
			var req colltrace.ExportTraceServiceRequest
			if !acceptOTLP(w, body, &req, &colltrace.ExportTraceServiceResponse{}) {
				return
			}
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					for _, sp := range ss.Spans {
						spans[hex.EncodeToString(sp.SpanId)] = span{sp.Name, hex.EncodeToString(sp.ParentSpanId), hex.EncodeToString(sp.TraceId)}
						for _, a := range sp.Attributes {
							if v := a.GetValue().GetStringValue(); v != "" {
								attrs = append(attrs, a.Key+"="+v)
							}
						}
					}
				}
			}
		// Parallel to /v1/traces above: OTLP nests both signals' exports
		// alike (resources, scopes, then spans or metrics); what each
		// walk keeps differs.
		case "/v1/metrics":
			var req collmetric.ExportMetricsServiceRequest
			if !acceptOTLP(w, body, &req, &collmetric.ExportMetricsServiceResponse{}) {
				return
			}
			for _, rm := range req.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						metrics[m.Name] = true
					}
				}
			}
		default:
			http.NotFound(w, r)
			return
		}
		write()
	}))
	fmt.Fprintln(os.Stderr, "otlpreceiver:", err)
	return 1
}

// acceptOTLP decodes an OTLP/HTTP export request (body) into req and
// answers with resp, sent when the handler returns; a body that does not
// decode is answered 400 and acceptOTLP is false.
func acceptOTLP(w http.ResponseWriter, body []byte, req, resp proto.Message) bool {
	if err := proto.Unmarshal(body, req); err != nil {
		http.Error(w, err.Error(), 400)
		return false
	}
	out, _ := proto.Marshal(resp)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
	return true
}

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
		got := exporters("OTEL_TRACES_EXPORTER", known, func(s string) { warning = s })
		if strings.Join(got, ",") != strings.Join(c.want, ",") || warning != c.warning {
			t.Errorf("%q (endpoint %q): %v, warning %q; want %v, %q", c.value, c.endpoint, got, warning, c.want, c.warning)
		}
	}
}
