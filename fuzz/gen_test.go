package fuzz

import (
	"errors"
	"testing"

	"github.com/gramc-dev/gramc/codegen/golang"
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
		pkg, diags := checkSource("fuzz.gram", src)
		if diags.HasErrors() || pkg == nil {
			return
		}
		files, err := golang.Generate(golang.Request{Package: pkg, Stubs: true})
		if err != nil {
			var fe *golang.FormatError
			if errors.As(err, &fe) {
				t.Fatalf("generated Go does not format: %v\ninput:\n%s", fe.Err, src)
			}
			t.Fatalf("Generate failed on input that checks clean: %v\ninput:\n%s", err, src)
		}
		again, err := golang.Generate(golang.Request{Package: pkg, Stubs: true})
		if err != nil || len(again) != len(files) {
			t.Fatalf("second Generate differs: %v", err)
		}
		for i, file := range files {
			if string(again[i].Contents) != string(file.Contents) {
				t.Fatalf("%s: output is not deterministic", file.Name)
			}
		}
		if len(files[0].Contents) < len(golang.Header) || string(files[0].Contents[:len(golang.Header)]) != golang.Header {
			t.Fatalf("%s does not start with the header", files[0].Name)
		}
	})
}
