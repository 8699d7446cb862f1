package runtimetest

import (
	"math"
	"testing"
)

// TestChanceRate: the draws of a model succeed at its probability, and
// a seed's draws are the same every time.
func TestChanceRate(t *testing.T) {
	c := &Chance{Seed: 7, Success: map[string]float64{"m": 0.3}}
	const n = 20000
	passes := 0
	for range n {
		if c.succeeds("m") {
			passes++
		}
	}
	if got := float64(passes) / n; math.Abs(got-0.3) > 0.015 {
		t.Errorf("rate %.4f of %d draws, want 0.3 ± 0.015", got, n)
	}
	again := &Chance{Seed: 7, Success: map[string]float64{"m": 0.3}}
	same := 0
	for range n {
		if again.succeeds("m") {
			same++
		}
	}
	if same != passes {
		t.Errorf("seed 7 drew %d then %d successes", passes, same)
	}
	if !c.succeeds("other") {
		t.Error("a model without a probability must always succeed")
	}
}
