package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/regular"
)

// A recorded eval (Options.Record) is a directory:
//
//	DIR/eval.json                        the manifest: why it stopped
//	DIR/VARIANT/TEST/001.cassette        run 1's traffic (and tool results)
//	DIR/VARIANT/TEST/001.json            run 1's latency; written last
//
// VARIANT and TEST are the names made safe for a file name. A run's
// .json file exists only when its run finished, so a replay runs exactly
// the runs that were recorded.

// Manifest is DIR/eval.json: what was recorded, so that a replay asked
// for another eval says so rather than report part of one.
type Manifest struct {
	Version  int      `json:"version"`
	Runs     int      `json:"runs"`
	Tests    []string `json:"tests"`
	Variants []string `json:"variants"`
	Stopped  string   `json:"stopped,omitempty"`
}

// manifestOf is the manifest of an eval of tests and variants.
func manifestOf(e *evaluation, stopped string) Manifest {
	m := Manifest{Version: ReportVersion, Runs: e.o.Runs, Tests: []string{}, Variants: []string{}, Stopped: stopped}
	for _, t := range e.tests {
		m.Tests = append(m.Tests, t.Name)
	}
	for _, v := range e.variants {
		m.Variants = append(m.Variants, v.Name)
	}
	return m
}

// matches says how the eval asked for differs from the one recorded
// (nil when it does not).
func (m *Manifest) matches(e *evaluation, dir string) error {
	want := manifestOf(e, "")
	switch {
	case !slices.Equal(m.Variants, want.Variants):
		return fmt.Errorf("%s was recorded with variants %s, not %s: give the recording's --model and --variant flags", dir, strings.Join(m.Variants, ", "), strings.Join(want.Variants, ", "))
	case !slices.Equal(m.Tests, want.Tests):
		return fmt.Errorf("%s was recorded with tests %s, not %s: give the recording's paths, -run and --cases", dir, strings.Join(m.Tests, ", "), strings.Join(want.Tests, ", "))
	case m.Runs != want.Runs:
		return fmt.Errorf("%s was recorded with --runs %d, not %d", dir, m.Runs, want.Runs)
	}
	return nil
}

// runMeta is a run's DIR/VARIANT/TEST/NNN.json: what its cassette does
// not hold.
type runMeta struct {
	LatencyNanos int64 `json:"latencyNanos"`
}

// maxMetaBytes bounds the small JSON files of a recording.
const maxMetaBytes = 64 << 10

// runPaths are the directory names of the tests and variants.
type runPaths struct{ tests, variants []string }

// runDirs names each test's and variant's directory: its name made safe,
// and a second test of the same name (another package's) numbered.
func runDirs(tests []*check.Test, variants []Variant) runPaths {
	var p runPaths
	seen := map[string]int{}
	for _, t := range tests {
		name := safeName(t.Name)
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s-%d", name, n)
		}
		p.tests = append(p.tests, name)
	}
	for _, v := range variants {
		p.variants = append(p.variants, safeName(v.Name))
	}
	return p
}

func (p runPaths) base(dir string, j job) string {
	return filepath.Join(dir, p.variants[j.v], p.tests[j.t], fmt.Sprintf("%03d", j.i+1))
}

func (p runPaths) cassette(dir string, j job) string { return p.base(dir, j) + ".cassette" }
func (p runPaths) meta(dir string, j job) string     { return p.base(dir, j) + ".json" }

// safeName is name with every byte but a letter, digit, '.', '_' or '-'
// replaced by '_', and never "." or "..".
func safeName(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, name)
	if strings.Trim(s, ".") == "" {
		s = strings.ReplaceAll(s, ".", "_")
	}
	return s
}

func writeRunMeta(path string, m runMeta) error { return writeJSONFile(path, m) }

func readRunMeta(path string) (runMeta, error) {
	var m runMeta
	return m, readJSONFile(path, &m)
}

func writeManifest(dir string, m Manifest) error {
	return writeJSONFile(filepath.Join(dir, "eval.json"), m)
}

// ReadManifest reads a recorded eval's manifest: its absence means the
// directory holds no recorded eval.
func ReadManifest(dir string) (*Manifest, error) {
	var m Manifest
	if err := readJSONFile(filepath.Join(dir, "eval.json"), &m); err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s holds no recorded eval (no eval.json): record one with --record %s", dir, dir)
		}
		return nil, err
	}
	if m.Version != ReportVersion {
		return nil, fmt.Errorf("%s: recorded by eval format version %d; this gramc reads version %d", dir, m.Version, ReportVersion)
	}
	return &m, nil
}

func readJSONFile(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMetaBytes+1))
	if err != nil {
		return err
	}
	n := len(data)
	if n > maxMetaBytes {
		return fmt.Errorf("%s: more than %d bytes", path, maxMetaBytes)
	}
	if err := json.Unmarshal(data[:n], v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return regular.WriteFile(path, append(data, '\n'))
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
