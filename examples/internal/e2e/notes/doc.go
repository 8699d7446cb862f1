// Package notes is the Go code gramc generates for notes.gram, a strict
// tool, with an end-to-end test through the runtime and the fake OpenAI
// server. The generated file is kept fresh by go generate and checked by
// cli's TestGenCheck.
package notes

//go:generate go run github.com/gramc-dev/gramc/cmd/gramc gen .
