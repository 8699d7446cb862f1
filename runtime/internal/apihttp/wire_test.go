package apihttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
)

func TestMarshalKeepsHTML(t *testing.T) {
	got, err := Marshal(map[string]string{"d": "<a> & b"})
	if err != nil || string(got) != `{"d":"<a> & b"}` {
		t.Errorf("Marshal = %s, %v", got, err)
	}
}

func TestArgumentsObject(t *testing.T) {
	for args, want := range map[string]string{
		`{"a": 1, "b": [1, 2]}`:  `{"a":1,"b":[1,2]}`,
		` {"a":"<b>"} `:          `{"a":"<b>"}`,
		`"{\"city\":\"Paris\"}"`: `{"city":"Paris"}`,
		`not json`:               `{}`,
		``:                       `{}`,
		`[1, 2]`:                 `{}`,
		`"just text"`:            `{}`,
		`{"a":`:                  `{}`,
	} {
		if got := string(ArgumentsObject(args)); got != want {
			t.Errorf("ArgumentsObject(%q) = %s, want %s", args, got, want)
		}
	}
}

// TestStopReasonsOf: a listed reason maps to its runtime reason, none to
// none (also when the table lists a word for none), any other to
// StopOther.
func TestStopReasonsOf(t *testing.T) {
	table := StopReasons{"": {"UNSPECIFIED"}, runtime.StopEnd: {"stop", "completed"}, runtime.StopRefusal: {"content_filter"}}
	for in, want := range map[string]runtime.StopReason{
		"stop": runtime.StopEnd, "completed": runtime.StopEnd, "content_filter": runtime.StopRefusal,
		"": "", "UNSPECIFIED": "", "pause_turn": runtime.StopOther,
	} {
		if got := table.Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolEntriesStopsAtTheFirstError(t *testing.T) {
	bad := errors.New("bad tool")
	entry := func(spec runtime.ToolSpecification) (json.RawMessage, error) {
		if spec.Name == "bad" {
			return nil, bad
		}
		return json.RawMessage(`{"name":"` + spec.Name + `"}`), nil
	}
	got, err := ToolEntries([]runtime.ToolSpecification{{Name: "a"}, {Name: "b"}}, entry)
	if err != nil || len(got) != 2 || string(got[1]) != `{"name":"b"}` {
		t.Errorf("ToolEntries = %s, %v", got, err)
	}
	if got, err := ToolEntries([]runtime.ToolSpecification{{Name: "a"}, {Name: "bad"}}, entry); !errors.Is(err, bad) || got != nil {
		t.Errorf("ToolEntries with a bad tool = %s, %v", got, err)
	}
	if got, err := ToolEntries(nil, entry); err != nil || got != nil {
		t.Errorf("ToolEntries(nil) = %s, %v", got, err)
	}
}

func TestOpenToolEntry(t *testing.T) {
	spec := runtime.ToolSpecification{Name: "f", Description: `says "hi" <b>`}
	tests := []struct {
		schema, want, err string
	}{
		{`{ "type": "object" }`, `{"name":"f","description":"says \"hi\" <b>","parameters":{"type":"object"}`, ""},
		{"  ", `{"name":"f","description":"says \"hi\" <b>"`, ""},
		{`{"type":`, "", "tool f: schema is not valid JSON"},
		{`["object"]`, "", "tool f: schema is not a JSON object"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		err := OpenToolEntry(&b, spec, "parameters", []byte(tt.schema))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("schema %q: err = %v, want %q", tt.schema, err, tt.err)
			}
			continue
		}
		if err != nil || b.String() != tt.want {
			t.Errorf("schema %q: %s, %v; want %s", tt.schema, b.String(), err, tt.want)
		}
	}
}

// FuzzArgumentsObject: whatever a model sends as arguments, the object
// sent back is one JSON object.
func FuzzArgumentsObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `"{\"a\":1}"`, `"\"{}\""`, `not json`, ``, `[1]`, `{"a":`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		got := ArgumentsObject(args)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(got, &m); err != nil || m == nil {
			t.Fatalf("ArgumentsObject(%q) = %s, not a JSON object", args, got)
		}
	})
}
