package fuzz

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/model"
	"github.com/gramc-dev/gramc/codegen/typescript"
)

// FuzzGenTS: any input that checks clean generates TypeScript without an
// error, deterministically, every file with the header, valid UTF-8 and
// no raw control, line-separator, BOM or bidirectional character (each is
// escaped in a literal or replaced in a comment). tsc itself runs in
// codegen/typescript's TestNode.
func FuzzGenTS(f *testing.F) {
	addGenSeeds(f)
	f.Add([]byte("[`a b`:Type | (`c d`::String), (c_d::Integer {optional: true})]\n[t:Tool {description: \"x */ \\u2028 @param\"} | (`x y`::`a b` {description: \"*/\"})==>(::String)]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzGenerator(t, src, func(pkg *check.Package) ([]model.File, error) {
			return typescript.Generate(typescript.Request{Package: pkg})
		}, func(t *testing.T, _ int, file model.File) {
			if !bytes.HasPrefix(file.Contents, []byte(typescript.Header+"\n")) {
				t.Fatalf("%s does not start with the header", file.Name)
			}
			if !utf8.Valid(file.Contents) {
				t.Fatalf("%s is not valid UTF-8", file.Name)
			}
			for _, r := range string(file.Contents) {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\ufeff' || r == '\u0085' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
					t.Fatalf("%s holds a raw %U\ninput:\n%s", file.Name, r, src)
				}
			}
		})
	})
}
