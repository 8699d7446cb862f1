package eval

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzDataset: whatever a dataset's bytes, ReadDataset returns tests or
// a *DatasetError whose every problem is at FILE:LINE — never a panic,
// and never a test the checker did not check.
func FuzzDataset(f *testing.F) {
	for _, s := range []string{
		`{"agent": "helper", "input": "Hello, I am Ada", "answerContains": "Hi"}`,
		`{"agent": "helper", "input": {"a": [1, {"b": null}]}, "answer": {"x": [{"y": "` + "`" + `\\"}]}}`,
		`{"agent": "helper", "input": "x", "calls": [{"tool": "triage", "args": {"ticket": {"id": "T", "tags": ["a"]}}, "returns": []}]}`,
		`{"agent": "helper", "input": "x", "calls": [{"tool": "sayHello", "args": {"bad key": 1}}]}`,
		"\n\n{\"agent\": \"nobody\"}\n{",
		`{"name": "x]|[y:Agent", "agent": "helper", "input": "x"}`,
		`{"agent": "helper\"] [z:Test {agent: \"helper", "input": "x\n]"}`,
		strings.Repeat(`{"agent": "helper", "input": "x"}`+"\n", 50),
		"\x00\xff",
	} {
		f.Add(s)
	}
	pkg := loadPackage(f, datasetPkg)
	f.Fuzz(func(t *testing.T, data string) {
		tests, err := ReadDataset("cases.jsonl", strings.NewReader(data), pkg)
		var de *DatasetError
		switch {
		case errors.As(err, &de):
			for _, p := range de.Problems {
				if !strings.HasPrefix(p, "cases.jsonl:") {
					t.Fatalf("a problem not at FILE:LINE: %q", p)
				}
			}
		case err != nil:
			t.Fatalf("not a DatasetError: %v", err)
		default:
			for _, tt := range tests {
				if tt.Agent == nil || tt.Range.File != "cases.jsonl" {
					t.Fatalf("an unchecked test: %+v", tt)
				}
			}
		}
	})
}

// FuzzReadReport: a baseline is read or refused with an error, never a
// panic; one that is read gates a report without one.
func FuzzReadReport(f *testing.F) {
	var b bytes.Buffer
	sampleReport().WriteJSON(&b)
	f.Add(b.String())
	f.Add(`{"version": 1, "cells": [{"test": "a", "variant": "v", "counted": 3, "passed": 9}]}`)
	f.Add(`{"version": 1, "cells": [{"test": "plain", "variant": "a", "counted": 4, "passed": 1, "passRate": null}], "variants": [{"name": "a"}]}`)
	f.Add(`{"version": 2}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, data string) {
		base, err := ReadReport(strings.NewReader(data))
		if err != nil {
			return
		}
		Gate(sampleReport(), base)
	})
}

// FuzzParseFiles: variant and prices files are read or refused.
func FuzzParseFiles(f *testing.F) {
	f.Add(`{"tools": {"a": "echo"}, "model": "OpenAI/x", "instruction": "i", "temperature": 0.5}`)
	f.Add(`{"OpenAI/x": {"input": 1, "output": 2}}`)
	f.Add(`{"temperature": 1e400}`)
	f.Fuzz(func(t *testing.T, data string) {
		ParseVariantFile([]byte(data))
		ParsePrices([]byte(data))
	})
}
