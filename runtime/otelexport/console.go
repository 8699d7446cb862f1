package otelexport

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/gramc-dev/gramc/internal/termsafe"
)

// consoleExporter is OTEL_TRACES_EXPORTER=console: each span printed as
// it ends, readable, on standard error:
//
//	span execute_tool sayHello (INTERNAL, 155µs) trace 71b0730c585a1a1b0060421d46439e62 span 7c7354cfcaf00e1a parent 43d273e5a69e8758
//	  gen_ai.operation.name=execute_tool gen_ai.tool.name=sayHello gen_ai.tool.description="Returns a friendly greeting" ...
//	  event gen_ai.retry gen_ai.retry.attempt=1 ...
//	  status Error: tool error
//
// Values are a model's and a tool's (with content capture): each is one
// terminal-safe line, bounded.
type consoleExporter struct {
	mu sync.Mutex
	w  io.Writer
	// before runs before each span is printed: gramc run ends a line of
	// the answer still open on standard output, so a span never shares
	// a line with it.
	before func()
}

// maxConsoleValue bounds one attribute value the console shows.
const maxConsoleValue = 300

func (c *consoleExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.before != nil && len(spans) > 0 {
		c.before()
	}
	var b strings.Builder
	for _, s := range spans {
		b.Reset()
		sc := s.SpanContext()
		fmt.Fprintf(&b, "span %s (%s, %s) trace %s span %s", termsafe.Line(s.Name(), maxConsoleValue), strings.ToUpper(s.SpanKind().String()),
			roundDuration(s.EndTime().Sub(s.StartTime())), sc.TraceID(), sc.SpanID())
		if p := s.Parent(); p.IsValid() {
			fmt.Fprintf(&b, " parent %s", p.SpanID())
			if p.IsRemote() {
				b.WriteString(" (remote)")
			}
		}
		b.WriteString("\n")
		if attrs := s.Attributes(); len(attrs) > 0 {
			b.WriteString("  " + consoleAttrs(attrs) + "\n")
		}
		for _, ev := range s.Events() {
			b.WriteString("  event " + termsafe.Line(ev.Name, maxConsoleValue))
			if len(ev.Attributes) > 0 {
				b.WriteString(" " + consoleAttrs(ev.Attributes))
			}
			b.WriteString("\n")
		}
		if st := s.Status(); st.Code == codes.Error {
			b.WriteString("  status Error")
			if st.Description != "" {
				b.WriteString(": " + termsafe.Line(st.Description, maxConsoleValue))
			}
			b.WriteString("\n")
		}
		if _, err := io.WriteString(c.w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

func (c *consoleExporter) Shutdown(context.Context) error { return nil }

// consoleAttrs is key=value pairs, in the order the span recorded them.
func consoleAttrs(attrs []attribute.KeyValue) string {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		v := a.Value.Emit()
		if a.Value.Type() == attribute.STRING && (v == "" || strings.ContainsAny(v, " =\"\\")) {
			v = strconv.Quote(v)
		}
		parts[i] = string(a.Key) + "=" + termsafe.Line(v, maxConsoleValue)
	}
	return strings.Join(parts, " ")
}

// roundDuration is a span's duration to three significant places or so:
// 1.2ms, 340µs, 2.5s.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
