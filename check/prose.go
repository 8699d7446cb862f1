package check

import (
	"strings"

	"github.com/gramc-dev/gramc/ast"
)

// proseProp reads a prose property: a description, title or instruction.
// A fenced string holding prose is a block of text indented to sit inside
// its record, so its common indentation and its final line break are
// removed — the text the model receives is the text the reader sees, not
// the file's layout. Values (defaults, examples) are never changed.
func (c *checker) proseProp(p *ast.Property, what string) (string, bool) {
	s, ok := c.stringProp(p, what)
	if ok && p != nil && isFenced(p.Value) {
		s = dedent(s)
	}
	return s, ok
}

func isFenced(v ast.Value) bool {
	switch v := v.(type) {
	case *ast.String:
		return v.Kind == ast.Fenced
	case *ast.TaggedString:
		return v.Fenced
	}
	return false
}

// dedent removes the indentation (spaces and tabs) common to every
// non-blank line, makes blank lines empty, and drops trailing blank lines
// and the final line break. CRLF line breaks (a file saved on Windows)
// become LF, so the text does not depend on how the file was checked out.
func dedent(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
		} else {
			lines[i] = l[indent:]
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
