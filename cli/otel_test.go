package cli

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/runtime/runtimetest"
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

// otlpReceiverMain serves runtimetest.OTLPReceiver at addr, keeping file
// as otlpreceiver's comment says.
func otlpReceiverMain(addr, file string) int {
	r := &runtimetest.OTLPReceiver{OnExport: func(r *runtimetest.OTLPReceiver) {
		spans := r.SpansLocked()
		byID := map[string]runtimetest.ReceivedSpan{}
		for _, s := range spans {
			byID[s.SpanID] = s
		}
		var lines, attrs []string
		traces := map[string]bool{}
		for _, s := range spans {
			parent := "-"
			if p, ok := byID[s.Parent]; ok {
				parent = p.Name
			} else if s.Parent != "" {
				parent = "(remote " + s.Parent + ")"
			}
			lines = append(lines, s.Name+" <- "+parent)
			traces[s.TraceID] = true
			attrs = append(attrs, s.Attrs...)
		}
		sort.Strings(lines)
		lines = append(lines, fmt.Sprintf("traces: %d", len(traces)))
		for _, m := range r.MetricsLocked() {
			lines = append(lines, "metric "+m)
		}
		os.WriteFile(file+".attrs", []byte(strings.Join(attrs, "\n")+"\n"), 0o644)
		os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}}
	err := http.ListenAndServe(addr, r)
	fmt.Fprintln(os.Stderr, "otlpreceiver:", err)
	return 1
}
