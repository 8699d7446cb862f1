// fs with globSync, for the conformance suite on Node 20 (node20.mjs).
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const parts = String(pattern).split("/");
  const toRE = (p) => new RegExp("^" + p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]") + "$");
  let found = [""];
  for (const part of parts) {
    const next = [];
    for (const base of found) {
      const dir = path.resolve(cwd, base || ".");
      if (part === "**") {
        const walk = (rel) => {
          next.push(rel);
          let entries = [];
          try { entries = fs.readdirSync(path.resolve(cwd, rel || "."), { withFileTypes: true }); } catch { return; }
          for (const e of entries) if (e.isDirectory()) walk(rel ? rel + "/" + e.name : e.name);
        };
        walk(base);
        continue;
      }
      if (!/[*?]/.test(part)) {
        const rel = base ? base + "/" + part : part;
        if (part === "" || fs.existsSync(path.resolve(cwd, rel))) next.push(rel);
        continue;
      }
      let entries = [];
      try { entries = fs.readdirSync(dir); } catch { continue; }
      const re = toRE(part);
      for (const name of entries) if (re.test(name)) next.push(base ? base + "/" + name : name);
    }
    found = [...new Set(next)];
  }
  return found;
}
