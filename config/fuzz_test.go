package config

import (
	"strings"
	"testing"
)

// FuzzConfig gives Parse any text as a gramc.json: it ends, never panics,
// reports at most MaxProblems problems and one that counts the rest, and
// places each in the file. Seeded with the probe's inputs of issue 35 (a
// file of many unknown codes, a deep one) and the valid keys.
func FuzzConfig(f *testing.F) {
	f.Add([]byte(`{"targets": ["openai-strict", "gemini"], "disable": ["target-keyword-in-description"], "severity": {"unknown-property": "error"}, "baseline": "main"}`))
	f.Add([]byte(`{"disable":[` + strings.Repeat(`"no-such-code",`, 200) + `"x"]}`))
	f.Add([]byte(`{"severity":{` + strings.Repeat(`"nope":"error",`, 80) + `"z":"x"}}`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Add([]byte(`{"baseline": "-x", "targets": "all", "unknown": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > MaxSize {
			return
		}
		_, ds := Parse(FileName, data)
		if len(ds) > MaxProblems+1 {
			t.Fatalf("%d problems reported, over the bound of %d and one", len(ds), MaxProblems)
		}
		for _, d := range ds {
			if d.Summary == "" || int(d.Range.Start.Offset) > len(data) {
				t.Fatalf("a problem without words or outside the file: %+v", d)
			}
		}
	})
}
