package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// node is a JSON value of a source document, read from JSON or YAML, with
// where it was written: a byte offset (JSON) or a line and column (YAML),
// and its parent, from which its JSON pointer is made when a message
// needs it.
type node struct {
	kind   byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	off    int32
	line   int32 // YAML: 1-based; 0 for JSON (the offset places it)
	col    int32
	parent *node
	key    string // the key or index under parent
	keys   []string
	obj    map[string]*node
	arr    []*node
	str    string
	num    string // a JSON number's text
	b      bool
}

func (n *node) get(key string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.obj[key]
}

func (n *node) has(key string) bool { return n.get(key) != nil }

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointer is n's JSON pointer in its document ("" for the document).
func (n *node) pointer() string {
	var parts []string
	for ; n != nil && n.parent != nil; n = n.parent {
		parts = append(parts, pointerEscaper.Replace(n.key))
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// value is n as a JSON-ready Go value (json.Number for numbers).
func (n *node) value() any {
	switch n.kind {
	case 'o':
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k] = n.obj[k].value()
		}
		return m
	case 'a':
		out := make([]any, len(n.arr))
		for i, e := range n.arr {
			out[i] = e.value()
		}
		return out
	case 's':
		return n.str
	case 'n':
		return json.Number(n.num)
	case 'b':
		return n.b
	}
	return nil
}

// kindName names a node's JSON type for messages.
func (n *node) kindName() string {
	if n == nil {
		return "nothing"
	}
	return map[byte]string{'o': "an object", 'a': "an array", 's': "a string", 'n': "a number", 'b': "a boolean", 'z': "null"}[n.kind]
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

// parseJSON reads one JSON value, keeping each value's offset.
// encoding/json's tokenizer bounds nesting (10,000 levels).
func parseJSON(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start := func() int32 {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++
		}
		return int32(off)
	}
	fail := func(err error) error {
		off := int32(dec.InputOffset())
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int32(se.Offset)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return &syntaxError{off: int32(len(data)), msg: "unexpected end of JSON"}
		}
		return &syntaxError{off: off, msg: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	count := 0
	depth := 0
	var value func(parent *node, key string) (*node, error)
	value = func(parent *node, key string) (*node, error) {
		if count++; count > maxNodes {
			return nil, &syntaxError{off: start(), msg: fmt.Sprintf("more than %d values (importer's limit)", maxNodes)}
		}
		if depth++; depth > maxDepth {
			return nil, &syntaxError{off: start(), msg: fmt.Sprintf("nested deeper than %d levels (importer's limit)", maxDepth)}
		}
		defer func() { depth-- }()
		n := &node{off: start(), parent: parent, key: key}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' {
				n.kind, n.obj = 'o', map[string]*node{}
				for dec.More() {
					keyOff := start()
					k, err := dec.Token()
					if err != nil {
						return nil, fail(err)
					}
					key, _ := k.(string)
					if _, dup := n.obj[key]; dup {
						return nil, &syntaxError{off: keyOff, msg: fmt.Sprintf("key %q appears twice", key)}
					}
					v, err := value(n, key)
					if err != nil {
						return nil, err
					}
					n.keys = append(n.keys, key)
					n.obj[key] = v
				}
			} else {
				n.kind = 'a'
				for dec.More() {
					v, err := value(n, strconv.Itoa(len(n.arr)))
					if err != nil {
						return nil, err
					}
					n.arr = append(n.arr, v)
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, fail(err)
			}
		case string:
			n.kind, n.str = 's', tok
		case json.Number:
			n.kind, n.num = 'n', string(tok)
		case bool:
			n.kind, n.b = 'b', tok
		default:
			n.kind = 'z'
		}
		return n, nil
	}
	root, err := value(nil, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &syntaxError{off: start(), msg: "more than one JSON value"}
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
	return y.node(root, nil, "", 0)
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

func (y *yamlReader) node(n *yaml.Node, parent *node, key string, depth int) (*node, error) {
	if y.count++; y.count > maxNodes {
		return nil, y.fail(n, "more than %d values, aliases expanded (importer's limit)", maxNodes)
	}
	if depth > maxDepth {
		return nil, y.fail(n, "nested deeper than %d levels (importer.maxDepth)", maxDepth)
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
		v, err := y.node(n.Alias, parent, key, depth+1)
		delete(y.open, n.Alias)
		if err != nil {
			return nil, err
		}
		y.seen[n.Alias] = v
		return v, nil
	}
	out := &node{line: int32(max(n.Line, 1)), col: int32(max(n.Column, 1)), parent: parent, key: key, off: -1}
	switch n.Kind {
	case yaml.MappingNode:
		out.kind, out.obj = 'o', map[string]*node{}
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
			if _, dup := out.obj[k.Value]; dup {
				return nil, y.fail(k, "key %q appears twice", k.Value)
			}
			c, err := y.node(v, out, k.Value, depth+1)
			if err != nil {
				return nil, err
			}
			if (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle == 0 && c.parent == out {
				// A block collection is placed at its key, not at its first entry.
				c.line, c.col = int32(max(k.Line, 1)), int32(max(k.Column, 1))
			}
			out.keys = append(out.keys, k.Value)
			out.obj[k.Value] = c
		}
	case yaml.SequenceNode:
		out.kind = 'a'
		for i, e := range n.Content {
			c, err := y.node(e, out, strconv.Itoa(i), depth+1)
			if err != nil {
				return nil, err
			}
			out.arr = append(out.arr, c)
		}
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			out.kind = 'z'
		case "!!bool":
			b, err := strconv.ParseBool(strings.ToLower(n.Value))
			if err != nil {
				return nil, y.fail(n, "%q is not a boolean JSON can hold", n.Value)
			}
			out.kind, out.b = 'b', b
		case "!!int", "!!float":
			num, ok := yamlNumber(n.Value)
			if !ok {
				return nil, y.fail(n, "%q is not a number JSON can hold", n.Value)
			}
			out.kind, out.num = 'n', num
		default:
			out.kind, out.str = 's', n.Value
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
