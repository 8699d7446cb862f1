package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
)

// ReportVersion is the version of the JSON report (docs/eval.md): a
// change a reader must know of makes it 2.
const ReportVersion = 1

// Outcome is how a run ended.
type Outcome string

// The outcomes of a run. An errored run (a provider or transport error
// after the runtime's retries) is not the agent's failure: it is counted
// apart and left out of every rate.
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Errored Outcome = "errored"
)

// Report is an eval's outcome: the JSON report, documented in
// docs/eval.md, and what every other format shows.
type Report struct {
	Version int `json:"version"`
	// Runs is how often each test was to run for each variant; K is
	// pass^k's k.
	Runs int `json:"runs"`
	K    int `json:"k"`
	// Scheduled is how many runs the eval was to make, Completed how
	// many it made; Stopped says why they differ ("max-cost",
	// "interrupted"; "" when they do not).
	Scheduled   int              `json:"scheduled"`
	Completed   int              `json:"completed"`
	Stopped     string           `json:"stopped,omitempty"`
	Variants    []VariantSummary `json:"variants"`
	Cells       []Cell           `json:"cells"`
	Comparisons []Comparison     `json:"comparisons"`
	// Regressions are the cells significantly worse than the baseline's
	// (Gate); omitted when there are none, or no baseline.
	Regressions []Regression `json:"regressions,omitempty"`
	RunList     []RunRecord  `json:"runList"`
}

// Cell is one test on one variant.
type Cell struct {
	Test    string `json:"test"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Variant string `json:"variant"`
	Model   string `json:"model"`
	Rates
	// Failures counts the failed runs' failures by kind
	// (agenttest.FailureKind).
	Failures map[string]int `json:"failures"`
	Usage
	Latency LatencyStats `json:"latencyMs"`
}

// Rates are the pass counts of some runs and what follows from them.
type Rates struct {
	// Runs are the runs made; Errored of them ended with a provider
	// error; Counted = Runs − Errored, of which Passed passed.
	Runs    int `json:"runs"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	Counted int `json:"counted"`
	// PassRate is Passed/Counted (null when nothing counted), with its
	// Wilson 95% interval.
	PassRate *float64 `json:"passRate"`
	Wilson   Interval `json:"wilson95"`
	// PassHatK and PassAtK are τ-bench's pass^k and pass@k at the
	// report's k (null when fewer than k runs counted).
	PassHatK *float64 `json:"passHatK"`
	PassAtK  *float64 `json:"passAtK"`
}

// Usage is tokens and money.
type Usage struct {
	InputTokens  int     `json:"inputTokens"`
	OutputTokens int     `json:"outputTokens"`
	CostUSD      float64 `json:"costUSD"`
}

// LatencyStats summarise the runs' wall time, in milliseconds.
type LatencyStats struct {
	Total float64 `json:"total"`
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P95   float64 `json:"p95"`
}

// VariantSummary is a variant over all tests.
type VariantSummary struct {
	Name  string `json:"name"`
	Model string `json:"model,omitempty"`
	// Pooled are the counts of every run of the variant.
	Pooled Rates `json:"pooled"`
	// MeanPassRate and MeanPassHatK are the means over the tests of their
	// cells' rates (the tests that counted a run; pass^k of those with k).
	MeanPassRate *float64 `json:"meanPassRate"`
	MeanPassHatK *float64 `json:"meanPassHatK"`
	Usage
	Latency LatencyStats `json:"latencyMs"`
}

// Comparison is variant A against variant B on the same tests: the
// difference of their pooled pass rates with its Newcombe 95% interval,
// and the verdict that interval gives on A.
type Comparison struct {
	A          string   `json:"a"`
	B          string   `json:"b"`
	Difference float64  `json:"difference"`
	Interval   Interval `json:"interval95"`
	Verdict    Verdict  `json:"verdict"`
}

// RunRecord is one run.
type RunRecord struct {
	Test    string  `json:"test"`
	Variant string  `json:"variant"`
	Run     int     `json:"run"`
	Model   string  `json:"model"`
	Outcome Outcome `json:"outcome"`
	// Failures are why a failed run failed; Error why an errored one
	// errored.
	Failures     []FailureRecord `json:"failures"`
	Error        string          `json:"error,omitempty"`
	InputTokens  int             `json:"inputTokens"`
	OutputTokens int             `json:"outputTokens"`
	CostUSD      float64         `json:"costUSD"`
	LatencyMs    float64         `json:"latencyMs"`

	test, variant int  // indexes, for ordering
	cancelled     bool // cut short by an interrupt: left out
}

// FailureRecord is one failure of a run: its kind
// (agenttest.FailureKind) and its message, positioned.
type FailureRecord struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// buildReport computes the report from the runs made.
func buildReport(e *evaluation, records []RunRecord, scheduled int, stopped string) *Report {
	records = slices.Clone(records)
	sort.Slice(records, func(i, j int) bool {
		a, b := records[i], records[j]
		if a.variant != b.variant {
			return a.variant < b.variant
		}
		if a.test != b.test {
			return a.test < b.test
		}
		return a.Run < b.Run
	})
	rep := &Report{Version: ReportVersion, Runs: e.o.Runs, K: e.o.K, Scheduled: scheduled, Completed: len(records),
		Stopped: stopped, Cells: []Cell{}, Variants: []VariantSummary{}, Comparisons: []Comparison{}, RunList: records}
	byCell := map[[2]int][]RunRecord{}
	for _, r := range records {
		k := [2]int{r.variant, r.test}
		byCell[k] = append(byCell[k], r)
	}
	for v, variant := range e.variants {
		var all []RunRecord
		var cells []Cell
		for t, test := range e.tests {
			runs := byCell[[2]int{v, t}]
			all = append(all, runs...)
			c := Cell{Test: test.Name, File: test.Range.File, Line: int(test.Range.Start.Line), Variant: variant.Name,
				Model: modelOf(test, variant), Rates: rates(runs, e.o.K), Failures: failureKinds(runs), Usage: usage(runs), Latency: latency(runs)}
			cells = append(cells, c)
		}
		rep.Cells = append(rep.Cells, cells...)
		rep.Variants = append(rep.Variants, summarise(variant, cells, all, e.o.K))
	}
	rep.Comparisons = compareVariants(rep.Variants)
	return rep
}

func rates(runs []RunRecord, k int) Rates {
	var r Rates
	for _, run := range runs {
		r.Runs++
		switch run.Outcome {
		case Passed:
			r.Passed++
		case Failed:
			r.Failed++
		case Errored:
			r.Errored++
		}
	}
	r.Counted = r.Passed + r.Failed
	r.Wilson = Wilson95(r.Passed, r.Counted)
	if r.Counted > 0 {
		r.PassRate = ptr(float64(r.Passed) / float64(r.Counted))
	}
	r.PassHatK = finite(PassHatK(r.Passed, r.Counted, k))
	r.PassAtK = finite(PassAtK(r.Passed, r.Counted, k))
	return r
}

func failureKinds(runs []RunRecord) map[string]int {
	out := map[string]int{}
	for _, r := range runs {
		for _, f := range r.Failures {
			out[f.Kind]++
		}
	}
	return out
}

func usage(runs []RunRecord) Usage {
	var u Usage
	for _, r := range runs {
		u.InputTokens += r.InputTokens
		u.OutputTokens += r.OutputTokens
		u.CostUSD += r.CostUSD
	}
	return u
}

// latency is the runs' total, mean, and 50th and 95th percentiles by
// the nearest-rank method.
func latency(runs []RunRecord) LatencyStats {
	if len(runs) == 0 {
		return LatencyStats{}
	}
	ms := make([]float64, len(runs))
	var s LatencyStats
	for i, r := range runs {
		ms[i] = r.LatencyMs
		s.Total += r.LatencyMs
	}
	slices.Sort(ms)
	s.Mean = s.Total / float64(len(ms))
	s.P50, s.P95 = nearestRank(ms, 50), nearestRank(ms, 95)
	return s
}

// nearestRank is the p-th percentile of sorted xs: the ⌈p/100·n⌉-th
// smallest.
func nearestRank(xs []float64, p float64) float64 {
	i := int(math.Ceil(p/100*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

func summarise(v Variant, cells []Cell, runs []RunRecord, k int) VariantSummary {
	s := VariantSummary{Name: v.Name, Model: v.Model, Pooled: rates(runs, k), Usage: usage(runs), Latency: latency(runs)}
	var rateSum, hatSum float64
	var nRate, nHat int
	for _, c := range cells {
		if c.PassRate != nil {
			rateSum += *c.PassRate
			nRate++
		}
		if c.PassHatK != nil {
			hatSum += *c.PassHatK
			nHat++
		}
	}
	if nRate > 0 {
		s.MeanPassRate = ptr(rateSum / float64(nRate))
	}
	if nHat > 0 {
		s.MeanPassHatK = ptr(hatSum / float64(nHat))
	}
	s.Pooled.PassHatK, s.Pooled.PassAtK = nil, nil // per test, not pooled: see MeanPassHatK
	return s
}

// compareVariants compares every pair of variants, in order.
func compareVariants(vs []VariantSummary) []Comparison {
	out := []Comparison{}
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			a, b := vs[i].Pooled, vs[j].Pooled
			if a.Counted == 0 || b.Counted == 0 {
				continue
			}
			iv, verdict := Compare(a.Passed, a.Counted, b.Passed, b.Counted)
			d := float64(a.Passed)/float64(a.Counted) - float64(b.Passed)/float64(b.Counted)
			out = append(out, Comparison{A: vs[i].Name, B: vs[j].Name, Difference: d, Interval: iv, Verdict: verdict})
		}
	}
	return out
}

func ptr(x float64) *float64 { return &x }

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// MaxReportBytes bounds a baseline report read by ReadReport.
const MaxReportBytes = 256 << 20

// ReadReport reads a JSON report (a baseline), refusing another version.
func ReadReport(rd io.Reader) (*Report, error) {
	data, err := io.ReadAll(io.LimitReader(rd, MaxReportBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxReportBytes {
		return nil, fmt.Errorf("more than %d bytes: not a report", MaxReportBytes)
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a gramc eval JSON report: %w", err)
	}
	if head.Version != ReportVersion {
		return nil, fmt.Errorf("a report of version %d; this gramc reads version %d (gramc eval --format json)", head.Version, ReportVersion)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a gramc eval JSON report: %w", err)
	}
	return &r, nil
}
