package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/golang"
	"github.com/gramc-dev/gramc/codegen/model"
)

// FuzzGen checks that any input that checks clean yields Go that go/format
// accepts (Generate formats its output and returns a *golang.FormatError
// otherwise), starts with the generated-code header, and that generation
// is deterministic. Compiling the output is TestCompile's job in
// codegen/golang.
func FuzzGen(f *testing.F) {
	addGenSeeds(f)
	f.Add([]byte("[`a b`:Type | (`c d`::String), (c_d::Integer {optional: true})]\n[t:Tool {description: \"x */ \\n //go:generate\"} | (`x y`::`a b`)==>(::String)]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzGenerator(t, src, func(pkg *check.Package) ([]model.File, error) {
			files, err := golang.Generate(golang.Request{Package: pkg, Stubs: true})
			var fe *golang.FormatError
			if errors.As(err, &fe) {
				return nil, fmt.Errorf("generated Go does not format: %v", fe.Err)
			}
			return files, err
		}, func(t *testing.T, i int, file model.File) {
			if i == 0 && !bytes.HasPrefix(file.Contents, []byte(golang.Header)) {
				t.Fatalf("%s does not start with the header", file.Name)
			}
		})
	})
}

// fuzzGenerator is a code generator's fuzz body: an input that checks
// clean generates without an error, and again the same bytes; then
// checkFile holds each file (the i-th) to the language's own rules.
func fuzzGenerator(t *testing.T, src []byte, gen func(*check.Package) ([]model.File, error), checkFile func(t *testing.T, i int, file model.File)) {
	pkg, diags := checkSource("fuzz.gram", src)
	if diags.HasErrors() || pkg == nil {
		return
	}
	files, err := gen(pkg)
	if err != nil {
		t.Fatalf("Generate failed on input that checks clean: %v\ninput:\n%s", err, src)
	}
	again, err := gen(pkg)
	if err != nil || len(again) != len(files) {
		t.Fatalf("second Generate differs: %v", err)
	}
	for i, file := range files {
		if !bytes.Equal(again[i].Contents, file.Contents) {
			t.Fatalf("%s: output is not deterministic", file.Name)
		}
		checkFile(t, i, file)
	}
}
