package shellwords

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		line string
		want Line
	}{
		{`gramc run --tool 'getWeather=./weather.sh' "Rain in Paris?" > out.json # comment`,
			Line{Words: []string{"gramc", "run", "--tool", "getWeather=./weather.sh", "Rain in Paris?"}, Redirect: "out.json"}},
		{`gramc-temporal worker --tool 'a=b c' &`, Line{Words: []string{"gramc-temporal", "worker", "--tool", "a=b c"}, Background: true}},
		{`echo a&b`, Line{Words: []string{"echo", "a&b"}}},
		{`# only a comment`, Line{}},
	} {
		got := Split(c.line)
		if !slices.Equal(got.Words, c.want.Words) || got.Redirect != c.want.Redirect || got.Background != c.want.Background {
			t.Errorf("Split(%q) = %+v, want %+v", c.line, got, c.want)
		}
	}
}
