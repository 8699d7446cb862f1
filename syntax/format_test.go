package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/internal/gramgen"
)

// sameTree compares two parsed files up to positions; label separators
// (":" or "::") are ignored because the formatter normalises them and they
// mean the same.
var sameTree = cmp.Options{
	cmpopts.IgnoreTypes(ast.Span{}),
	cmpopts.IgnoreFields(ast.Label{}, "DoubleColon"),
	// The formatter drops trailing white space in comments.
	cmp.Comparer(func(a, b *ast.Comment) bool {
		return strings.TrimRight(a.Text, " \t\r") == strings.TrimRight(b.Text, " \t\r")
	}),
	// The formatter prints an agent's signature first.
	cmp.Transformer("signatureFirst", signatureFirst),
	cmpopts.IgnoreFields(ast.File{}, "Name"),
}

// checkFormat formats src and checks the formatter's properties: the output
// parses, gives the same tree (comments included) up to positions, and
// formatting it again changes nothing. It returns the formatted text.
func checkFormat(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	f, diags := ParseFile(name, src)
	if diags.HasErrors() {
		t.Fatalf("%s: does not parse: %v", name, diags.Err())
	}
	out := Format(f)
	g, diags := ParseFile(name, out)
	if diags.HasErrors() {
		t.Fatalf("%s: formatted text does not parse: %v\n%s", name, diags.Err(), out)
	}
	if diff := cmp.Diff(f, g, sameTree); diff != "" {
		t.Errorf("%s: formatting changed the tree (-before +after):\n%s\nformatted:\n%s", name, diff, out)
	}
	if again := Format(g); !bytes.Equal(again, out) {
		t.Errorf("%s: formatting is not idempotent:\nonce:\n%s\ntwice:\n%s", name, out, again)
	}
	if len(out) > 0 && (!bytes.HasSuffix(out, []byte("\n")) || bytes.HasSuffix(out, []byte("\n\n"))) {
		t.Errorf("%s: output does not end in exactly one newline: %q", name, out)
	}
	return out
}

// TestFormatGolden formats the in.gram section of every archive in
// testdata/format and compares the result with its out.gram section.
func TestFormatGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/format/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files in testdata/format")
	}
	for _, file := range files {
		if filepath.Base(file) == "seeds.txtar" || filepath.Base(file) == "corpus.txtar" {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in := section(ar, "in.gram")
			if in == nil {
				t.Fatalf("%s has no in.gram section", file)
			}
			got := checkFormat(t, "in.gram", in)
			golden.Section(t, file, ar, "out.gram", got)
		})
	}
}

// FuzzFormat checks the formatter on any input: one that parses has
// checkFormat's properties and FormatSource formats it as Format does; one
// that does not, FormatSource refuses. Nothing may panic. The seeds are the
// conformance corpus's inputs (valid and invalid) and formatInputs.
func FuzzFormat(f *testing.F) {
	var seeds [][]byte
	for _, c := range loadCases(f, "../testdata/conformance/gram-corpus.json") {
		seeds = append(seeds, []byte(c.Input))
	}
	seeds = append(seeds, formatInputs(f)...)
	if len(seeds) < 100 {
		f.Fatalf("only %d seeds", len(seeds))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, diags := ParseFile("fuzz.gram", src); diags.HasErrors() {
			if out, d := FormatSource("fuzz.gram", src); out != nil || !d.HasErrors() {
				t.Fatalf("FormatSource formatted a file with syntax errors")
			}
			return
		}
		out := checkFormat(t, "fuzz.gram", src)
		if fs, _ := FormatSource("fuzz.gram", src); !bytes.Equal(fs, out) {
			t.Fatalf("FormatSource and Format disagree")
		}
	})
}

// formatInputs returns the golden inputs (the in.gram sections of
// testdata/format) and the example files.
func formatInputs(t testing.TB) [][]byte {
	t.Helper()
	var ins [][]byte
	archives, _ := filepath.Glob("testdata/format/*.txtar")
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if in := section(ar, "in.gram"); in != nil {
			ins = append(ins, in)
		}
	}
	for _, name := range exampleFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, src)
	}
	return ins
}

// exampleFiles are the paths of the example files (../testdata/examples).
func exampleFiles(t testing.TB) []string {
	t.Helper()
	var names []string
	for _, pat := range []string{"../testdata/examples/*.gram", "../testdata/examples/*/*.gram"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatal("no example files")
	}
	return names
}

// TestFormatSeeds formats the example files and compares them with the
// outputs recorded in testdata/format/seeds.txtar.
func TestFormatSeeds(t *testing.T) {
	outs := map[string][]byte{}
	for _, name := range exampleFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		key := strings.TrimPrefix(filepath.ToSlash(name), "../testdata/examples/")
		outs[key] = checkFormat(t, name, src)
	}
	compareArchive(t, "testdata/format/seeds.txtar",
		"Formatted example files (../testdata/examples); regenerate with GRAMC_UPDATE=1.", outs)
}

// TestFormatCorpus formats every valid input of the conformance corpus,
// checks the formatter's properties on each and compares the outputs with
// testdata/format/corpus.txtar.
func TestFormatCorpus(t *testing.T) {
	outs := map[string][]byte{}
	n := 0
	for i, c := range loadCases(t, "../testdata/conformance/gram-corpus.json") {
		if !c.Valid {
			continue
		}
		n++
		key := fmt.Sprintf("%03d %s: %s", i, c.Suite, c.Name)
		outs[key] = checkFormat(t, key, []byte(c.Input))
	}
	if n < 100 {
		t.Fatalf("only %d valid corpus cases", n)
	}
	compareArchive(t, "testdata/format/corpus.txtar",
		"Formatted valid inputs of ../testdata/conformance/gram-corpus.json; regenerate with GRAMC_UPDATE=1.", outs)
}

func section(ar *txtar.Archive, name string) []byte {
	if i := golden.Find(ar, name); i >= 0 {
		return ar.Files[i].Data
	}
	return nil
}

// compareArchive compares outs (section name -> content), as one archive
// in the order of the names, with the archive at file (golden.File).
func compareArchive(t *testing.T, file, comment string, outs map[string][]byte) {
	t.Helper()
	ar := &txtar.Archive{Comment: []byte(comment + "\n")}
	keys := make([]string, 0, len(outs))
	for k := range outs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ar.Files = append(ar.Files, txtar.File{Name: k, Data: outs[k]})
	}
	golden.File(t, file, txtar.Format(ar))
}

// TestFormatSourceRejectsBrokenFiles checks that a file with a syntax error
// is not formatted.
func TestFormatSourceRejectsBrokenFiles(t *testing.T) {
	out, diags := FormatSource("bad.gram", []byte("(a)-->(b), (c)\n"))
	if out != nil {
		t.Errorf("formatted a broken file: %q", out)
	}
	if !diags.HasErrors() {
		t.Fatal("no syntax error reported")
	}
	if d := diags.Errors()[0]; d.Range.File != "bad.gram" || d.Range.Start.Line != 1 {
		t.Errorf("error not positioned in bad.gram:1: %v", d)
	}
}

func BenchmarkFormat(b *testing.B) {
	src := gramgen.Document(20000)
	f, diags := ParseFile("bench.gram", src)
	if diags.HasErrors() {
		b.Fatal(diags.Err())
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Format(f)
	}
}

// TestFormatGenerated checks the formatter's properties on large generated
// documents and packages.
func TestFormatGenerated(t *testing.T) {
	checkFormat(t, "doc.gram", gramgen.Document(60))
	for name, src := range gramgen.Package(40, 2) {
		checkFormat(t, name, src)
	}
}

// signatureFirst is sp with an agent's first path or node element moved
// first, as the formatter prints it (unless comments hold the order, in
// which case neither tree moves it): both trees compare in this order.
func signatureFirst(sp *ast.SubjectPattern) *ast.SubjectPattern {
	if sp == nil {
		return nil
	}
	agent := false
	for _, l := range sp.Labels {
		agent = agent || l.Name == "Agent"
	}
	if !agent {
		return sp
	}
	for i, e := range sp.Elements {
		switch e.(type) {
		case *ast.RelationshipPattern, *ast.NodePattern:
			out := *sp
			out.Elements = append(append([]ast.Pattern{e}, sp.Elements[:i]...), sp.Elements[i+1:]...)
			return &out
		}
	}
	return sp
}
