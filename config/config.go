// Package config reads gramc's project configuration, gramc.json: what
// every command and the language server apply to the packages below it,
// as buf.yaml or .golangci.yml do for theirs. It is found by walking up
// from a package's directory, as the go command finds go.mod; flags
// override it.
//
//	{
//	  "targets": ["openai-strict", "gemini"],
//	  "disable": ["target-keyword-in-description"],
//	  "severity": {"unknown-property": "error"},
//	  "baseline": "main"
//	}
//
// targets are the providers gramc check and the editor lint for; disable
// turns warning codes off; severity raises a warning code to an error (or
// keeps it a warning); baseline is a git revision the language server
// compares the packages with as the user edits, showing what gramc diff
// would call breaking or dangerous. An unknown key, a value of the wrong kind, an
// unknown target or code, or an error code demoted is a diagnostic at its
// place in the file (code invalid-config).
//
// JSON because the standard library reads it and every editor knows it;
// gram's own property maps cannot hold the nested severity table.
package config

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/load/git"
)

// FileName is the configuration file's name.
const FileName = "gramc.json"

// MaxSize bounds the file.
const MaxSize = 1 << 20

// Config is a project's configuration.
type Config struct {
	// Path is the file it was read from ("" for none).
	Path     string
	Targets  []schema.Target
	Disable  []diag.Code
	Severity map[diag.Code]diag.Severity
	// Baseline is a git revision to compare the packages with ("" for
	// none).
	Baseline string
	// Prices are models' prices, by `Provider/model`, for gramc eval's
	// costs (nil for none: gramc has no price list of its own).
	Prices map[string]Price
}

// Price is a model's price in USD per million tokens.
type Price struct {
	Input, Output float64
}

// Find returns the gramc.json of dir or its nearest ancestor ("" when
// there is none).
func Find(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, FileName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// ForPatterns finds the configuration of the packages patterns name: the
// file found from the first pattern's directory (the current directory
// when there is none). A nil Config means there is none.
func ForPatterns(patterns []string) (*Config, diag.Diagnostics) {
	dir := "."
	if len(patterns) > 0 {
		p := strings.TrimSuffix(filepath.ToSlash(patterns[0]), "...")
		p = strings.TrimSuffix(p, "/")
		if p == "" {
			p = "."
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			p = filepath.Dir(p)
		}
		dir = p
	}
	path := Find(dir)
	if path == "" {
		return nil, nil
	}
	return Load(path)
}

// Load reads and checks the configuration file at path. Problems are
// diagnostics; the Config holds what was valid. A file another user could
// have written, or a symbolic link out of its directory, is not used (a
// diagnostic says why); nor is anything but a regular file opened.
func Load(path string) (*Config, diag.Diagnostics) {
	if why := untrusted(path); why != "" {
		return nil, diag.Diagnostics{problem(path, 0, nil, "%s is not used: %s", FileName, why)}
	}
	f, _, err := regular.Open(path)
	if err != nil {
		return nil, diag.Diagnostics{problem(path, 0, nil, "cannot read %s: %v", FileName, err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, diag.Diagnostics{problem(path, 0, nil, "cannot read %s: %v", FileName, err)}
	}
	if len(data) > MaxSize {
		return nil, diag.Diagnostics{problem(path, 0, nil, "%s is over the %d KiB limit", FileName, MaxSize>>10)}
	}
	return Parse(path, data)
}

// MaxProblems bounds the problems reported of one file: a file of a
// million mistakes is said in a few, and read in milliseconds (issue
// 35.3: a 1 MiB gramc.json of unknown codes held the language server for
// two minutes).
const MaxProblems = 50

// prices reads "prices": {"Provider/model": {"input": USD, "output":
// USD}}, per million tokens; a bad entry is reported and left out.
func prices(v *jsonvalue.Node, report func(int32, string, ...any)) map[string]Price {
	const want = `prices must be an object of "Provider/model": {"input": USD, "output": USD}, per million tokens`
	if v.Kind != jsonvalue.Object {
		report(v.Off, want)
		return nil
	}
	out := map[string]Price{}
	for i, model := range v.Keys {
		e := v.Obj[model]
		if e.Kind != jsonvalue.Object || len(e.Keys) != 2 || e.Obj["input"] == nil || e.Obj["output"] == nil {
			report(v.KeyOffs[i], "prices of %q: want {\"input\": USD, \"output\": USD}, per million tokens", model)
			continue
		}
		in, okIn := usd(e.Obj["input"])
		out2, okOut := usd(e.Obj["output"])
		if !okIn || !okOut {
			report(v.KeyOffs[i], "prices of %q: want numbers of USD per million tokens, 0 or more", model)
			continue
		}
		out[model] = Price{Input: in, Output: out2}
	}
	return out
}

// usd is a price's number, when it is one, finite and not negative.
func usd(n *jsonvalue.Node) (float64, bool) {
	if n.Kind != jsonvalue.Number {
		return 0, false
	}
	f, err := n.Num.Float64()
	return f, err == nil && f >= 0 && !math.IsInf(f, 0)
}

// Parse reads a configuration's text; path names it in diagnostics. The
// text is read by jsonvalue.Read, which keeps each value's place, as
// gramc diff reads a snapshot. At most MaxProblems problems are
// reported, then how many more there are.
func Parse(path string, data []byte) (c *Config, ds diag.Diagnostics) {
	c = &Config{Path: path, Severity: map[diag.Code]diag.Severity{}}
	dropped := 0 // problems past MaxProblems, counted, not reported
	full := func() bool {
		if len(ds) >= MaxProblems {
			dropped++
			return true
		}
		return false
	}
	report := func(off int32, format string, args ...any) {
		if !full() {
			ds = append(ds, problem(path, int64(off), data, format, args...))
		}
	}
	defer func() {
		if dropped > 0 {
			ds = append(ds, problem(path, 0, nil, "%d more problems in %s, not reported (the first %d are)", dropped, FileName, MaxProblems))
		}
	}()
	root, err := jsonvalue.Read(data)
	if err != nil {
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			report(se.Off, "not valid JSON: %s", strings.TrimPrefix(se.Msg, "invalid JSON: "))
		} else {
			report(0, "not valid JSON: %v", err)
		}
		return c, ds
	}
	if root.Kind != jsonvalue.Object {
		report(root.Off, "%s must hold one JSON object", FileName)
		return c, ds
	}
	known := map[diag.Code]diag.CodeInfo{}
	var codeNames []string
	for _, ci := range diag.Codes() {
		known[ci.Code] = ci
		codeNames = append(codeNames, string(ci.Code))
	}
	code := func(off int32, s string) (diag.CodeInfo, bool) {
		ci, ok := known[diag.Code(s)]
		if !ok && !full() {
			// (The suggestion costs: only for a problem reported.)
			ds = append(ds, problem(path, int64(off), data, "unknown diagnostic code %q%s", s, suggest.DidYouMean(suggest.Closest(s, codeNames))))
		}
		return ci, ok
	}
	keys := []string{"targets", "disable", "severity", "baseline", "prices"}
	for i, key := range root.Keys {
		keyOff, v := root.KeyOffs[i], root.Obj[key]
		switch key {
		case "targets", "disable":
			if !stringList(v) {
				report(keyOff, "%s must be a list of strings", key)
				continue
			}
			for _, e := range v.Arr {
				s := e.Str
				if key == "targets" {
					ts, err := schema.ParseTargets(s)
					if err != nil {
						report(e.Off, "%v", err)
						continue
					}
					c.Targets = append(c.Targets, ts...)
					continue
				}
				ci, ok := code(e.Off, s)
				if !ok {
					continue
				}
				if ci.Severity == diag.Error {
					report(e.Off, "%s is an error and cannot be disabled (a later stage would fail on it)", s)
					continue
				}
				c.Disable = append(c.Disable, ci.Code)
			}
		case "baseline":
			if v.Kind != jsonvalue.String {
				report(keyOff, "baseline must be a string: a git revision such as \"main\"")
				continue
			}
			if why := git.ValidRevision(v.Str); why != "" {
				report(keyOff, "baseline %q: %s", v.Str, why)
				continue
			}
			c.Baseline = v.Str
		case "prices":
			c.Prices = prices(v, report)
		case "severity":
			if v.Kind != jsonvalue.Object {
				report(keyOff, "severity must be an object of code: \"error\" or \"warning\"")
				continue
			}
			severities(v, c, code, report)
		default:
			report(keyOff, "unknown key %q%s (the keys are %s)", key, suggest.DidYouMean(suggest.Closest(key, keys)), strings.Join(keys, ", "))
		}
	}
	slices.Sort(c.Disable)
	c.Disable = slices.Compact(c.Disable)
	return c, ds
}

// stringList reports whether v is an array of strings.
func stringList(v *jsonvalue.Node) bool {
	if v.Kind != jsonvalue.Array {
		return false
	}
	for _, e := range v.Arr {
		if e.Kind != jsonvalue.String {
			return false
		}
	}
	return true
}

// severities reads the severity object v into c.
func severities(v *jsonvalue.Node, c *Config, code func(int32, string) (diag.CodeInfo, bool), report func(int32, string, ...any)) {
	for i, name := range v.Keys {
		off, sev := v.KeyOffs[i], v.Obj[name]
		ci, ok := code(off, name)
		if !ok {
			continue
		}
		switch {
		case sev.Kind == jsonvalue.String && sev.Str == "error":
			c.Severity[ci.Code] = diag.Error
		case sev.Kind == jsonvalue.String && sev.Str == "warning":
			if ci.Severity == diag.Error {
				report(off, "%s is an error and cannot be made a warning", name)
				continue
			}
			c.Severity[ci.Code] = diag.Warning
		default:
			report(off, "the severity of %s must be \"error\" or \"warning\"", name)
		}
	}
}

// problem is an invalid-config diagnostic at byte off of data (the whole
// file when data is nil).
func problem(path string, off int64, data []byte, format string, args ...any) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeInvalidConfig, Summary: fmt.Sprintf(format, args...),
		Detail: "docs/config.md describes gramc.json.", Range: ast.Range{File: path}}
	if data != nil {
		line, col := int32(1), int32(1)
		for _, b := range data[:min(off, int64(len(data)))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		pos := ast.Pos{Offset: int32(off), Line: line, Column: col}
		d.Range.Start, d.Range.End = pos, pos
	}
	return d
}

// Apply gives ds the configuration's severities and drops its disabled
// warnings (the flags' disabled codes, when given, replace the file's).
func (c *Config) Apply(ds diag.Diagnostics, flagDisabled []diag.Code) diag.Diagnostics {
	disabled := flagDisabled
	if disabled == nil && c != nil {
		disabled = c.Disable
	}
	if len(disabled) == 0 && (c == nil || len(c.Severity) == 0) {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == diag.Warning && slices.Contains(disabled, d.Code) {
			continue
		}
		if c != nil {
			if sev, ok := c.Severity[d.Code]; ok && sev != d.Severity {
				cp := *d
				cp.Severity = sev
				d = &cp
			}
		}
		out = append(out, d)
	}
	return out
}
