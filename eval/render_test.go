package eval

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// sampleReport is a report with two variants, one regressed cell, and
// names no terminal or page may take raw.
func sampleReport() *Report {
	e := &evaluation{o: Options{Runs: 4, K: 2}.withDefaults(), variants: []Variant{{Name: "a"}, {Name: "b"}}}
	e.o.K = 2
	hostile := "evil\x1b[31m|<script>alert(1)</script>"
	e.tests = append(e.tests, testNamed(hostile), testNamed("plain"))
	var runs []RunRecord
	for v := range 2 {
		for t := range 2 {
			for i := range 4 {
				out := Passed
				if v == 1 && i > 0 {
					out = Failed
				}
				runs = append(runs, RunRecord{Test: e.tests[t].Name, Variant: e.variants[v].Name, Run: i + 1, Outcome: out,
					Failures: []FailureRecord{}, test: t, variant: v, LatencyMs: float64(10 * (i + 1)), CostUSD: 0.001})
			}
		}
	}
	return buildReport(e, runs, 16, "")
}

// TestJUnitParses: the JUnit report is XML a CI system reads: one case
// per cell, the failing ones below the minimum pass rate.
func TestJUnitParses(t *testing.T) {
	r := sampleReport()
	var b bytes.Buffer
	min := 0.5
	if err := r.WriteJUnit(&b, &min); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatalf("the JUnit report does not parse: %v\n%s", err, b.String())
	}
	if parsed.Tests != 4 || parsed.Failures != 2 || len(parsed.Suite.Cases) != 4 {
		t.Fatalf("tests %d failures %d cases %d", parsed.Tests, parsed.Failures, len(parsed.Suite.Cases))
	}
	if f := parsed.Suite.Cases[3].Failure; f == nil || f.Message != "pass rate 25.0% is below 50.0%" {
		t.Errorf("case %s: failure %+v", parsed.Suite.Cases[3].Name, f)
	}
}

// TestRenderingIsSafe: a name from a file or a model never reaches a
// terminal, a Markdown table or a page raw; every format renders the
// same report to the same bytes.
func TestRenderingIsSafe(t *testing.T) {
	r := sampleReport()
	for _, f := range Formats {
		var a, b bytes.Buffer
		if err := r.Render(&a, f, RenderOptions{}); err != nil {
			t.Fatal(err)
		}
		r.Render(&b, f, RenderOptions{})
		if a.String() != b.String() {
			t.Errorf("%s: two renderings differ", f)
		}
		out := a.String()
		if f != "json" && strings.Contains(out, "\x1b") {
			t.Errorf("%s: an escape sequence reached the output", f)
		}
		if (f == "html" || f == "markdown" || f == "junit") && strings.Contains(out, "<script>") {
			t.Errorf("%s: markup from a name reached the output", f)
		}
	}
	var md bytes.Buffer
	r.WriteMarkdown(&md)
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| evil") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 11 {
			t.Errorf("a name broke the Markdown row: %s", line)
		}
	}
}

// TestGate: the baseline's cell of the same test; with one variant in
// the baseline, its cell whatever the variant's name.
func TestGate(t *testing.T) {
	r := sampleReport()
	base := sampleReport()
	base.Cells = base.Cells[:2] // variant a only
	base.Variants = base.Variants[:1]
	big := func(rep *Report, pass, of int) {
		for i := range rep.Cells {
			c := &rep.Cells[i]
			if c.Variant == "b" || len(rep.Variants) == 1 {
				c.Rates = rates(makeRuns(pass, of), 2)
			}
		}
	}
	big(base, 48, 50)
	big(r, 46, 50)
	if regs := Gate(r, base); len(regs) != 0 {
		t.Errorf("0.96 → 0.92 at 50 runs: %+v", regs)
	}
	big(r, 35, 50)
	regs := Gate(r, base)
	if len(regs) != 2 || regs[0].Variant != "b" || regs[0].Baseline != "a" {
		t.Errorf("0.96 → 0.70 at 50 runs: %+v", regs)
	}
}

func makeRuns(pass, of int) []RunRecord {
	out := make([]RunRecord, of)
	for i := range out {
		out[i].Outcome = Failed
		if i < pass {
			out[i].Outcome = Passed
		}
	}
	return out
}
