package syntax

import (
	"testing"

	"github.com/gramc-dev/gramc/syntax/reftree"
)

// A byte-order mark at the start of a file is skipped; elsewhere it is an
// unexpected character.
func TestByteOrderMark(t *testing.T) {
	const src = "[t:Tool {description: \"d\"} | ()==>(::String)]\n"
	plain, ds := ParseString("a.gram", src)
	if len(ds) != 0 {
		t.Fatalf("plain: %v", ds)
	}
	withBOM, ds := ParseString("a.gram", byteOrderMark+src)
	if len(ds) != 0 {
		t.Fatalf("with a byte-order mark: %v", ds)
	}
	if a, b := reftree.Sexp(plain), reftree.Sexp(withBOM); a != b {
		t.Fatalf("trees differ:\n%s\n%s", a, b)
	}
	p := withBOM.Patterns[0].Pos()
	if p.Offset != 3 || p.Line != 1 || p.Column != 2 {
		t.Fatalf("first pattern at %+v, want offset 3 (after the mark), line 1, column 2", p)
	}
	if a, b := string(Format(withBOM)), string(Format(plain)); a != b {
		t.Fatalf("Format with the mark = %q, without = %q", a, b)
	}
	if _, ds := ParseString("b.gram", "(a)"+byteOrderMark); !ds.HasErrors() {
		t.Fatal("a byte-order mark after the start must be an error")
	}
	if f, ds := ParseString("c.gram", byteOrderMark); len(ds) != 0 || len(f.Patterns) != 0 {
		t.Fatalf("a file holding only the mark: %v", ds)
	}
}
