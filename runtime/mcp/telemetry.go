package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/gramc-dev/gramc/runtime"
)

// The trace travels in a request's _meta as W3C trace context
// ("traceparent", "tracestate"), so that an agent's trace runs through an
// MCP server into the tool.
var traceContext = propagation.TraceContext{}

// metaCarrier reads and writes trace context in an MCP _meta map.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// InjectTrace puts ctx's trace context into meta (made when nil) for an
// outgoing request, and returns meta.
func InjectTrace(ctx context.Context, meta sdk.Meta) sdk.Meta {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return meta
	}
	if meta == nil {
		meta = sdk.Meta{}
	}
	traceContext.Inject(ctx, metaCarrier(meta))
	return meta
}

// serverSpan starts the SERVER span of a tools/call, continuing the
// caller's trace from the request's _meta; nil tp records nothing.
func serverSpan(ctx context.Context, tp trace.TracerProvider, req *sdk.CallToolRequest, tool string) (context.Context, func(isError bool, msg string)) {
	if tp == nil {
		return ctx, func(bool, string) {}
	}
	if req.Params != nil && req.Params.Meta != nil {
		ctx = traceContext.Extract(ctx, metaCarrier(req.Params.Meta))
	}
	attrs := []attribute.KeyValue{
		semconv.McpMethodNameToolsCall,
		semconv.GenAIToolName(tool),
		semconv.GenAIOperationNameExecuteTool,
	}
	if req.Session != nil {
		if id := req.Session.ID(); id != "" {
			attrs = append(attrs, semconv.McpSessionID(id))
		}
	}
	// The request's version: its _meta's under MCP 2026-07-28 (no
	// session, no initialize), else its session's.
	if v := req.ProtocolVersion(); v != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(v))
	}
	ctx, span := tp.Tracer("github.com/gramc-dev/gramc/runtime/mcp").Start(ctx, "tools/call "+tool,
		trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, func(isError bool, msg string) {
		if isError {
			span.SetAttributes(semconv.ErrorTypeKey.String("tool_error"))
			span.SetStatus(codes.Error, msg)
		}
		span.End()
	}
}

// tracerOf is the TracerProvider opts give, if any.
func tracerOf(opts []runtime.Option) trace.TracerProvider {
	var o runtime.RunOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o.TracerProvider
}
