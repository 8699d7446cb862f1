// Command build writes the playground's static site (make playground)
// and, with -serve, serves it on a loopback address (make
// playground-serve). See docs/playground.md.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gramc-dev/gramc/playground/site"
)

func main() {
	out := flag.String("o", "playground/dist", "write the site into `DIR`")
	root := flag.String("root", ".", "the repository's root `DIR`")
	serve := flag.String("serve", "", "then serve the site on `ADDR` (a loopback address, such as 127.0.0.1:8039)")
	flag.Parse()
	if *serve != "" {
		host, _, err := net.SplitHostPort(*serve)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			fmt.Fprintf(os.Stderr, "playground: -serve %s: want a loopback address such as 127.0.0.1:8039 (the site is for this machine)\n", *serve)
			os.Exit(2)
		}
	}
	if err := site.Build(*out, *root, "go"); err != nil {
		fmt.Fprintf(os.Stderr, "playground: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("playground: wrote %s\n", *out)
	if *serve == "" {
		return
	}
	ln, err := net.Listen("tcp", *serve)
	if err != nil {
		fmt.Fprintf(os.Stderr, "playground: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("playground: serving %s on http://%s/ (Ctrl-C stops)\n", *out, ln.Addr())
	srv := &http.Server{Handler: site.Handler(*out), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintf(os.Stderr, "playground: %v\n", err)
		os.Exit(1)
	}
}
