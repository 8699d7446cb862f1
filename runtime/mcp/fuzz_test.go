package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime/mcp"
)

// FuzzMCPServer feeds arbitrary input to a served tool over the stream
// transport gramc mcp uses: the server never panics or hangs, and every
// line it writes is JSON.
func FuzzMCPServer(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}` + "\n"))
	f.Add([]byte("not json\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":{},"method":[]}` + "\n"))
	srv := echoServer(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.Run(ctx, mcp.NewIOTransport(bytes.NewReader(input), outW, nil)) //nolint:errcheck // any outcome but a panic or a hang
			outW.Close()
		}()
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				t.Fatalf("the server wrote a line that is not JSON: %q", sc.Bytes())
			}
		}
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the server did not stop")
		}
	})
}
