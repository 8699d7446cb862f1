package eval

// Regression is a cell whose pass rate is significantly lower than the
// baseline's (Regressed: one-sided, 95%).
type Regression struct {
	Test     string  `json:"test"`
	Variant  string  `json:"variant"`
	Baseline string  `json:"baselineVariant"`
	Rate     float64 `json:"passRate"`
	Was      float64 `json:"baselinePassRate"`
	// Upper is the upper bound of the one-sided 95% Newcombe interval of
	// the difference (this − baseline): below 0, hence a regression.
	Upper float64 `json:"upper95"`
}

// Gate compares each cell of r with its baseline cell and records the
// significant regressions in r.Regressions. A cell's baseline is the baseline's cell of the same test
// and variant; when the baseline has one variant only, its cell of the
// same test (so a report of variant A is the baseline of variant B). A
// cell with no runs counted on either side is not judged.
func Gate(r, baseline *Report) []Regression {
	one := ""
	if len(baseline.Variants) == 1 {
		one = baseline.Variants[0].Name
	}
	index := map[[2]string]Cell{}
	for _, c := range baseline.Cells {
		index[[2]string{c.Test, c.Variant}] = c
	}
	out := []Regression{}
	for _, c := range r.Cells {
		b, ok := index[[2]string{c.Test, c.Variant}]
		if !ok && one != "" {
			b, ok = index[[2]string{c.Test, one}]
		}
		if !ok || c.Counted == 0 || b.Counted == 0 {
			continue
		}
		if worse, upper := Regressed(c.Passed, c.Counted, b.Passed, b.Counted); worse {
			out = append(out, Regression{Test: c.Test, Variant: c.Variant, Baseline: b.Variant,
				Rate: *c.PassRate, Was: *b.PassRate, Upper: upper})
		}
	}
	r.Regressions = out
	return out
}
