// Command wasmsize says what each Go package adds to a WebAssembly module
// built with GOOS=js GOARCH=wasm (docs/performance.md, "The playground"):
// the bytes of its functions' code, by package, from the module's name
// section, and the data segments as one sum. Build the module without -s,
// which drops the names:
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/gramc.wasm ./playground/wasm
//	go run ./cmd/internal/wasmsize -n 25 /tmp/gramc.wasm
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	n := flag.Int("n", 30, "show the `N` largest packages")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] module.wasm")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = report(data, *n)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmsize: %v\n", err)
		os.Exit(1)
	}
}

// reader reads the module's LEB128 numbers and bytes, failing on a
// truncated module rather than reading past it.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) uleb() int {
	v, shift := 0, 0
	for r.err == nil {
		if r.i >= len(r.b) || shift > 35 {
			r.err = errors.New("a truncated or malformed module")
			break
		}
		x := r.b[r.i]
		r.i++
		v |= int(x&0x7f) << shift
		shift += 7
		if x < 0x80 {
			return v
		}
	}
	return 0
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.i+n > len(r.b) {
		r.err = errors.New("a truncated or malformed module")
		return nil
	}
	b := r.b[r.i : r.i+n]
	r.i += n
	return b
}

func report(data []byte, top int) error {
	if len(data) < 8 || string(data[:4]) != "\x00asm" {
		return errors.New("not a WebAssembly module")
	}
	r := &reader{b: data, i: 8}
	imported := 0
	var code []int
	names := map[int]string{}
	dataBytes := 0
	for r.err == nil && r.i < len(data) {
		id := r.bytes(1)
		size := r.uleb()
		body := r.bytes(size)
		if r.err != nil {
			break
		}
		s := &reader{b: body}
		switch id[0] {
		case 2: // imports: functions count before the module's own
			for range s.uleb() {
				s.bytes(s.uleb())
				s.bytes(s.uleb())
				switch kind := s.bytes(1); {
				case kind == nil:
				case kind[0] == 0:
					s.uleb()
					imported++
				case kind[0] == 1: // table: type, limits
					s.bytes(1)
					if s.bytes(1)[0]&1 != 0 {
						s.uleb()
					}
					s.uleb()
				case kind[0] == 2: // memory: limits
					if s.bytes(1)[0]&1 != 0 {
						s.uleb()
					}
					s.uleb()
				case kind[0] == 3: // global: type, mutability
					s.bytes(2)
				}
			}
		case 10: // code
			for range s.uleb() {
				n := s.uleb()
				s.bytes(n)
				code = append(code, n)
			}
		case 11: // data
			dataBytes += size
		case 0: // custom: the name section's function names
			if string(s.bytes(s.uleb())) != "name" {
				break
			}
			for s.err == nil && s.i < len(body) {
				sub := s.bytes(1)
				sb := &reader{b: s.bytes(s.uleb())}
				if sub == nil || sub[0] != 1 {
					continue
				}
				for range sb.uleb() {
					idx := sb.uleb()
					names[idx] = string(sb.bytes(sb.uleb()))
				}
			}
		}
		if s.err != nil {
			return s.err
		}
	}
	if r.err != nil {
		return r.err
	}
	if len(names) == 0 {
		return errors.New("the module has no name section: build it without -ldflags=-s")
	}
	byPkg := map[string]int{}
	total := 0
	for i, n := range code {
		byPkg[pkgOf(names[imported+i])] += n
		total += n
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	slices.SortFunc(pkgs, func(a, b string) int { return cmp.Or(cmp.Compare(byPkg[b], byPkg[a]), strings.Compare(a, b)) })
	fmt.Printf("%d bytes: %d of code in %d functions, %d of data\n", len(data), total, len(code), dataBytes)
	for i, p := range pkgs {
		if i == top {
			break
		}
		fmt.Printf("%9d %5.1f%%  %s\n", byPkg[p], float64(byPkg[p])*100/float64(total), p)
	}
	return nil
}

// pkgOf is the package of a function's name as Go's wasm linker writes it
// ("github.com_gramc_dev_gramc_check.__checker_.lower": the path's slashes
// as underscores, then the function). A module path whose first element
// is a domain (github.com, go.yaml.in, golang.org) keeps its dots.
func pkgOf(name string) string {
	if strings.HasPrefix(name, "type_.") {
		return "(type equality and hash functions)"
	}
	if head, _, ok := strings.Cut(name, "_"); ok {
		for _, tld := range []string{".com", ".org", ".in", ".io", ".dev", ".net"} {
			if strings.HasSuffix(head, tld) && !strings.ContainsAny(head, "()*[]") {
				path, _, _ := strings.Cut(name[len(head):], ".")
				// The linker writes "-" as "_" too: this module's is known.
				p := strings.ReplaceAll(head+path, "_", "/")
				return strings.Replace(p, "github.com/gramc/dev/gramc", "github.com/gramc-dev/gramc", 1)
			}
		}
	}
	pkg, rest, _ := strings.Cut(name, ".")
	if pkg == "go" && (strings.HasPrefix(rest, "shape") || strings.HasPrefix(rest, "builtin")) {
		return "(generic shapes)"
	}
	return strings.ReplaceAll(pkg, "_", "/")
}
