package cassette_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// FuzzCassette gives a corrupted or hostile cassette to Parse and then to
// a replay through a provider's client (the seeds are real recordings of
// every provider, whole and streamed, so mutations reach the response
// decoders): a clear error, never a panic or a hang. A cassette that
// parses is written back byte-stably: Marshal's bytes parse to a cassette
// that marshals to the same bytes.
func FuzzCassette(f *testing.F) {
	providers := runtimetest.Providers()
	dir := f.TempDir()
	for i, p := range providers {
		for _, stream := range []bool{false, true} {
			path := filepath.Join(dir, "seed.cassette")
			record(f, p, path, runtimetest.HelloGoodbyeAgent(), input, stream)
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), stream, data, []byte(nil))
			f.Add(uint8(i), stream, data, []byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0}]}}]}\n\n"))
			// The probe of issue 35: a key echoed in pieces across a
			// stream's events, and \u-escaped.
			f.Add(uint8(i), stream, data, []byte("data: {\"choices\":[{\"delta\":{\"content\":\"key: sk-li\"}}]}\n\n"+
				"data: {\"choices\":[{\"delta\":{\"content\":\"ve-0123 and \\u0073k-live-0123\"}}]}\n\ndata: [DONE]\n\n"))
		}
	}
	f.Add(uint8(0), false, []byte("-- 001 request --\nPOST /v1/chat/completions\n\n{}\n-- 001 response --\n999 Nope\n\n"), []byte(nil))
	f.Add(uint8(0), true, []byte("-- 001 response --\n200 OK\n\n"), []byte(nil))
	f.Add(uint8(2), true, []byte("-- 001 request --\nGET\n-- 002 request --\n"), []byte(nil))
	f.Fuzz(func(t *testing.T, p uint8, stream bool, data, body []byte) {
		provider := providers[int(p)%len(providers)]
		c, err := cassette.Parse("fuzz.cassette", data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without words")
			}
			return
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatalf("a parsed cassette does not marshal: %v", err)
		}
		again, err := cassette.Parse("again.cassette", out)
		if err != nil {
			t.Fatalf("a marshalled cassette does not parse: %v\n%s", err, out)
		}
		out2, err := again.Marshal()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("marshalling is not byte-stable (%v):\n%s\n---\n%s", err, out, out2)
		}

		// body, when given, replaces the last recorded response's body, so
		// that a recording whose requests still match feeds the client's
		// decoders anything at all.
		if len(body) > 0 && len(c.Exchanges) > 0 {
			c.Exchanges[len(c.Exchanges)-1].Response.Body = body
		}

		// Replay it: whatever the recorded responses hold, the run ends
		// with an answer or an error. No retries (a replayed 5xx would
		// only wait), a bound on every request.
		model := newModel(t, provider, "http://127.0.0.1:1"+runtimetest.BasePath(provider),
			&http.Client{Transport: cassette.NewReplayer("fuzz.cassette", c)},
			clientopt.WithMaxRetries(-1), clientopt.WithTimeout(5*time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var opts []runtime.Option
		if stream {
			opts = append(opts, runtime.WithEvents(func(runtime.Event) {}))
		}
		_, err = runtime.Run(ctx, model, runtimetest.HelloGoodbyeAgent(), runtimetest.HelloGoodbyeLibrary(), input, nil, opts...)
		if ctx.Err() != nil {
			t.Fatalf("the replay did not end within 20s (err %v)", err)
		}
	})
}
