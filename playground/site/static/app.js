// app.js: the playground page. State is a package (file name -> text)
// kept in the URL as #txtar=<base64url of the txtar archive>; every edit
// re-checks it (debounced) in a Web Worker (worker.js, gramc.js's API
// there) and redraws the diagnostics and the selected output pane.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const state = { files: {}, order: [], current: "", pane: "graph", version: 0 };
  const DEBOUNCE_MS = 150;

  // --- txtar and base64url (RFC 4648 §5, no padding) -------------------
  function toTxtar(files, order) {
    let s = "";
    for (const name of order) {
      let text = files[name];
      if (text.length > 0 && !text.endsWith("\n")) text += "\n";
      s += "-- " + name + " --\n" + text;
    }
    return s;
  }
  function fromTxtar(s) {
    const files = Object.create(null), order = [];
    let name = null, buf = [];
    const flush = () => { if (name !== null) { files[name] = buf.join(""); order.push(name); } };
    for (const line of s.split(/(?<=\n)/)) {
      const m = /^-- (.+?) --\r?\n?$/.exec(line);
      if (m) { flush(); name = m[1].trim(); buf = []; continue; }
      if (name !== null) buf.push(line);
    }
    flush();
    return { files, order };
  }
  function base64url(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function unbase64url(s) {
    const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  }
  function linkOf() { return "#txtar=" + base64url(toTxtar(state.files, state.order)); }

  // --- highlighting -------------------------------------------------------
  const TOKEN = /(\/\/[^\n]*)|(```[\s\S]*?(?:```|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(==>|<==|-->|<--)|(::?[A-Za-z_][A-Za-z0-9_]*)|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)(?=\s*:[^:])/g;
  const CLASSES = ["t-comment", "t-string", "t-arrow", "t-label", "t-number", "t-key"];
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  // highlight returns the HTML of text with tokens coloured and the ranges
  // [start, end, severity] (UTF-16 offsets) underlined.
  function highlight(text, marks) {
    const cls = new Array(text.length + 1).fill(null);
    let m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) {
      if (m[0].length === 0) { TOKEN.lastIndex++; continue; }
      const k = m.slice(1).findIndex((g) => g !== undefined);
      for (let i = m.index; i < m.index + m[0].length; i++) cls[i] = CLASSES[k];
    }
    const mark = new Array(text.length + 1).fill(null);
    for (const [s, e, sev] of marks) {
      for (let i = s; i < Math.max(e, s + 1) && i <= text.length; i++) if (mark[i] !== "error") mark[i] = sev;
    }
    let out = "", i = 0;
    while (i < text.length) {
      let j = i;
      while (j < text.length && cls[j] === cls[i] && mark[j] === mark[i]) j++;
      const piece = esc(text.slice(i, j));
      const c = [cls[i], mark[i] ? "mark-" + mark[i] : null].filter(Boolean).join(" ");
      out += c ? '<span class="' + c + '">' + piece + "</span>" : piece;
      i = j;
    }
    if (mark[text.length]) out += '<span class="mark-' + mark[text.length] + '"> </span>';
    return out;
  }
  // lineStarts are the UTF-16 offsets at which text's lines start.
  function lineStarts(text) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }
  // offsetOf converts a 1-based line and column (characters, as gramc
  // counts them) to a UTF-16 offset of text; starts are its lineStarts
  // (made once for all of a file's diagnostics).
  function offsetOf(text, line, col, starts) {
    starts = starts || lineStarts(text);
    if (line > starts.length) return text.length;
    let off = starts[Math.max(line, 1) - 1];
    for (let c = 1; c < col && off < text.length && text[off] !== "\n"; c++) {
      off += text.codePointAt(off) > 0xffff ? 2 : 1;
    }
    return off;
  }

  // --- the editor and its tabs -------------------------------------------
  const source = $("source"), hl = $("highlight");
  let diagnostics = [], fixes = [];
  // The highlighted copy behind the editor holds the lines in view and
  // EDGE lines either side, padded above and below to the height of the
  // lines it leaves out, so that it scrolls as the editor does. A key in
  // a file of thousands of lines then costs a screenful of spans, not
  // the whole file's (whose layout kept a large package's keys waiting
  // half a second); it is drawn at the next frame, once for the keys
  // that came since.
  const EDGE = 60;
  const PAD = 10; // the editor's padding (style.css)
  let shown = { first: 0, last: 0, lines: 0 }, drawing = 0;
  function drawSoon() {
    if (!drawing) drawing = requestAnimationFrame(() => { drawing = 0; renderEditor(); });
  }
  function renderEditor() {
    const text = state.files[state.current] || "";
    if (source.value !== text) source.value = text;
    const starts = lineStarts(text);
    const lineH = parseFloat(getComputedStyle(source).lineHeight) || 19.5;
    const first = Math.max(0, Math.floor(source.scrollTop / lineH) - EDGE);
    const last = Math.min(starts.length, first + Math.ceil(source.clientHeight / lineH) + 2 * EDGE);
    const a = starts[first] === undefined ? text.length : starts[first];
    const b = last < starts.length ? starts[last] : text.length;
    const marks = [];
    for (const d of diagnostics) {
      if (d.file !== state.current || d.endLine <= first || d.line > last + 1) continue;
      marks.push([Math.max(offsetOf(text, d.line, d.column, starts), a) - a, Math.min(offsetOf(text, d.endLine, d.endColumn, starts), b) - a, d.severity]);
    }
    shown = { first, last, lines: starts.length };
    hl.style.paddingTop = PAD + first * lineH + "px";
    hl.style.paddingBottom = PAD + (last < starts.length ? starts.length - last : 0) * lineH + "px";
    hl.innerHTML = highlight(text.slice(a, b), marks) + "\n";
    hl.scrollTop = source.scrollTop; hl.scrollLeft = source.scrollLeft;
  }
  let scrolled = 0;
  function followScroll() {
    hl.scrollTop = source.scrollTop; hl.scrollLeft = source.scrollLeft;
    // Scrolled past the lines drawn: draw the ones now in view.
    cancelAnimationFrame(scrolled);
    scrolled = requestAnimationFrame(() => {
      if (drawing) return; // it draws what is in view anyway
      const lineH = parseFloat(getComputedStyle(source).lineHeight) || 19.5;
      const top = source.scrollTop / lineH, bottom = top + source.clientHeight / lineH;
      if ((shown.first > 0 && top - shown.first < EDGE / 2) || (shown.last < shown.lines && shown.last - bottom < EDGE / 2)) renderEditor();
    });
  }
  function renderTabs() {
    const bar = $("filetabs");
    bar.textContent = "";
    for (const name of state.order) {
      const b = document.createElement("button");
      b.setAttribute("role", "tab");
      b.className = "filetab";
      b.dataset.file = name;
      b.setAttribute("aria-selected", String(name === state.current));
      b.textContent = name;
      b.onclick = () => openFile(name);
      if (state.order.length > 1) {
        // The × for the mouse; Delete on the focused tab for the keyboard.
        b.title = name + " (Delete removes it)";
        b.onkeydown = (ev) => { if (ev.key === "Delete") { ev.preventDefault(); removeFile(name); } };
        const x = document.createElement("span");
        x.className = "close"; x.textContent = "×"; x.title = "Remove " + name;
        x.onclick = (ev) => { ev.stopPropagation(); removeFile(name); };
        b.append(x);
      }
      bar.append(b);
    }
    const add = document.createElement("button");
    add.id = "addfile"; add.textContent = "+"; add.title = "Add a file"; add.setAttribute("aria-label", "Add a file");
    add.onclick = addFile;
    bar.append(add);
  }
  function openFile(name) { state.current = name; renderTabs(); renderEditor(); source.focus(); }
  function addFile() {
    let name = prompt("File name (ending in .gram)", "file" + (state.order.length + 1) + ".gram");
    if (!name) return;
    if (!name.endsWith(".gram")) name += ".gram";
    if (!state.files[name]) { state.files[name] = ""; state.order.push(name); }
    openFile(name); changed();
  }
  function removeFile(name) {
    delete state.files[name];
    state.order = state.order.filter((n) => n !== name);
    if (state.current === name) state.current = state.order[0];
    renderTabs(); renderEditor(); changed();
  }
  source.addEventListener("input", () => { state.files[state.current] = source.value; drawSoon(); changed(); });
  source.addEventListener("scroll", followScroll);
  source.addEventListener("keydown", (ev) => {
    // Tab indents; Escape then Tab leaves the editor (keyboard users).
    if (ev.key === "Tab" && !ev.shiftKey && !source.dataset.escaped) {
      ev.preventDefault();
      document.execCommand("insertText", false, "  ");
    }
    source.dataset.escaped = ev.key === "Escape" ? "1" : "";
  });

  // --- the compiler, in a Web Worker ----------------------------------------
  // The module is compiled once, as it streams in, on this thread; a
  // worker instantiates it and runs every check and pane, so that typing
  // never waits for the compiler. One request is in flight at a time: a
  // newer one (an edit, another pane) ends the worker running the older
  // and starts another from the compiled module, so a long check of an
  // older text is cancelled, not waited for.
  let wasmModule = null, worker = null, inflight = null, nextId = 1;
  let checkedVersion = -1, cancelled = 0, checksAsked = 0, targets = null;
  function spawn() {
    worker = new Worker("worker.js");
    worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.started) { started(); return; }
      if (m.failed !== undefined && m.id === undefined) { notice("The compiler did not start: " + m.failed); return; }
      if (inflight && m.id === inflight.id) {
        const f = inflight; inflight = null;
        // The module ended (a fatal error in Go): the next request gets a
        // fresh one.
        if (m.result.exited) { worker.terminate(); spawn(); }
        busy();
        f.resolve(m.result);
      }
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      const f = inflight; inflight = null;
      worker.terminate(); spawn(); busy();
      if (f) f.resolve({ failed: "the compiler stopped: " + (ev.message || "an error in the worker") });
    };
    worker.postMessage({ module: wasmModule });
  }
  // cancel ends the request in flight (its promise resolves to null).
  function cancel() {
    if (!inflight) return;
    worker.terminate();
    if (inflight.job.check) document.body.dataset.cancelled = String(++cancelled);
    const f = inflight; inflight = null;
    f.resolve(null);
    spawn(); busy();
  }
  function ask(job) {
    cancel();
    return new Promise((resolve) => {
      inflight = { id: nextId++, job, resolve };
      if (job.check) document.body.dataset.checksAsked = String(++checksAsked);
      worker.postMessage({ id: inflight.id, job });
      busy();
    });
  }
  function busy() {
    const checking = !!(inflight && inflight.job.check);
    document.body.dataset.checking = checking ? "1" : "";
    if (checking) $("status").textContent = "checking…";
  }
  let loadStart = performance.now(), onStarted = null;
  function started() {
    if (document.body.dataset.loadMs) return;
    document.body.dataset.loadMs = (performance.now() - loadStart).toFixed(1);
    if (onStarted) onStarted();
  }

  // --- checking -------------------------------------------------------------
  let timer = 0, linked = -1;
  function changed() {
    state.version++;
    cancel(); // the text it checks is gone
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  }
  // paneJob is what the selected pane needs drawn.
  function paneJob() {
    return { name: state.pane, target: $("target").value || "jsonschema", format: $("graphformat").value,
      order: state.order.slice(), code: $("code").value.trim() };
  }
  async function update() {
    clearTimeout(timer);
    // The URL follows the text at each pause, not at each key (a large
    // package's link takes a while to encode).
    if (linked !== state.version) { linked = state.version; history.replaceState(null, "", linkOf()); }
    if (!worker) return;
    const version = state.version;
    const job = { files: Object.assign({}, state.files), check: checkedVersion !== version, pane: paneJob(), targets: !targets };
    const r = await ask(job);
    if (r === null || version !== state.version) return; // a newer request replaced it
    if (r.failed) { notice(r.failed); return; }
    if (r.targets) {
      targets = r.targets;
      for (const t of targets) $("target").append(new Option(t, t));
    }
    if (job.check) {
      checkedVersion = version;
      if (r.checkError !== undefined) {
        diagnostics = []; fixes = [];
        $("diagnostics").innerHTML = '<div class="diag"><span class="sev-error">' + esc(r.checkError) + "</span></div>";
        $("status").textContent = "the package cannot be checked";
      } else {
        diagnostics = r.diagnostics; fixes = r.fixes;
        const errs = diagnostics.filter((d) => d.severity === "error").length;
        const count = (n, what) => n + " " + what + (n === 1 ? "" : "s");
        const warns = diagnostics.length - errs;
        $("status").textContent = (errs ? count(errs, "error") : "no errors") +
          (warns ? ", " + count(warns, "warning") : "") + " · checked in " + r.checkMs.toFixed(1) + " ms";
        document.body.dataset.checkMs = r.checkMs.toFixed(3);
        renderDiagnostics();
      }
      renderEditor();
    }
    showPane(job.pane, r);
    document.body.dataset.version = String(version);
  }
  function renderDiagnostics() {
    const box = $("diagnostics");
    box.textContent = "";
    if (diagnostics.length === 0) {
      const ok = document.createElement("div"); ok.className = "none"; ok.textContent = "No problems.";
      box.append(ok); return;
    }
    diagnostics.forEach((d, i) => {
      const row = document.createElement("div");
      row.className = "diag"; row.dataset.code = d.code;
      const pos = document.createElement("button");
      pos.className = "pos"; pos.textContent = d.file + ":" + d.line + ":" + d.column;
      pos.title = "Go to the problem";
      pos.onclick = () => goTo(d);
      const sev = document.createElement("span");
      sev.className = "sev-" + d.severity; sev.textContent = d.severity + ":";
      const msg = document.createElement("span"); msg.className = "message"; msg.textContent = d.message;
      const code = document.createElement("a");
      code.href = "#"; code.className = "code"; code.textContent = "[" + d.code + "]";
      code.title = "Explain " + d.code;
      code.onclick = (ev) => { ev.preventDefault(); $("code").value = d.code; selectPane("explain"); };
      row.append(pos, sev, msg, code);
      const f = fixes[i];
      if (f && f.kind) {
        const b = document.createElement("button");
        b.className = "fix"; b.dataset.kind = f.kind;
        b.textContent = f.kind === "exact" ? "Fix" : "Fix (guess)";
        b.title = d.suggestion || "Apply the fix";
        b.onclick = () => { state.files[f.file] = f.text; openFile(f.file); changed(); update(); };
        row.append(b);
      }
      if (d.detail) {
        const det = document.createElement("div"); det.className = "detail"; det.textContent = d.detail;
        row.append(det);
      }
      box.append(row);
    });
  }
  function goTo(d) {
    if (!state.files[d.file] && state.files[d.file] !== "") return;
    openFile(d.file);
    const text = state.files[d.file];
    const s = offsetOf(text, d.line, d.column), e = offsetOf(text, d.endLine, d.endColumn);
    source.setSelectionRange(s, Math.max(s, e));
  }

  // --- output panes ---------------------------------------------------------
  for (const b of document.querySelectorAll("#panetabs [role=tab]")) b.onclick = () => selectPane(b.dataset.pane);
  function selectPane(p) { state.pane = p; renderPane(); }
  $("target").onchange = renderPane;
  $("graphformat").onchange = renderPane;
  $("code").oninput = renderPane;
  function renderPane() {
    for (const b of document.querySelectorAll("#panetabs [role=tab]")) b.setAttribute("aria-selected", String(b.dataset.pane === state.pane));
    for (const l of document.querySelectorAll("#paneopts label")) l.className = l.dataset.for === state.pane ? "on" : "";
    $("pane").dataset.pane = state.pane;
    update();
  }
  // The last output each pane drew from a package that checked, kept to
  // show (dimmed, saying why) while the package has errors.
  const lastGood = {};
  function paneKey(p) { return p.name + "/" + (p.name === "graph" ? p.format : p.name === "schema" ? p.target : ""); }
  function showPane(p, r) {
    const pane = $("pane");
    if (p.name !== state.pane) return;
    pane.textContent = ""; pane.className = "";
    pane.dataset.shown = p.name; // drawn (the tab's name is set at once; this, when its output came)
    const key = paneKey(p);
    if (r.paneError) {
      const e = r.paneError, last = lastGood[key];
      if (e.diagnostics > 0 && last !== undefined) {
        // Not a wall of red: the last good output, dimmed, and one line.
        const why = document.createElement("div"); why.className = "stale-why";
        why.textContent = "Out of date: the package has " + e.diagnostics + " error" + (e.diagnostics === 1 ? "" : "s") +
          " (see the diagnostics); this is the last " + (p.name === "graph" ? "picture" : "output") + " that worked.";
        const old = document.createElement("div"); old.className = "stale";
        pane.append(why, old);
        draw(old, p, last);
        pane.dataset.stale = "1";
        return;
      }
      const err = document.createElement("div"); err.className = "error"; err.textContent = e.message;
      pane.append(err);
      pane.dataset.stale = "";
      return;
    }
    lastGood[key] = r.pane;
    pane.dataset.stale = "";
    draw(pane, p, r.pane);
  }
  // draw puts a pane's output into box.
  function draw(box, p, out) {
    if (p.name === "go" || p.name === "ts") {
      // gramc gen's warnings (a Go or TypeScript name taken, so a
      // suffix), as it prints them, above the code they are about; the
      // files in the order gramc gen --lang writes them.
      if (out.warnings) {
        const w = document.createElement("div"); w.className = "warnings"; w.textContent = out.warnings;
        box.append(w);
      }
      box.append(out.names.map((n) => "// " + n + "\n" + out.files[n]).join("\n"));
      return;
    }
    if (p.name === "graph" && p.format === "svg") {
      // gramc's SVG has no script and no style: parsed as SVG, never as
      // HTML. It is laid out to need no more room than its nodes and
      // labels, and scaled down (never clipped) to fit the pane.
      const doc = new DOMParser().parseFromString(out, "image/svg+xml");
      $("pane").className = "picture";
      box.append(document.importNode(doc.documentElement, true));
      return;
    }
    box.append(out);
  }

  // --- examples, sharing, start ---------------------------------------------
  const examples = globalThis.gramcExamples || [];
  const sel = $("examples");
  // The menu names the package shown: an example, or "shared link".
  const linkOption = new Option("shared link", "");
  linkOption.disabled = true;
  for (const ex of examples) sel.append(new Option(ex.name, ex.name));
  sel.onchange = () => {
    const ex = examples.find((e) => e.name === sel.value);
    if (ex) { notice(""); openExample(ex); }
  };
  function openExample(ex) {
    linkOption.remove();
    sel.value = ex.name;
    load(Object.assign({}, ex.files), Object.keys(ex.files));
  }
  $("share").onclick = async () => {
    const url = location.href.split("#")[0] + linkOf();
    try { await navigator.clipboard.writeText(url); $("status").textContent = "link copied"; }
    catch (e) { prompt("The link to this package:", url); }
  };
  // notice shows (or, with "", hides) a line above the page that stays
  // until it no longer holds: why a link did not open, a compiler that
  // did not start.
  function notice(text) {
    const n = $("notice");
    n.textContent = text;
    n.hidden = text === "";
  }
  function load(files, order) {
    state.files = files; state.order = order.length ? order : ["main.gram"];
    if (!Object.hasOwn(state.files, state.order[0])) state.files[state.order[0]] = "";
    state.current = state.order[0];
    renderTabs(); renderEditor(); changed(); update();
  }
  // linkPackage reads a #txtar= link: {files, order}, or {why} it cannot
  // be opened. File names the compiler refuses (a directory, no .gram)
  // are left for it to explain; a name the page itself cannot hold as a
  // key (__proto__, or any other of every object's names) is refused here.
  function linkPackage(hash) {
    const data = hash.slice("#txtar=".length);
    const bad = /[^A-Za-z0-9_-]/.exec(data.replace(/=+$/, ""));
    if (bad) return { why: "it is not base64url (RFC 4648 §5): it holds " + JSON.stringify(bad[0]) + " at character " + (bad.index + 1) };
    let text;
    try {
      text = unbase64url(data.replace(/=+$/, ""));
    } catch (e) {
      return { why: "it does not decode: " + (e.name === "TypeError" ? "the bytes are not UTF-8" : "the base64url is cut or malformed") };
    }
    const { files, order } = fromTxtar(text);
    if (order.length === 0) return { why: "it holds no file (a txtar archive, a line \"-- name.gram --\" before each file)" };
    for (const name of order) {
      if (name in {}) return { why: "a file is named " + JSON.stringify(name) + ", which the page cannot hold; want a name ending in .gram" };
    }
    return { files, order };
  }
  function fromHash() {
    if (!location.hash.startsWith("#txtar=")) return false;
    const p = linkPackage(location.hash);
    if (p.why) {
      const first = examples[0];
      notice("This link's package cannot be opened: " + p.why + "." + (first ? " Showing the example " + first.name + " instead." : ""));
      return false;
    }
    notice("");
    sel.prepend(linkOption); sel.value = "";
    linkOption.selected = true;
    load(p.files, p.order);
    return true;
  }
  window.addEventListener("hashchange", () => { if (location.hash !== linkOf()) fromHash(); });

  if (!fromHash()) {
    const first = examples[0];
    if (first) openExample(first);
    else load({ "main.gram": "" }, ["main.gram"]);
  }
  onStarted = () => { update().then(() => { document.body.dataset.ready = "1"; }); };
  gramcCompile("gramc.wasm").then((m) => { wasmModule = m; spawn(); },
    (e) => { notice("The compiler did not load: " + e.message); });

  // For the browser test and anyone embedding the page: the link's
  // encoding, and one request to the page's compiler (resolves to its
  // result, or null when a newer request cancelled it).
  globalThis.gramcPlayground = { toTxtar, fromTxtar, base64url, unbase64url, linkPackage, ask };
})();
