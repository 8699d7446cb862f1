package cli

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

func init() {
	// hostilemcp ADDR MODE serves on ADDR an MCP server that misbehaves,
	// as the probe of issue 35 found servers may: endless-json answers
	// every POST with a JSON body that never ends, endless-sse with an
	// event stream whose one event never ends, and silent accepts every
	// request and never answers it.
	scriptCommands["hostilemcp"] = func() { os.Exit(hostileMCPMain(os.Args[1], os.Args[2])) }
}

func hostileMCPMain(addr, mode string) int {
	chunk := []byte(strings.Repeat("a", 64<<10))
	err := http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
		switch mode {
		case "endless-json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"x":"`)
		case "endless-sse":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: ")
		case "silent":
			<-r.Context().Done()
			return
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	fmt.Fprintln(os.Stderr, "hostilemcp:", err)
	return 1
}
