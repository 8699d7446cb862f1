package ast

import (
	"math/rand"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// naivePosition is the definition Source.Position implements: lines end at
// "\n"; a column counts the characters (utf8.RuneCountInString, so an
// invalid byte is one) before the offset on its line, plus one.
func naivePosition(text string, off int) Pos {
	line := 1 + strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return Pos{Offset: int32(off), Line: int32(line), Column: int32(1 + utf8.RuneCountInString(text[start:off]))}
}

// boundaries returns every offset at which decoding text from its start
// begins a character, plus len(text): the offsets a node can start or end
// at.
func boundaries(text string) []int {
	var out []int
	for i := 0; i < len(text); {
		out = append(out, i)
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return append(out, len(text))
}

// naivePositions is naivePosition for every offset of offs (sorted), in
// one pass over text: the fuzzer's oracle must be linear, or it spends its
// time in the oracle (12,000 executions in 3 minutes when each lookup
// recounted the text before it).
func naivePositions(text string, offs []int) map[int]Pos {
	out := make(map[int]Pos, len(offs))
	line, col, i := 1, 1, 0
	for _, off := range offs {
		for i < off {
			if text[i] == '\n' {
				line, col = line+1, 1
				i++
				continue
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			col++
		}
		out[off] = Pos{Offset: int32(off), Line: int32(line), Column: int32(col)}
	}
	return out
}

func checkSource(t *testing.T, text string) {
	t.Helper()
	s := NewSource(text)
	offs := boundaries(text)
	wantAt := naivePositions(text, offs)
	// The one-pass oracle agrees with the definition (spot checks keep
	// the test linear).
	for k := 0; k < len(offs); k += 1 + len(offs)/16 {
		if got, want := wantAt[offs[k]], naivePosition(text, offs[k]); got != want {
			t.Fatalf("oracle: %+v, definition: %+v", got, want)
		}
	}
	// In order, in reverse and shuffled: the line search starts from the
	// previous lookup's line.
	order := append([]int(nil), offs...)
	for i := len(offs) - 1; i >= 0; i-- {
		order = append(order, offs[i])
	}
	r := rand.New(rand.NewSource(int64(len(text))))
	for _, i := range r.Perm(len(offs)) {
		order = append(order, offs[i])
	}
	for _, off := range order {
		want := wantAt[off]
		if got := s.Position(off); got != want {
			t.Fatalf("text %q: Position(%d) = %+v, want %+v", trim(text), off, got, want)
		}
		if got := s.Line(off); got != int(want.Line) {
			t.Fatalf("text %q: Line(%d) = %d, want %d", trim(text), off, got, want.Line)
		}
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func TestSourcePosition(t *testing.T) {
	long := strings.Repeat("é", 3000) + "x\n" + strings.Repeat("ab", 2000) + "\n\n"
	texts := []string{
		"",
		"\n",
		"(a)",
		"(a)\n(b)\r\n(c)",
		"\uFEFF(a)", // a byte-order mark is one character
		"(é {k: \"日本\"})\n  (ü)",
		"a\xffb\n\xe2\x82c",           // invalid bytes count one each
		"\x80\x80\x80\x80\x80x\n\xf0", // stray continuation bytes
		long,                          // lines longer than a checkpoint block
		strings.Repeat("\xe2\x82\xac", 700) + "\n" + strings.Repeat("a\xe2", 900),
	}
	for _, text := range texts {
		checkSource(t, text)
	}
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "\n", "é", "日", "\xff", "\xe2\x82", " ", "\r\n", "\U0001F600"}
	for range 60 {
		var b strings.Builder
		for range r.Intn(2500) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		checkSource(t, b.String())
	}
}

func TestSourceClamps(t *testing.T) {
	s := NewSource("ab\ncd")
	if got, want := s.Position(-5), (Pos{Offset: 0, Line: 1, Column: 1}); got != want {
		t.Errorf("Position(-5) = %+v, want %+v", got, want)
	}
	if got, want := s.Position(99), (Pos{Offset: 5, Line: 2, Column: 3}); got != want {
		t.Errorf("Position(99) = %+v, want %+v", got, want)
	}
}

func TestSpan(t *testing.T) {
	s := NewSource("(a)\n{k: 10kg}")
	sp := s.Span(8, 12)
	if got := (&Number{Kind: Measurement, Span: sp}).Raw(); got != "10kg" {
		t.Errorf("Raw = %q, want 10kg", got)
	}
	n := &Number{Kind: Measurement, Span: sp}
	if got := n.Unit(); got != "kg" {
		t.Errorf("Unit = %q, want kg", got)
	}
	if got, want := sp.Pos(), (Pos{Offset: 8, Line: 2, Column: 5}); got != want {
		t.Errorf("Pos = %+v, want %+v", got, want)
	}
	if got, want := sp.End(), (Pos{Offset: 12, Line: 2, Column: 9}); got != want {
		t.Errorf("End = %+v, want %+v", got, want)
	}
	if start, end := sp.Offsets(); start != 8 || end != 12 {
		t.Errorf("Offsets = %d, %d", start, end)
	}
	var zero Span // a hand-built node: offsets only
	if p := zero.Pos(); p.IsValid() || zero.Source() != nil {
		t.Errorf("zero span: Pos = %+v, Source = %v", p, zero.Source())
	}
	if got := (&String{Value: "x"}).Raw(); got != "" {
		t.Errorf("hand-built String.Raw = %q, want empty", got)
	}
}

// TestSourceConcurrent looks up positions from several goroutines at once
// (run with -race): the tables are built once and the line hint is atomic.
func TestSourceConcurrent(t *testing.T) {
	text := strings.Repeat("(a {k: \"é\"})\n", 500)
	s := NewSource(text)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for off := g; off < len(text); off += 7 {
				if !utf8.RuneStart(text[off]) {
					continue
				}
				if got, want := s.Position(off), naivePosition(text, off); got != want {
					t.Errorf("Position(%d) = %+v, want %+v", off, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzSourcePosition(f *testing.F) {
	f.Add("(a)\n(b)")
	f.Add("\uFEFFé\n\xff日")
	f.Add(strings.Repeat("é", 1500) + "\n")
	f.Fuzz(func(t *testing.T, text string) {
		checkSource(t, text)
	})
}

// BenchmarkPosition looks up the start of every line of a 1 MB text in
// order, as a tree walk does.
func BenchmarkPosition(b *testing.B) {
	text := strings.Repeat("[tool:Tool {description: \"é\"} |\n  (x::String)==>(::String)\n]\n\n", 12000)
	s := NewSource(text)
	s.Position(0)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		for off := 0; off < len(text); off += 32 {
			if utf8.RuneStart(text[off]) {
				s.Position(off)
			}
		}
	}
}

// BenchmarkSourceInit builds the tables of a 4.7 MB text: what the first
// position lookup in a large file costs.
func BenchmarkSourceInit(b *testing.B) {
	text := strings.Repeat("[tool:Tool {description: \"a tool\"} |\n  (x::String)==>(::String)\n]\n\n", 70000)
	b.SetBytes(int64(len(text)))
	for range b.N {
		NewSource(text).Position(0)
	}
}

// TestMissing: a nil node, typed or not, is missing; any other node is not.
func TestMissing(t *testing.T) {
	var typed *NodePattern
	for _, c := range []struct {
		n    Node
		want bool
	}{
		{nil, true},
		{typed, true},
		{Value((*Number)(nil)), true},
		{&NodePattern{}, false},
		{&Number{}, false},
	} {
		if got := Missing(c.n); got != c.want {
			t.Errorf("Missing(%#v) = %v, want %v", c.n, got, c.want)
		}
	}
}
