package diag

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes diagnostics as GitHub Actions workflow commands, one
// line each, so that they show up as annotations on the pull request:
//
//	::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=code::summary
//
// The detail follows the summary on further (escaped) lines.
func WriteGitHub(w io.Writer, ds Diagnostics) error {
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		line, col, endLine, endCol := bounds(d.Range)
		msg := d.Summary
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		for _, r := range d.Related {
			msg += fmt.Sprintf("\n%s: %s", r.Range.String(), r.Message)
		}
		fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			d.Severity.String(), escapeProperty(d.Range.File), line, col, endLine, endCol,
			escapeProperty(string(d.Code)), escapeData(msg))
	}
	return bw.Flush()
}

// The escapes of a workflow command's message and property values, built
// once (a Replacer is safe for concurrent use): building one for each of
// a quarter of a million diagnostics took a second.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeData escapes a workflow command's message.
func escapeData(s string) string { return dataEscaper.Replace(s) }

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// GitHubData escapes a workflow command's message, for a command that
// writes annotations of its own (gramc diff's changes).
func GitHubData(s string) string { return escapeData(s) }

// GitHubProperty escapes a workflow command's property value (a file, a
// title).
func GitHubProperty(s string) string { return escapeProperty(s) }
