// Package limits holds the limits that more than one stage of gramc
// enforces, so that what check accepts the runtime and the generated code
// accept too.
package limits

// MaxNumberLength bounds the text of a number: 400 characters hold every
// float64 written out in full, and no tool needs more. check rejects a
// longer number where it is written; the runtime rejects one in a model's
// tool arguments before validating them (comparing an n-digit number with
// a schema's bounds costs O(n²)).
const MaxNumberLength = 400
