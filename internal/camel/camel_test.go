package camel

import "testing"

func TestCase(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"get_weather", "GetWeather"},
		{"get weather-now_2", "GetWeatherNow2"},
		{"minimum", "Minimum"},
		{"already Camel", "AlreadyCamel"},
		{"élan vital", "ÉlanVital"},
		{"__", ""},
		{"", ""},
	} {
		if got := Case(c.in); got != c.want {
			t.Errorf("Case(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
