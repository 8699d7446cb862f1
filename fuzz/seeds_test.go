package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// corpusInputs returns the inputs of conformance case files (JSON arrays of
// objects with an "input").
func corpusInputs(f *testing.F, paths ...string) [][]byte {
	var out [][]byte
	for _, path := range paths {
		var cases []struct{ Input string }
		if err := json.Unmarshal(readSeed(f, path), &cases); err != nil {
			f.Fatalf("%s: %v", path, err)
		}
		for _, c := range cases {
			out = append(out, []byte(c.Input))
		}
	}
	return out
}

// seedFiles returns the contents of every file matching the glob patterns;
// a file that cannot be read fails the target.
func seedFiles(f *testing.F, patterns ...string) [][]byte {
	var out [][]byte
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range names {
			out = append(out, readSeed(f, name))
		}
	}
	return out
}

// readSeed is the file at path; one that cannot be read fails the target.
func readSeed(f *testing.F, path string) []byte {
	f.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// addSeeds adds seeds to f's corpus.
func addSeeds(f *testing.F, seeds [][]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
}

// addGenSeeds adds the code generators' fuzzers' seeds: every example and
// the Go generator's hostile corpus.
func addGenSeeds(f *testing.F) {
	addSeeds(f, seedFiles(f, "../testdata/examples/*.gram", "../testdata/examples/*/*.gram",
		"../examples/*/*.gram", "../codegen/golang/testdata/hostile/*.gram"))
}
