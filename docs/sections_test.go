package docs

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// sectionRef is a citation of a numbered section of a page: "docs/X.md
// §N", "X.md §N", "[docs/X.md](docs/X.md) §N", a range "§2.6-2.7" (its
// first and last section), the page name and the number possibly broken
// across a comment's lines.
var sectionRef = regexp.MustCompile(`([a-z][a-z0-9-]*)\.md\)?(?:\s|//|#)*§\s*(\d+(?:\.\d+)*)(?:[-–](\d+(?:\.\d+)*))?`)

// staleName is the page the sections were once cited from, which the
// repository does not have.
var staleName = regexp.MustCompile(`LANGUAGE\.md`)

// TestSectionReferences (issue 49): every citation of a numbered section
// of a docs page, in every text file of the repository (code, comments,
// pages, test data), names a heading the page has ("docs/language.md
// §2.7" needs a "### 2.7 ..." in docs/language.md), and nothing cites
// LANGUAGE.md, a file the repository does not have.
func TestSectionReferences(t *testing.T) {
	root := ".."
	headings := map[string]map[string]bool{}
	sectionsOf := func(page string) map[string]bool {
		if h, ok := headings[page]; ok {
			return h
		}
		h := map[string]bool{}
		if data, err := Pages.ReadFile(page + ".md"); err == nil {
			for _, m := range regexp.MustCompile(`(?m)^#+\s+(\d+(?:\.\d+)*)\.?\s`).FindAllStringSubmatch(string(data), -1) {
				h[m[1]] = true
			}
		} else {
			h = nil // not a page of docs/
		}
		headings[page] = h
		return h
	}
	refs, stale := 0, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == ".git" || name == "node_modules" || name == "bin" {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 4<<20 || !info.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			return nil // not text
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		text := string(data)
		if staleName.MatchString(text) && rel != "docs/sections_test.go" {
			stale[rel] = true
		}
		for _, m := range sectionRef.FindAllStringSubmatchIndex(text, -1) {
			page := text[m[2]:m[3]]
			if page == "LANGUAGE" {
				continue // reported as stale above
			}
			h := sectionsOf(page)
			if h == nil {
				continue // a page of another project
			}
			refs++
			for _, i := range []int{4, 6} {
				if m[i] < 0 {
					continue
				}
				if n := text[m[i]:m[i+1]]; !h[n] {
					line := strings.Count(text[:m[0]], "\n") + 1
					t.Errorf("%s:%d: %q cites docs/%s.md §%s, a section the page does not have", rel, line, text[m[0]:m[1]], page, n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range stale {
			if !yield(f) {
				return
			}
		}
	}) {
		t.Errorf("%s cites LANGUAGE.md, which the repository does not have: cite docs/language.md §N, a section it has", f)
	}
	if refs < 20 {
		t.Fatalf("%d section references found: the search is broken", refs)
	}
}
