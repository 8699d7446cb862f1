//go:build !(js && wasm)

// Command wasm is the playground's WebAssembly module; it runs only in a
// JavaScript host. Build it with make playground (GOOS=js GOARCH=wasm).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "playground/wasm is a WebAssembly module: build it with GOOS=js GOARCH=wasm (make playground)")
	os.Exit(2)
}
