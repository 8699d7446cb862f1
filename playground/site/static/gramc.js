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
    // gen(files): {files: {name: what gramc gen writes}, warnings: what
    // it prints on standard error about the Go names it chose ("" if none)}.
    gen: (files) => call("gen", [files]),
    // graph(files, format): what gramc graph --format format prints.
    graph: (files, format) => call("graph", [files, format === undefined ? "mermaid" : String(format)]),
    // targets(): the names of gramc schema's targets.
    targets: () => call("targets", []),
    // explain(code): what gramc explain code prints.
    explain: (code) => call("explain", [String(code)]),
  };

  // gramcLoad starts the module once and resolves to globalThis.gramc.
  let loading = null;
  globalThis.gramcLoad = function (source) {
    if (loading) return loading;
    loading = (async () => {
      const go = new Go();
      let instance;
      if (typeof source === "string") {
        const resp = fetch(source);
        if (WebAssembly.instantiateStreaming) {
          try {
            instance = (await WebAssembly.instantiateStreaming(resp, go.importObject)).instance;
          } catch (e) {
            // A server without the application/wasm type: read it whole.
            const bytes = await (await fetch(source)).arrayBuffer();
            instance = (await WebAssembly.instantiate(bytes, go.importObject)).instance;
          }
        } else {
          const bytes = await (await resp).arrayBuffer();
          instance = (await WebAssembly.instantiate(bytes, go.importObject)).instance;
        }
      } else {
        instance = (await WebAssembly.instantiate(source, go.importObject)).instance;
      }
      go.run(instance); // returns at main's select{}: the functions stay
      if (!globalThis.__gramcCore) throw new Error("gramc.wasm did not start");
      globalThis.gramc = Object.freeze(Object.assign({}, api));
      return globalThis.gramc;
    })();
    return loading;
  };
})();
