package suggest

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"String", "Integer", "Number", "Boolean", "Object", "Array"}
	for _, tc := range []struct{ in, want string }{
		{"Strng", "String"},
		{"Integr", "Integer"},
		{"Nubmer", "Number"},
		{"boolean", "Boolean"},
		{"Zebra", ""},
		{"INTEGER", "Integer"}, // case only: always a suggestion
		{"OBJECT", "Object"},
		{"String", ""}, // exact match is not a suggestion
		{"", ""},
	} {
		if got := Closest(tc.in, cands); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"ab", "ba", 1}, {"kitten", "sitting", 3}, {"héllo", "hello", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q,%q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestHint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"getForcast", []string{"getWeather", "getForecast"}, "; did you mean getForecast?"},
		{"wether", []string{"weather_agent", "hello_world_agent"}, "; the agents are weather_agent, hello_world_agent"},
		{"x", nil, "; there are no agents"},
		{"zzz", []string{"only"}, "; the only one is only"},
		{"q", []string{"a b", "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"}, `; the agents are "a b", c0, c1, c2, c3, c4, c5, c6, c7, c8, and 1 more`},
	} {
		if got := Hint(tc.name, tc.cands, "agents"); got != tc.want {
			t.Errorf("Hint(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := DidYouMean("openai-strict"); got != "; did you mean openai-strict?" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean(`(::String)`); got != `; did you mean "(::String)"?` {
		t.Errorf("DidYouMean = %q", got)
	}
}

// A name is shown quoted when it is not plain; gram text is shown as written.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{DidYouMean("String"), "; did you mean String?"},
		{DidYouMean("a b"), `; did you mean "a b"?`},
		{DidYouMeanQuoted("date-time"), `; did you mean "date-time"?`},
		{DidYouMeanCode("(name::String)==>(::String)"), "; did you mean (name::String)==>(::String)?"},
		{DidYouMeanCode(""), ""},
		{DidYouMean(""), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestUnknownValue(t *testing.T) {
	values := []string{"mermaid", "dot", "svg"}
	for value, want := range map[string]string{
		"svgg": `unknown --format "svgg"; did you mean svg?`,
		"xml":  `unknown --format "xml"; the formats are mermaid, dot, svg`,
		"":     `unknown --format ""; the formats are mermaid, dot, svg`,
	} {
		if got := UnknownValue("--format", value, values, "formats"); got != want {
			t.Errorf("UnknownValue(%q) = %q, want %q", value, got, want)
		}
	}
}
