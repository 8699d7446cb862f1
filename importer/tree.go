package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/gramc-dev/gramc/internal/jsonvalue"
)

// node is a value of a source document: a jsonvalue.Node, which
// jsonvalue's reader builds from JSON and parseYAML from YAML (placed by
// line and column, Off -1).
type node = jsonvalue.Node

// has reports whether object n has key.
func has(n *node, key string) bool { return n.Get(key) != nil }

// kindNames name the JSON types for messages.
var kindNames = [...]string{jsonvalue.Object: "an object", jsonvalue.Array: "an array", jsonvalue.String: "a string", jsonvalue.Number: "a number", jsonvalue.Bool: "a boolean", jsonvalue.Null: "null"}

// kindName names a node's JSON type for messages.
func kindName(n *node) string {
	if n == nil {
		return "nothing"
	}
	return kindNames[n.Kind]
}

// syntaxError is a document that is not JSON or YAML, at a place.
type syntaxError struct {
	off       int32
	line, col int32
	msg       string
}

func (e *syntaxError) Error() string { return e.msg }

// maxNodes bounds the values of one document, YAML aliases expanded: an
// alias bomb is refused instead of filling memory.
const maxNodes = 8 << 20

// parseJSON reads one JSON value, keeping each value's offset, within
// the importer's limits.
func parseJSON(data []byte) (*node, error) {
	root, err := jsonvalue.ReadWithin(data, jsonvalue.Limits{Depth: maxDepth, Values: maxNodes})
	if err != nil {
		se := err.(*jsonvalue.SyntaxError)
		msg := se.Msg
		switch se.Err {
		case jsonvalue.ErrTooDeep:
			msg = tooDeep
		case jsonvalue.ErrTooMany:
			msg = fmt.Sprintf("more than %d values (importer's limit)", maxNodes)
		}
		return nil, &syntaxError{off: se.Off, msg: msg}
	}
	return root, nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+)(?:, column (\d+))?`)

var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// parseYAML reads the first document of a YAML stream as JSON values:
// scalars by their resolved tag, mapping keys as strings, aliases
// expanded (shared, not copied; bounded by maxNodes).
func parseYAML(data []byte) (*node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		e := &syntaxError{line: 1, col: 1}
		if m := yamlLineRE.FindStringSubmatchIndex(msg); m != nil {
			l, _ := strconv.Atoi(msg[m[2]:m[3]])
			c := 1
			if m[4] >= 0 {
				c, _ = strconv.Atoi(msg[m[4]:m[5]])
			}
			e.line, e.col = int32(l), int32(max(c, 1))
			msg = strings.TrimPrefix(strings.TrimPrefix(msg[:m[0]]+msg[m[1]:], ":"), " ")
		}
		e.msg = "invalid YAML: " + msg
		return nil, e
	}
	y := &yamlReader{seen: map[*yaml.Node]*node{}}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, &syntaxError{line: 1, col: 1, msg: "an empty YAML document"}
		}
		root = root.Content[0]
	}
	return y.node(root, nil, 0, 0)
}

type yamlReader struct {
	count int
	seen  map[*yaml.Node]*node // aliased nodes, converted once
	// open: the anchors being converted (an alias inside its own anchor)
	open map[*yaml.Node]bool
}

func (y *yamlReader) fail(n *yaml.Node, format string, args ...any) error {
	return &syntaxError{line: int32(n.Line), col: int32(max(n.Column, 1)), msg: fmt.Sprintf(format, args...)}
}

// node converts n, the value at index under parent (its index in
// parent.Arr, or its key's in parent.Keys).
func (y *yamlReader) node(n *yaml.Node, parent *node, index, depth int) (*node, error) {
	if y.count++; y.count > maxNodes {
		return nil, y.fail(n, "more than %d values, aliases expanded (importer's limit)", maxNodes)
	}
	if depth > maxDepth {
		return nil, y.fail(n, "%s", tooDeep)
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return nil, y.fail(n, "an alias without its anchor")
		}
		if v, ok := y.seen[n.Alias]; ok {
			return v, nil
		}
		if y.open == nil {
			y.open = map[*yaml.Node]bool{}
		}
		if y.open[n.Alias] {
			return nil, y.fail(n, "the alias *%s is inside its own anchor", n.Value)
		}
		y.open[n.Alias] = true
		v, err := y.node(n.Alias, parent, index, depth+1)
		delete(y.open, n.Alias)
		if err != nil {
			return nil, err
		}
		y.seen[n.Alias] = v
		return v, nil
	}
	out := &node{Off: -1, Line: int32(max(n.Line, 1)), Col: int32(max(n.Column, 1)), Parent: parent, Index: index}
	switch n.Kind {
	case yaml.MappingNode:
		out.Kind, out.Obj = jsonvalue.Object, map[string]*node{}
		if len(n.Content)%2 != 0 {
			return nil, y.fail(n, "a mapping with a key and no value")
		}
		for i := 0; i < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, y.fail(k, "a mapping key is a scalar here (JSON's keys are strings)")
			}
			if _, dup := out.Obj[k.Value]; dup {
				return nil, y.fail(k, "key %q appears twice", k.Value)
			}
			c, err := y.node(v, out, len(out.Keys), depth+1)
			if err != nil {
				return nil, err
			}
			if (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle == 0 && c.Parent == out {
				// A block collection is placed at its key, not at its first entry.
				c.Line, c.Col = int32(max(k.Line, 1)), int32(max(k.Column, 1))
			}
			out.Keys = append(out.Keys, k.Value)
			out.Obj[k.Value] = c
		}
	case yaml.SequenceNode:
		out.Kind = jsonvalue.Array
		for i, e := range n.Content {
			c, err := y.node(e, out, i, depth+1)
			if err != nil {
				return nil, err
			}
			out.Arr = append(out.Arr, c)
		}
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			out.Kind = jsonvalue.Null
		case "!!bool":
			b, err := strconv.ParseBool(strings.ToLower(n.Value))
			if err != nil {
				return nil, y.fail(n, "%q is not a boolean JSON can hold", n.Value)
			}
			out.Kind, out.Bool = jsonvalue.Bool, b
		case "!!int", "!!float":
			num, ok := yamlNumber(n.Value)
			if !ok {
				return nil, y.fail(n, "%q is not a number JSON can hold", n.Value)
			}
			out.Kind, out.Num = jsonvalue.Number, json.Number(num)
		default:
			out.Kind, out.Str = jsonvalue.String, n.Value
		}
	default:
		return nil, y.fail(n, "a YAML node JSON cannot hold")
	}
	return out, nil
}

// yamlNumber is a YAML number as JSON writes it.
func yamlNumber(s string) (string, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if jsonNumberRE.MatchString(s) {
		return s, true
	}
	if t, ok := strings.CutPrefix(s, "+"); ok && jsonNumberRE.MatchString(t) {
		return t, true
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}
