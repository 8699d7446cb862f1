package termsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// JSON is a JSON value (a typed agent's) as indented JSON whose control and
// format characters (inside its strings, the only place they can be) are
// escaped as \uXXXX: the same value, safe on a terminal.
func JSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return Line(string(raw), 0)
	}
	var out strings.Builder
	for _, r := range b.String() {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&out, "\\u%04x\\u%04x", r1, r2)
				continue
			}
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}
