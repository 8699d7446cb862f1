package capped

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestCommandOutputBounded: a command's output through exec.Cmd, which
// copies it with io.Copy, is bounded too (an embedded bytes.Buffer's
// ReadFrom would take it all).
func TestCommandOutputBounded(t *testing.T) {
	for _, fail := range []bool{true, false} {
		b := &Buffer{Limit: 1000, Fail: fail}
		cmd := exec.Command("head", "-c", "100000", "/dev/zero")
		cmd.Stdout = b
		err := cmd.Run()
		if len(b.Bytes()) > 1000 || !b.Over {
			t.Errorf("fail %v: kept %d bytes of 100000 (limit 1000), over %v", fail, len(b.Bytes()), b.Over)
		}
		if !fail && (err != nil || len(b.Bytes()) != 1000) {
			t.Errorf("dropping: %v, %d bytes kept", err, len(b.Bytes()))
		}
	}
}

func TestWrite(t *testing.T) {
	b := &Buffer{Limit: 5, Fail: true}
	if n, err := io.Copy(b, strings.NewReader("abc")); err != nil || n != 3 {
		t.Fatalf("within the limit: %d, %v", n, err)
	}
	if _, err := b.Write([]byte("def")); err != ErrOver || !b.Over || b.String() != "abc" {
		t.Fatalf("past the limit: %v, over %v, %q", err, b.Over, b.String())
	}
	d := &Buffer{Limit: 5}
	d.Write([]byte("abc"))
	if n, err := d.Write([]byte("defg")); err != nil || n != 4 || !bytes.Equal(d.Bytes(), []byte("abcde")) {
		t.Fatalf("dropping: %d, %v, %q", n, err, d.Bytes())
	}
}
