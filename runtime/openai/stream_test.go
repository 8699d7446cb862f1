package openai_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// TestStreamFixtures plays each testdata/stream/*.txtar "stream" (what a
// real server streams, quirks and all) to the client and compares the
// events and the completion, or the error, with its "want" section
// (GRAMC_UPDATE=1 rewrites them).
func TestStreamFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/stream/*.txtar")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var stream []byte
			if i := golden.Find(ar, "stream"); i >= 0 {
				stream = ar.Files[i].Data
				if i := bytes.Index(stream, []byte("<EOF>")); i >= 0 {
					stream = stream[:i]
				}
			}
			golden.Section(t, file, ar, "want", []byte(playStream(t, stream)))
		})
	}
}

// playStream serves stream as a text/event-stream and renders what the
// client makes of it.
func playStream(t *testing.T, stream []byte) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(stream)
	}))
	defer hs.Close()
	c, err := openai.New(clientopt.WithBaseURL(hs.URL), clientopt.WithAPIKey("k"), clientopt.WithMaxRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	comp, err := c.Stream(context.Background(), &runtime.Request{Model: "OpenAI/m",
		Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}}, func(ev runtime.Event) {
		switch ev.Kind {
		case runtime.EventText:
			fmt.Fprintf(&b, "event text %q\n", ev.Text)
		case runtime.EventToolCallStart:
			fmt.Fprintf(&b, "event tool call start %d %s %s\n", ev.Index, ev.Call.ID, ev.Call.Name)
		default:
			fmt.Fprintf(&b, "event %s (not a model's to report)\n", ev.Kind)
		}
	})
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "content: %q\n", comp.Message.Content)
	for i, tc := range comp.Message.ToolCalls {
		fmt.Fprintf(&b, "tool call %d: %s %s %s\n", i, tc.ID, tc.Name, tc.Arguments)
	}
	u := comp.Usage
	fmt.Fprintf(&b, "usage: %d prompt, %d completion, %d total\n", u.PromptTokens, u.CompletionTokens, u.TotalTokens)
	return b.String()
}
