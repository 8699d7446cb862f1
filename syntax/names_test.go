package syntax

import "testing"

func TestIsSymbolAndQuoteName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		symbol bool
		quoted string
	}{
		{"city", true, "city"},
		{"_x9", true, "_x9"},
		{"a.b-c@d", true, "a.b-c@d"},
		{"9lives", false, "`9lives`"},
		{"-x", false, "`-x`"},
		{"two words", false, "`two words`"},
		{"tick`s", false, "`tick\\`s`"},
		{"", false, "``"},
		{"é", false, "`é`"},
	} {
		if got := IsSymbol(tc.name); got != tc.symbol {
			t.Errorf("IsSymbol(%q) = %v, want %v", tc.name, got, tc.symbol)
		}
		if got := QuoteName(tc.name); got != tc.quoted {
			t.Errorf("QuoteName(%q) = %s, want %s", tc.name, got, tc.quoted)
		}
	}
}
