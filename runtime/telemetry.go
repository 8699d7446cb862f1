package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/gramc-dev/gramc/provider"
)

// Telemetry: a run records OpenTelemetry spans and metrics named by the
// GenAI semantic conventions (semconv v1.41.0) when given a tracer or
// meter provider; without them nothing is recorded and nothing is
// allocated for it. There is no global state: the providers are options.
//
//	invoke_agent {agent}   INTERNAL, one per run
//	├── chat {model}       CLIENT, one per model request
//	└── execute_tool {tool} INTERNAL, one per tool call
//
// Content (the instruction, messages, tool arguments and results, the tool
// definitions sent) is recorded only with WithContentCapture; a key never
// is (the runtime does not hold one).

// WithTracerProvider records the run's spans with tp.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *RunOptions) { o.TracerProvider = tp }
}

// WithMeterProvider records the run's metrics (gen_ai.client.token.usage,
// gen_ai.client.operation.duration) with mp.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(o *RunOptions) { o.MeterProvider = mp }
}

// WithContentCapture records the content of a run on its spans: the
// instruction, the messages, the tool definitions as sent, tool arguments
// and results (the conventions' opt-in gen_ai.input.messages and kin).
func WithContentCapture(on bool) Option { return func(o *RunOptions) { o.CaptureContent = on } }

// WithContentRedactor rewrites each content attribute WithContentCapture
// records (instructions, messages, tool arguments and results) with f
// before it is recorded: gramc run and gramc mcp redact API keys with it,
// as they do from what they print.
func WithContentRedactor(f func(string) string) Option {
	return func(o *RunOptions) { o.RedactContent = f }
}

// WithProviderName names the provider for telemetry (gen_ai.provider.name:
// "openai", "anthropic", "gcp.gemini", or a compatible server's name)
// when the agent's model prefix does not (gramc run --model).
func WithProviderName(name string) Option { return func(o *RunOptions) { o.ProviderName = name } }

const instrumentation = "github.com/gramc-dev/gramc/runtime"

// ProviderName is the conventions' gen_ai.provider.name of a model's
// "Provider/" prefix (package provider's table), or the prefix itself,
// lower case, for a provider the table does not know.
func ProviderName(model string) string {
	if p, ok := provider.Of(model); ok {
		return p.Telemetry
	}
	prefix, _ := SplitModel(model)
	return strings.ToLower(prefix)
}

// The conventions' bucket boundaries.
var (
	tokenBuckets    = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
	durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
)

// telemetry is a run's recorder; nil when the run records nothing.
type telemetry struct {
	tracer   trace.Tracer // nil: no spans
	tokens   metric.Float64Histogram
	duration metric.Float64Histogram
	capture  bool
	redact   func(string) string // nil: content as it is
	provider string
	// output is the chat span's gen_ai.output.type: "json" for a typed
	// agent, "text" otherwise.
	output string
}

// content is a captured content attribute, redacted as the run asks.
func (t *telemetry) content(key, value string) attribute.KeyValue {
	if t.redact != nil {
		value = t.redact(value)
	}
	return attribute.String(key, value)
}

func newTelemetry(o *RunOptions, agent Agent) *telemetry {
	if o.TracerProvider == nil && o.MeterProvider == nil {
		return nil
	}
	t := &telemetry{capture: o.CaptureContent, redact: o.RedactContent, provider: o.ProviderName, output: "text"}
	if agent.Signature.Typed() {
		t.output = "json"
	}
	if t.provider == "" {
		t.provider = ProviderName(agent.Model)
	}
	if o.TracerProvider != nil {
		t.tracer = o.TracerProvider.Tracer(instrumentation)
	}
	if o.MeterProvider != nil {
		m := o.MeterProvider.Meter(instrumentation)
		t.tokens, _ = m.Float64Histogram("gen_ai.client.token.usage", metric.WithUnit("{token}"),
			metric.WithDescription("Number of input and output tokens used."), metric.WithExplicitBucketBoundaries(tokenBuckets...))
		t.duration, _ = m.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
			metric.WithDescription("GenAI operation duration."), metric.WithExplicitBucketBoundaries(durationBuckets...))
	}
	return t
}

// agent starts the run's invoke_agent span; end closes it with the run's
// outcome.
func (t *telemetry) agent(ctx context.Context, a Agent) (context.Context, func(*Response, error)) {
	if t == nil || t.tracer == nil {
		return ctx, func(*Response, error) {}
	}
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameInvokeAgent,
		semconv.GenAIProviderNameKey.String(t.provider),
		semconv.GenAIAgentName(a.Name),
	}
	if a.Description != "" {
		attrs = append(attrs, semconv.GenAIAgentDescription(a.Description))
	}
	if _, model := SplitModel(a.Model); model != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(model))
	}
	if t.capture && a.Instruction != "" {
		attrs = append(attrs, t.content("gen_ai.system_instructions", systemInstructions(a.Instruction)))
	}
	ctx, span := t.tracer.Start(ctx, "invoke_agent "+a.Name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx, func(resp *Response, err error) {
		if resp != nil {
			span.SetAttributes(semconv.GenAIUsageInputTokens(resp.Usage.PromptTokens), semconv.GenAIUsageOutputTokens(resp.Usage.CompletionTokens),
				// The whole run's spend, its listed agents' included
				// (budget.go).
				attribute.Int("gramc.run.requests", resp.Total.Requests), attribute.Int("gramc.run.tool_calls", resp.Total.ToolCalls),
				attribute.Int("gramc.run.usage.input_tokens", resp.Total.Usage.PromptTokens),
				attribute.Int("gramc.run.usage.output_tokens", resp.Total.Usage.CompletionTokens))
			if t.capture && resp.Content != "" {
				span.SetAttributes(t.content("gen_ai.output.messages", outputMessages(Message{Role: RoleAssistant, Content: resp.Content}, resp.StopReason)))
			}
		}
		endWith(span, err)
	}
}

// chat starts a model request's span; done ends it with the completion or
// error and records the request's metrics; first marks the first streamed
// chunk.
func (t *telemetry) chat(ctx context.Context, req *Request, streamed bool) (_ context.Context, done func(*Completion, error), first func()) {
	if t == nil {
		return ctx, func(*Completion, error) {}, func() {}
	}
	start := time.Now()
	_, model := SplitModel(req.Model)
	common := []attribute.KeyValue{
		semconv.GenAIOperationNameChat,
		semconv.GenAIProviderNameKey.String(t.provider),
		semconv.GenAIRequestModel(model),
	}
	var span trace.Span = trace.SpanFromContext(context.Background())
	if t.tracer != nil {
		attrs := append([]attribute.KeyValue(nil), common...)
		attrs = append(attrs, attribute.String("gen_ai.output.type", t.output))
		if req.Temperature != nil {
			attrs = append(attrs, semconv.GenAIRequestTemperature(*req.Temperature))
		}
		if t.capture {
			attrs = append(attrs,
				t.content("gen_ai.input.messages", inputMessages(req.Messages)),
				t.content("gen_ai.tool.definitions", toolDefinitions(req.Tools)))
			if req.Instruction != "" {
				attrs = append(attrs, t.content("gen_ai.system_instructions", systemInstructions(req.Instruction)))
			}
		}
		ctx, span = t.tracer.Start(ctx, "chat "+model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		// A provider client's retries are events of the request's span.
		ctx = withRetryObserver(ctx, func(attempt int, wait time.Duration, err error) {
			span.AddEvent("gen_ai.retry", trace.WithAttributes(
				attribute.Int("gen_ai.retry.attempt", attempt),
				attribute.Float64("gen_ai.retry.wait", wait.Seconds()),
				semconv.ErrorTypeKey.String(errorType(err)),
				attribute.String("gen_ai.retry.error", err.Error())))
		})
	}
	firstSeen := false
	first = func() {
		if !firstSeen && streamed {
			firstSeen = true
			span.AddEvent("gen_ai.first_chunk", trace.WithAttributes(attribute.Float64("gen_ai.response.time_to_first_chunk", time.Since(start).Seconds())))
		}
	}
	done = func(comp *Completion, err error) {
		secs := time.Since(start).Seconds()
		if comp != nil {
			if comp.ResponseID != "" {
				span.SetAttributes(semconv.GenAIResponseID(comp.ResponseID))
			}
			if comp.ResponseModel != "" {
				span.SetAttributes(semconv.GenAIResponseModel(comp.ResponseModel))
			}
			span.SetAttributes(
				semconv.GenAIResponseFinishReasons(string(finishReason(comp))),
				semconv.GenAIUsageInputTokens(comp.Usage.PromptTokens),
				semconv.GenAIUsageOutputTokens(comp.Usage.CompletionTokens))
			if t.capture {
				span.SetAttributes(t.content("gen_ai.output.messages", outputMessages(comp.Message, comp.StopReason)))
			}
		}
		endWith(span, err)
		if t.duration != nil {
			attrs := append([]attribute.KeyValue(nil), common...)
			if err != nil {
				attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(err)))
			}
			t.duration.Record(context.Background(), secs, metric.WithAttributes(attrs...))
		}
		if t.tokens != nil && comp != nil {
			t.tokens.Record(context.Background(), float64(comp.Usage.PromptTokens), metric.WithAttributes(append(common, semconv.GenAITokenTypeInput)...))
			t.tokens.Record(context.Background(), float64(comp.Usage.CompletionTokens), metric.WithAttributes(append(common, semconv.GenAITokenTypeOutput)...))
		}
	}
	return ctx, done, first
}

// repair records a repair turn as an event of the run's span (ctx's):
// the validation error the model is sent back.
func (t *telemetry) repair(ctx context.Context, turn Turn) {
	if t == nil || t.tracer == nil {
		return
	}
	trace.SpanFromContext(ctx).AddEvent("gramc.output.repair", trace.WithAttributes(
		attribute.Int("gramc.output.repair.iteration", turn.Iteration),
		attribute.String("gramc.validation.error", turn.Repair)))
}

// tool starts a tool call's execute_tool span; done ends it with the
// invocation.
func (t *telemetry) tool(ctx context.Context, spec *ToolSpecification, call ToolCall) (context.Context, func(Invocation)) {
	if t == nil || t.tracer == nil {
		return ctx, func(Invocation) {}
	}
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName(call.Name),
		semconv.GenAIToolCallID(call.ID),
		semconv.GenAIToolType("function"),
	}
	if spec != nil && spec.Description != "" {
		attrs = append(attrs, semconv.GenAIToolDescription(spec.Description))
	}
	if t.capture {
		attrs = append(attrs, t.content("gen_ai.tool.call.arguments", call.Arguments))
	}
	ctx, span := t.tracer.Start(ctx, "execute_tool "+call.Name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx, func(inv Invocation) {
		if t.capture && inv.Err == nil {
			span.SetAttributes(t.content("gen_ai.tool.call.result", inv.Result))
		}
		var tce *ToolCallError
		if errors.As(inv.Err, &tce) && tce.Kind == InvalidArguments {
			// The validation failure the model is told.
			span.AddEvent("gen_ai.tool.arguments_rejected", trace.WithAttributes(attribute.String("gramc.validation.error", tce.Message)))
		}
		endWith(span, inv.Err)
	}
}

func endWith(span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(semconv.ErrorTypeKey.String(errorType(err)))
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// errorType is the conventions' error.type: the tool-call kind, the HTTP
// status, or the error's Go type.
func errorType(err error) string {
	var tce *ToolCallError
	var api *APIError
	switch {
	case errors.As(err, &tce):
		return string(tce.Kind)
	case errors.As(err, &api) && api.StatusCode != 0:
		return httpStatus(api.StatusCode)
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "_OTHER"
}

func httpStatus(code int) string {
	b := []byte{byte('0' + code/100%10), byte('0' + code/10%10), byte('0' + code%10)}
	return string(b)
}

func finishReason(comp *Completion) StopReason {
	if comp.StopReason != "" {
		return comp.StopReason
	}
	if len(comp.Message.ToolCalls) > 0 {
		return StopToolCalls
	}
	return StopEnd
}

// The conventions' JSON shapes of captured content.
type otelPart struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

type otelMessage struct {
	Role         string     `json:"role"`
	Parts        []otelPart `json:"parts"`
	FinishReason string     `json:"finish_reason,omitempty"`
}

func messageParts(m Message) otelMessage {
	om := otelMessage{Role: string(m.Role)}
	if m.Role == RoleTool {
		om.Parts = append(om.Parts, otelPart{Type: "tool_call_response", ID: m.ToolCallID, Response: m.Content})
		return om
	}
	if m.Content != "" {
		om.Parts = append(om.Parts, otelPart{Type: "text", Content: m.Content})
	}
	for _, tc := range m.ToolCalls {
		args := json.RawMessage(tc.Arguments)
		if !json.Valid(args) {
			args, _ = json.Marshal(tc.Arguments)
		}
		om.Parts = append(om.Parts, otelPart{Type: "tool_call", ID: tc.ID, Name: tc.Name, Arguments: args})
	}
	return om
}

func inputMessages(msgs []Message) string {
	out := make([]otelMessage, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, messageParts(m))
	}
	data, _ := json.Marshal(out)
	return string(data)
}

func outputMessages(m Message, stop StopReason) string {
	om := messageParts(m)
	om.FinishReason = string(stop)
	data, _ := json.Marshal([]otelMessage{om})
	return string(data)
}

func systemInstructions(s string) string {
	data, _ := json.Marshal([]otelPart{{Type: "text", Content: s}})
	return string(data)
}

func toolDefinitions(tools []ToolSpecification) string {
	type def struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	out := make([]def, 0, len(tools))
	for _, t := range tools {
		out = append(out, def{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Schema})
	}
	data, _ := json.Marshal(out)
	return string(data)
}
