//go:build js && wasm

// Command wasm is the playground's WebAssembly module: a thin syscall/js
// shell over playground/core. It sets globalThis.__gramcCore, whose
// functions return {value} or {error, diagnostics}; the page's gramc.js
// turns them into globalThis.gramc (docs/playground.md).
//
// Build it with make playground (GOOS=js GOARCH=wasm).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/gramc-dev/gramc/playground/core"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("check", fn(func(args []js.Value) (any, error) {
		out, err := core.Check(files(args, 0))
		return string(out), err
	}))
	api.Set("fixes", fn(func(args []js.Value) (any, error) {
		fixes, err := core.Fixes(files(args, 0))
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(fixes)
		return string(b), err
	}))
	api.Set("format", fn(func(args []js.Value) (any, error) {
		return object(core.Format(files(args, 0)))
	}))
	api.Set("schema", fn(func(args []js.Value) (any, error) {
		return core.Schema(files(args, 0), str(args, 1))
	}))
	api.Set("gen", fn(func(args []js.Value) (any, error) {
		g, err := core.GenLang(files(args, 0), str(args, 1))
		if err != nil {
			return nil, err
		}
		fs, _ := object(g.Files, nil)
		names := make([]any, len(g.Names))
		for i, n := range g.Names {
			names[i] = n
		}
		return map[string]any{"files": fs, "names": names, "warnings": g.Warnings}, nil
	}))
	api.Set("graph", fn(func(args []js.Value) (any, error) {
		return core.Graph(files(args, 0), str(args, 1))
	}))
	api.Set("explain", fn(func(args []js.Value) (any, error) {
		return core.Explain(str(args, 0))
	}))
	api.Set("targets", fn(func([]js.Value) (any, error) {
		var out []any
		for _, t := range core.Targets() {
			out = append(out, t)
		}
		return out, nil
	}))
	js.Global().Set("__gramcCore", api)
	select {} // the functions stay callable
}

// fn wraps f as a JavaScript function returning {value} or {error}; a
// panic (a bug) becomes an error, so that the page keeps working.
func fn(f func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = map[string]any{"error": fmt.Sprintf("internal error (a bug in gramc; please report it): %v", r)}
			}
		}()
		v, err := f(args)
		if err != nil {
			res := map[string]any{"error": err.Error()}
			var ce *core.Error
			if errors.As(err, &ce) && len(ce.Diagnostics) > 0 {
				res["diagnostics"] = len(ce.Diagnostics)
			}
			return res
		}
		return map[string]any{"value": v}
	})
}

// files reads args[i], an object mapping file names to text; a value of
// another type is left out (core then says what is missing).
func files(args []js.Value, i int) core.Files {
	fs := core.Files{}
	if i >= len(args) || args[i].Type() != js.TypeObject {
		return fs
	}
	keys := js.Global().Get("Object").Call("keys", args[i])
	for k := range keys.Length() {
		name := keys.Index(k).String()
		if v := args[i].Get(name); v.Type() == js.TypeString {
			fs[name] = v.String()
		}
	}
	return fs
}

// str reads args[i] as a string ("" when absent or not a string).
func str(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}

// object turns a map of file texts into a JavaScript object.
func object(m map[string]string, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	o := map[string]any{}
	for k, v := range m {
		o[k] = v
	}
	return o, nil
}
