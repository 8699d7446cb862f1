// Package capped is a buffer that holds at most a limit of bytes: what
// gramc keeps of a command's output (a tool's, git's), so that no command
// can make it hold more.
package capped

import (
	"bytes"
	"errors"
)

// ErrOver is the error of a write past a failing Buffer's limit.
var ErrOver = errors.New("over the limit")

// Buffer keeps at most Limit bytes. Past them a write fails with ErrOver
// when Fail is set (so the copy feeding it stops, and the writing command
// gets EPIPE), and the rest is dropped silently otherwise; either way
// Over says so.
//
// The bytes.Buffer is a field, not embedded: an embedded Buffer's
// ReadFrom would let io.Copy — exec.Cmd's copy of a command's output —
// bypass Write and the limit.
type Buffer struct {
	Limit int
	Fail  bool
	Over  bool
	buf   bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	if room := b.Limit - b.buf.Len(); len(p) > room {
		b.Over = true
		if b.Fail {
			return 0, ErrOver
		}
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Bytes returns the bytes kept.
func (b *Buffer) Bytes() []byte { return b.buf.Bytes() }

// String returns the bytes kept as a string.
func (b *Buffer) String() string { return b.buf.String() }
