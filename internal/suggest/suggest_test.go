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
