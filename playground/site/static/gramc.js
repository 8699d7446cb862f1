// gramc.js: loads the playground's WebAssembly module (gramc.wasm, the
// compiler core) and defines globalThis.gramc, the API of the page and of
// anyone embedding it (docs/playground.md). Needs Go's wasm_exec.js first.
//
//   await gramcLoad("gramc.wasm");          // a browser: fetched
//   await gramcLoad(bytes);                 // Node: the module's bytes
//   gramc.check({"a.gram": "..."})          // what gramc check --format json prints, parsed
//
// Every function returns its result or throws an Error whose message is
// what the CLI prints on standard error.
(function () {
  "use strict";

  function call(name, args) {
    const core = globalThis.__gramcCore;
    if (!core) throw new Error("gramc is not loaded: await gramcLoad(...) first");
    const r = core[name].apply(null, args);
    if (r.error !== undefined) {
      const e = new Error(r.error);
      e.diagnostics = r.diagnostics || 0;
      throw e;
    }
    return r.value;
  }

  const api = {
    // check(files): the array gramc check --format json prints.
    check: (files) => JSON.parse(call("check", [files])),
    // checkText(files): the same, as the exact text the CLI prints.
    checkText: (files) => call("check", [files]),
    // fixes(files): per diagnostic of check's array, {kind, file, text}:
    // the fix gramc check --fix applies, as the file's new text.
    fixes: (files) => JSON.parse(call("fixes", [files])),
    // format(files): {name: what gramc fmt prints}.
    format: (files) => call("format", [files]),
    // schema(files, target): what gramc schema --target target prints.
    schema: (files, target) => call("schema", [files, target === undefined ? "jsonschema" : String(target)]),
    // gen(files, lang): {files: {name: what gramc gen --lang lang writes},
    // names: the files' names in the order it writes them, warnings: what
    // it prints on standard error about the names it chose ("" if none)};
    // lang is "go" (the default) or "ts" (TypeScript).
    gen: (files, lang) => call("gen", [files, lang === undefined ? "go" : String(lang)]),
    // graph(files, format): what gramc graph --format format prints.
    graph: (files, format) => call("graph", [files, format === undefined ? "mermaid" : String(format)]),
    // targets(): the names of gramc schema's targets.
    targets: () => call("targets", []),
    // explain(code): what gramc explain code prints.
    explain: (code) => call("explain", [String(code)]),
  };

  // gramcLoad starts the module once and resolves to globalThis.gramc.
  // source is the module's URL (a browser: compiled while it streams in),
  // a compiled WebAssembly.Module (a Web Worker given the page's), or the
  // module's bytes (Node).
  let loading = null;
  globalThis.gramcLoad = function (source) {
    if (loading) return loading;
    loading = (async () => {
      const go = new Go();
      let instance;
      if (typeof source === "string") {
        instance = await WebAssembly.instantiate(await gramcCompile(source), go.importObject);
      } else if (source instanceof WebAssembly.Module) {
        instance = await WebAssembly.instantiate(source, go.importObject);
      } else {
        instance = (await WebAssembly.instantiate(source, go.importObject)).instance;
      }
      go.run(instance); // returns at main's select{}: the functions stay
      // Whether the Go program has ended (a fatal error: out of memory),
      // after which every call fails: the page's worker then starts anew.
      globalThis.gramcExited = () => go.exited;
      if (!globalThis.__gramcCore) throw new Error("gramc.wasm did not start");
      globalThis.gramc = Object.freeze(Object.assign({}, api));
      return globalThis.gramc;
    })();
    return loading;
  };

  // gramcCompile fetches the module at url and compiles it as it streams
  // in (the server sends it as application/wasm, compressed or not); a
  // server without that type gets the whole body compiled instead.
  globalThis.gramcCompile = async function (url) {
    if (WebAssembly.compileStreaming) {
      try {
        return await WebAssembly.compileStreaming(fetch(url));
      } catch (e) {
        if (!(e instanceof TypeError)) throw e; // a compile error, not the type
      }
    }
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(url + ": " + resp.status + " " + resp.statusText);
    return WebAssembly.compile(await resp.arrayBuffer());
  };
})();
