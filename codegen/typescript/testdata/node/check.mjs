// The Node half of codegen/typescript's tests (node_test.go), in one
// process so that TypeScript, Zod and Ajv load once. It reads a manifest
// (argv[2]) the Go test wrote and prints one JSON object:
//
//   1. jstt: for each package, json-schema-to-typescript's types of every
//      tool's result schema, into <dir>/jstt.ts, and <dir>/codemode.ts:
//      tools.d.ts as a module, with assignments of those types to its
//      result types and back (so the compile step fails unless they are
//      mutually assignable);
//   2. programs: each a TypeScript program compiled with --strict (the
//      options of a tsconfig with "strict": true, module NodeNext), emitted
//      to <root>/js when emit is set; their diagnostics are returned; and
//      the files to transpile only, into <root>/js;
//   3. tokens: for pairs of files, whether their token streams (comments
//      dropped, every string literal one token) are the same: a hostile
//      package against the same package with benign text;
//   4. cases: each instance validated by the generated Zod schema (from the
//      emitted JavaScript) and by Ajv on the mcp target's schema; the
//      verdicts are returned for the Go test to compare with gramc's own.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { compile } from "json-schema-to-typescript";
import { Ajv2020 } from "ajv/dist/2020.js";

const manifest = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const start = Date.now();
const phase = (name) => process.stderr.write(`check.mjs: ${name} at ${((Date.now() - start) / 1000).toFixed(1)}s\n`);
const out = { diagnostics: {}, tokens: [], verdicts: [], jsttFailed: [], jsttChecked: 0 };

// 1. json-schema-to-typescript.
for (const p of manifest.jstt ?? []) {
  let types = "";
  let assign = "";
  let n = 0;
  for (const tool of p.tools ?? []) {
    const name = "R" + n++;
    // json-schema-to-typescript reads draft-07's definitions, and
    // recurses without end on a root that refers to itself ("$ref": "#"):
    // $defs become definitions and such a root moves into them.
    let text = JSON.stringify(tool.schema).replaceAll('"#/$defs/', '"#/definitions/').replaceAll('"$defs":', '"definitions":');
    let schema = JSON.parse(text);
    if (text.includes('"$ref":"#"')) {
      const { definitions, ...rest } = JSON.parse(text.replaceAll('"$ref":"#"', '"$ref":"#/definitions/GramcRoot"'));
      schema = { $ref: "#/definitions/GramcRoot", definitions: { ...definitions, GramcRoot: rest } };
    }
    let ts;
    try {
      ts = await compile(schema, name, { bannerComment: "", declareExternallyReferenced: true, ignoreMinAndMaxItems: true, strictIndexSignatures: false, format: false, unknownAny: true });
    } catch (e) {
      // json-schema-to-typescript 15 cannot resolve some recursive
      // schemas (a record reached from itself through an array); the Go
      // test counts these and requires the rest.
      out.jsttFailed.push(tool.result + " in " + p.dir + ": " + String(e.message ?? e).split("\n")[0]);
      continue;
    }
    // Each tool's declarations in a namespace of their own: the $defs'
    // names repeat between tools.
    types += "export namespace " + name + " {\n" + ts + "\n}\n";
    const j = "J." + name + "." + name; // the root type is named as asked

    const d = "tools." + tool.result;
    assign += `{ const a = null as unknown as ${j}; const b: ${d} = a; void b; }\n`;
    assign += `{ const a = null as unknown as ${d}; const b: ${j} = a; void b; }\n`;
    out.jsttChecked++;
  }
  fs.writeFileSync(path.join(p.dir, "jstt.ts"), types);
  // tools.d.ts is a script (its tools are global); with the checks
  // appended, which import, it is a module, so that one program holds
  // every package's copy.
  // With no checks (no tool json-schema-to-typescript derives), an empty
  // export makes it a module all the same.
  const head = assign === "" ? "export {};\n" : "import type * as J from \"./jstt.js\";\n";
  fs.writeFileSync(path.join(p.dir, "codemode.ts"), fs.readFileSync(path.join(p.dir, "tools.d.ts"), "utf8") + "\n" + head + assign);
}

phase("json-schema-to-typescript done");

// 2. Programs, sharing the parsed library files.
const cache = new Map();
function host(options) {
  const h = ts.createCompilerHost(options);
  const get = h.getSourceFile.bind(h);
  h.getSourceFile = (fileName, lang, onError, create) => {
    const shared = fileName.includes("node_modules") || fileName.includes("/typescript/lib/");
    if (shared && cache.has(fileName)) return cache.get(fileName);
    const sf = get(fileName, lang, onError, create);
    if (shared && sf) cache.set(fileName, sf);
    return sf;
  };
  return h;
}
for (const prog of manifest.programs ?? []) {
  const options = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    noEmit: !prog.emit,
    outDir: prog.emit ? path.join(manifest.root, "js") : undefined,
    rootDir: manifest.root,
    skipLibCheck: !!prog.skipLibCheck,
    // What projects' tsconfigs add to strict (tsc --init's, Vite's):
    // the generated code compiles under each.
    noUnusedLocals: true,
    noUnusedParameters: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noPropertyAccessFromIndexSignature: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
  };
  const program = ts.createProgram(prog.files, options, host(options));
  const diags = [...ts.getPreEmitDiagnostics(program)];
  if (prog.emit) diags.push(...program.emit().diagnostics);
  out.diagnostics[prog.name] = diags.slice(0, 50).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file) return msg;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${path.relative(manifest.root, d.file.fileName)}:${line + 1}:${character + 1}: ${msg}`;
  });
}

// Files only transpiled (the random packages': their types are checked by
// the programs' codemode.ts; what they are needed for is their Zod
// schemas' behaviour).
for (const file of manifest.transpile ?? []) {
  const js = ts.transpileModule(fs.readFileSync(file, "utf8"), { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  const dest = path.join(manifest.root, "js", path.relative(manifest.root, file)).replace(/\.ts$/, ".js");
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, js);
}
phase("programs compiled");

// 3. Token streams.
function tokens(file) {
  const text = fs.readFileSync(file, "utf8");
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, text);
  const toks = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    if (k === ts.SyntaxKind.StringLiteral || k === ts.SyntaxKind.NoSubstitutionTemplateLiteral) toks.push("STRING");
    else toks.push(ts.SyntaxKind[k] + ":" + scanner.getTokenText());
  }
  return toks;
}
for (const [a, b] of manifest.tokens ?? []) {
  const ta = tokens(a), tb = tokens(b);
  let diff = -1;
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    if (ta[i] !== tb[i]) { diff = i; break; }
  }
  out.tokens.push(diff < 0 ? "" : `token ${diff}: ${ta[diff]} in ${a}, ${tb[diff]} in ${b}`);
}

// 4. Three-way agreement: Zod and Ajv here, gramc's validator in Go.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const compiled = new Map();
const modules = new Map();
for (const c of manifest.cases ?? []) {
  let mod = modules.get(c.pkg);
  if (!mod) {
    const file = path.join(manifest.root, "js", path.relative(manifest.root, c.dir), "types.js");
    mod = await import(pathToFileURL(file).href);
    modules.set(c.pkg, mod);
  }
  const schema = c.kind === "type" ? mod.typeSchemas[c.name] : c.kind === "args" ? mod.toolSchemas[c.name].args : mod.toolSchemas[c.name].result;
  const z = schema.safeParse(c.instance);
  let v = compiled.get(c.schema);
  if (!v) {
    try {
      v = ajv.compile(manifest.schemas[c.schema]);
    } catch (e) {
      // A pattern only Go's RE2 reads ((?i), \A: gramc warns
      // pattern-portability): no ECMA-262 validator can use the schema.
      v = { error: String(e.message ?? e).split("\n")[0] };
    }
    compiled.set(c.schema, v);
  }
  if (v.error) {
    out.verdicts.push({ zod: z.success, ajv: false, unusable: v.error });
    continue;
  }
  const a = v(c.instance);
  out.verdicts.push({ zod: z.success, ajv: a, why: z.success ? "" : z.error.issues.map((i) => i.path.join("/") + ": " + i.message).join("; ") });
}
phase("cases validated");
process.stdout.write(JSON.stringify(out));
