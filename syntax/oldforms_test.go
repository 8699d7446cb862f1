package syntax

import "testing"

func TestGramForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(name: Text) --> IO Text", "(name::String)==>(::String)"},
		{"  (a: Int) -> (b: Double) -> Maybe Bool", "(a::Integer)==>(b::Number)==>(::Boolean)"},
		{"(city: String) ==> Report", "(city::String)==>(::Report)"},
		{"garbage", "(name::String)==>(::String)"},
	} {
		if got := gramForm(tc.in); got != tc.want {
			t.Errorf("gramForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
