// Package fuzz holds one fuzz target per gramc entry point (parser,
// formatter, checker, schema and Go emitters, argument validation).
//
// `go test ./fuzz` (and so `make test`) runs every target on its seed corpus;
// `make fuzz` runs each for FUZZTIME (default 1m).
package fuzz
