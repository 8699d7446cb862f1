package eval

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
)

// The HTML report is one self-contained file: its style inline, no
// script, no font or image from anywhere, its charts inline SVG drawn
// from the same numbers as the tables (and the JSON report).

//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is the report's page, parsed when a report is first
// written as HTML, not when gramc starts.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"percent":   Percent,
		"interval":  IntervalText,
		"points":    SignedPoints,
		"usd":       USD,
		"millis":    Millis,
		"kinds":     kindsText,
		"add3":      func(a, b, c float64) float64 { return a + b + c },
		"half":      func(x float64) float64 { return x / 2 },
		"percentOf": percentOf,
		"deref":     func(p *float64) float64 { return *p },
	}).Parse(htmlSource))
})

// Chart geometry, in SVG user units.
const (
	chartLabelWidth = 260.0
	chartPlotWidth  = 420.0
	chartRowHeight  = 22.0
	scatterSize     = 320.0
)

// palette colours the variants (colour-blind safe: Okabe and Ito).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

type htmlView struct {
	*Report
	Rows      []barRow
	Ticks     []tick
	Height    float64
	Points    []scatterPoint
	XTicks    []tick
	YTicks    []tick
	XLabel    string
	Legend    []legendItem
	PlotWidth float64
	LabelW    float64
	Scatter   float64
}

type legendItem struct{ Name, Colour string }

type tick struct {
	At    float64
	Label string
}

// barRow is one test × variant bar: its rate and interval, at y.
type barRow struct {
	Test, Variant, Colour string
	Label                 string // the test's name on its first variant's row
	Y                     float64
	Rate                  *float64
	Width, Low, High      float64
	Wilson                Interval
}

// scatterPoint is a variant on the cost chart.
type scatterPoint struct {
	Name, Colour      string
	X, Y, YLow, YHigh float64
	Rate              *float64
	Wilson            Interval
	PerRun            float64
	PerRunText        string
	LabelX            float64
	LabelAnchor       string
}

// WriteHTML writes the report as one self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer) error {
	return htmlTemplate().Execute(w, r.cleaned().htmlView())
}

// cleaned is a copy of r whose names and messages hold no control
// character (html/template escapes markup, not those).
func (r *Report) cleaned() *Report {
	c := *r
	c.Cells = slices.Clone(r.Cells)
	for i := range c.Cells {
		c.Cells[i].Test, c.Cells[i].Variant, c.Cells[i].Model = safe(c.Cells[i].Test), safe(c.Cells[i].Variant), safe(c.Cells[i].Model)
	}
	c.Variants = slices.Clone(r.Variants)
	for i := range c.Variants {
		c.Variants[i].Name, c.Variants[i].Model = safe(c.Variants[i].Name), safe(c.Variants[i].Model)
	}
	c.Comparisons = slices.Clone(r.Comparisons)
	for i := range c.Comparisons {
		c.Comparisons[i].A, c.Comparisons[i].B = safe(c.Comparisons[i].A), safe(c.Comparisons[i].B)
	}
	c.Regressions = slices.Clone(r.Regressions)
	for i := range c.Regressions {
		g := &c.Regressions[i]
		g.Test, g.Variant, g.Baseline = safe(g.Test), safe(g.Variant), safe(g.Baseline)
	}
	return &c
}

func (r *Report) htmlView() htmlView {
	v := htmlView{Report: r, PlotWidth: chartPlotWidth, LabelW: chartLabelWidth, Scatter: scatterSize}
	colour := map[string]string{}
	for i, vs := range r.Variants {
		colour[vs.Name] = palette[i%len(palette)]
		v.Legend = append(v.Legend, legendItem{vs.Name, colour[vs.Name]})
	}
	y := 0.0
	for _, c := range byTest(r.Cells) {
		row := barRow{Test: c.Test, Variant: c.Variant, Colour: colour[c.Variant], Y: y, Rate: c.PassRate, Wilson: c.Wilson,
			Low: c.Wilson.Low * chartPlotWidth, High: c.Wilson.High * chartPlotWidth}
		if c.PassRate != nil {
			row.Width = *c.PassRate * chartPlotWidth
		}
		if len(v.Rows) == 0 || v.Rows[len(v.Rows)-1].Test != c.Test {
			row.Label = c.Test
		}
		v.Rows = append(v.Rows, row)
		y += chartRowHeight
	}
	v.Height = y
	for p := 0; p <= 100; p += 25 {
		v.Ticks = append(v.Ticks, tick{float64(p) / 100 * chartPlotWidth, fmt.Sprintf("%d%%", p)})
		v.YTicks = append(v.YTicks, tick{scatterSize - float64(p)/100*scatterSize, fmt.Sprintf("%d%%", p)})
	}
	v.Points, v.XTicks, v.XLabel = r.scatter(colour)
	return v
}

// byTest is the cells grouped by test (in the order the tests first
// come), each test's variants in order: the chart's rows.
func byTest(cells []Cell) []Cell {
	var order []string
	groups := map[string][]Cell{}
	for _, c := range cells {
		if _, ok := groups[c.Test]; !ok {
			order = append(order, c.Test)
		}
		groups[c.Test] = append(groups[c.Test], c)
	}
	out := make([]Cell, 0, len(cells))
	for _, t := range order {
		out = append(out, groups[t]...)
	}
	return out
}

// scatter places each variant at (cost per run, pooled pass rate); with
// no prices given, tokens per run stand in for the cost.
func (r *Report) scatter(colour map[string]string) ([]scatterPoint, []tick, string) {
	byCost := false
	for _, vs := range r.Variants {
		byCost = byCost || vs.CostUSD > 0
	}
	label := "cost per run (USD)"
	if !byCost {
		label = "tokens per run (no prices given)"
	}
	perRun := func(vs VariantSummary) float64 {
		if vs.Pooled.Runs == 0 {
			return 0
		}
		if byCost {
			return vs.CostUSD / float64(vs.Pooled.Runs)
		}
		return float64(vs.InputTokens+vs.OutputTokens) / float64(vs.Pooled.Runs)
	}
	top := 0.0
	for _, vs := range r.Variants {
		top = math.Max(top, perRun(vs))
	}
	top = niceCeiling(top)
	show := func(x float64) string {
		if byCost {
			return "$" + strconv.FormatFloat(x, 'g', 3, 64)
		}
		return fmt.Sprintf("%.0f", x)
	}
	var pts []scatterPoint
	for _, vs := range r.Variants {
		x := perRun(vs)
		p := scatterPoint{Name: vs.Name, Colour: colour[vs.Name], X: x / top * scatterSize, Rate: vs.Pooled.PassRate, Wilson: vs.Pooled.Wilson,
			YLow: scatterSize - vs.Pooled.Wilson.Low*scatterSize, YHigh: scatterSize - vs.Pooled.Wilson.High*scatterSize,
			PerRun: x, PerRunText: show(x), LabelX: 8, LabelAnchor: "start"}
		if p.X > scatterSize*0.6 {
			p.LabelX, p.LabelAnchor = -8, "end"
		}
		p.Y = scatterSize
		if vs.Pooled.PassRate != nil {
			p.Y = scatterSize - *vs.Pooled.PassRate*scatterSize
		}
		pts = append(pts, p)
	}
	var ticks []tick
	for i := 0; i <= 4; i++ {
		ticks = append(ticks, tick{float64(i) / 4 * scatterSize, show(top * float64(i) / 4)})
	}
	return pts, ticks, label
}

// niceCeiling is x rounded up to 1, 2 or 5 times a power of ten (1 for
// nothing), so the axis reads in round numbers.
func niceCeiling(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if x <= m*p {
			return m * p
		}
	}
	return 10 * p
}
