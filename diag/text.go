package diag

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
)

// TextOptions controls WriteText.
type TextOptions struct {
	// Color adds ANSI colors. The caller decides (gramc colors only a
	// terminal, and never when NO_COLOR is set).
	Color bool
	// ReadFile returns a file's contents for the source excerpt; nil means
	// os.ReadFile. A file that cannot be read is shown without excerpt.
	ReadFile func(name string) ([]byte, error)
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiGreen  = "\x1b[1;32m"
	ansiCyan   = "\x1b[1;36m"
)

// WriteText writes diagnostics for people, one block each:
//
//	file:line:col: severity: summary [code]
//	    the source line
//	    ^~~~ under the range
//	    detail: how to fix it
//	    file:line:col: note: a related location
func WriteText(w io.Writer, ds Diagnostics, opts TextOptions) error {
	read := opts.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	cache := map[string][]byte{}
	source := func(name string) []byte {
		if src, ok := cache[name]; ok {
			return src
		}
		src, err := read(name)
		if err != nil {
			src = nil
		}
		cache[name] = src
		return src
	}
	paint := func(color, s string) string {
		if !opts.Color {
			return s
		}
		return color + s + ansiReset
	}
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		sev := paint(ansiRed, d.Severity.String())
		if d.Severity == Warning {
			sev = paint(ansiYellow, d.Severity.String())
		}
		fmt.Fprintf(bw, "%s: %s: %s", paint(ansiBold, d.Range.String()), sev, paint(ansiBold, d.Summary))
		if d.Code != "" {
			fmt.Fprintf(bw, " [%s]", d.Code)
		}
		bw.WriteByte('\n')
		if line, caret, ok := excerpt(source(d.Range.File), d.Range); ok {
			fmt.Fprintf(bw, "    %s\n    %s\n", line, paint(ansiGreen, caret))
		}
		if d.Detail != "" {
			for _, l := range strings.Split(d.Detail, "\n") {
				fmt.Fprintf(bw, "    %s\n", l)
			}
		}
		if d.Suggestion != "" && !strings.Contains(d.Summary, d.Suggestion) && !strings.Contains(d.Detail, d.Suggestion) {
			fmt.Fprintf(bw, "    suggestion: %s\n", d.Suggestion)
		}
		for _, r := range d.Related {
			fmt.Fprintf(bw, "    %s: %s: %s\n", r.Range.String(), paint(ansiCyan, "note"), r.Message)
		}
	}
	return bw.Flush()
}

// excerptWidth is how many characters of a source line an excerpt shows at
// most: a longer line (minified or generated input) is cut to a window
// around the range, marked with "...", instead of flooding the terminal.
const excerptWidth = 160

// excerpt returns the source line holding r's start and a caret line
// underlining r (to the end of the line when r spans lines). Tabs in the
// line are kept in the caret line so the underline stays aligned; bytes
// that are not UTF-8 show as U+FFFD, one per byte, so the caret stays
// aligned with them too.
func excerpt(src []byte, r ast.Range) (line, caret string, ok bool) {
	off := int(r.Start.Offset)
	if src == nil || off < 0 || off > len(src) || !r.Start.IsValid() {
		return "", "", false
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := off
	for end < len(src) && src[end] != '\n' {
		end++
	}
	text := bytes.TrimSuffix(src[start:end], []byte("\r"))
	n := runeCount(text)
	col := runeCount(src[start:off]) // the range's start, in characters
	stop := int(r.End.Offset)
	if stop > end || stop < off || r.End.Line != r.Start.Line {
		stop = end
	}
	width := max(runeCount(src[off:stop]), 1)

	// The window of text shown: all of it, or excerptWidth characters
	// starting a little before the range. Only the window is decoded, so
	// many diagnostics on one huge line stay cheap.
	from, to := 0, n
	if n > excerptWidth {
		from = max(0, min(col-excerptWidth/4, n-excerptWidth))
		to = from + excerptWidth
	}
	var l, b strings.Builder
	if from > 0 {
		l.WriteString("...")
		b.WriteString("   ")
	}
	for i, k := 0, 0; k < to && i < len(text); k++ {
		c, size := utf8.DecodeRune(text[i:])
		i += size
		if k < from {
			continue
		}
		l.WriteRune(c) // an invalid byte is RuneError, written as U+FFFD
		if k < col {
			if c == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
	}
	if to < n {
		l.WriteString("...")
	}
	if col > to {
		// The range starts past the window (in a trailing "\r").
		width = 1
	} else {
		width = min(width, max(to-col, 1))
	}
	b.WriteByte('^')
	b.WriteString(strings.Repeat("~", width-1))
	return l.String(), b.String(), true
}

// runeCount is utf8.RuneCount without its allocation (for non-ASCII text
// Go 1.26 converts the slice to a string): an excerpt counts the characters of
// lines that may be megabytes long.
func runeCount(p []byte) int {
	n := 0
	for i := 0; i < len(p); n++ {
		if p[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(p[i:])
		i += size
	}
	return n
}
