package cli

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestTeeBodyEvents: the events of a stream are recorded whatever the
// line ends (LF, CRLF, CR, a CRLF split across reads) and however the
// reads cut the stream; a JSON body when it ends; only the results of
// tools/list requests, in the order of the requests.
func TestTeeBodyEvents(t *testing.T) {
	rec := &listRecorder{results: map[string][]byte{}}
	rec.message([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	rec.message([]byte(`[{"jsonrpc":"2.0","id":"b","method":"tools/list","params":{"cursor":"x"}}]`))
	rec.message([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	stream := "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r\n\r\n" +
		"id: 7\rdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\rdata: {\"tools\":[{\"name\":\"z\",\"inputSchema\":{\"properties\":{\"b\":{},\"a\":{}}}}]}}\r\r" +
		": a comment\n\n"
	for _, size := range []int{1, 2, 3, 7, 1 << 20} {
		rec.results = map[string][]byte{}
		b := &teeBody{body: io.NopCloser(strings.NewReader(stream)), sse: true, rec: rec}
		if _, err := io.Copy(io.Discard, &chunked{b, size}); err != nil {
			t.Fatal(err)
		}
		if len(rec.results) != 1 {
			t.Fatalf("reads of %d: %d results recorded", size, len(rec.results))
		}
	}
	j := &teeBody{body: io.NopCloser(strings.NewReader(`{"jsonrpc":"2.0","id":"b","result":{"tools":[{"name":"y"}]}}`)), rec: rec}
	if _, err := io.Copy(io.Discard, j); err != nil {
		t.Fatal(err)
	}
	tools := rec.tools()
	if len(tools) != 2 {
		t.Fatalf("%d tools", len(tools))
	}
	var first map[string]any
	if err := json.Unmarshal(tools[0], &first); err != nil || first["name"] != "z" || !strings.Contains(string(tools[0]), `{"b":{},"a":{}}`) {
		t.Errorf("first tool %s (%v): not as the server wrote it", tools[0], err)
	}
}

// chunked reads at most size bytes at a time.
type chunked struct {
	r    io.Reader
	size int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(p) > c.size {
		p = p[:c.size]
	}
	return c.r.Read(p)
}
