package cli

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestFormatFlagsAreOne: every command's --format is formatFlag's: its
// default is one of its values, completion offers exactly them, the
// synopsis and the help name every one, and an unknown value is the same
// usage error (exit 2) in every command.
func TestFormatFlagsAreOne(t *testing.T) {
	root := newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	want := map[string][]string{
		"check": diagFormats,
		"test":  testFormats,
		"diff":  diffFormats,
		"graph": {"mermaid", "dot", "svg"},
	}
	seen := map[string]bool{}
	for _, cmd := range root.Commands() {
		f := cmd.Flags().Lookup("format")
		if f == nil {
			continue
		}
		name := cmd.Name()
		seen[name] = true
		v, ok := f.Value.(*formatValue)
		if !ok {
			t.Errorf("gramc %s --format is a %T, not formatFlag's", name, f.Value)
			continue
		}
		if w, ok := want[name]; ok && !slices.Equal(v.values, w) {
			t.Errorf("gramc %s --format values = %q, want %q", name, v.values, w)
		}
		if !slices.Contains(v.values, f.DefValue) {
			t.Errorf("gramc %s --format default %q is not one of %q", name, f.DefValue, v.values)
		}
		complete, ok := cmd.GetFlagCompletionFunc("format")
		if !ok {
			t.Errorf("gramc %s --format: no completion", name)
		} else if got, _ := complete(cmd, nil, ""); !slices.Equal(got, v.values) {
			t.Errorf("gramc %s --format completes %q, want %q", name, got, v.values)
		}
		if !strings.Contains(f.Usage, strings.Join(v.values, ", ")) {
			t.Errorf("gramc %s --format help %q does not list %q", name, f.Usage, v.values)
		}
		// A synopsis names --format's values, or no flag at all ([flags]).
		if !strings.Contains(cmd.Use, formatUsage(v.values)) && !strings.Contains(cmd.Use, "[flags]") {
			t.Errorf("gramc %s synopsis %q lacks %s", name, cmd.Use, formatUsage(v.values))
		}
		for _, value := range v.values {
			if !strings.Contains(cmd.Long, value) {
				t.Errorf("gramc %s --help does not describe --format %s", name, value)
			}
		}
		for _, tt := range []struct{ value, want string }{
			{"nosuchformat", `unknown --format "nosuchformat"; the formats are ` + strings.Join(v.values, ", ")},
			{v.values[len(v.values)-1] + "x", `unknown --format "` + v.values[len(v.values)-1] + `x"; did you mean ` + v.values[len(v.values)-1] + "?"},
		} {
			var stdout, stderr bytes.Buffer
			code := Do([]string{name, "--format", tt.value, "x", "y"}, strings.NewReader(""), &stdout, &stderr)
			if wantErr := "gramc " + name + ": " + tt.want + "\n"; code != ExitUsage || stderr.String() != wantErr || stdout.Len() != 0 {
				t.Errorf("gramc %s --format %s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", name, tt.value, code, stdout.String(), stderr.String(), ExitUsage, wantErr)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("gramc %s has no --format flag", name)
		}
	}
}

// TestFormatValueSet: Set takes a listed value and refuses any other with a
// usage error, leaving the value as it was.
func TestFormatValueSet(t *testing.T) {
	format := "text"
	v := &formatValue{p: &format, values: []string{"text", "json"}}
	if err := v.Set("json"); err != nil || format != "json" || v.String() != "json" {
		t.Fatalf("Set(json) = %v; format %q", err, format)
	}
	for _, bad := range []string{"", "JSON", "jsn", "text,json", "\x1b[31m"} {
		err := v.Set(bad)
		var xe *exitError
		if !errors.As(err, &xe) || xe.code != ExitUsage || !strings.HasPrefix(err.Error(), "unknown --format ") {
			t.Errorf("Set(%q) = %v, want a usage error unknown --format", bad, err)
		}
		if format != "json" {
			t.Errorf("Set(%q) changed the value to %q", bad, format)
		}
	}
	if v.Type() != "string" {
		t.Errorf("Type() = %q: the help would not read --format string", v.Type())
	}
}

// TestFormatFlagRegisters: formatFlag sets the default, and cobra returns
// an unknown value's usage error as Set made it.
func TestFormatFlagRegisters(t *testing.T) {
	var format string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	formatFlag(cmd, &format, []string{"a", "b"}, "b")
	if format != "b" || cmd.Flags().Lookup("format").DefValue != "b" {
		t.Errorf("default: format %q, DefValue %q; want b", format, cmd.Flags().Lookup("format").DefValue)
	}
	cmd.SetArgs([]string{"--format", "c"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	var xe *exitError
	if err := cmd.Execute(); !errors.As(err, &xe) || xe.code != ExitUsage || !strings.HasPrefix(xe.err.Error(), `unknown --format "c";`) {
		t.Errorf("--format c: %v, want the usage error through cobra", err)
	}
}
