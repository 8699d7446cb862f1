// Package syntax reads gram notation into the public syntax tree (package
// ast) exactly as the reference parser, tree-sitter-gram, does.
//
// ParseFile is the entry point. A hand-written scanner (scanner.go) feeds
// participle, whose grammar is a set of private structs (grammar.go) that
// lower.go turns into ast nodes. Sexp prints a tree in the reference
// parser's S-expression vocabulary, which the conformance tests compare
// with the reference corpus.
package syntax
