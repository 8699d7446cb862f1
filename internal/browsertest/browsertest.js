// browsertest.js: what the scripts of gramc's browser tests share, as
// internal/browsertest.Run runs them (this file's directory is on
// NODE_PATH, with the npm packages): the configuration Run writes, the
// browser launched with its flags, and the result Run reads — the steps
// taken and the error that stopped them.
//
//   const { run } = require("browsertest");
//   run(async (browser, t) => { ...; t.step("did this"); t.expect(ok, "what was seen"); });
"use strict";
const fs = require("fs");
const { chromium } = require("playwright-core");

exports.run = async function run(body) {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const result = { steps: [] };
  const t = {
    result,
    cfg,
    step(name) { result.steps.push(name); },
    expect(cond, what) { if (!cond) throw new Error(what); },
    // errors collects what page reports as an error: its uncaught
    // exceptions and console errors.
    errors(page) {
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
      return errors;
    },
  };
  // playwright starts chromium with a fresh, empty --user-data-dir of its
  // own (it refuses one in args).
  const browser = await chromium.launch({ executablePath: cfg.chromium, args: cfg.chromiumArgs });
  try {
    await body(browser, t);
  } catch (e) {
    result.error = String(e && e.stack || e);
    process.exitCode = 1;
  } finally {
    await browser.close();
    fs.writeFileSync(cfg.result, JSON.stringify(result));
  }
};
