// Package docs embeds gramc's documentation pages, so that the binary
// explains its diagnostics offline (gramc explain CODE, the language
// server's code descriptions): one source, the pages a reader browses.
package docs

import (
	"embed"
	"regexp"
	"strings"
)

// Pages are the documentation pages, by file name ("diagnostics.md").
//
//go:embed *.md
var Pages embed.FS

// Page returns the text of the page name ("runtime.md"). The tests that
// hold a page to the table it documents read it here, one way for all of
// them. A name that is not a page is a mistake in the caller: Page panics.
func Page(name string) string {
	data, err := Pages.ReadFile(name)
	if err != nil {
		panic("docs: no page " + name)
	}
	return string(data)
}

var heading = regexp.MustCompile("(?m)^### `([a-z0-9-]+)`\\s*$")

// schemaExampleRE is an example section of schema.md's provider rules:
// its target, the prose before the example, the example.
var schemaExampleRE = regexp.MustCompile("(?m)^#### `(target-[a-z-]+)` for (`[a-z-]+`)\n\n(?s:(.*?))```gram\n((?s:.*?))\n```")

// diffExampleRE is a rule's example section of diff.md: its code, the
// prose before it, the old and the new version.
var diffExampleRE = regexp.MustCompile("(?m)^#### `(diff-[a-z-]+)`\n\n(?s:(.*?))```gram\n((?s:.*?))\n```\n\nbecomes\n\n```gram\n((?s:.*?))\n```")

// schemaExample returns code's example section of schema: target, prose
// and example (nil when there is none).
func schemaExample(schema, code string) []string {
	for _, m := range schemaExampleRE.FindAllStringSubmatch(schema, -1) {
		if m[1] == code {
			return m[1:]
		}
	}
	return nil
}

// listEntry is the "- **`code`** — ..." entry of page, with its
// continuation lines.
func listEntry(doc, code string) (string, bool) {
	i := strings.Index(doc, "- **`"+code+"`**")
	if i < 0 {
		return "", false
	}
	rest := doc[i:]
	end := len(rest)
	for j := 1; j < len(rest); j++ {
		if rest[j-1] == '\n' && (rest[j] == '-' || rest[j] == '\n' || rest[j] == '#') {
			end = j
			break
		}
	}
	return "### `" + code + "`\n\n" + strings.TrimSpace(strings.TrimPrefix(rest[:end], "- ")) + "\n", true
}

// Explain returns the documentation of a diagnostic code, as markdown: its
// section of diagnostics.md or import.md (meaning, example, fix), or its row of the
// provider-rule table in schema.md, or its entry in the list of other
// codes. ok is false for a code no page documents.
func Explain(code string) (text string, ok bool) {
	diagnostics, _ := Pages.ReadFile("diagnostics.md")
	doc := string(diagnostics)
	// A section headed by the code: diagnostics.md's, import.md's.
	imports, _ := Pages.ReadFile("import.md")
	for _, page := range []string{doc, string(imports)} {
		locs := heading.FindAllStringSubmatchIndex(page, -1)
		for i, loc := range locs {
			if page[loc[2]:loc[3]] != code {
				continue
			}
			end := len(page)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			if next := strings.Index(page[loc[1]:end], "\n## "); next >= 0 {
				end = loc[1] + next
			}
			return strings.TrimSpace(page[loc[0]:end]) + "\n", true
		}
	}
	// A list entry: "- **`code`** — ...", with its continuation lines
	// (diagnostics.md's other codes, diff.md's rules).
	diff, _ := Pages.ReadFile("diff.md")
	for _, page := range []string{doc, string(diff)} {
		if text, ok := listEntry(page, code); ok {
			if page == string(diff) {
				for _, m := range diffExampleRE.FindAllStringSubmatch(page, -1) {
					if m[1] == code {
						text += "\nExample:\n\n" + m[2] + "```gram\n" + m[3] + "\n```\n\nbecomes\n\n```gram\n" + m[4] + "\n```\n"
					}
				}
			}
			return text, true
		}
	}

	schema, _ := Pages.ReadFile("schema.md")
	for _, line := range strings.Split(string(schema), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "| `"+code+"` |") {
			continue
		}
		// code | severity | targets | meaning ("\|" inside a cell is a
		// literal bar), and the code's example section below the table.
		cells := strings.Split(strings.ReplaceAll(strings.Trim(strings.TrimSpace(line), "|"), `\|`, "\x00"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(strings.ReplaceAll(cells[i], "\x00", "|"))
		}
		if len(cells) == 4 {
			text := "### `" + code + "`\n\n*" + cells[1] + "*. A provider rule (gramc check --target, gramc schema), for " + cells[2] +
				": " + cells[3] + ".\n\n"
			if m := schemaExample(string(schema), code); m != nil {
				text += "Example, for " + m[1] + ":\n\n" + m[2] + "```gram\n" + m[3] + "\n```\n\n"
			}
			return text + "The fix and each provider's rules: docs/schema.md.\n", true
		}
	}
	return "", false
}
