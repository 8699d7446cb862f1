// The conformance suite imports fs.globSync, which Node 22 added. On Node
// 20, this preload (node --import ./node20.mjs) resolves the suite's "fs"
// to fs-glob.mjs: node:fs with a globSync for the plain patterns the
// suite uses ("dir/*.ext", "dir/**/*.ext"). Nothing else changes; on Node
// 22 it does nothing.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  register("./node20-hooks.mjs", import.meta.url);
}
