package runtimetest

import (
	"encoding/hex"
	"io"
	"net/http"
	"sort"
	"strconv"
	"sync"

	collmetric "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"
)

// OTLPReceiver is an OTLP/HTTP receiver, as a collector is one: an
// http.Handler that decodes each trace and metric export (protobuf, at
// /v1/traces and /v1/metrics) and keeps what it received, for a test
// that holds gramc's telemetry through an exporter, a network and a
// decoder independent of the SDK's in-memory exporter. The zero value is
// ready to serve.
type OTLPReceiver struct {
	// OnExport, when set, is called after each export is recorded (with
	// the receiver locked: read with the r.*Locked methods).
	OnExport func(r *OTLPReceiver)

	mu      sync.Mutex
	spans   map[string]ReceivedSpan
	order   []string // span IDs, as received
	metrics map[string]bool
}

// ReceivedSpan is a span as an OTLP receiver decoded it: IDs in hex,
// Parent "" for a root.
type ReceivedSpan struct {
	Name, TraceID, SpanID, Parent string
	// Attrs are its string attributes, KEY=VALUE, in the span's order;
	// Ints its integer attributes, KEY=N.
	Attrs, Ints []string
}

// Spans are the spans received, in the order they came.
func (r *OTLPReceiver) Spans() []ReceivedSpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.SpansLocked()
}

// SpansLocked is Spans for OnExport, which runs with the receiver locked.
func (r *OTLPReceiver) SpansLocked() []ReceivedSpan {
	out := make([]ReceivedSpan, 0, len(r.order))
	for _, id := range r.order {
		out = append(out, r.spans[id])
	}
	return out
}

// Metrics are the names of the metrics received, sorted.
func (r *OTLPReceiver) Metrics() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.MetricsLocked()
}

// MetricsLocked are the names of the metrics received, sorted, for
// OnExport.
func (r *OTLPReceiver) MetricsLocked() []string {
	var out []string
	for m := range r.metrics {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (r *OTLPReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.spans == nil {
		r.spans, r.metrics = map[string]ReceivedSpan{}, map[string]bool{}
	}
	switch req.URL.Path {
	case "/v1/traces":
		var er colltrace.ExportTraceServiceRequest
		if !acceptOTLP(w, body, &er, &colltrace.ExportTraceServiceResponse{}) {
			return
		}
		for _, rs := range er.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					s := ReceivedSpan{Name: sp.Name, TraceID: hex.EncodeToString(sp.TraceId),
						SpanID: hex.EncodeToString(sp.SpanId), Parent: hex.EncodeToString(sp.ParentSpanId)}
					for _, a := range sp.Attributes {
						if v := a.GetValue().GetStringValue(); v != "" {
							s.Attrs = append(s.Attrs, a.Key+"="+v)
						}
						if v, ok := a.GetValue().GetValue().(*commonpb.AnyValue_IntValue); ok {
							s.Ints = append(s.Ints, a.Key+"="+strconv.FormatInt(v.IntValue, 10))
						}
					}
					if _, seen := r.spans[s.SpanID]; !seen {
						r.order = append(r.order, s.SpanID)
					}
					r.spans[s.SpanID] = s
				}
			}
		}
	// Parallel to /v1/traces above: OTLP nests both signals' exports
	// alike (resources, scopes, then spans or metrics); what each walk
	// keeps differs.
	case "/v1/metrics":
		var er collmetric.ExportMetricsServiceRequest
		if !acceptOTLP(w, body, &er, &collmetric.ExportMetricsServiceResponse{}) {
			return
		}
		for _, rm := range er.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					r.metrics[m.Name] = true
				}
			}
		}
	default:
		http.NotFound(w, req)
		return
	}
	if r.OnExport != nil {
		r.OnExport(r)
	}
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
