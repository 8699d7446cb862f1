package diag

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// TextOptions controls WriteText.
type TextOptions struct {
	// Color adds ANSI colors. The caller decides (gramc colors only a
	// terminal, and never when NO_COLOR is set).
	Color bool
	// ReadFile returns a file's contents for the source excerpt; nil means
	// os.ReadFile. A file that cannot be read is shown without excerpt.
	ReadFile func(name string) ([]byte, error)
	// MaxPerFile, when positive, shows at most this many diagnostics of
	// each file, errors first, then a line saying how many more there are
	// (go/parser stops at 10).
	MaxPerFile int
	// MoreCommand is the command that shows them all, for the line that
	// says how many more there are ("gramc check -e ./...").
	MoreCommand string
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
//
// Text from the source never reaches the terminal raw: control
// characters, bidirectional overrides and invalid UTF-8 in an excerpt, a
// name or a message are shown escaped (`\x1b`, `\u202e`, `\xff`), and carets
// line up by display width (wide characters take two columns). Each
// diagnostic costs time in proportion to the excerpt's window, not to the
// line it sits on, so thousands of diagnostics on one huge line print in
// linear time.
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
	shown, hidden := capPerFile(ds, opts.MaxPerFile)
	seenDetail := map[explainedKey]bool{}
	seenCode := map[Code]bool{}
	bw := bufio.NewWriter(w)
	for i, d := range shown {
		sev := paint(ansiRed, d.Severity.String())
		if d.Severity == Warning {
			sev = paint(ansiYellow, d.Severity.String())
		}
		fmt.Fprintf(bw, "%s: %s: %s", paint(ansiBold, safe(d.Range.String())), sev, paint(ansiBold, safe(d.Summary)))
		if d.Code != "" {
			fmt.Fprintf(bw, " [%s]", safe(string(d.Code)))
		}
		bw.WriteByte('\n')
		if line, caret, ok := excerpt(source(d.Range.File), d.Range); ok {
			fmt.Fprintf(bw, "    %s\n    %s\n", line, paint(ansiGreen, caret))
		}
		// An explanation is stated once per code per run: thirty
		// warnings of one kind need it once, not thirty times.
		explained := explainedKey{d.Code, d.Detail}
		if d.Detail != "" && !seenDetail[explained] {
			seenDetail[explained] = true
			for _, l := range strings.Split(d.Detail, "\n") {
				fmt.Fprintf(bw, "    %s\n", safe(l))
			}
		}
		if d.Suggestion != "" && !strings.Contains(d.Summary, d.Suggestion) && !strings.Contains(d.Detail, d.Suggestion) {
			fmt.Fprintf(bw, "    suggestion: %s\n", safe(d.Suggestion))
		}
		for _, r := range d.Related {
			fmt.Fprintf(bw, "    %s: %s: %s\n", safe(r.Range.String()), paint(ansiCyan, "note"), safe(r.Message))
		}
		// Where the whole explanation is, once per code per run.
		if d.Code != "" && !seenCode[d.Code] {
			seenCode[d.Code] = true
			if _, registered := Lookup(d.Code); registered {
				fmt.Fprintf(bw, "    see: gramc explain %s\n", safe(string(d.Code)))
			}
		}
		if n := hidden[i]; n > 0 {
			more := "-e shows them all"
			if opts.MoreCommand != "" {
				more = "run " + opts.MoreCommand + " to see them all"
			}
			fmt.Fprintf(bw, "%s: and %d more %s (%s)\n", safe(d.Range.File), n, english.Noun(n, "diagnostic"), safe(more))
		}
	}
	return bw.Flush()
}

type explainedKey struct {
	code   Code
	detail string
}

// safe is s as a terminal may show it (internal/termsafe): s can quote a
// name, a string or a file name from the source.
func safe(s string) string { return termsafe.Line(s, 0) }

// capPerFile keeps at most max diagnostics of each file (all when max <=
// 0): a file's errors before its warnings, in position order. hidden[i]
// is the number left out of the file of shown[i] when shown[i] is that
// file's last one shown, else 0.
func capPerFile(ds Diagnostics, max int) (shown Diagnostics, hidden []int) {
	if max <= 0 {
		return ds, make([]int, len(ds))
	}
	perFile := map[string]int{}
	for _, d := range ds {
		perFile[d.Range.File]++
	}
	over := false
	for _, n := range perFile {
		over = over || n > max
	}
	if !over {
		return ds, make([]int, len(ds))
	}
	// Which of a file's diagnostics are shown: its errors first.
	keep := make([]bool, len(ds))
	taken := map[string]int{}
	for _, sev := range []Severity{Error, Warning} {
		for i, d := range ds {
			if d.Severity == sev && taken[d.Range.File] < max {
				keep[i] = true
				taken[d.Range.File]++
			}
		}
	}
	last := map[string]int{}
	for i, d := range ds {
		if keep[i] {
			shown = append(shown, d)
			hidden = append(hidden, 0)
			last[d.Range.File] = len(shown) - 1
		}
	}
	for file, n := range perFile {
		if n > max {
			hidden[last[file]] = n - taken[file]
		}
	}
	return shown, hidden
}

// excerptWidth is how many characters of a source line an excerpt shows at
// most: a longer line (minified or generated input) is cut to a window
// around the range, marked with "...", instead of flooding the terminal.
const excerptWidth = 160

// excerpt returns the source line holding r's start and a caret line
// underlining r (to the end of the line when r spans lines). Only a window
// of at most excerptWidth characters around the range is looked at: the
// range's column (in characters) says where it is on its line, so the
// cost does not grow with the line's length. Tabs are kept in the caret
// line so the underline stays aligned; escaped characters and wide ones
// are padded by their display width.
func excerpt(src []byte, r ast.Range) (line, caret string, ok bool) {
	off := int(r.Start.Offset)
	if src == nil || off < 0 || off > len(src) || !r.Start.IsValid() || r.Start.Column < 1 {
		return "", "", false
	}
	col := int(r.Start.Column) - 1 // characters before the range on its line
	from := 0                      // the window's first character
	if col > excerptWidth*3/4 {
		from = col - excerptWidth/4
	}
	// Walk back from the range's start to the window's start.
	start := off
	for k := col; k > from && start > 0; k-- {
		_, size := utf8.DecodeLastRune(src[:start])
		if src[start-size] == '\n' {
			break // the column was wrong for this source; stay on the line
		}
		start -= size
	}
	stop := int(r.End.Offset)
	if stop < off || r.End.Line != r.Start.Line {
		stop = -1 // to the end of the window
	}
	var l, b strings.Builder
	if from > 0 {
		l.WriteString("...")
		b.WriteString("   ")
	}
	width := 0
	i, k := start, from
	for ; i < len(src) && k < from+excerptWidth; k++ {
		c, size := utf8.DecodeRune(src[i:])
		if c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] == '\n') {
			break
		}
		shown := "\t" // a tab is harmless, and keeps the caret line aligned
		if c != '\t' {
			shown = termsafe.Rune(c, size, src[i:])
		}
		l.WriteString(shown)
		w := len(shown) // an escape is ASCII
		if shown == string(c) {
			w = termsafe.Width(c)
		}
		switch {
		case i < off && c == '\t':
			b.WriteByte('\t')
		case i < off:
			b.WriteString(strings.Repeat(" ", w))
		case stop < 0 || i < stop:
			width += w
		}
		i += size
	}
	if i < len(src) && src[i] != '\n' && !(src[i] == '\r' && (i+1 == len(src) || src[i+1] == '\n')) {
		l.WriteString("...")
	}
	b.WriteByte('^')
	b.WriteString(strings.Repeat("~", max(width, 1)-1))
	return l.String(), b.String(), true
}

// CountLine counts ds as the text output ends: "3 errors, 13 warnings",
// "1 error", "2 warnings" ("" for none).
func CountLine(ds Diagnostics) string {
	errs := len(ds.Errors())
	var parts []string
	if errs > 0 {
		parts = append(parts, english.Plural(errs, "error"))
	}
	if w := len(ds) - errs; w > 0 {
		parts = append(parts, english.Plural(w, "warning"))
	}
	return strings.Join(parts, ", ")
}
