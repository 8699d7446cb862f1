// browser.js CONFIG.json: the playground's test in a real browser
// (playground/site's TestBrowser writes CONFIG and reads its result).
// playwright-core drives Debian's chromium as a visitor would: open a
// shared link with a typo, see the diagnostic at its line and column,
// apply its fix, switch to a schema pane, see the second file's tab, see
// the picture, see gramc gen's warning in the Go pane; then render
// gramc graph's Mermaid with the mermaid package.
// Each step that fails throws with what it saw.
"use strict";
const fs = require("fs");
const { chromium } = require("playwright-core");

const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const result = { steps: [] };
function step(name) { result.steps.push(name); }
function expect(cond, what) { if (!cond) throw new Error(what); }

(async () => {
  const browser = await chromium.launch({
    executablePath: cfg.chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    // playwright starts chromium with a fresh, empty --user-data-dir of
    // its own (it refuses one in args).
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    // Nothing but the site: any request elsewhere fails the test.
    const far = [];
    page.on("request", (r) => { if (!r.url().startsWith(cfg.base) && !r.url().startsWith("data:")) far.push(r.url()); });

    // 1. A shared link with a typo.
    const t0 = Date.now();
    await page.goto(cfg.base + "/index.html#txtar=" + cfg.link);
    await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
    result.loadMs = Number(await page.getAttribute("body", "data-load-ms"));
    result.readyMs = Date.now() - t0;
    step("opened the link");

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

    // 7. Time per check, in the page.
    result.checkMs = await page.evaluate((files) => {
      for (let i = 0; i < 5; i++) gramc.check(files);
      const n = 40, t = performance.now();
      for (let i = 0; i < n; i++) gramc.check(files);
      return (performance.now() - t) / n;
    }, cfg.weather);
    result.checkMsSmall = await page.evaluate(() => Number(document.body.dataset.checkMs));

    // 8. Keyboard: the output tabs and the fix buttons are buttons.
    await page.focus("#panetabs [data-pane='go']");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#pane").dataset.pane === "go", null, { timeout: 5000 });
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

    // The screenshot of the docs: the weather example with its picture.
    await page.selectOption("#examples", { index: 1 });
    await page.click("#panetabs [data-pane='graph']");
    await page.waitForSelector("#pane svg", { timeout: 10000 });
    await page.screenshot({ path: cfg.screenshot });
    step("screenshot");

    // 10. A phone's width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `at 390 px the page is ${overflow} px too wide`);
    step("phone width");

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

    expect(errors.length === 0, "errors in the page: " + errors.join("\n"));
    expect(far.length === 0, "requests outside the site: " + far.join(", "));
  } finally {
    await browser.close();
  }
})().then(() => {
  fs.writeFileSync(cfg.result, JSON.stringify(result));
}, (e) => {
  result.error = String(e && e.stack || e);
  fs.writeFileSync(cfg.result, JSON.stringify(result));
  process.exitCode = 1;
});
