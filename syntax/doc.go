// Package syntax reads gram notation into the public syntax tree (package
// ast) exactly as the reference parser, tree-sitter-gram, does, and prints
// it back in gram's canonical layout (Format). The same trees in the
// reference parser's vocabulary (S-expressions, JSON) are package
// syntax/reftree; the lexical rules both share are syntax/internal/lexical.
//
// # Entry points
//
// ParseFile parses one document and always returns a file, with syntax
// errors as diagnostics (code "syntax", or a specific code where the parser
// knows the mistake: wrong-arrow, hash-comment, and the old forms
// textual-signature and inline-record); ParseFiles parses many files
// concurrently. After an error the parser carries on at the next
// top-level pattern, so the file holds every pattern that parses.
//
// # How it parses
//
// A hand-written scanner (scanner.go), which knows no grammar, yields
// coarse tokens: each balanced (...), [...] or {...} group whole (nesting
// checked against MaxNesting, comments recorded) and everything else as
// fine tokens (arrow pieces, "@", symbols); parseRecovering (parse.go)
// calls participle's document grammar (topgrammar.go: the header record,
// the sequence of top-level patterns, annotations) on windows of at most
// 256 KiB cut at lines that start with '(' or '[', so participle, which
// holds every token it parses, holds one window's; each group is then
// parsed by a hand-written recursive-descent parser (handparse.go) into
// ast nodes from pooled slab arenas (arena.go). Participle is the grammar
// of the document's structure, where a declarative grammar reads best and
// costs little (a few tokens per top-level pattern); inside groups, where
// almost every token of a document is, a hand-written parser is ten times
// faster and words its own errors. A path's shape is read by one function,
// readPath (pathshape.go), over coarse tokens at the top level and fine
// tokens inside groups. The whole notation is also written as a
// declarative participle grammar (reference_grammar_test.go); the tests
// and FuzzReferenceAgrees parse every input with both and require
// identical trees.
//
// # Recovery
//
// The loop that calls the grammar (parseRecovering) recovers as go/parser
// advances past bad code: after an error that stops a window's parse (a
// lexical error, or a token no top-level pattern starts with, which the
// grammar reports as its own value), it skips from the line that starts
// the broken pattern to the next line that starts a pattern ('[', '(', '@'
// or '{' first on the line), blanking that region (newlines kept, so
// offsets stay the file's), keeps what parsed before it, and calls the
// grammar again from there. A window that cut something short shows it and
// is parsed again, twice as long. Each byte is scanned a small constant
// number of times, so recovery is linear in the file
// (BenchmarkParseRecovery). Errors inside a group do not stop the parse:
// the group parser reports the first and the pattern keeps what parsed.
//
// # Values
//
// Number.Raw() is the exact source text. String.Value is decoded (escapes
// \\ \/ \b \f \n \r \t and the string's own quote); String.Raw() is the
// exact source. A fenced string's Value is the text between the newline that
// follows the opening ``` (or ```tag) and the closing ```, so it normally
// ends with a newline; escapes are not decoded in fenced strings.
//
// As in the reference grammar, a few things that look like one token are
// several: spaces, tabs and carriage returns may follow the opening fence
// and its tag before the line break (```md\r\n opens a fence), any
// whitespace may separate a tag from its backtick string (date `x`), and
// the text of a quoted string, which ends at a line break, may be followed
// by whitespace before the closing quote ("abc<newline>  "); "true" and
// "false" are never tags. The reference grammar also allows a comment in
// those places (tree-sitter puts it inside the string's node); gramc
// rejects it, because the formatter could not keep it there. For the same
// reason it rejects a string whose text starts (after spaces) with // and
// closes on the same line, and a fenced string whose text starts with a //
// line that also holds the closing fence: the reference lexer reads the
// longer comment there, which swallows the closing quote or fence. A NUL
// byte inside a string or comment is an error (the reference lexer ends the
// token there and cannot read the byte).
//
// # Limits
//
// Brackets, parentheses and braces nest at most MaxNesting (1000) levels,
// and a path chains at most MaxNesting relationships (each relationship
// nests the rest of the path). Deeper input is rejected with a positioned
// error in linear time, so no input can exhaust the stack here or in the
// recursive walkers downstream.
package syntax
