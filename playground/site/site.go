// Package site builds the playground's static site (docs/playground.md):
// the page's files, embedded here, Go's wasm_exec.js, the WebAssembly
// module of playground/wasm and the repository's examples. Nothing the
// page needs is fetched from anywhere else.
package site

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed static
var static embed.FS

// WasmFile is the module's name in the site.
const WasmFile = "gramc.wasm"

// Examples are the repository's example packages the page offers, in
// its menu's order (the first opens by default): directories under the
// repository root.
var Examples = []string{"examples/weather", "examples/triage", "examples/hello", "examples/hellogoodbye", "examples/testdata/broken"}

// maxExampleSize bounds an example's files together: the page carries
// them all.
const maxExampleSize = 256 << 10

// Build writes the site into dist, whole or not at all: into a new
// directory beside it, renamed over dist once complete. root is the
// repository's root; goCmd the go command that compiles the module.
func Build(dist, root, goCmd string) error {
	parent := filepath.Dir(filepath.Clean(dist))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".playground-build-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := Wasm(filepath.Join(tmp, WasmFile), root, goCmd); err != nil {
		return err
	}
	if err := Precompress(filepath.Join(tmp, WasmFile)); err != nil {
		return err
	}
	goroot, err := goEnv(goCmd, root, "GOROOT")
	if err != nil {
		return err
	}
	if err := copyFile(filepath.Join(tmp, "wasm_exec.js"), WasmExec(goroot)); err != nil {
		return err
	}
	err = fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, strings.TrimPrefix(path, "static/")), data, 0o644)
	})
	if err != nil {
		return err
	}
	js, err := examplesJS(root)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "examples.js"), js, 0o644); err != nil {
		return err
	}
	if err := os.RemoveAll(dist); err != nil {
		return err
	}
	return os.Rename(tmp, dist)
}

// Wasm compiles playground/wasm into out: GOOS=js GOARCH=wasm, without
// the symbol table and DWARF (-s -w) and with paths trimmed, so that the
// module is what a visitor needs and the same on every machine. The go
// command's cache makes a second build of unchanged sources a link only.
func Wasm(out, root, goCmd string) error {
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./playground/wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", WasmFile, err, stderr.Bytes())
	}
	return nil
}

// Precompress writes name.gz (gzip, the best compression, no name or
// time in its header, so the same bytes every build) and, when Debian's
// brotli command is on PATH, name.br beside name, for a server to send
// as they are with their Content-Encoding (Handler does). brotli is
// optional and used at build time only: gramc adds no Go dependency for
// it, and without it a server sends the .gz. Quality 9 of 11: 11 makes
// the 12 MB module 13% smaller at eight times the time (74 s here).
func Precompress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(name+".gz", z.Bytes(), 0o644); err != nil {
		return err
	}
	brotli, err := exec.LookPath("brotli")
	if err != nil {
		return nil // no .br: the .gz serves
	}
	cmd := exec.Command(brotli, "--quality=9", "--force", "--output="+name+".br", "--", name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("brotli %s: %v\n%s", filepath.Base(name), err, stderr.Bytes())
	}
	return os.Chmod(name+".br", 0o644)
}

// WasmExec is the path of Go's JavaScript support for GOOS=js under
// goroot (lib/wasm since Go 1.24).
func WasmExec(goroot string) string { return filepath.Join(goroot, "lib", "wasm", "wasm_exec.js") }

func goEnv(goCmd, root, name string) (string, error) {
	cmd := exec.Command(goCmd, "env", name)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func copyFile(dst, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// Example is a package the page offers.
type Example struct {
	Name  string            `json:"name"`
	Files map[string]string `json:"files"`
}

// ReadExamples reads Examples under root: each directory's .gram files.
func ReadExamples(root string) ([]Example, error) {
	var out []Example
	for _, dir := range Examples {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			return nil, err
		}
		ex := Example{Name: filepath.Base(dir), Files: map[string]string{}}
		if ex.Name == "broken" {
			ex.Name = "mistakes (examples/testdata/broken)"
		}
		size := 0
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".gram") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
			if err != nil {
				return nil, err
			}
			size += len(data)
			ex.Files[e.Name()] = string(data)
		}
		if len(ex.Files) == 0 {
			return nil, fmt.Errorf("example %s has no .gram files", dir)
		}
		if size > maxExampleSize {
			return nil, fmt.Errorf("example %s: %d bytes, over the page's limit of %d KiB an example", dir, size, maxExampleSize>>10)
		}
		out = append(out, ex)
	}
	if len(out) == 0 {
		return nil, errors.New("no examples")
	}
	return out, nil
}

// examplesJS is examples.js: globalThis.gramcExamples, the examples as
// JSON (files in name order).
func examplesJS(root string) ([]byte, error) {
	exs, err := ReadExamples(root)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(exs, "", " ")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by playground/site from the repository's examples. DO NOT EDIT.\nglobalThis.gramcExamples = ")
	b.Write(data)
	b.WriteString(";\n")
	return b.Bytes(), nil
}
