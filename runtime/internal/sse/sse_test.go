package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// all decodes every event of s, reading it whole, one byte at a time and
// in halves, and checks that the three agree.
func all(t testing.TB, s string, lim Limits) ([]string, error) {
	var first []string
	var firstErr error
	for i, r := range []io.Reader{strings.NewReader(s), iotest.OneByteReader(strings.NewReader(s)), iotest.HalfReader(strings.NewReader(s))} {
		got, err := decodeAll(r, lim)
		if i == 0 {
			first, firstErr = got, err
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(first) || fmt.Sprint(err) != fmt.Sprint(firstErr) {
			t.Fatalf("reader %d: %q, %v; whole: %q, %v", i, got, err, first, firstErr)
		}
	}
	return first, firstErr
}

func decodeAll(r io.Reader, lim Limits) ([]string, error) {
	d := NewDecoder(r, lim)
	var out []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		s := string(ev.Data)
		if ev.Type != "" {
			s = ev.Type + ":" + s
		}
		if ev.ID != "" {
			s += "#" + ev.ID
		}
		out = append(out, s)
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"space after colon", "data: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"no space after colon", "data:{\"a\":1}\n\n", []string{`{"a":1}`}},
		{"only one space removed", "data:  x\n\n", []string{" x"}},
		{"comment lines", ": keep-alive\n\n:\ndata: x\n: mid\n\n", []string{"x"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"lone CR", "data: a\r\rdata: b\r\r", []string{"a", "b"}},
		{"multi-line data", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"event type", "event: message_start\ndata: {}\n\n", []string{"message_start:{}"}},
		{"type resets per event", "event: ping\ndata: 1\n\ndata: 2\n\n", []string{"ping:1", "2"}},
		{"event without data is skipped", "event: ping\n\ndata: 2\n\n", []string{"2"}},
		{"id persists", "id: 7\ndata: a\n\ndata: b\n\n", []string{"a#7", "b#7"}},
		{"unknown fields and retry", "retry: 10\nfoo: bar\ndata: x\n\n", []string{"x"}},
		{"field without colon", "data\n\n", []string{""}},
		{"no final blank line", "data: [DONE]\n", []string{"[DONE]"}},
		{"many events", strings.Repeat("data: x\n\n", 1000), slicesRepeat("x", 1000)},
		{"empty stream", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := all(t, tt.in, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestCutMidLine(t *testing.T) {
	got, err := all(t, "data: {\"a\":1}\n\ndata: {\"cho", Limits{})
	if !errors.Is(err, ErrCut) || len(got) != 1 {
		t.Fatalf("got %q, %v; want one event and ErrCut", got, err)
	}
	if !strings.Contains(err.Error(), "middle of a line") {
		t.Errorf("error %q", err)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		in   string
		lim  Limits
		want string
	}{
		{"line", "data: " + strings.Repeat("x", 100) + "\n\n", Limits{MaxLine: 64}, "server-sent events: a line over the 64-byte line limit"},
		{"event", strings.Repeat("data: xxxxxxxx\n", 20) + "\n", Limits{MaxLine: 64, MaxEvent: 100}, "server-sent events: an event over the 100-byte event limit"},
		{"stream", strings.Repeat(": keep-alive\n", 100), Limits{MaxStream: 1 << 10}, "server-sent events: the stream over the 1 Ki-byte stream limit"},
		{"line without terminator", strings.Repeat("x", 100), Limits{MaxLine: 64}, "server-sent events: a line over the 64-byte line limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := all(t, tt.in, tt.lim)
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tt.name && tt.name != "line without terminator" {
				t.Fatalf("err = %v", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}

// endless is a stream that never ends.
type endless struct{ chunk []byte }

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.chunk)
	}
	return n, nil
}

func TestEndlessStreamsEnd(t *testing.T) {
	for name, chunk := range map[string]string{
		"one endless line":  "xxxxxxxxxxxxxxxx",
		"one endless event": "data: xxxxxxxxx\n",
		"endless comments":  ": keep-alive\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(endless{[]byte(chunk)}, Limits{MaxLine: 1 << 10, MaxEvent: 4 << 10, MaxStream: 1 << 20})
			for {
				_, err := d.Next()
				var le *LimitError
				if errors.As(err, &le) {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestHundredMegabyteEventBoundedMemory(t *testing.T) {
	// 100 MB of one data line, produced lazily: the decoder stops at its
	// line limit without holding the rest.
	r := io.MultiReader(strings.NewReader("data: "), io.LimitReader(endless{[]byte("x")}, 100<<20), strings.NewReader("\n\n"))
	d := NewDecoder(r, Limits{})
	_, err := d.Next()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "line" {
		t.Fatalf("err = %v", err)
	}
	if c := cap(d.line); c > 2*DefaultMaxLine {
		t.Errorf("line buffer grew to %d bytes", c)
	}
}

func TestInvalidUTF8PassesThrough(t *testing.T) {
	got, err := all(t, "data: \xff\xfe\n\n", Limits{})
	if err != nil || len(got) != 1 || got[0] != "\xff\xfe" {
		t.Errorf("got %q, %v", got, err)
	}
}

// reference decodes s the simple way, by the standard's algorithm, for
// the fuzzer to compare against.
func reference(s string) ([]string, bool) {
	var out []string
	var data strings.Builder
	has := false
	typ, id := "", ""
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	cut := lines[len(lines)-1] != ""
	lines = lines[:len(lines)-1]
	emit := func() {
		v := strings.TrimSuffix(data.String(), "\n")
		if typ != "" {
			v = typ + ":" + v
		}
		if id != "" {
			v += "#" + id
		}
		out = append(out, v)
		data.Reset()
		has, typ = false, ""
	}
	for _, l := range lines {
		if l == "" {
			if has {
				emit()
			}
			typ = ""
			continue
		}
		if l[0] == ':' {
			continue
		}
		f, v, _ := strings.Cut(l, ":")
		v = strings.TrimPrefix(v, " ")
		switch f {
		case "data":
			data.WriteString(v + "\n")
			has = true
		case "event":
			typ = v
		case "id":
			if !strings.Contains(v, "\x00") {
				id = v
			}
		}
	}
	if cut {
		return out, false
	}
	if has {
		emit()
	}
	return out, true
}

func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		"data: x\n\n", "event: a\ndata: b\r\n\r\n", ": c\n\ndata:y\rdata: z\r\r", "id: 1\ndata\n\n", "data: {\"cho",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := decodeAll(iotest.HalfReader(strings.NewReader(s)), Limits{})
		want, ok := reference(s)
		if !ok {
			if !errors.Is(err, ErrCut) {
				t.Fatalf("cut stream %q: err = %v", s, err)
			}
			got = got[:min(len(got), len(want))]
		} else if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	for _, tc := range []struct {
		name  string
		event string
	}{
		{"openai-chunk", `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":" world"},"finish_reason":null}]}` + "\n\n"},
		{"anthropic-delta", "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" world\"}}\r\n\r\n"},
		{"large-event", "data: " + strings.Repeat("x", 256<<10) + "\n\n"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			stream := bytes.Repeat([]byte(tc.event), max(1, (4<<20)/len(tc.event)))
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			r := bytes.NewReader(stream)
			for b.Loop() {
				r.Reset(stream)
				d := NewDecoder(r, Limits{})
				for {
					if _, err := d.Next(); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						break
					}
				}
			}
		})
	}
}
