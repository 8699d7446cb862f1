// Package eval measures how well agents do their job: it runs each
// :Test of a package (or each case of a dataset) N times live, for every
// variant (a model, a tool library, an instruction), through the same
// matcher as gramc test (agenttest), and reports per test × variant the
// pass rate with its Wilson interval, pass^k and pass@k, tokens, cost and
// latency, with the differences between variants decided by Newcombe's
// interval and a one-sided regression gate against a baseline report
// (docs/eval.md). gramc eval is this package on the command line.
package eval
