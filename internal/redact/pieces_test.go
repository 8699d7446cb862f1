package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzPieces: whatever the text (JSON, an event stream, anything) and the
// key, Secret.Bytes ends, keeps valid JSON valid, and leaves no JSON
// string that decodes to text holding the key as a whole token. Seeds:
// the probe's inputs of issue 35 (a key split across streamed events, a
// \u-escaped key, one in a tool call's arguments).
func FuzzPieces(f *testing.F) {
	const key = "sk-live-0123456789"
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"key: sk-li\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"ve-0123456789 ok\"}}]}\n\n"), key)
	f.Add([]byte(`{"text":"\u0073k-live-0123456789"}`), key)
	f.Add([]byte(`{"arguments":"{\"q\":\"\\u0073k-live-0123456789\"}"}`), key)
	f.Add([]byte(`{"d":"sk-\ud800"}`+"\n"+`{"d":"\uDBFF\uDFFF"}`), "sk-\U0010ffff")
	f.Add([]byte(`[[[[["o"]]]]] "o" "\"`), "o")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		if strings.TrimSpace(key) == "" || len(data) > 1<<16 {
			return
		}
		s := NewSecret(key)
		out := s.Bytes(data)
		raw := false // a copy outside JSON's strings is replaced as text
		for _, f := range s.forms {
			raw = raw || strings.Contains(string(data), f)
		}
		if !raw && json.Valid(data) && !json.Valid(out) {
			t.Fatalf("valid JSON made invalid:\n%s\n->\n%s", data, out)
		}
		for _, l := range literals(out) {
			var str string
			if json.Unmarshal(out[l.start:l.end], &str) != nil {
				continue
			}
			if len(tokenMatches(str, key)) > 0 {
				t.Fatalf("the key is left in %s (from %s)", out[l.start:l.end], data)
			}
		}
	})
}

// BenchmarkPieces measures Secret.Bytes on a streamed answer of 10,000
// events (about 1.5 MB) holding no key: what a recording pays per body.
func BenchmarkPieces(b *testing.B) {
	var sb strings.Builder
	for i := range 10000 {
		sb.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"word `)
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString(`"},"finish_reason":null}]}` + "\n\n")
	}
	data := []byte(sb.String())
	s := NewSecret("sk-live-0123456789")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s.Bytes(data)
	}
}
