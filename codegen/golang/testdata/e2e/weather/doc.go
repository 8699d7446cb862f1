// Package weather is an end-to-end test of the Go code gramc generates
// for testdata/examples/weather.gram (Go package weather): it runs the
// generated agent and tools through the runtime against the fake OpenAI
// server. The generated code exists only at test time: codegen/golang's
// TestCompile generates it beside this directory's files in its temporary
// module, with weather.gram, and runs go test there.
package weather
