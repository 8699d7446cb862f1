package runtime

import "context"

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
