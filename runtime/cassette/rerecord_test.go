package cassette

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAnswers (issue 36.1): behind a Recorder, Answers re-records a
// cassette from itself: the new requests with the recorded responses,
// whatever the requests are; a request beyond the recording is an error
// that says how many answers there are.
func TestAnswers(t *testing.T) {
	old := &Cassette{Exchanges: []Exchange{{
		Request:  Request{Method: "POST", URL: "https://api.example/v1/chat", Body: []byte(`{"input":"Hi, I am Ed"}`)},
		Response: Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"answer":"Hello, Ed!"}`)},
	}}}
	rec := NewRecorder(NewAnswers("old.cassette", old))
	client := &http.Client{Transport: rec}
	resp, err := client.Post("https://api.example/v1/chat", "application/json", strings.NewReader(`{"input":"Hi, I am Edward"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"answer":"Hello, Ed!"}` {
		t.Errorf("answer %s", body)
	}
	c := rec.Cassette()
	if len(c.Exchanges) != 1 || !strings.Contains(string(c.Exchanges[0].Request.Body), "Edward") || string(c.Exchanges[0].Response.Body) != `{"answer":"Hello, Ed!"}` {
		t.Errorf("re-recorded %+v", c.Exchanges)
	}
	if _, err := client.Post("https://api.example/v1/chat", "application/json", strings.NewReader(`{}`)); err == nil || !strings.Contains(err.Error(), "old.cassette holds 1 answers and the run made more requests") {
		t.Errorf("a request beyond the recording: %v", err)
	}
}
