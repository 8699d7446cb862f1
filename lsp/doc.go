// Package lsp is gramc's language server: `gramc lsp` speaks the Language
// Server Protocol over stdio, so an editor shows gramc's diagnostics as the
// user types and offers hover, navigation, document highlight, signature
// help, completion, formatting, rename, quick fixes and semantic
// highlighting for .gram files.
//
// # Model
//
// The workspace (workspace.go) holds every package under the client's
// workspace folders, read through package load as `gramc check dir/...`
// reads them. Open documents override the files on disk; a file outside
// every folder is a package of its own. A package is one namespace across
// its files, so an edit re-checks the whole package (a fix in one file
// clears an error reported in another) but re-parses only the file that
// changed. Watched-file events refresh files that are not open.
//
// Diagnostics are published per file by one background loop: an edit
// queues its package, and a burst of edits costs one check. They are what
// `gramc check --target ...` prints — the same checker, provider lint and
// `// gramc:ignore` suppression — with each code linked to its
// documentation (docLink: its section in the local copy of the pages,
// docs.go) and tagged from the registry
// (diag.TagOf).
//
// Requests answer from the package's current check and its index
// (index.go): every declaration and every use of a name, per file, built
// from the trees and the checked model. Quick fixes apply each
// diagnostic's own edit (diag.Diagnostic.Edit), so the CLI's suggestion
// and the editor's fix are one piece of knowledge.
//
// # Protocol
//
// go.lsp.dev/protocol (generated from the LSP 3.18 meta-model) provides the
// types and the dispatch; go.lsp.dev/jsonrpc2 the Content-Length framed
// connection. Notifications run in arrival order on the read loop, as do
// initialize and shutdown (so a client may pipeline a session); other
// requests run concurrently and honour $/cancelRequest. Positions are
// converted exactly between byte offsets and the negotiated encoding
// (UTF-16 by default, UTF-8 when the client offers it); a position outside
// a document, or a request for a document the server does not know, is an
// InvalidParams error, and a panic in a handler is an InternalError answer,
// never a dead server.
package lsp
