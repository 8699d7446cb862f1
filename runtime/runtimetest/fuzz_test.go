package runtimetest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/anthropic"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/gemini"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// bodyTransport answers every request with one body.
type bodyTransport struct {
	contentType string
	body        []byte
}

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {b.contentType}},
		Body: io.NopCloser(bytes.NewReader(b.body)), Request: r}, nil
}

// FuzzProviderAnswers feeds any bytes to every provider client as a
// stream and as a whole answer, each with either content type: an answer
// or an error, never a panic.
func FuzzProviderAnswers(f *testing.F) {
	for _, p := range runtimetest.Providers() {
		for _, stream := range []bool{false, true} {
			wire := recordRoundTrip(f, p, stream)
			f.Add(wire.call)
			f.Add(wire.answer)
		}
	}
	for _, b := range badStreams {
		f.Add([]byte(b.cut))
		f.Add([]byte(b.invalidUTF8))
	}
	req := &runtime.Request{Model: "m", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}, Tools: []runtime.ToolSpecification{helloSpec}}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ct := range []string{"text/event-stream", "application/json"} {
			hc := &http.Client{Transport: bodyTransport{ct, data}}
			models := []runtime.Model{}
			if m, err := openai.New(clientopt.WithBaseURL("http://fake.test/v1"), clientopt.WithHTTPClient(hc), clientopt.WithMaxRetries(-1)); err == nil {
				models = append(models, m)
			}
			if m, err := openai.New(clientopt.WithBaseURL("http://fake.test/v1"), openai.WithMode(openai.ResponsesMode), clientopt.WithHTTPClient(hc), clientopt.WithMaxRetries(-1)); err == nil {
				models = append(models, m)
			}
			if m, err := anthropic.New(clientopt.WithBaseURL("http://fake.test"), clientopt.WithAPIKey("k"), clientopt.WithHTTPClient(hc), clientopt.WithMaxRetries(-1)); err == nil {
				models = append(models, m)
			}
			if m, err := gemini.New(clientopt.WithBaseURL("http://fake.test/v1beta"), clientopt.WithAPIKey("k"), clientopt.WithHTTPClient(hc), clientopt.WithMaxRetries(-1)); err == nil {
				models = append(models, m)
			}
			if len(models) != 4 {
				t.Fatal("a client could not be made")
			}
			for _, m := range models {
				check := func(comp *runtime.Completion, err error) {
					if err == nil && comp == nil {
						t.Fatalf("%T: no completion and no error", m)
					}
				}
				check(m.Complete(context.Background(), req))
				check(m.(runtime.StreamingModel).Stream(context.Background(), req, func(runtime.Event) {}))
			}
		}
	})
}
