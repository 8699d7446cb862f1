package eval

import (
	"math"
	"math/big"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilsonPublished holds Wilson95 to the worked examples of
// R. G. Newcombe, "Two-sided confidence intervals for the single
// proportion: comparison of seven methods", Statistics in Medicine 17
// (1998) 857–872, Table I, method 3 (the Wilson score interval without
// continuity correction), to the four decimals printed there.
func TestWilsonPublished(t *testing.T) {
	for _, tc := range []struct {
		c, n      int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{29, 29, 0.8830, 1.0000},
	} {
		got := Wilson95(tc.c, tc.n)
		if !near(got.Low, tc.low, 5e-5) || !near(got.High, tc.high, 5e-5) {
			t.Errorf("Wilson95(%d, %d) = [%.4f, %.4f], published [%.4f, %.4f]", tc.c, tc.n, got.Low, got.High, tc.low, tc.high)
		}
	}
}

// TestNewcombePublished holds NewcombeDiff to the worked examples of
// Newcombe (1998), "Interval estimation for the difference between
// independent proportions", Table II, method 10.
func TestNewcombePublished(t *testing.T) {
	for _, tc := range []struct {
		c1, n1, c2, n2 int
		low, high      float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339}, // difference 0.2000
		{9, 10, 3, 10, 0.1705, 0.8090},
		{5, 56, 0, 29, -0.0381, 0.1926},
		{0, 10, 0, 20, -0.1611, 0.2775},
		{10, 10, 0, 20, 0.6791, 1.0000},
	} {
		got := NewcombeDiff(tc.c1, tc.n1, tc.c2, tc.n2, z95)
		if !near(got.Low, tc.low, 5e-5) || !near(got.High, tc.high, 5e-5) {
			t.Errorf("NewcombeDiff(%d/%d − %d/%d) = [%.4f, %.4f], published [%.4f, %.4f]", tc.c1, tc.n1, tc.c2, tc.n2, got.Low, got.High, tc.low, tc.high)
		}
	}
}

// binomRatio is C(a,k)/C(n,k) in exact rational arithmetic.
func binomRatio(a, n, k int) float64 {
	num := new(big.Int).Binomial(int64(a), int64(k))
	if a < k {
		num.SetInt64(0)
	}
	r := new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(k)))
	f, _ := r.Float64()
	return f
}

// TestPassKExact compares pass^k and pass@k with the binomial formulas
// in exact arithmetic, up to n = 10,000 where the binomials have
// thousands of digits.
func TestPassKExact(t *testing.T) {
	for _, tc := range [][3]int{{0, 5, 1}, {3, 5, 2}, {5, 5, 5}, {4, 5, 5}, {45, 50, 50}, {45, 50, 10}, {9000, 10000, 30}, {9990, 10000, 1000}, {10000, 10000, 10000}, {1, 10000, 9999}} {
		c, n, k := tc[0], tc[1], tc[2]
		want := binomRatio(c, n, k)
		if got := PassHatK(c, n, k); !near(got, want, 1e-12*math.Max(1, want)) {
			t.Errorf("PassHatK(%d, %d, %d) = %g, want %g", c, n, k, got, want)
		}
		wantAt := 1 - binomRatio(n-c, n, k)
		if got := PassAtK(c, n, k); !near(got, wantAt, 1e-12) {
			t.Errorf("PassAtK(%d, %d, %d) = %g, want %g", c, n, k, got, wantAt)
		}
	}
	for _, k := range []int{0, -1, 6} {
		if !math.IsNaN(PassHatK(3, 5, k)) || !math.IsNaN(PassAtK(3, 5, k)) {
			t.Errorf("k = %d of 5 runs: want NaN (undefined)", k)
		}
	}
}

// TestCompare: the verdict follows the interval, not the point
// estimate.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		c1, n1, c2, n2 int
		want           Verdict
	}{
		{45, 50, 30, 50, Better},
		{30, 50, 45, 50, Worse},
		{45, 50, 44, 50, NoSignificant},
		{3, 5, 1, 5, NoSignificant}, // 0.6 vs 0.2: too few runs to say
	} {
		if _, got := Compare(tc.c1, tc.n1, tc.c2, tc.n2); got != tc.want {
			t.Errorf("Compare(%d/%d, %d/%d) = %s, want %s", tc.c1, tc.n1, tc.c2, tc.n2, got, tc.want)
		}
	}
}

// TestRegressed is the gate: 0.95 → 0.70 at 50 runs is a
// regression, 0.95 → 0.93 is not.
func TestRegressed(t *testing.T) {
	if r, _ := Regressed(35, 50, 47, 50); !r { // 0.70 after 0.94
		t.Error("0.94 → 0.70 at 50 runs: want a regression")
	}
	if r, _ := Regressed(35, 50, 48, 50); !r { // 0.70 after 0.96
		t.Error("0.96 → 0.70 at 50 runs: want a regression")
	}
	if r, _ := Regressed(46, 50, 48, 50); r { // 0.92 after 0.96
		t.Error("0.96 → 0.92 at 50 runs: want no regression")
	}
	if r, _ := Regressed(50, 50, 0, 50); r {
		t.Error("an improvement is no regression")
	}
	if r, _ := Regressed(0, 0, 47, 50); r {
		t.Error("no runs: no evidence of a regression")
	}
}

func TestWilsonEdges(t *testing.T) {
	if got := Wilson95(0, 0); got != (Interval{0, 1}) {
		t.Errorf("Wilson95(0, 0) = %v, want [0, 1]", got)
	}
	for n := 1; n <= 200; n++ {
		for c := 0; c <= n; c++ {
			iv := Wilson95(c, n)
			p := float64(c) / float64(n)
			if !iv.Contains(p) || iv.Low < 0 || iv.High > 1 {
				t.Fatalf("Wilson95(%d, %d) = %v: not within [0,1] around %g", c, n, iv, p)
			}
		}
	}
}
