package runtimetest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// FakeOpenAIMain is the fakeopenai program: it serves Echo on a loopback
// address until interrupted, printing the base URL (ending in /v1 for
// OpenAI's APIs, /v1beta for Gemini's) on stdout and, with -urlfile,
// writing it to a file. -provider picks the provider (openai, the
// default, openai-responses, anthropic or gemini). It returns the exit
// code.
func FakeOpenAIMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakeopenai", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	urlFile := fs.String("urlfile", "", "also write the base URL to this file")
	key := fs.String("key", "", "require this API key")
	provider := fs.String("provider", OpenAI, "the provider to fake: "+strings.Join(Providers(), ", "))
	fanout := fs.Int("fanout", 0, "answer every request that offers tools with this many calls of the first (FanOut)")
	chance := &Chance{}
	chance.flags(fs) // gramc eval's fake models: -seed, -success, -status
	if err := fs.Parse(args); err != nil {
		return 2
	}
	known := false
	for _, p := range Providers() {
		known = known || p == *provider
	}
	if !known {
		fmt.Fprintf(stderr, "fakeopenai: unknown provider %q (want one of %s)\n", *provider, strings.Join(Providers(), ", "))
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fakeopenai: %v\n", err)
		return 1
	}
	url := "http://" + ln.Addr().String() + BasePath(*provider)
	problem := func(err error) { fmt.Fprintf(stderr, "fakeopenai: %v\n", err) }
	fake := &Fake{Provider: *provider, Policy: Echo, APIKey: *key, Problem: problem}
	if chance.active() {
		fake.Policy = chance.Policy()
	}
	if *fanout > 0 {
		fake.Policy = FanOut(*fanout)
	}
	if *provider == OpenAI {
		if err := loadReference(); err != nil {
			fmt.Fprintf(stderr, "fakeopenai: warning: requests are not checked: %v\n", err)
			fake.NoSchema = true
		}
	}
	fmt.Fprintln(stdout, url)
	if *urlFile != "" {
		if err := os.WriteFile(*urlFile, []byte(url+"\n"), 0o644); err != nil {
			fmt.Fprintf(stderr, "fakeopenai: %v\n", err)
			return 1
		}
	}
	srv := &http.Server{Handler: fake}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !strings.Contains(err.Error(), "closed") {
		fmt.Fprintf(stderr, "fakeopenai: %v\n", err)
		return 1
	}
	return 0
}
