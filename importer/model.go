package importer

import (
	"github.com/gramc-dev/gramc/check"
)

// The model the importer builds and writes as gram: the declarations of
// one package, each remembering the source value it came from, so a
// property the checker refuses is dropped with a warning at its source.

type tool struct {
	name, title, description string
	strict                   *bool
	deprecated               bool
	params                   []*param
	result                   *typ
	resultDescription        string
	at                       *node
	src                      *source
}

type param struct {
	name        string
	typ         *typ
	description string
	def         any
	hasDef      bool
	optional    bool
	deprecated  bool
	examples    []any
	c           check.Constraints
	at          *node
	src         *source
	// props: the source value of each property written (description,
	// default, minimum, ...), to place a refusal
	props map[string]*node
}

type typ struct {
	kind check.Kind
	elem *typ
	rec  *record
	enum *enum
}

type record struct {
	name, description string
	fields            []*param
	at                *node
	src               *source
}

type enum struct {
	name, description string
	valueKind         check.Kind
	values            []any
	at                *node
	src               *source
}

// pkg is what all the sources of one import declare, in order.
type pkg struct {
	tools   []*tool
	records []*record
	enums   []*enum
}
