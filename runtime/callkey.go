package runtime

import (
	"context"
	"time"
)

type idempotencyKey struct{}

// WithIdempotencyKey returns ctx carrying key, the idempotency key of the
// tool call it runs. A durable engine (the temporal module) sets it to the
// workflow's and the call's IDs, the same on every attempt of one call, so
// that a tool with side effects can make them once.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, key)
}

// IdempotencyKey is the idempotency key ctx carries, "" when none. Tool
// commands bound with gramc run --tool or gramc-temporal worker --tool get
// it in the environment variable GRAMC_IDEMPOTENCY_KEY.
func IdempotencyKey(ctx context.Context) string {
	k, _ := ctx.Value(idempotencyKey{}).(string)
	return k
}

type retryObserver struct{}

// withRetryObserver returns ctx carrying f, which a provider client calls
// before each retry of a request made with ctx: the attempt that failed
// (from 1), the wait before the next and the failure. Telemetry records
// retries through it, as events of the request's chat span.
func withRetryObserver(ctx context.Context, f func(attempt int, wait time.Duration, err error)) context.Context {
	return context.WithValue(ctx, retryObserver{}, f)
}

// RetryObserver is the function a run put in ctx (withRetryObserver), or nil.
func RetryObserver(ctx context.Context) func(attempt int, wait time.Duration, err error) {
	f, _ := ctx.Value(retryObserver{}).(func(int, time.Duration, error))
	return f
}
