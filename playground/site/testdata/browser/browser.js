// browser.js CONFIG.json: the playground's test in a real browser
// (playground/site's TestBrowser writes CONFIG and reads its result).
// playwright-core drives Debian's chromium as a visitor would: open a
// shared link with a typo, see the diagnostic at its line and column,
// apply its fix, switch to a schema pane, see the second file's tab, see
// the picture, see gramc gen's warning in the Go pane and gramc gen --lang
// ts's files and warning in the TypeScript pane; then render
// gramc graph's Mermaid with the mermaid package.
// Each step that fails throws with what it saw.
"use strict";
const { run } = require("browsertest");

run(async (browser, { cfg, step, expect, result, errors: pageErrors }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = pageErrors(page);
  // Nothing but the site: any request elsewhere fails the test.
  const far = [];
  page.on("request", (r) => { if (!r.url().startsWith(cfg.base) && !r.url().startsWith("data:")) far.push(r.url()); });

  // The module, as the browser fetched it: sent precompressed.
  const wasm = [];
  page.on("response", (r) => { if (new URL(r.url()).pathname === "/gramc.wasm") wasm.push(r); });

  // 1. A shared link with a typo.
  const t0 = Date.now();
  await page.goto(cfg.base + "/index.html#txtar=" + cfg.link);
  await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
  result.loadMs = Number(await page.getAttribute("body", "data-load-ms"));
  result.readyMs = Date.now() - t0;
  expect(wasm.length === 1, `the module was fetched ${wasm.length} times, want once (the worker gets it compiled)`);
  result.wasmEncoding = (await wasm[0].allHeaders())["content-encoding"] || "";
  expect(result.wasmEncoding === cfg.wasmEncoding, `the module came with Content-Encoding ${JSON.stringify(result.wasmEncoding)}, want ${cfg.wasmEncoding}`);
  step("opened the link (the module sent as " + result.wasmEncoding + ")");

  // 2. The diagnostic, at its line and column, without a click.
  const row = page.locator(".diag[data-code='unknown-type']");
  await row.first().waitFor({ timeout: 10000 });
  const pos = await row.first().locator(".pos").textContent();
  expect(pos === cfg.expectPos, `the diagnostic is at ${pos}, want ${cfg.expectPos}`);
  const marked = await page.locator("#highlight .mark-error").first().textContent();
  expect(marked === cfg.typo, `the editor underlines ${JSON.stringify(marked)}, want ${JSON.stringify(cfg.typo)}`);
  step("saw " + pos + " unknown-type");

  // 3. Its fix, one click.
  await row.first().locator("button.fix").click();
  await page.waitForFunction(() => !document.querySelector(".diag[data-code='unknown-type']"), null, { timeout: 10000 });
  const text = await page.inputValue("#source");
  expect(text.includes(cfg.fixed) && !text.includes(cfg.typo + ")"), "the fix did not change the file: " + text);
  const hash = await page.evaluate(() => location.hash);
  const shared = await page.evaluate((h) => gramcPlayground.fromTxtar(gramcPlayground.unbase64url(h.slice("#txtar=".length))), hash);
  expect(shared.files[cfg.firstFile].includes(cfg.fixed), "the URL does not hold the fixed file");
  step("applied the fix; the URL follows");

  // 4. A schema pane.
  await page.click("#panetabs [data-pane='schema']");
  await page.selectOption("#target", "openai");
  await page.waitForFunction(() => document.querySelector("#pane").textContent.includes('"type": "function"'), null, { timeout: 10000 });
  const schemaText = await page.textContent("#pane");
  expect(schemaText === cfg.schemaOpenAI, "the schema pane differs from gramc schema --target openai:\n" + schemaText);
  step("schema pane: openai, as the CLI prints it");

  // 5. The second file's tab.
  const tab = page.locator(`#filetabs [data-file='${cfg.secondFile}']`);
  await tab.waitFor({ timeout: 5000 });
  await tab.click();
  expect((await page.inputValue("#source")) === cfg.secondText, "the second tab does not show its file");
  step("second file's tab");

  // 6. The picture.
  await page.click("#panetabs [data-pane='graph']");
  await page.waitForSelector("#pane svg text", { timeout: 10000 });
  const labels = await page.locator("#pane svg g title").allTextContents();
  for (const want of cfg.graphNodes) expect(labels.includes(want), `the picture has no ${want}: ${labels}`);
  step("graph picture");

  // 6b. An error keeps the last good picture, dimmed, with one line
  // saying why; the fix brings it back.
  await page.click(`#filetabs [data-file='${cfg.firstFile}']`);
  const good = await page.inputValue("#source");
  await page.fill("#source", good.replace(cfg.fixed, "city::" + cfg.typo));
  await page.waitForSelector("#pane[data-stale='1'] .stale svg", { timeout: 10000 });
  const why = await page.locator("#pane .stale-why").allTextContents();
  expect(why.length === 1 && /^Out of date: the package has 1 error/.test(why[0]) && !why[0].includes("\n"), "the stale picture's line: " + JSON.stringify(why));
  expect((await page.locator("#pane .error").count()) === 0, "the graph pane shows the error text, not the last picture");
  const staleLabels = await page.locator("#pane .stale svg g title").allTextContents();
  for (const want of cfg.graphNodes) expect(staleLabels.includes(want), `the stale picture has no ${want}`);
  await page.fill("#source", good);
  await page.waitForFunction(() => document.querySelector("#pane").dataset.stale === "" && document.querySelector("#pane > svg"), null, { timeout: 10000 });
  step("an error dims the last picture with one line; the fix restores it");

  // 7. Time per check, in the page.
  result.checkMs = await page.evaluate(async (files) => {
    const ms = [];
    for (let i = 0; i < 25; i++) ms.push((await gramcPlayground.ask({ files, check: true })).checkMs);
    ms.splice(0, 5); // warming up
    return ms.reduce((a, b) => a + b) / ms.length;
  }, cfg.weather);
  result.checkMsSmall = await page.evaluate(() => Number(document.body.dataset.checkMs));

  // 8. Keyboard: the output tabs and the fix buttons are buttons.
  await page.focus("#panetabs [data-pane='go']");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#pane").dataset.shown === "go", null, { timeout: 10000 });
  expect((await page.textContent("#pane")).includes("DO NOT EDIT"), "the Go pane shows no generated code");
  expect((await page.locator("#pane .warnings").count()) === 0, "the Go pane shows warnings for a package gramc gen warns nothing of");
  step("keyboard: Enter on a tab opens its pane");

  // 9. gramc gen's warning, beside the Go it is about: a link whose two
  // tools map to one Go name.
  await page.evaluate((link) => { location.hash = "#txtar=" + link; }, cfg.collideLink);
  await page.waitForSelector("#pane .warnings", { timeout: 10000 });
  const warned = await page.textContent("#pane .warnings");
  expect(warned === cfg.genWarnings, "the Go pane's warnings differ from what gramc gen prints on standard error:\n" + warned + "\nwant:\n" + cfg.genWarnings);
  expect((await page.textContent("#pane")).includes(cfg.genRenamed), "the Go pane has no " + cfg.genRenamed);
  step("Go pane: gramc gen's warning");

  // 10. The TypeScript pane, beside Go: what gramc gen --lang ts writes
  // (its files in the order it writes them) and prints (the same link's
  // tools take one TypeScript name), then the first example's files.
  const tsCode = () => Array.from(document.querySelector("#pane").childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("");
  await page.click("#panetabs [data-pane='ts']");
  await page.waitForFunction(() => document.querySelector("#pane").dataset.shown === "ts", null, { timeout: 10000 });
  const tsWarned = await page.textContent("#pane .warnings");
  expect(tsWarned === cfg.tsWarnings, "the TypeScript pane's warnings differ from what gramc gen --lang ts prints on standard error:\n" + tsWarned + "\nwant:\n" + cfg.tsWarnings);
  const tsShown = await page.evaluate(tsCode);
  expect(tsShown === cfg.tsCollide, "the TypeScript pane differs from what gramc gen --lang ts writes:\n" + tsShown.slice(0, 2000) + "\nwant:\n" + cfg.tsCollide.slice(0, 2000));
  await page.selectOption("#examples", cfg.exampleNames[0]);
  try {
    await page.waitForFunction(new Function("want", "return (" + tsCode.toString() + ")() === want && !document.querySelector('#pane .warnings')"), cfg.tsWeather, { timeout: 10000 });
  } catch (e) {
    throw new Error("the TypeScript pane of " + cfg.exampleNames[0] + " differs from gramc gen --lang ts's files:\n" + (await page.evaluate(tsCode)).slice(0, 2000) + "\nwant:\n" + cfg.tsWeather.slice(0, 2000));
  }
  step("TypeScript pane: gramc gen --lang ts's files and warning");

  // The screenshot of the docs: the weather example with its picture.
  await page.selectOption("#examples", cfg.exampleNames[0]);
  await page.click("#panetabs [data-pane='graph']");
  await page.waitForSelector("#pane > svg", { timeout: 10000 });
  expect((await page.locator("#examples option:checked").textContent()) === cfg.exampleNames[0], "the example menu does not name the example shown");
  // The picture fits its pane (no scrolling sideways, nothing clipped),
  // and no edge label's box overlaps another's or a node's.
  const fit = await page.evaluate(() => {
    const pane = document.querySelector("#pane"), svg = pane.querySelector("svg");
    const p = pane.getBoundingClientRect(), r = svg.getBoundingClientRect();
    const box = (e) => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom, what: e.textContent }; };
    const labels = [...svg.querySelectorAll("g.edge text")].map(box);
    const nodes = [...svg.querySelectorAll("g.node rect")].map((e) => Object.assign(box(e), { what: e.parentNode.querySelector("title").textContent }));
    const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
    const overlaps = [];
    labels.forEach((a, i) => {
      labels.slice(i + 1).forEach((b) => { if (meet(a, b)) overlaps.push(a.what + " / " + b.what); });
      nodes.forEach((b) => { if (meet(a, b)) overlaps.push(a.what + " / " + b.what); });
    });
    return { inside: r.left >= p.left - 0.5 && r.right <= p.right + 0.5, scrolls: pane.scrollWidth > pane.clientWidth,
      labels: labels.length, nodes: nodes.length, overlaps, scale: r.width / Number(svg.getAttribute("width")) };
  });
  expect(fit.nodes > 5 && fit.labels > 5, `the picture has ${fit.nodes} nodes and ${fit.labels} edge labels`);
  expect(fit.inside && !fit.scrolls, "the picture does not fit its pane: " + JSON.stringify(fit));
  expect(fit.overlaps.length === 0, "overlapping label boxes: " + fit.overlaps.join("; "));
  result.graphScale = fit.scale;
  await page.screenshot({ path: cfg.screenshot });
  step(`screenshot; the picture fits at ${Math.round(fit.scale * 100)}%, ${fit.labels} labels apart`);

  // 10. A phone's width: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow <= 1, `at 390 px the page is ${overflow} px too wide`);
  step("phone width");

  await page.setViewportSize({ width: 1280, height: 800 });

  // 10b. Links that cannot be opened say why, and the page shows the
  // first example; a file name the compiler refuses is explained by it.
  for (const bad of cfg.badLinks) {
    await page.evaluate((h) => { location.hash = h; }, bad.hash);
    if (bad.notice) {
      await page.waitForFunction((w) => !document.querySelector("#notice").hidden && document.querySelector("#notice").textContent.includes(w), bad.notice, { timeout: 10000 });
    } else {
      await page.waitForFunction((w) => document.querySelector("#diagnostics").textContent.includes(w), bad.diagnostic, { timeout: 10000 });
    }
  }
  const opened = await browser.newPage();
  opened.on("pageerror", (e) => errors.push("bad link page: " + e));
  await opened.goto(cfg.base + "/index.html" + cfg.badLinks[0].hash);
  await opened.waitForSelector("body[data-ready='1']", { timeout: 60000 });
  const said = await opened.textContent("#notice");
  expect(said.includes(cfg.badLinks[0].notice) && said.includes("Showing the example " + cfg.exampleNames[0]), "the notice of a bad link: " + said);
  expect((await opened.locator("#examples option:checked").textContent()) === cfg.exampleNames[0], "the menu does not name the example shown");
  await opened.close();
  step("links that cannot be opened say why");

  // 10c. A large package: typing while it is checked is handled at
  // once (the check runs in a worker), and the edit cancels the check.
  await page.click("#panetabs [data-pane='explain']");
  // A check of it asked for (a count, not the checking flag, which a
  // fast check may raise and lower between two polls).
  const askedBefore = Number(await page.getAttribute("body", "data-checks-asked") || 0);
  await page.evaluate((link) => { location.hash = "#txtar=" + link; }, cfg.bigLink);
  await page.waitForFunction((n) => Number(document.body.dataset.checksAsked || 0) > n, askedBefore, { timeout: 60000 });
  await page.evaluate(() => {
    const s = document.querySelector("#source");
    s.focus(); s.setSelectionRange(s.value.length, s.value.length);
    window.__typed = [];
    // keydown's timeStamp is when the key came; the input event is
    // handled once every listener of the page has run.
    window.addEventListener("keydown", (ev) => { window.__key = { at: ev.timeStamp, checking: document.body.dataset.checking === "1" }; }, true);
    window.addEventListener("input", () => { window.__typed.push({ ms: performance.now() - window.__key.at, checking: window.__key.checking }); });
  });
  await page.keyboard.press("Enter");
  // Each key starts a check of its own (after the pause): wait for one
  // to run and type a key while it does. A busy machine may end a check
  // before the key comes; then the next key's check is the one.
  let hit = null;
  for (let attempt = 0; attempt < 10 && !hit; attempt++) {
    await page.waitForFunction(() => document.body.dataset.checking === "1", null, { timeout: 20000 });
    // The editor's frame drawn: the key comes to an idle page whose
    // compiler is busy.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const cancelledBefore = Number(await page.getAttribute("body", "data-cancelled") || 0);
    await page.keyboard.press("/");
    const t = await page.evaluate(() => window.__typed[window.__typed.length - 1]);
    if (t.checking) hit = Object.assign(t, { cancelledBefore, attempt });
  }
  expect(hit, "in 10 tries, no key came while a check ran");
  // The key was dispatched while the check ran (hit: its keydown saw
  // data-checking), which a check on the page's own thread would not let
  // happen, and it cancelled that check; how long it took is measured,
  // not asserted (a loaded machine's time is not the page's).
  result.inputMs = hit.ms;
  expect(Number(await page.getAttribute("body", "data-cancelled")) > hit.cancelledBefore, "the edit did not cancel the running check");
  await page.keyboard.type("/ typed while it is checked");
  const typed = await page.evaluate(() => window.__typed);
  result.inputMsMax = Math.max(...typed.map((t) => t.ms));
  await page.waitForFunction(() => document.body.dataset.checking === "" && document.querySelector("#status").textContent.startsWith("no errors"), null, { timeout: 60000 });
  result.bigCheckMs = Number(await page.getAttribute("body", "data-check-ms"));
  step(`large package: a key during its check handled in ${result.inputMs.toFixed(1)} ms (try ${hit.attempt + 1}), the check cancelled`);

  // 11. gramc graph's Mermaid renders with the mermaid package.
  const m = await browser.newPage();
  m.on("pageerror", (e) => errors.push("mermaid page: " + e));
  await m.goto(cfg.base + "/__test/mermaid.html");
  const drawn = await m.evaluate(async (text) => {
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
    const { svg } = await mermaid.render("weather", text);
    document.body.innerHTML = svg;
    const el = document.querySelector("svg");
    return {
      nodes: [...el.querySelectorAll(".node")].map((n) => n.textContent.trim()),
      edgeLabels: [...el.querySelectorAll("g.edgeLabel")].map((n) => n.textContent.trim()).filter(Boolean),
    };
  }, cfg.mermaid);
  expect(cfg.mermaidNodes.length > 5, "no nodes to look for");
  for (const name of cfg.mermaidNodes) {
    expect(drawn.nodes.some((n) => n.startsWith(name)), `mermaid drew no node ${name}: ${drawn.nodes}`);
  }
  expect(drawn.nodes.length === cfg.mermaidNodes.length, `mermaid drew ${drawn.nodes.length} nodes, want ${cfg.mermaidNodes.length}`);
  expect(drawn.edgeLabels.length === cfg.mermaidEdges, `mermaid drew ${drawn.edgeLabels.length} edge labels, want ${cfg.mermaidEdges}`);
  result.mermaidNodes = drawn.nodes.length;
  step("mermaid rendered " + drawn.nodes.length + " nodes, " + drawn.edgeLabels.length + " edge labels");

  // 12. Hostile names in gramc graph's Mermaid change nothing: the same
  // configuration, no request; a directive written raw (the control)
  // does change it, so the check can see one.
  const requested = [];
  m.on("request", (r) => requested.push(r.url()));
  const render = (text, id) => m.evaluate(async ({ text, id }) => {
    const before = JSON.stringify(mermaid.mermaidAPI.getConfig());
    const { svg } = await mermaid.render(id, text);
    const after = JSON.stringify(mermaid.mermaidAPI.getConfig());
    document.body.innerHTML = svg;
    await new Promise((r) => setTimeout(r, 300)); // a style sheet's fetch would start
    const style = [...document.querySelectorAll("svg style")].map((s) => s.textContent).join("\n");
    return { changed: before !== after, imports: style.includes("@import"), nodes: [...document.querySelectorAll("svg .node")].map((n) => n.textContent.trim()) };
  }, { text, id });
  mermaid: {
    const hostile = await render(cfg.hostileMermaid, "hostile");
    expect(!hostile.changed, "a name changed mermaid's configuration");
    expect(!hostile.imports, "a name put an @import into the picture's style");
    expect(requested.length === 0, "rendering hostile names made requests: " + requested.join(", "));
    expect(hostile.nodes.some((n) => n.includes("%%{init:")), "the hostile name is not drawn as text: " + hostile.nodes);
    const control = await render(cfg.controlMermaid, "control");
    expect(control.changed || control.imports || requested.length > 0, "the control's raw directive changed nothing: the check cannot see one");
    step("hostile names in mermaid: configuration unchanged, no request (a raw directive would: " +
      [control.changed && "configuration", control.imports && "@import", requested.length > 0 && requested.length + " request"].filter(Boolean).join(", ") + ")");
  }

  expect(errors.length === 0, "errors in the page: " + errors.join("\n"));
  expect(far.length === 0, "requests outside the site: " + far.join(", "));
});
