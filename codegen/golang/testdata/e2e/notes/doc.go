// Package notes is an end-to-end test of the Go code gramc generates for
// testdata/examples/notes/notes.gram, a strict tool, through the runtime and the fake OpenAI
// server. The generated code exists only at test time: codegen/golang's
// TestCompile generates it beside this directory's files in its temporary
// module and runs go test there.
package notes
