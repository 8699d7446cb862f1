// worker.js: the playground's compiler, off the page's main thread (a
// Web Worker), so that typing never waits for a check. The page posts
// the compiled module ({module}) and then jobs ({id, job}); each job is
// answered by {id, result}. A newer edit cancels an older check by
// ending the worker and starting another with the same module
// (docs/playground.md).
"use strict";
importScripts("wasm_exec.js", "gramc.js");

let ready = null;

// run does what the page asks of one version of the package: check it
// (the diagnostics and their fixes) and draw one output pane.
function run(job) {
  const out = {};
  if (job.check) {
    const t0 = performance.now();
    try {
      out.diagnostics = gramc.check(job.files);
      out.fixes = gramc.fixes(job.files);
    } catch (e) {
      out.checkError = e.message;
    }
    out.checkMs = performance.now() - t0;
  }
  if (job.pane) {
    try {
      out.pane = pane(job.pane, job.files);
    } catch (e) {
      out.paneError = { message: e.message, diagnostics: e.diagnostics || 0 };
    }
  }
  if (job.targets) out.targets = gramc.targets();
  return out;
}

// pane is an output pane's content: text, or for "go" and "ts" gramc
// gen's files (gramc gen --lang go or ts) and warnings.
function pane(p, files) {
  switch (p.name) {
    case "schema": return gramc.schema(files, p.target);
    case "go": return gramc.gen(files, "go");
    case "ts": return gramc.gen(files, "ts");
    case "fmt": return p.order.map((n) => "// " + n + "\n" + gramc.format({ [n]: files[n] })[n]).join("\n");
    case "explain": return p.code ? gramc.explain(p.code) : "Pick a diagnostic's [code], or type a code above.";
    case "graph": return gramc.graph(files, p.format);
  }
  throw new Error("no pane " + p.name);
}

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.module) {
    ready = gramcLoad(m.module);
    ready.then(() => self.postMessage({ started: true }), (e) => self.postMessage({ failed: String(e && e.message || e) }));
    return;
  }
  ready.then(() => {
    let result;
    try {
      result = run(m.job);
    } catch (e) {
      result = { failed: String(e && e.message || e) };
    }
    if (globalThis.gramcExited && globalThis.gramcExited()) result.exited = true;
    self.postMessage({ id: m.id, result });
  });
};
