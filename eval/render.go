package eval

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gramc-dev/gramc/internal/junit"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// The formats of a report, as gramc eval --format names them.
var Formats = []string{"text", "json", "junit", "markdown", "html"}

// RenderOptions are what some formats need beyond the report.
type RenderOptions struct {
	// MinPassRate, when set, fails a JUnit test case whose pass rate is
	// below it.
	MinPassRate *float64
}

// Render writes r in format (one of Formats).
func (r *Report) Render(w io.Writer, format string, o RenderOptions) error {
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "text":
		return r.WriteText(w)
	case "markdown":
		return r.WriteMarkdown(w)
	case "junit":
		return r.WriteJUnit(w, o.MinPassRate)
	case "html":
		return r.WriteHTML(w)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// Percent is a rate as every format shows it: "90.0%", or "–" for none.
func Percent(p *float64) string {
	if p == nil {
		return "–"
	}
	return oneDecimal(*p*100) + "%"
}

func percentOf(x float64) string { return Percent(&x) }

// oneDecimal is x to one decimal, a half rounded away from zero (as a
// reader, and JavaScript's toFixed, round), not to even.
func oneDecimal(x float64) string {
	r := math.Round(x*10) / 10
	if r == 0 {
		r = 0 // no "-0.0"
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}

// IntervalText is a rate's interval as the formats show it.
func IntervalText(iv Interval) string {
	return oneDecimal(iv.Low*100) + "–" + oneDecimal(iv.High*100) + "%"
}

// SignedPoints is a difference of rates in percentage points.
func SignedPoints(d float64) string {
	s := oneDecimal(d * 100)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s + " pp"
}

// USD is money as the formats show it.
func USD(x float64) string { return fmt.Sprintf("$%.4f", x) }

// Millis is a latency as the formats show it.
func Millis(ms float64) string { return fmt.Sprintf("%.0f ms", ms) }

// summaryLine says how many runs were made of how many.
func (r *Report) summaryLine() string {
	s := fmt.Sprintf("%d of %d runs, %d per test and variant; pass^k and pass@k at k = %d", r.Completed, r.Scheduled, r.Runs, r.K)
	if r.Stopped != "" {
		s += fmt.Sprintf("; stopped early (%s)", r.Stopped)
	}
	return s
}

// kindsText is a cell's failures by kind: "missing-call 3, answer 1".
func kindsText(m map[string]int) string {
	if len(m) == 0 {
		return "–"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// safe is a name or message for a terminal or a plain-text report: the
// names come from files and models, never raw.
func safe(s string) string { return termsafe.Line(s, 200) }

// WriteText writes the report as tables for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", r.summaryLine())
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TEST\tVARIANT\tPASSED\tRATE\t95% CI\tPASS^K\tPASS@K\tERRORED\tTOKENS IN/OUT\tCOST\tP50\tP95\tFAILURES")
	for _, c := range r.Cells {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\t%d\t%d/%d\t%s\t%s\t%s\t%s\n", safe(c.Test), safe(c.Variant), c.Passed, c.Counted,
			Percent(c.PassRate), IntervalText(c.Wilson), Percent(c.PassHatK), Percent(c.PassAtK), c.Errored,
			c.InputTokens, c.OutputTokens, USD(c.CostUSD), Millis(c.Latency.P50), Millis(c.Latency.P95), kindsText(c.Failures))
	}
	tw.Flush()
	b.WriteString("\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIANT\tPASSED\tRATE\t95% CI\tMEAN RATE\tMEAN PASS^K\tERRORED\tCOST")
	for _, v := range r.Variants {
		p := v.Pooled
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%s\t%s\t%d\t%s\n", safe(v.Name), p.Passed, p.Counted, Percent(p.PassRate), IntervalText(p.Wilson),
			Percent(v.MeanPassRate), Percent(v.MeanPassHatK), p.Errored, USD(v.CostUSD))
	}
	tw.Flush()
	for _, c := range r.Comparisons {
		fmt.Fprintf(&b, "\n%s vs %s: %s (95%% CI %s to %s): %s", safe(c.A), safe(c.B), SignedPoints(c.Difference),
			SignedPoints(c.Interval.Low), SignedPoints(c.Interval.High), c.Verdict)
	}
	if len(r.Comparisons) > 0 {
		b.WriteString("\n")
	}
	for _, g := range r.Regressions {
		fmt.Fprintf(&b, "\nREGRESSION %s on %s: %s, baseline (%s) %s: significantly lower (one-sided 95%% upper bound %s)", safe(g.Test), safe(g.Variant),
			percentOf(g.Rate), safe(g.Baseline), percentOf(g.Was), SignedPoints(g.Upper))
	}
	if len(r.Regressions) > 0 {
		b.WriteString("\n")
	}
	if r.Stopped != "" {
		fmt.Fprintf(&b, "\nstopped (%s) after %d of %d runs\n", r.Stopped, r.Completed, r.Scheduled)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell is s for a Markdown table cell: one line, no '|' breaking the
// row, no markup.
func mdCell(s string) string {
	s = safe(s)
	return strings.NewReplacer("|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`).Replace(s)
}

// WriteMarkdown writes the report as Markdown (a pull request's comment).
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### gramc eval\n\n%s", r.summaryLine())
	b.WriteString("\n\n| Test | Variant | Passed | Rate | 95% CI | pass^k | Errored | Cost | p50 | p95 |\n|---|---|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %s | %s | %d | %s | %s | %s |\n", mdCell(c.Test), mdCell(c.Variant), c.Passed, c.Counted,
			Percent(c.PassRate), IntervalText(c.Wilson), Percent(c.PassHatK), c.Errored, USD(c.CostUSD), Millis(c.Latency.P50), Millis(c.Latency.P95))
	}
	if len(r.Comparisons) > 0 {
		b.WriteString("\n| A | B | Difference | 95% CI | Verdict |\n|---|---|---:|---|---|\n")
		for _, c := range r.Comparisons {
			fmt.Fprintf(&b, "| %s | %s | %s | %s to %s | **%s** |\n", mdCell(c.A), mdCell(c.B), SignedPoints(c.Difference),
				SignedPoints(c.Interval.Low), SignedPoints(c.Interval.High), c.Verdict)
		}
	}
	for _, g := range r.Regressions {
		fmt.Fprintf(&b, "\n:x: **Regression**: %s on %s: %s, baseline %s\n", mdCell(g.Test), mdCell(g.Variant), percentOf(g.Rate), percentOf(g.Was))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJUnit writes one JUnit test case per cell: failing when its pass
// rate is below min (when given), in error when no run of it counted.
func (r *Report) WriteJUnit(w io.Writer, min *float64) error {
	r = r.cleaned()
	suite := junit.Suite{Name: "gramc eval"}
	for _, c := range r.Cells {
		jc := junit.Case{Name: c.Test + " [" + c.Variant + "]", Classname: c.Variant, File: c.File, Line: c.Line,
			Time:   time.Duration(c.Latency.Total * float64(time.Millisecond)),
			Output: fmt.Sprintf("passed %d of %d (%s, 95%% CI %s), errored %d", c.Passed, c.Counted, Percent(c.PassRate), IntervalText(c.Wilson), c.Errored)}
		switch {
		case c.Counted == 0:
			jc.Error = &junit.Problem{Message: fmt.Sprintf("no run counted: %d errored", c.Errored)}
		case min != nil && *c.PassRate < *min:
			jc.Failure = &junit.Problem{Message: fmt.Sprintf("pass rate %s is below %s", Percent(c.PassRate), Percent(min))}
		}
		suite.Cases = append(suite.Cases, jc)
	}
	return junit.Write(w, []junit.Suite{suite})
}
