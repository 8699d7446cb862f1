package eval

import "math"

// The statistics of a report, each formula with its source. Every
// function takes counts (passes c of n runs) and returns plain numbers;
// the report decides what they mean.

// z95 is the standard normal quantile for a two-sided 95% interval,
// Φ⁻¹(0.975); z95OneSided for a one-sided one, Φ⁻¹(0.95).
const (
	z95         = 1.959963984540054
	z95OneSided = 1.6448536269514722
)

// Interval is a confidence interval [Low, High].
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Contains reports whether p lies in the interval.
func (i Interval) Contains(p float64) bool { return i.Low <= p && p <= i.High }

// Wilson is the Wilson score interval for a proportion, c successes of n
// trials, at normal quantile z (E. B. Wilson, "Probable inference, the
// law of succession, and statistical inference", JASA 22 (1927) 209–212;
// Newcombe 1998b, method 3):
//
//	(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)
//
// With n = 0 nothing is known: [0, 1].
func Wilson(c, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := float64(c) / nf
	z2 := z * z
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / denom
	iv := Interval{clamp01(center - half), clamp01(center + half)}
	// At c = 0 or c = n one end is exactly 0 or 1 (the formula's two
	// terms cancel); rounding must not leave it a hair off.
	if c <= 0 {
		iv.Low = 0
	}
	if c >= n {
		iv.High = 1
	}
	return iv
}

// Wilson95 is the two-sided 95% Wilson interval.
func Wilson95(c, n int) Interval { return Wilson(c, n, z95) }

// PassHatK is τ-bench's pass^k: the probability that k independent
// trials all succeed, estimated without bias from c successes of n
// trials as C(c,k)/C(n,k) (Yao et al., "τ-bench: A Benchmark for
// Tool-Agent-User Interaction in Real-World Domains", 2024, §3). It is
// computed as the product ∏_{i<k} (c−i)/(n−i), whose factors are at
// most 1, so it neither overflows nor loses precision at n = 10,000.
// k outside 1..n gives NaN: the estimate is not defined.
func PassHatK(c, n, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	return ratioOfBinomials(c, n, k)
}

// PassAtK is pass@k, the probability that at least one of k trials
// succeeds, estimated without bias as 1 − C(n−c,k)/C(n,k) (Chen et al.,
// "Evaluating Large Language Models Trained on Code", 2021, eq. 1).
func PassAtK(c, n, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	return 1 - ratioOfBinomials(n-c, n, k)
}

// ratioOfBinomials is C(a,k)/C(n,k) for 0 ≤ a ≤ n and 1 ≤ k ≤ n, as
// ∏_{i<k} (a−i)/(n−i) — zero as soon as a factor is (k > a).
func ratioOfBinomials(a, n, k int) float64 {
	r := 1.0
	for i := range k {
		if a-i <= 0 {
			return 0
		}
		r *= float64(a-i) / float64(n-i)
	}
	return r
}

// NewcombeDiff is the hybrid score interval for the difference p₁ − p₂
// of two independent proportions, c1 of n1 and c2 of n2, at normal
// quantile z: method 10 of R. G. Newcombe, "Interval estimation for the
// difference between independent proportions: comparison of eleven
// methods", Statistics in Medicine 17 (1998) 873–890. With (l₁,u₁) and
// (l₂,u₂) the Wilson intervals of each proportion at the same z,
//
//	δ = √((p̂₁−l₁)² + (u₂−p̂₂)²),  ε = √((u₁−p̂₁)² + (p̂₂−l₂)²)
//	interval = (p̂₁ − p̂₂ − δ, p̂₁ − p̂₂ + ε)
func NewcombeDiff(c1, n1, c2, n2 int, z float64) Interval {
	p1, p2 := rate(c1, n1), rate(c2, n2)
	w1, w2 := Wilson(c1, n1, z), Wilson(c2, n2, z)
	d := p1 - p2
	delta := math.Hypot(p1-w1.Low, w2.High-p2)
	eps := math.Hypot(w1.High-p1, p2-w2.Low)
	return Interval{math.Max(-1, d-delta), math.Min(1, d+eps)}
}

// Verdict is how one proportion compares with another.
type Verdict string

// The verdicts, decided by an interval of the difference, never by the
// point estimate alone.
const (
	Better        Verdict = "better"
	Worse         Verdict = "worse"
	NoSignificant Verdict = "no significant difference"
)

// Compare is the verdict on c1/n1 against c2/n2 by the two-sided 95%
// Newcombe interval of their difference: better when it lies above 0,
// worse below, otherwise no significant difference.
func Compare(c1, n1, c2, n2 int) (Interval, Verdict) {
	iv := NewcombeDiff(c1, n1, c2, n2, z95)
	switch {
	case iv.Low > 0:
		return iv, Better
	case iv.High < 0:
		return iv, Worse
	}
	return iv, NoSignificant
}

// Regressed reports whether c/n is significantly lower than the
// baseline's cb/nb, one-sided at 95%: the upper bound of the one-sided
// 95% Newcombe interval of the difference (new − baseline, z = Φ⁻¹(0.95))
// is below 0. It returns that bound too.
func Regressed(c, n, cb, nb int) (bool, float64) {
	if n == 0 || nb == 0 {
		return false, math.NaN()
	}
	high := NewcombeDiff(c, n, cb, nb, z95OneSided).High
	return high < 0, high
}

func rate(c, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(c) / float64(n)
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }
