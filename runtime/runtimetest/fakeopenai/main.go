// Command fakeopenai is a fake OpenAI Chat Completions server for demos and
// scripts: it listens on a loopback port, prints its base URL and answers
// with runtimetest.EchoPolicy (call the first offered tool with arguments
// built from the user's text, then answer with the tool's result). Every
// request is checked against OpenAI's published schema; a malformed one is
// logged on stderr and answered with a 400.
//
// Usage:
//
//	fakeopenai [-addr 127.0.0.1:0] [-urlfile FILE] [-key KEY]
package main

import (
	"os"

	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

func main() {
	os.Exit(runtimetest.FakeOpenAIMain(os.Args[1:], os.Stdout, os.Stderr))
}
