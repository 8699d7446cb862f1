// Package fuzz holds one fuzz target per gramc entry point (parser,
// checker, schema and Go emitters, argument validation). The formatter's,
// syntax.FuzzFormat, sits beside the format tests whose checks it runs;
// other packages fuzz their own inputs the same way (make fuzz lists them).
//
// `go test ./fuzz` (and so `make test`) runs every target on its seed corpus;
// `make fuzz` runs each for FUZZTIME (default 1m).
package fuzz
