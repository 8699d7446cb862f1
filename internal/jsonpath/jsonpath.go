// Package jsonpath reads the simple JSON paths a test names parts of a
// request with ($.temperature, $.messages[1].content,
// $.tools[*].description) and removes what they name from a decoded JSON
// value. It is the one reading of those paths: gramc check validates them,
// the cassette replayer applies them.
package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSegments bounds the segments of one path.
const MaxSegments = 64

// Segment is one step of a path: a key, an index, or any element (*).
type Segment struct {
	Key   string
	Index int // -1 for a key
	Any   bool
}

// Path is a parsed path.
type Path []Segment

// Parse reads a path: $ then .key, ["key"], [N], [*] or .* steps.
func Parse(s string) (Path, error) {
	if !strings.HasPrefix(s, "$") {
		return nil, fmt.Errorf("a path begins with $ (the request's body), e.g. $.temperature")
	}
	var p Path
	rest := s[1:]
	for rest != "" {
		if len(p) >= MaxSegments {
			return nil, fmt.Errorf("more than %d steps (jsonpath.MaxSegments)", MaxSegments)
		}
		switch rest[0] {
		case '.':
			rest = rest[1:]
			n := strings.IndexAny(rest, ".[")
			if n < 0 {
				n = len(rest)
			}
			key := rest[:n]
			if key == "" {
				return nil, fmt.Errorf("an empty key after . in %s", s)
			}
			if key == "*" {
				p = append(p, Segment{Index: -1, Any: true})
			} else {
				p = append(p, Segment{Key: key, Index: -1})
			}
			rest = rest[n:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("[ without ] in %s", s)
			}
			in := rest[1:end]
			switch {
			case in == "*":
				p = append(p, Segment{Index: -1, Any: true})
			case strings.HasPrefix(in, `"`):
				key, err := strconv.Unquote(in)
				if err != nil {
					return nil, fmt.Errorf("a bad quoted key %s in %s", in, s)
				}
				p = append(p, Segment{Key: key, Index: -1})
			default:
				i, err := strconv.Atoi(in)
				if err != nil || i < 0 {
					return nil, fmt.Errorf("[%s] is not an index, \"key\" or * in %s", in, s)
				}
				p = append(p, Segment{Index: i})
			}
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("unexpected %q in %s: steps are .key, [\"key\"], [N] or [*]", rest[:1], s)
		}
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("$ alone names the whole request: name a part of it, e.g. $.temperature")
	}
	return p, nil
}

// Remove deletes what p names from v (a value decoded from JSON:
// map[string]any, []any, scalars); an element of an array is set to nil,
// so that the other indexes keep their meaning. Parts p names that v does
// not have are left alone.
func Remove(v any, p Path) {
	if len(p) == 0 {
		return
	}
	seg, last := p[0], len(p) == 1
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if !seg.Any && (seg.Index >= 0 || k != seg.Key) {
				continue
			}
			if last {
				delete(x, k)
			} else {
				Remove(child, p[1:])
			}
		}
	case []any:
		for i, child := range x {
			if !seg.Any && seg.Index != i {
				continue
			}
			if last {
				x[i] = nil
			} else {
				Remove(child, p[1:])
			}
		}
	}
}
