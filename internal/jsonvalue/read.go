package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects Read accepts, as
// `gramc mcp` bounds a request's: no schema, snapshot or configuration
// nests anywhere near it, and deeper input is refused in linear time and
// memory with an error that names the limit.
const MaxDepth = 256

// Node is a JSON value read by Read, with where it was written. Its JSON
// pointer is not stored: Pointer builds it, for the few values a caller
// reports, from the parents. gramc import's YAML reader builds Nodes too,
// placed by Line and Col.
type Node struct {
	Off  int32 // byte offset of the value's first character (-1: Line and Col place it)
	Line int32 // 1-based line and column, for a reader that counts them; 0 when Off places the value
	Col  int32
	Kind Kind
	Bool bool // a boolean's value
	// An object's keys in the document's order, each key's offset, and
	// the values by key.
	Keys    []string
	KeyOffs []int32
	Obj     map[string]*Node
	Arr     []*Node // an array's elements
	Str     string
	Num     json.Number

	// Parent is the array or object that holds the value (nil for the
	// document), and Index the value's place in it: its index in
	// Parent.Arr, or its key's in Parent.Keys.
	Parent *Node
	Index  int
}

// slabLen is how many Nodes Read allocates at once: 32 KiB of them.
const slabLen = 32 << 10 / unsafe.Sizeof(Node{})

// Get is the value under key in an object, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	return n.Obj[key]
}

// Value is n as encoding/json decodes it with UseNumber.
func (n *Node) Value() any {
	switch n.Kind {
	case Object:
		m := make(map[string]any, len(n.Keys))
		for _, k := range n.Keys {
			m[k] = n.Obj[k].Value()
		}
		return m
	case Array:
		out := make([]any, len(n.Arr))
		for i, e := range n.Arr {
			out[i] = e.Value()
		}
		return out
	case String:
		return n.Str
	case Number:
		return n.Num
	case Bool:
		return n.Bool
	}
	return nil
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Pointer is n's JSON pointer (RFC 6901) in the document Read read: ""
// for the root, "/properties/a/0" below it. It costs the depth of n.
func (n *Node) Pointer() string {
	var parts []string
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == Object {
			parts = append(parts, pointerEscaper.Replace(c.Parent.Keys[c.Index]))
		} else {
			parts = append(parts, strconv.Itoa(c.Index))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// SyntaxError is JSON Read could not read, at byte Off. Err, when set, is
// encoding/json's account of it; Msg says it whole.
type SyntaxError struct {
	Off int32
	Msg string
	Err error
}

func (e *SyntaxError) Error() string { return e.Msg }

// Limits bound what ReadWithin reads. A limit reached is a *SyntaxError
// at the value that passes it, whose Err is ErrTooDeep or ErrTooMany (a
// caller that words its own limits tells them apart by it).
type Limits struct {
	Depth  int // arrays and objects nested in each other
	Values int // values in the document, 0 for no bound
}

// The limits' errors, as a *SyntaxError's Err.
var (
	ErrTooDeep = errors.New("JSON nested too deep")
	ErrTooMany = errors.New("too many JSON values")
)

// Read reads one JSON value (encoding/json's tokenizer) keeping each
// value's offset. A key that appears twice in an object, nesting deeper
// than MaxDepth and anything after the value are errors.
func Read(data []byte) (*Node, error) {
	return ReadWithin(data, Limits{Depth: MaxDepth})
}

// ReadWithin is Read within other limits than MaxDepth's.
func ReadWithin(data []byte, lim Limits) (*Node, error) {
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
			return &SyntaxError{Off: int32(len(data)), Msg: "unexpected end of JSON", Err: io.ErrUnexpectedEOF}
		}
		return &SyntaxError{Off: off, Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	count := 0
	// Nodes come from slabs, not one allocation each: the tree is read
	// and dropped whole.
	var slab []Node
	var value func(parent *Node, index, depth int) (*Node, error)
	value = func(parent *Node, index, depth int) (*Node, error) {
		if len(slab) == cap(slab) {
			slab = make([]Node, 0, slabLen)
		}
		slab = append(slab, Node{Off: start(), Parent: parent, Index: index})
		n := &slab[len(slab)-1]
		if count++; lim.Values > 0 && count > lim.Values {
			return nil, &SyntaxError{Off: n.Off, Msg: fmt.Sprintf("more than %d JSON values", lim.Values), Err: ErrTooMany}
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			if depth == lim.Depth {
				return nil, &SyntaxError{Off: n.Off, Msg: fmt.Sprintf("JSON nested more than %d levels deep", lim.Depth), Err: ErrTooDeep}
			}
			if tok == '{' {
				n.Kind, n.Obj = Object, map[string]*Node{}
				for dec.More() {
					keyOff := start()
					k, err := dec.Token()
					if err != nil {
						return nil, fail(err)
					}
					key := k.(string)
					if _, dup := n.Obj[key]; dup {
						return nil, &SyntaxError{Off: keyOff, Msg: fmt.Sprintf("key %q appears twice", key)}
					}
					n.Keys = append(n.Keys, key)
					n.KeyOffs = append(n.KeyOffs, keyOff)
					v, err := value(n, len(n.Keys)-1, depth+1)
					if err != nil {
						return nil, err
					}
					n.Obj[key] = v
				}
			} else {
				n.Kind = Array
				for dec.More() {
					v, err := value(n, len(n.Arr), depth+1)
					if err != nil {
						return nil, err
					}
					n.Arr = append(n.Arr, v)
				}
			}
			if _, err := dec.Token(); err != nil { // the closing delimiter
				return nil, fail(err)
			}
		case string:
			n.Kind, n.Str = String, tok
		case json.Number:
			n.Kind, n.Num = Number, tok
		case bool:
			n.Kind, n.Bool = Bool, tok
		default:
			n.Kind = Null
		}
		return n, nil
	}
	root, err := value(nil, 0, 0)
	if err != nil {
		return nil, err
	}
	if off := start(); !isEOF(dec) {
		return nil, &SyntaxError{Off: off, Msg: "more than one JSON value"}
	}
	return root, nil
}

// EmptyObject is an empty object standing in n's place: its offset and
// pointer (for a reader that treats a missing object as an empty one).
func (n *Node) EmptyObject() *Node {
	return &Node{Off: n.Off, Kind: Object, Obj: map[string]*Node{}, Parent: n.Parent, Index: n.Index}
}

// isEOF reports whether only white space is left for dec.
func isEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}
