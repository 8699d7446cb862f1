package english

import "testing"

func TestArticle(t *testing.T) {
	for word, want := range map[string]string{
		"enum": "an", "Integer": "an", "object": "an", "AddNoteFunc": "an",
		"tool": "a", "String": "a", "SayHelloFunc": "a", "user": "a", "unit": "a",
		"URL": "a", "HTTP": "an", "MCP": "an", "HTTPServer": "an", "JSON": "a",
		"hour": "an", "one-off": "a", "": "a", `"enum"`: "an", "Array": "an",
		"UUIDField": "a", "SQLQuery": "an",
	} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
	if got := A("enum"); got != "an enum" {
		t.Errorf("A(enum) = %q", got)
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "error", "0 errors"}, {1, "error", "1 error"}, {2, "warning", "2 warnings"},
		{1, "match", "1 match"}, {2, "match", "2 matches"}, {3, "property", "3 properties"},
		{2, "key", "2 keys"}, {2, "alias", "2 aliases"}, {2, "box", "2 boxes"},
	} {
		if got := Plural(tc.n, tc.noun); got != tc.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
