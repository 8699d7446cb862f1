package golang

import (
	"bytes"
	"errors"
	goast "go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
	"text/template"

	"github.com/gramc-dev/gramc/codegen/internal/gentest"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
)

func TestExportedName(t *testing.T) {
	for in, want := range map[string]string{
		"getWeather":  "GetWeather",
		"get_weather": "GetWeather",
		"get-weather": "GetWeather",
		"a.b@c":       "ABC",
		"my name":     "MyName",
		"type":        "Type",
		"func":        "Func",
		"1st":         "X1st",
		"_private":    "Private",
		"名前":          "X名前",
		"ünïcode":     "Ünïcode",
		"":            "",
		"-":           "",
		"`":           "",
		"URL_path":    "URLPath",
		// Go's initialisms, in any spelling, and their plurals.
		"memberId":      "MemberID",
		"member_id":     "MemberID",
		"userID":        "UserID",
		"id":            "ID",
		"image_urls":    "ImageURLs",
		"imageUrls":     "ImageURLs",
		"apiKey":        "APIKey",
		"httpServer":    "HTTPServer",
		"HTTPServer":    "HTTPServer",
		"toJson":        "ToJSON",
		"idea":          "Idea",
		"ids2":          "Ids2",
		"uuid":          "UUID",
		"bus":           "Bus",
		"valid":         "Valid",
		"version2Api":   "Version2API",
		"streetAddress": "StreetAddress",
	} {
		if got := exportedName(in); got != want {
			t.Errorf("exportedName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPackageAndFileName(t *testing.T) {
	for in, want := range map[string]string{"weather": "weather", "My-Tools": "my_tools", "type": "type_", "init": "init_", "1x": "x1x", "": "gram", "__": "gram", "go": "go_"} {
		if got := packageName(in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"weather": "weather.gram.go", "_x": "x.gram.go", ".hidden": "hidden.gram.go", "a/b c": "a_b_c.gram.go", "": "gram.gram.go"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommentLines(t *testing.T) {
	got := commentLines(hostileText)
	for _, l := range got {
		if !strings.HasPrefix(l, "//") {
			t.Errorf("line %q does not start with //", l)
		}
		if strings.HasPrefix(l, "//go:") || strings.HasPrefix(l, "//line") {
			t.Errorf("line %q is a directive", l)
		}
		if strings.ContainsAny(l, "\n\r\v\f\x00\ufeff\u2028\u2029\u0085\u202e") {
			t.Errorf("line %q keeps a line break or invisible character", l)
		}
	}
	if len(got) != 12 {
		t.Errorf("got %d lines, want 12:\n%s", len(got), strings.Join(got, "\n"))
	}
	if c := commentLines("\n\n  \n"); len(c) != 0 {
		t.Errorf("blank text gave %q", c)
	}
}

// TestHostileModels checks that hostile names and text give Go that
// parses, that no text escapes its comment or literal, and that
// collisions are reported.
func TestHostileModels(t *testing.T) {
	for name, pkg := range hostileModels() {
		t.Run(name, func(t *testing.T) {
			var warnings diag.Diagnostics
			files, err := Generate(Request{Package: pkg, Stubs: true, Report: func(d *diag.Diagnostic) { warnings = append(warnings, d) }})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				fset := token.NewFileSet()
				file, err := parser.ParseFile(fset, f.Name, f.Contents, parser.ParseComments)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				// The only top-level declarations are the generator's:
				// no text became code.
				for _, cg := range file.Comments {
					for _, c := range cg.List {
						if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line") {
							t.Errorf("%s: directive %q in output", f.Name, c.Text)
						}
					}
				}
				for _, d := range file.Decls {
					if fd, ok := d.(*goast.FuncDecl); ok && (fd.Name.Name == "init" || fd.Name.Name == "main") {
						t.Errorf("%s: hostile text became code: func %s", f.Name, fd.Name.Name)
					}
				}
			}
			if name == "names" {
				gentest.Collisions(t, warnings,
					`"foo_bar" and "fooBar" both map to Go name FooBar in the package; "fooBar" becomes FooBar2`,
					`Go name GetWeatherArgs needed for "getWeather" is taken by "GetWeatherArgs" in the package; "getWeather" becomes GetWeather2`,
					`Go name GetWeatherArgs needed for "get_weather" is taken by "GetWeatherArgs" in the package; "get_weather" becomes GetWeather3`,
					`Go name Tools of "Tools" is reserved in the package; using Tools2`,
					`"celsius" and "Celsius" both map to Go name WordsCelsius in the package; "Celsius" becomes WordsCelsius2`,
					`"a-b" and "a.b" both map to Go name AB in the type FooBar; "a.b" becomes AB2`,
					`Go name MarshalJSON of "MarshalJSON" is reserved in the type FooBar2; using MarshalJSON2`,
				)
			}
		})
	}
}

// TestDeterministic generates twice and compares.
func TestDeterministic(t *testing.T) {
	for name, pkg := range hostileModels() {
		a, err1 := Generate(Request{Package: pkg})
		b, err2 := Generate(Request{Package: pkg})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(a[0].Contents, b[0].Contents) {
			t.Errorf("%s: output differs between runs", name)
		}
	}
}

func TestHeader(t *testing.T) {
	files, err := Generate(Request{Package: weatherModel(), Stubs: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "weather.gram.go" || files[1].Name != StubsFileName {
		t.Fatalf("files = %v", files)
	}
	if !bytes.HasPrefix(files[0].Contents, []byte(Header+"\n")) {
		t.Errorf("generated file does not start with the header")
	}
	if bytes.Contains(files[1].Contents, []byte("DO NOT EDIT")) {
		t.Errorf("the skeleton is user code and must not say DO NOT EDIT")
	}
}

func TestInvalidPackageName(t *testing.T) {
	if _, err := Generate(Request{Package: weatherModel(), PackageName: "not-valid"}); err == nil {
		t.Error("want an error for an invalid package name")
	}
	if _, err := Generate(Request{}); err == nil {
		t.Error("want an error without a package")
	}
}

// TestFormatError shows that source go/format rejects is reported as a
// *FormatError carrying the offending source, never written.
func TestFormatError(t *testing.T) {
	bad := template.Must(template.Must(templates.Clone()).New("bad.go.tmpl").Parse("package {{.PackageName}}\n\nfunc broken( {\n"))
	var out bytes.Buffer
	err := render(&out, bad, "bad.go.tmpl", &fileModel{PackageName: "x"})
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a *FormatError", err)
	}
	if !strings.Contains(err.Error(), "func broken(") || !strings.Contains(err.Error(), "BUG") {
		t.Errorf("error does not show the source: %v", err)
	}
}

// TestReservedNamesDocumented: docs/codegen.md names exactly the
// package-level names the generator reserves (packageReserved), in order.
func TestReservedNamesDocumented(t *testing.T) {
	data := docs.Page("codegen.md")
	m := regexp.MustCompile(`(?s)\*\*Collisions\*\* are resolved in a fixed order — (.*?) are reserved`).FindStringSubmatch(data)
	if m == nil {
		t.Fatal("docs/codegen.md has no sentence saying which names are reserved")
	}
	var documented []string
	for _, n := range regexp.MustCompile("`([A-Za-z]+)`").FindAllStringSubmatch(m[1], -1) {
		documented = append(documented, n[1])
	}
	if strings.Join(documented, ",") != strings.Join(packageReserved, ",") {
		t.Errorf("docs/codegen.md reserves %v, the generator %v", documented, packageReserved)
	}
}
