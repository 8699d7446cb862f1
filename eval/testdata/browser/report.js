// report.js CONFIG.json: gramc eval's HTML report in a real browser
// (eval's TestHTMLReportInBrowser writes CONFIG and reads its result).
// playwright-core (playground/site/testdata/browser's node_modules, on
// NODE_PATH) drives Debian's chromium: the page opens from a file, draws
// its two charts, fetches nothing, and every number it shows is the JSON
// report's, formatted here on its own. Each step that fails throws with
// what it saw.
"use strict";
const fs = require("fs");
const { run } = require("browsertest");

const pct = (x) => (x === null ? "–" : (x * 100).toFixed(1) + "%");
const ci = (iv) => (iv.low * 100).toFixed(1) + "–" + (iv.high * 100).toFixed(1) + "%";
const pp = (d) => (d >= 0 ? "+" : "") + (d * 100).toFixed(1) + " pp";

run(async (browser, { cfg, step, expect, errors: pageErrors }) => {
  const report = JSON.parse(fs.readFileSync(cfg.json, "utf8"));
  const page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
  const errors = pageErrors(page);
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  const url = "file://" + cfg.html;
  await page.goto(url, { waitUntil: "load" });
  step("opened " + url);

  // It renders: both charts have a size, a bar per cell, a point per variant.
  for (const id of ["rates", "cost"]) {
    const box = await page.locator("svg#" + id).boundingBox();
    expect(box && box.width > 100 && box.height > 100, `svg#${id} has no size: ${JSON.stringify(box)}`);
  }
  const bars = await page.locator("svg#rates g.bar").count();
  expect(bars === report.cells.length, `${bars} bars, ${report.cells.length} cells`);
  const points = await page.locator("svg#cost g.point").count();
  expect(points === report.variants.length, `${points} points, ${report.variants.length} variants`);
  step("drew " + bars + " bars and " + points + " points");

  // The numbers: each cell's row and bar, each variant, each comparison.
  const plot = cfg.plotWidth;
  for (const c of report.cells) {
    const sel = `[data-test="${c.test}"][data-variant="${c.variant}"]`;
    const row = page.locator("#cells tr" + sel);
    expect((await row.locator("td.rate").textContent()) === pct(c.passRate), `${c.test} × ${c.variant}: rate ${await row.locator("td.rate").textContent()}, JSON ${pct(c.passRate)}`);
    expect((await row.locator("td.ci").textContent()) === ci(c.wilson95), `${c.test} × ${c.variant}: interval`);
    expect((await row.locator("td.passed").textContent()) === `${c.passed}/${c.counted}`, `${c.test} × ${c.variant}: passed`);
    expect((await row.locator("td.passhatk").textContent()) === pct(c.passHatK), `${c.test} × ${c.variant}: pass^k`);
    expect((await row.locator("td.errored").textContent()) === String(c.errored), `${c.test} × ${c.variant}: errored`);
    expect((await row.locator("td.cost").textContent()) === "$" + c.costUSD.toFixed(4), `${c.test} × ${c.variant}: cost`);
    const bar = page.locator("svg#rates g.bar" + sel);
    const width = Number(await bar.locator("rect").getAttribute("width"));
    const want = (c.passRate || 0) * plot;
    expect(Math.abs(width - want) < 0.06, `${c.test} × ${c.variant}: bar ${width}, want ${want}`);
    const ends = await bar.locator("line.err").first().evaluate((l) => [Number(l.getAttribute("x1")), Number(l.getAttribute("x2"))]);
    expect(Math.abs(ends[0] - c.wilson95.low * plot) < 0.06 && Math.abs(ends[1] - c.wilson95.high * plot) < 0.06, `${c.test} × ${c.variant}: error bar ${ends}`);
  }
  step("every cell's numbers are the JSON's");
  for (const v of report.variants) {
    const row = page.locator(`#variants tr[data-variant="${v.name}"]`);
    expect((await row.locator("td.rate").textContent()) === pct(v.pooled.passRate), `variant ${v.name}: rate ${await row.locator("td.rate").textContent()}, JSON ${pct(v.pooled.passRate)} (${v.pooled.passRate})`);
    const p = page.locator(`svg#cost g.point[data-variant="${v.name}"]`);
    const cy = Number(await p.locator("circle").getAttribute("cy"));
    expect(Math.abs(cy - (cfg.scatter - (v.pooled.passRate || 0) * cfg.scatter)) < 0.06, `variant ${v.name}: point at ${cy}`);
  }
  for (const c of report.comparisons) {
    const row = page.locator(`#comparisons tr[data-a="${c.a}"][data-b="${c.b}"]`);
    expect((await row.locator("td.difference").textContent()) === pp(c.difference), `${c.a} vs ${c.b}: difference`);
    expect((await row.locator("td.verdict").textContent()) === c.verdict, `${c.a} vs ${c.b}: verdict`);
  }
  step("every variant's and comparison's numbers are the JSON's");

  expect(requests.length === 1 && requests[0] === url, "the page fetched " + JSON.stringify(requests));
  expect(errors.length === 0, "errors: " + errors.join("; "));
  step("fetched nothing but itself");
  if (cfg.screenshot) {
    await page.screenshot({ path: cfg.screenshot, fullPage: true });
    step("screenshot");
  }
});
