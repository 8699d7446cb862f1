package runtimetest_test

import (
	"context"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// BenchmarkTypedRoundTrip is one model turn per provider against its fake
// (over loopback HTTP, every request checked by the fake): "text" is an
// untyped agent answering text (before typed agents), "typed" the same
// agent typed, its request carrying the provider's structured-output
// field and its answer decoded, validated and given its defaults.
func BenchmarkTypedRoundTrip(b *testing.B) {
	const answer = `{"priority":"urgent","minutes":null,"summary":"down"}`
	for _, p := range runtimetest.Providers() {
		for _, kind := range []string{"text", "typed"} {
			b.Run(p+"/"+kind, func(b *testing.B) {
				srv := runtimetest.NewProviderServer(b, p, func(t *runtimetest.Turn, n int) runtimetest.Reply {
					return runtimetest.Reply{Text: answer}
				})
				s := &sleeps{}
				model, err := newClient(p, srv.URL, s, clientConfig{})
				if err != nil {
					b.Fatal(err)
				}
				agent := typedAgent(typedModels[p][0].model, false)
				if kind == "text" {
					agent.Signature = nil
				}
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					resp, err := runtime.Run(ctx, model, agent, nil, "The site is down", nil)
					if err != nil || resp.Iterations != 1 {
						b.Fatalf("%v after %v requests", err, resp)
					}
				}
			})
		}
	}
}
