// parity.js DIST REQUESTS.json RESULTS.json: loads DIST's gramc.wasm through DIST's
// gramc.js under Node, runs each request [fn, files, arg] through
// globalThis.gramc and writes the results into RESULTS.json as a JSON array of {value} or
// {error}. playground/site's TestParity compares them with the CLI's.
"use strict";
const fs = require("fs");
const path = require("path");
const [dist, requests, results] = process.argv.slice(2);
require(path.resolve(dist, "wasm_exec.js"));
require(path.resolve(dist, "gramc.js"));
(async () => {
  const gramc = await globalThis.gramcLoad(fs.readFileSync(path.join(dist, "gramc.wasm")));
  const out = [];
  const t0 = process.hrtime.bigint();
  for (const [fn, files, arg] of JSON.parse(fs.readFileSync(requests, "utf8"))) {
    try {
      let v;
      switch (fn) {
        case "check": {
          v = gramc.checkText(files);
          // check's array is the text, parsed.
          if (JSON.stringify(gramc.check(files)) !== JSON.stringify(JSON.parse(v))) throw new Error("check() differs from checkText()");
          break;
        }
        case "explain": v = gramc.explain(arg); break;
        default: v = gramc[fn](files, arg);
      }
      out.push({ value: v });
    } catch (e) {
      out.push({ error: e.message });
    }
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  fs.writeFileSync(results, JSON.stringify({ results: out, ms }));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
