package apihttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// streamServer answers with an event stream: events parts, gap apart,
// then silence until the client goes (hang) or the end of the stream.
func streamServer(t *testing.T, parts int, gap time.Duration, hang bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server notices the client going
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for i := 0; parts < 0 || i < parts; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
			if _, err := fmt.Fprintf(w, "data: {\"part\":%d}\n\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
		if hang {
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func readStream(t *testing.T, c *Config, url string) (string, error) {
	t.Helper()
	resp, err := c.Post(context.Background(), url, nil, []byte(`{}`), true)
	if err != nil {
		t.Fatalf("the stream did not start: %v", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return string(data), err
}

// A stream that goes on longer than the request timeout, never silent
// for that long, is read to its end: the request timeout bounds the wait
// for the answer to start and each silence, not the whole answer.
func TestStreamOutlastsRequestTimeout(t *testing.T) {
	url := streamServer(t, 12, 40*time.Millisecond, false) // about 0.5 s in all
	c := &Config{Provider: "test", Timeout: 250 * time.Millisecond}
	data, err := readStream(t, c, url)
	if err != nil {
		t.Fatalf("a stream longer than the request timeout was cut: %v (after %d events)", err, strings.Count(data, "data:"))
	}
	if n := strings.Count(data, "data:"); n != 12 {
		t.Errorf("read %d events, want 12", n)
	}
}

// A stream silent for longer than the request timeout ends with an error
// that says so, and StreamError reports it in those words.
func TestStreamSilence(t *testing.T) {
	url := streamServer(t, 2, time.Millisecond, true)
	c := &Config{Provider: "test", Timeout: 150 * time.Millisecond}
	data, err := readStream(t, c, url)
	var te *TimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "nothing of the stream arrived for 150ms (the request timeout)") {
		t.Fatalf("error %v, want the silence named", err)
	}
	if n := strings.Count(data, "data:"); n != 2 {
		t.Errorf("read %d events before the silence, want 2", n)
	}
	if got := c.StreamError(context.Background(), fmt.Errorf("decoding: %w", err)).Error(); !strings.Contains(got, "nothing of the stream arrived for 150ms (the request timeout)") {
		t.Errorf("StreamError = %q", got)
	}
}

// A stream that never ends is cut at the stream timeout, which says so.
func TestStreamTimeout(t *testing.T) {
	url := streamServer(t, -1, 10*time.Millisecond, false)
	c := &Config{Provider: "test", Timeout: 5 * time.Second, StreamTimeout: 300 * time.Millisecond}
	_, err := readStream(t, c, url)
	if err == nil || !strings.Contains(err.Error(), "the stream went on past its time limit of 300ms (the stream timeout)") {
		t.Fatalf("error %v, want the stream timeout named", err)
	}
}

// The request timeout still bounds the wait for a stream to start.
func TestStreamStartTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server notices the client going
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	c := &Config{Provider: "test", Timeout: 100 * time.Millisecond, MaxRetries: -1}
	_, err := c.Post(context.Background(), srv.URL, nil, []byte(`{}`), true)
	if err == nil || !strings.Contains(err.Error(), "request timed out after 100ms") {
		t.Fatalf("error %v, want the request timeout named", err)
	}
}
