package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestHello runs the example against the fake OpenAI server: the model
// calls sayHello once with a name and once without (the default "world"
// is filled in), then answers.
func TestHello(t *testing.T) {
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
		runtimetest.ToolCallsReply(
			runtimetest.FakeCall{Name: "sayHello", Arguments: `{"personName":"Ada"}`},
		),
		runtimetest.ToolCallsReply(
			runtimetest.FakeCall{Name: "sayHello", Arguments: `{}`},
		),
		runtimetest.TextReply("Hello, Ada!"),
	))
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "test-key")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"Hi,", "I'm", "Ada"}, &out); err != nil {
		t.Fatal(err)
	}
	want := "→ sayHello {\"personName\":\"Ada\"}\n← sayHello Hello, Ada!\n" +
		"→ sayHello {\"personName\":\"world\"}\n← sayHello Hello, world!\n" +
		"Hello, Ada!\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if reqs := srv.Chats(); len(reqs) != 3 || reqs[0].Last().Content == nil || *reqs[0].Last().Content != "Hi, I'm Ada" {
		t.Errorf("unexpected requests: %d", len(reqs))
	}
}
