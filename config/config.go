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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/load"
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
// diagnostics; the Config holds what was valid.
func Load(path string) (*Config, diag.Diagnostics) {
	f, err := os.Open(path)
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

// Parse reads a configuration's text; path names it in diagnostics.
func Parse(path string, data []byte) (*Config, diag.Diagnostics) {
	c := &Config{Path: path, Severity: map[diag.Code]diag.Severity{}}
	var ds diag.Diagnostics
	report := func(off int64, format string, args ...any) {
		ds = append(ds, problem(path, off, data, format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		report(dec.InputOffset(), "%s must hold one JSON object", FileName)
		return c, ds
	}
	known := map[diag.Code]diag.CodeInfo{}
	var codeNames []string
	for _, ci := range diag.Codes() {
		known[ci.Code] = ci
		codeNames = append(codeNames, string(ci.Code))
	}
	code := func(off int64, s string) (diag.CodeInfo, bool) {
		ci, ok := known[diag.Code(s)]
		if !ok {
			report(off, "unknown diagnostic code %q%s", s, suggest.DidYouMean(suggest.Closest(s, codeNames)))
		}
		return ci, ok
	}
	keys := []string{"targets", "disable", "severity", "baseline"}
	for dec.More() {
		keyOff := dec.InputOffset()
		t, err := dec.Token()
		if err != nil {
			report(dec.InputOffset(), "not valid JSON: %v", err)
			return c, ds
		}
		key, _ := t.(string)
		keyOff = skipTo(data, keyOff)
		switch key {
		case "targets", "disable":
			list, offs, err := stringList(dec, data)
			if err != nil {
				report(keyOff, "%s must be a list of strings", key)
				if errors.Is(err, errSyntax) {
					return c, ds
				}
				continue
			}
			for i, s := range list {
				if key == "targets" {
					ts, err := schema.ParseTargets(s)
					if err != nil {
						report(offs[i], "%v", err)
						continue
					}
					c.Targets = append(c.Targets, ts...)
					continue
				}
				ci, ok := code(offs[i], s)
				if !ok {
					continue
				}
				if ci.Severity == diag.Error {
					report(offs[i], "%s is an error and cannot be disabled (a later stage would fail on it)", s)
					continue
				}
				c.Disable = append(c.Disable, ci.Code)
			}
		case "baseline":
			var rev string
			if err := dec.Decode(&rev); err != nil {
				var se *json.SyntaxError
				if errors.As(err, &se) {
					report(dec.InputOffset(), "not valid JSON: %v", err)
					return c, ds
				}
				report(keyOff, "baseline must be a string: a git revision such as \"main\"")
				continue
			}
			if why := load.ValidRevision(rev); why != "" {
				report(keyOff, "baseline %q: %s", rev, why)
				continue
			}
			c.Baseline = rev
		case "severity":
			if err := severities(dec, data, c, code, report); err != nil {
				report(keyOff, "severity must be an object of code: \"error\" or \"warning\"")
				if errors.Is(err, errSyntax) {
					return c, ds
				}
			}
		default:
			report(keyOff, "unknown key %q%s (the keys are %s)", key, suggest.DidYouMean(suggest.Closest(key, keys)), strings.Join(keys, ", "))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				report(dec.InputOffset(), "not valid JSON: %v", err)
				return c, ds
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		report(dec.InputOffset(), "not valid JSON: %v", err)
	}
	slices.Sort(c.Disable)
	c.Disable = slices.Compact(c.Disable)
	return c, ds
}

var errSyntax = errors.New("syntax")

// stringList reads a JSON array of strings with each string's offset.
func stringList(dec *json.Decoder, data []byte) ([]string, []int64, error) {
	var raw json.RawMessage
	start := skipTo(data, dec.InputOffset())
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, errSyntax
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, nil, err
	}
	// Each string's place: a second pass over the array's tokens.
	inner := json.NewDecoder(bytes.NewReader(raw))
	inner.Token()
	var offs []int64
	for inner.More() {
		offs = append(offs, start+skipTo(raw, inner.InputOffset()))
		var s string
		inner.Decode(&s)
	}
	return list, offs, nil
}

func severities(dec *json.Decoder, data []byte, c *Config, code func(int64, string) (diag.CodeInfo, bool), report func(int64, string, ...any)) error {
	start := skipTo(data, dec.InputOffset())
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return errSyntax
	}
	inner := json.NewDecoder(bytes.NewReader(raw))
	if t, err := inner.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not an object")
	}
	for inner.More() {
		off := start + skipTo(raw, inner.InputOffset())
		t, _ := inner.Token()
		name, _ := t.(string)
		var v any
		if err := inner.Decode(&v); err != nil {
			return errSyntax
		}
		ci, ok := code(off, name)
		if !ok {
			continue
		}
		switch v {
		case "error":
			c.Severity[ci.Code] = diag.Error
		case "warning":
			if ci.Severity == diag.Error {
				report(off, "%s is an error and cannot be made a warning", name)
				continue
			}
			c.Severity[ci.Code] = diag.Warning
		default:
			report(off, "the severity of %s must be \"error\" or \"warning\"", name)
		}
	}
	return nil
}

// skipTo is off moved past white space, commas and colons to the next
// token (a decoder's offset is the end of the previous one).
func skipTo(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
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
