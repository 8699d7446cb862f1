package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

func rangeOf(file string, line, col, endCol, off int) ast.Range {
	return ast.Range{File: file,
		Start: ast.Pos{Offset: int32(off), Line: int32(line), Column: int32(col)},
		End:   ast.Pos{Offset: int32(off + endCol - col), Line: int32(line), Column: int32(endCol)}}
}

// sample: "a.gram" line 2 is "\t(city::Strng)"; Strng is at columns 9..14.
var sampleSrc = "[t:Tool]\n\t(city::Strng)\n"

func sample() Diagnostics {
	return Diagnostics{
		{Severity: Error, Code: "unknown-type", Summary: "unknown type Strng; did you mean String?",
			Detail: "Built-in types are String and others.", Range: rangeOf("a.gram", 2, 9, 14, 17),
			Suggestion: "String",
			Related:    []Related{{Range: rangeOf("b.gram", 1, 2, 3, 1), Message: "first declared here"}}},
		{Severity: Warning, Code: "unknown-property", Summary: "unknown, odd: 100%",
			Detail: "line one\nline two", Range: rangeOf("c,d:e.gram", 1, 1, 1, 0)},
	}
}

func readSample(name string) ([]byte, error) {
	if name == "a.gram" {
		return []byte(sampleSrc), nil
	}
	return nil, errors.New("no such file")
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sample(), TextOptions{ReadFile: readSample}); err != nil {
		t.Fatal(err)
	}
	want := "a.gram:2:9: error: unknown type Strng; did you mean String? [unknown-type]\n" +
		"    \t(city::Strng)\n" +
		"    \t       ^~~~~\n" +
		"    Built-in types are String and others.\n" +
		"    b.gram:1:2: note: first declared here\n" +
		"    see: gramc explain unknown-type\n" +
		"c,d:e.gram:1:1: warning: unknown, odd: 100% [unknown-property]\n" +
		"    line one\n" +
		"    line two\n" +
		"    see: gramc explain unknown-property\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteTextColor(t *testing.T) {
	var plain, color bytes.Buffer
	WriteText(&plain, sample(), TextOptions{ReadFile: readSample})
	WriteText(&color, sample(), TextOptions{ReadFile: readSample, Color: true})
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("plain output has escape sequences")
	}
	if !strings.Contains(color.String(), ansiRed+"error"+ansiReset) {
		t.Errorf("colored output lacks a red severity:\n%q", color.String())
	}
}

func TestExcerptMultiByte(t *testing.T) {
	src := []byte("(é::Strng)")
	r := ast.Range{File: "x", Start: ast.Pos{Offset: 5, Line: 1, Column: 5}, End: ast.Pos{Offset: 10, Line: 1, Column: 10}}
	line, caret, ok := excerpt(src, r)
	if !ok || line != "(é::Strng)" || caret != "    ^~~~~" {
		t.Errorf("excerpt = %q %q %v", line, caret, ok)
	}
	// A range beyond the source shows no excerpt rather than panicking.
	if _, _, ok := excerpt(src, ast.Range{Start: ast.Pos{Offset: 99, Line: 3, Column: 1}}); ok {
		t.Error("excerpt beyond the end should fail")
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(got) != 2 {
		t.Fatalf("got %d elements", len(got))
	}
	first := got[0]
	for k, v := range map[string]any{"file": "a.gram", "line": 2.0, "column": 9.0, "endLine": 2.0, "endColumn": 14.0,
		"severity": "error", "code": "unknown-type", "suggestion": "String"} {
		if first[k] != v {
			t.Errorf("%s = %v, want %v", k, first[k], v)
		}
	}
	if rel, ok := first["related"].([]any); !ok || len(rel) != 1 {
		t.Errorf("related = %v", first["related"])
	}
	if _, ok := got[1]["suggestion"]; ok {
		t.Error("suggestion present without a suggestion")
	}
	if _, ok := got[1]["related"]; ok {
		t.Error("related present without related ranges")
	}
	b.Reset()
	WriteJSON(&b, nil)
	if b.String() != "[]\n" {
		t.Errorf("empty = %q", b.String())
	}
}

func TestWriteGitHub(t *testing.T) {
	var b bytes.Buffer
	if err := WriteGitHub(&b, sample()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines:\n%s", len(lines), b.String())
	}
	want0 := "::error file=a.gram,line=2,col=9,endLine=2,endColumn=14,title=unknown-type::unknown type Strng; did you mean String?%0ABuilt-in types are String and others.%0Ab.gram:1:2: first declared here"
	if lines[0] != want0 {
		t.Errorf("got  %s\nwant %s", lines[0], want0)
	}
	want1 := "::warning file=c%2Cd%3Ae.gram,line=1,col=1,endLine=1,endColumn=1,title=unknown-property::unknown, odd: 100%25%0Aline one%0Aline two"
	if lines[1] != want1 {
		t.Errorf("got  %s\nwant %s", lines[1], want1)
	}
}

// TestExcerptLongLine: a very long source line (minified or generated
// input) is shown as a window around the range, not in full.
func TestExcerptLongLine(t *testing.T) {
	src := []byte(strings.Repeat("a", 100000) + "Strng" + strings.Repeat("b", 100000))
	r := ast.Range{File: "x", Start: ast.Pos{Offset: 100000, Line: 1, Column: 100001}, End: ast.Pos{Offset: 100005, Line: 1, Column: 100006}}
	line, caret, ok := excerpt(src, r)
	if !ok || len(line) > 2*excerptWidth {
		t.Fatalf("excerpt of a 200,000-character line is %d bytes long (ok %v)", len(line), ok)
	}
	if !strings.HasPrefix(line, "...") || !strings.HasSuffix(line, "...") {
		t.Errorf("a cut line is not marked with ...: %q", line)
	}
	i := strings.Index(caret, "^~~~~")
	if i < 0 || line[i:i+5] != "Strng" {
		t.Errorf("caret not under the range:\n%s\n%s", line, caret)
	}
	// A range starting near the end of a long line keeps the window inside it.
	r = ast.Range{File: "x", Start: ast.Pos{Offset: 200004, Line: 1, Column: 200005}, End: ast.Pos{Offset: 200005, Line: 1, Column: 200006}}
	line, caret, ok = excerpt(src, r)
	if !ok || !strings.HasPrefix(line, "...") || strings.HasSuffix(line, "...") || len(caret) != len(line) {
		t.Errorf("excerpt at the end of a long line:\n%q\n%q", line, caret)
	}
}

// TestExcerptInvalidUTF8: each byte that is not UTF-8 is shown escaped
// (\xff), and the caret is padded by the escape's width so it stays
// aligned.
func TestExcerptInvalidUTF8(t *testing.T) {
	src := []byte("\"\xff\xfe\" (::Strng)")
	r := ast.Range{File: "x", Start: ast.Pos{Offset: 8, Line: 1, Column: 9}, End: ast.Pos{Offset: 13, Line: 1, Column: 14}}
	line, caret, ok := excerpt(src, r)
	if !ok || line != `"\xff\xfe" (::Strng)` || caret != "              ^~~~~" {
		t.Errorf("excerpt = %q %q %v", line, caret, ok)
	}
}

// TestExcerptTerminalSafety: control characters and bidi overrides from
// the source are shown escaped, as rustc does, and the caret stays under
// the range; wide characters take two columns (issue 11.4).
func TestExcerptTerminalSafety(t *testing.T) {
	for _, tc := range []struct {
		src         string
		col, length int
		line, caret string
	}{
		{"(a \x1b]0;pwn\x07 ::Strng)", 15, 5, `(a \x1b]0;pwn\x07 ::Strng)`, strings.Repeat(" ", 20) + "^~~~~"},
		{"(\u202eevil ::Strng)", 10, 5, `(\u202eevil ::Strng)`, strings.Repeat(" ", 14) + "^~~~~"},
		{"(名前 ::Strng)", 7, 5, "(名前 ::Strng)", strings.Repeat(" ", 8) + "^~~~~"},
		{"(🙂 ::Strng)", 6, 5, "(🙂 ::Strng)", strings.Repeat(" ", 6) + "^~~~~"},
		{"(nul\x00 ::Strng)", 9, 5, `(nul\x00 ::Strng)`, strings.Repeat(" ", 11) + "^~~~~"},
	} {
		runes := []rune(tc.src)
		off := len(string(runes[:tc.col-1]))
		end := len(string(runes[:tc.col-1+tc.length]))
		r := ast.Range{File: "x", Start: ast.Pos{Offset: int32(off), Line: 1, Column: int32(tc.col)}, End: ast.Pos{Offset: int32(end), Line: 1, Column: int32(tc.col + tc.length)}}
		line, caret, ok := excerpt([]byte(tc.src), r)
		if !ok || line != tc.line || caret != tc.caret {
			t.Errorf("excerpt(%q) =\n%q\n%q\nwant\n%q\n%q", tc.src, line, caret, tc.line, tc.caret)
		}
	}
}

// TestExcerptLongLineIsCheap: an excerpt of a huge line decodes only its
// window, so a file with many diagnostics on one long line does not
// allocate the line again for each of them.
func TestExcerptLongLineIsCheap(t *testing.T) {
	src := []byte(strings.Repeat("é", 1<<19) + "Strng")
	r := ast.Range{File: "x", Start: ast.Pos{Offset: 1 << 20, Line: 1, Column: 1<<19 + 1}, End: ast.Pos{Offset: 1<<20 + 5, Line: 1, Column: 1<<19 + 6}}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	for range 10 {
		if _, _, ok := excerpt(src, r); !ok {
			t.Fatal("no excerpt")
		}
	}
	goruntime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("10 excerpts of a 1 MiB line allocated %d bytes", got)
	}
}

// TestWriteJSONMatchesMarshalIndent: the streamed array is byte for byte
// what json.MarshalIndent of the whole array gives.
func TestWriteJSONMatchesMarshalIndent(t *testing.T) {
	var ds Diagnostics
	for i := range 3 {
		ds = append(ds, &Diagnostic{Severity: Severity(i % 2), Code: "c", Summary: fmt.Sprintf("s%d <&>", i), Detail: "d",
			Range:   ast.Range{File: "f.gram", Start: ast.Pos{Line: 1, Column: int32(i + 1)}},
			Related: []Related{{Range: ast.Range{File: "g.gram"}, Message: "m"}}})
	}
	for _, in := range []Diagnostics{nil, ds[:1], ds} {
		var got bytes.Buffer
		if err := WriteJSON(&got, in); err != nil {
			t.Fatal(err)
		}
		var whole []jsonDiagnostic
		if err := json.Unmarshal(got.Bytes(), &whole); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, got.String())
		}
		want, _ := json.MarshalIndent(whole, "", "  ")
		if len(in) == 0 {
			want = []byte("[]")
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("streamed:\n%s\nwhole:\n%s", got.String(), want)
		}
	}
}

// TestMaxPerFile: at most MaxPerFile diagnostics of a file are shown,
// errors first, then how many more there are (issue 12.3).
func TestMaxPerFile(t *testing.T) {
	var ds Diagnostics
	for i := range 15 {
		sev := Warning
		if i%3 == 0 {
			sev = Error
		}
		ds = append(ds, &Diagnostic{Severity: sev, Code: "c", Summary: fmt.Sprintf("problem %d", i),
			Range: ast.Range{File: "a.gram", Start: ast.Pos{Line: int32(i + 1), Column: 1}}})
	}
	ds = append(ds, &Diagnostic{Severity: Warning, Code: "c", Summary: "other", Range: ast.Range{File: "b.gram", Start: ast.Pos{Line: 1, Column: 1}}})
	var out bytes.Buffer
	WriteText(&out, ds, TextOptions{MaxPerFile: 10, MoreCommand: "gramc check -e a.gram", ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
	text := out.String()
	if n := strings.Count(text, "a.gram:"); n != 11 { // 10 shown, 1 "and N more"
		t.Errorf("%d lines of a.gram:\n%s", n, text)
	}
	if strings.Count(text, "error: problem") != 5 || !strings.Contains(text, "a.gram: and 5 more diagnostics (run gramc check -e a.gram to see them all)") || !strings.Contains(text, "b.gram:1:1: warning: other") {
		t.Errorf("unexpected output:\n%s", text)
	}
}
