// Package weather is the Go code gramc generates for
// testdata/examples/weather.gram, with an end-to-end test that runs it
// through the runtime against the fake OpenAI server. The generated file is
// kept fresh by go generate and checked by cli's TestGenCheck.
package weather

//go:generate go run github.com/gramc-dev/gramc/cmd/gramc gen -o . --package weather ../../../../testdata/examples/weather.gram
