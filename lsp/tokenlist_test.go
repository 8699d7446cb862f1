package lsp

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPackTokens: a packed token list yields exactly the tokens packed, in
// order, for offsets and lengths of every varint width, and stops when
// the loop does.
func TestPackTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var ts []token
	start := int32(0)
	for i := 0; i < 5000; i++ {
		start += []int32{0, 1, 127, 128, 16383, 16384, 1 << 18}[r.IntN(7)]
		length := []int32{1, 5, 127, 128, 70000}[r.IntN(5)]
		ts = append(ts, token{start: start, end: start + length, typ: tokenType(r.IntN(int(tokVariable) + 1)), mods: tokenMod(r.IntN(8))})
	}
	l := packTokens(ts)
	got := slices.Collect(l.all())
	if !slices.Equal(got, ts) {
		t.Fatalf("unpacked %d tokens, differing from the %d packed", len(got), len(ts))
	}
	n := 0
	for range l.all() {
		if n++; n == 10 {
			break
		}
	}
	if n != 10 || len(packTokens(nil)) != 0 {
		t.Fatal("the iterator does not stop, or an empty list is not empty")
	}
}
