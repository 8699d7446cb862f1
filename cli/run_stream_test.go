package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// signalWriter is a buffer that says when it holds a given text.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, _ := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestRunPrintsTextAsItArrives: the first words of a streamed answer are
// on standard output while the server still holds back the rest (it
// waits until it sees them there), and what the model streams reaches
// the terminal escaped.
func TestRunPrintsTextAsItArrives(t *testing.T) {
	out := &signalWriter{want: "Hello from", seen: make(chan struct{})}
	chunk := func(content string, finish any) string {
		c, _ := json.Marshal(content)
		return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":%s}]}`+"\n\n", c, finish)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, chunk("Hello from", "null"))
		w.(http.Flusher).Flush()
		select {
		case <-out.seen:
		case <-time.After(10 * time.Second):
			t.Error("the first piece of the answer was not printed before the stream ended")
		}
		fmt.Fprint(w, chunk(" a stream \x1b[2J", "null"))
		fmt.Fprint(w, chunk("!", `"stop"`))
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	var errb bytes.Buffer
	code := Do([]string{"run", "--base-url", srv.URL, "../testdata/examples/seed/helloAgent.gram", "hi"}, strings.NewReader(""), out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got := out.String(); got != "Hello from a stream \\x1b[2J!\n" {
		t.Errorf("stdout = %q", got)
	}
}

// TestRunSaysWhenTheAnswerIsCut: an answer cut at the token limit is
// printed, and gramc says it was cut.
func TestRunSaysWhenTheAnswerIsCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Once upon a"},"finish_reason":"length"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	var out, errb bytes.Buffer
	code := Do([]string{"run", "--base-url", srv.URL, "../testdata/examples/seed/helloAgent.gram", "tell a story"}, strings.NewReader(""), &out, &errb)
	if code != 0 || out.String() != "Once upon a\n" || !strings.Contains(errb.String(), "cut off at the model's output token limit") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestRunStreamTimeouts: --request-timeout bounds each silence of a
// streamed answer, not the whole of it (an answer longer than it prints
// whole), and a silence or a stream past --stream-timeout ends the run
// with an error that names the limit.
func TestRunStreamTimeouts(t *testing.T) {
	chunk := func(content string, finish any) string {
		c, _ := json.Marshal(content)
		return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":%s}]}`+"\n\n", c, finish)
	}
	// parts words 40ms apart; then the end, or (silent) nothing more.
	server := func(parts int, silent bool) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range parts {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(40 * time.Millisecond):
				}
				fmt.Fprint(w, chunk(fmt.Sprint(" w", i), "null"))
				w.(http.Flusher).Flush()
			}
			if silent {
				<-r.Context().Done()
				return
			}
			fmt.Fprint(w, chunk("", `"stop"`)+"data: [DONE]\n\n")
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	run := func(url string, flags ...string) (int, string, string) {
		var out, errb bytes.Buffer
		args := append(append([]string{"run", "--base-url", url}, flags...), "../testdata/examples/seed/helloAgent.gram", "hi")
		code := Do(args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	// Each part comes 40ms after the last, far within the request timeout
	// even on a loaded machine; the whole stream outlasts it.
	code, out, errs := run(server(30, false), "--request-timeout", "1s")
	if code != 0 || strings.Count(out, " w") != 30 {
		t.Errorf("a 1.2 s stream with --request-timeout 1s: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = run(server(2, true), "--request-timeout", "200ms")
	if code == 0 || !strings.Contains(errs, "nothing of the stream arrived for 200ms (the request timeout)") || !strings.Contains(out, " w0 w1") {
		t.Errorf("a silent stream: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, _, errs = run(server(1000, false), "--stream-timeout", "300ms")
	if code == 0 || !strings.Contains(errs, "the stream went on past its time limit of 300ms (the stream timeout)") {
		t.Errorf("a stream past --stream-timeout: exit %d, stderr %q", code, errs)
	}
	if code, _, errs = run(server(1, false), "--stream-timeout", "0s"); code != 2 || !strings.Contains(errs, "--stream-timeout") {
		t.Errorf("--stream-timeout 0s: exit %d, stderr %q", code, errs)
	}
}
