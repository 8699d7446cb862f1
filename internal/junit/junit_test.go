package junit

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// TestWriteCounts: each suite counts its cases, failures, errors and
// time, and the document the sum of its suites; empty optional fields
// are left out.
func TestWriteCounts(t *testing.T) {
	var b strings.Builder
	err := Write(&b, []Suite{
		{Name: "a", Cases: []Case{
			{Name: "ok", Classname: "a", File: "a/x.gram", Line: 3, Time: 1500 * time.Millisecond},
			{Name: "bad", Classname: "a", Time: 250 * time.Millisecond, Failure: &Problem{Message: "m", Text: "m\n<more>"}},
		}},
		{Name: "b", Cases: []Case{{Name: "err", Classname: "b", Error: &Problem{Message: "no run"}, Output: "out"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.HasPrefix(text, xml.Header) || !strings.HasSuffix(text, "</testsuites>\n") {
		t.Errorf("header or end missing:\n%s", text)
	}
	for _, want := range []string{
		`<testsuites tests="3" failures="1" errors="1" time="1.750">`,
		`<testsuite name="a" tests="2" failures="1" errors="0" time="1.750">`,
		`<testsuite name="b" tests="1" failures="0" errors="1" time="0.000">`,
		`<testcase name="ok" classname="a" file="a/x.gram" line="3" time="1.500"></testcase>`,
		`<failure message="m">m&#xA;&lt;more&gt;</failure>`,
		`<system-out>out</system-out>`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %s in:\n%s", want, text)
		}
	}
	if strings.Contains(text, `name="bad" classname="a" file=`) {
		t.Errorf("an empty file is written:\n%s", text)
	}
}
