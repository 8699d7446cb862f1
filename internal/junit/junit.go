// Package junit writes JUnit XML as CI systems (GitHub Actions reporters,
// GitLab, Jenkins) read it: the one writer of gramc test's and gramc
// eval's --format junit.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// A Suite is one <testsuite>: its counts and time are its cases'.
type Suite struct {
	Name  string
	Cases []Case
}

// A Case is one <testcase>. A Case with a Failure failed; one with an
// Error could not be judged.
type Case struct {
	Name, Classname string
	File            string // omitted when empty
	Line            int    // omitted when 0
	Time            time.Duration
	Failure, Error  *Problem
	Output          string // <system-out>, omitted when empty
}

// A Problem is a <failure> or an <error>: a one-line message and,
// optionally, the whole text.
type Problem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type xmlSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	counts
	Suites []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name string `xml:"name,attr"`
	counts
	Cases []xmlCase `xml:"testcase"`
}

type counts struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Time     string `xml:"time,attr"`
	time     time.Duration
}

func (c *counts) add(tests, failures, errors int, d time.Duration) {
	c.Tests += tests
	c.Failures += failures
	c.Errors += errors
	c.time += d
	c.Time = seconds(c.time)
}

type xmlCase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	File      string   `xml:"file,attr,omitempty"`
	Line      int      `xml:"line,attr,omitempty"`
	Time      string   `xml:"time,attr"`
	Failure   *Problem `xml:"failure,omitempty"`
	Error     *Problem `xml:"error,omitempty"`
	Output    string   `xml:"system-out,omitempty"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// Write writes suites as an indented JUnit XML document, its header first
// and a newline last.
func Write(w io.Writer, suites []Suite) error {
	var out xmlSuites
	out.Time = seconds(0)
	for _, s := range suites {
		xs := xmlSuite{Name: s.Name}
		xs.Time = seconds(0)
		for _, c := range s.Cases {
			xs.Cases = append(xs.Cases, xmlCase{Name: c.Name, Classname: c.Classname, File: c.File, Line: c.Line,
				Time: seconds(c.Time), Failure: c.Failure, Error: c.Error, Output: c.Output})
			xs.add(1, btoi(c.Failure != nil), btoi(c.Error != nil), c.Time)
		}
		out.add(xs.Tests, xs.Failures, xs.Errors, xs.time)
		out.Suites = append(out.Suites, xs)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
