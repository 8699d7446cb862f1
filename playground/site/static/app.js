// app.js: the playground page. State is a package (file name -> text)
// kept in the URL as #txtar=<base64url of the txtar archive>; every edit
// re-checks it (debounced) through globalThis.gramc and redraws the
// diagnostics and the selected output pane.
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
    const files = {}, order = [];
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
    return out + "\n";
  }
  // offsetOf converts a 1-based line and column (characters, as gramc
  // counts them) to a UTF-16 offset of text.
  function offsetOf(text, line, col) {
    let off = 0;
    for (let l = 1; l < line; l++) {
      const nl = text.indexOf("\n", off);
      if (nl < 0) return text.length;
      off = nl + 1;
    }
    for (let c = 1; c < col && off < text.length && text[off] !== "\n"; c++) {
      off += text.codePointAt(off) > 0xffff ? 2 : 1;
    }
    return off;
  }

  // --- the editor and its tabs -------------------------------------------
  const source = $("source"), hl = $("highlight");
  let diagnostics = [], fixes = [];
  function renderEditor() {
    const text = state.files[state.current] || "";
    if (source.value !== text) source.value = text;
    const marks = diagnostics.filter((d) => d.file === state.current).map((d) =>
      [offsetOf(text, d.line, d.column), offsetOf(text, d.endLine, d.endColumn), d.severity]);
    hl.innerHTML = highlight(text, marks);
    hl.scrollTop = source.scrollTop; hl.scrollLeft = source.scrollLeft;
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
  source.addEventListener("input", () => { state.files[state.current] = source.value; renderEditor(); changed(); });
  source.addEventListener("scroll", () => { hl.scrollTop = source.scrollTop; hl.scrollLeft = source.scrollLeft; });
  source.addEventListener("keydown", (ev) => {
    // Tab indents; Escape then Tab leaves the editor (keyboard users).
    if (ev.key === "Tab" && !ev.shiftKey && !source.dataset.escaped) {
      ev.preventDefault();
      document.execCommand("insertText", false, "  ");
    }
    source.dataset.escaped = ev.key === "Escape" ? "1" : "";
  });

  // --- checking -------------------------------------------------------------
  let timer = 0;
  function changed() {
    history.replaceState(null, "", linkOf());
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  }
  function update() {
    if (!globalThis.gramc) return;
    const t0 = performance.now();
    try {
      diagnostics = gramc.check(state.files);
      fixes = gramc.fixes(state.files);
    } catch (e) {
      diagnostics = []; fixes = [];
      $("diagnostics").innerHTML = '<div class="diag"><span class="sev-error">' + esc(e.message) + "</span></div>";
      renderEditor();
      return;
    }
    const ms = performance.now() - t0;
    const errs = diagnostics.filter((d) => d.severity === "error").length;
    const count = (n, what) => n + " " + what + (n === 1 ? "" : "s");
    const warns = diagnostics.length - errs;
    $("status").textContent = (errs ? count(errs, "error") : "no errors") +
      (warns ? ", " + count(warns, "warning") : "") + " · checked in " + ms.toFixed(1) + " ms";
    document.body.dataset.checkMs = ms.toFixed(3);
    renderDiagnostics(); renderEditor(); renderPane();
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
    const pane = $("pane");
    pane.dataset.pane = state.pane;
    pane.className = "";
    if (!globalThis.gramc) return;
    try {
      switch (state.pane) {
        case "schema": pane.textContent = gramc.schema(state.files, $("target").value); break;
        case "go": {
          const g = gramc.gen(state.files);
          pane.textContent = "";
          // gramc gen's warnings (a Go name taken, so a suffix), as it
          // prints them, above the code they are about.
          if (g.warnings) {
            const w = document.createElement("div"); w.className = "warnings"; w.textContent = g.warnings;
            pane.append(w);
          }
          pane.append(Object.entries(g.files).map(([n, t]) => "// " + n + "\n" + t).join("\n"));
          break;
        }
        case "fmt": pane.textContent = state.order.map((n) => "// " + n + "\n" + gramc.format({ [n]: state.files[n] })[n]).join("\n"); break;
        case "explain": pane.textContent = $("code").value ? gramc.explain($("code").value.trim()) : "Pick a diagnostic's [code], or type a code above."; break;
        case "graph": {
          const f = $("graphformat").value;
          const out = gramc.graph(state.files, f);
          if (f === "svg") {
            // gramc's SVG has no script and no style: parsed as SVG, never as HTML.
            const doc = new DOMParser().parseFromString(out, "image/svg+xml");
            pane.textContent = ""; pane.className = "picture";
            const svg = document.importNode(doc.documentElement, true);
            pane.append(svg);
            // Fit the pane, but no smaller than 80%: the text stays readable
            // and a wide picture scrolls.
            const w = Number(svg.getAttribute("width")) || 0, avail = pane.clientWidth - 24;
            if (w > avail) svg.style.width = Math.max(avail, Math.round(w * 0.8)) + "px";
          } else pane.textContent = out;
          break;
        }
      }
    } catch (e) {
      pane.textContent = "";
      const err = document.createElement("div"); err.className = "error"; err.textContent = e.message;
      pane.append(err);
    }
  }

  // --- examples, sharing, start ---------------------------------------------
  const examples = globalThis.gramcExamples || [];
  const sel = $("examples");
  sel.append(new Option("…", ""));
  for (const ex of examples) sel.append(new Option(ex.name, ex.name));
  sel.onchange = () => {
    const ex = examples.find((e) => e.name === sel.value);
    if (ex) load(Object.assign({}, ex.files), Object.keys(ex.files));
  };
  $("share").onclick = async () => {
    const url = location.href.split("#")[0] + linkOf();
    try { await navigator.clipboard.writeText(url); $("status").textContent = "link copied"; }
    catch (e) { prompt("The link to this package:", url); }
  };
  function load(files, order) {
    state.files = files; state.order = order.length ? order : ["main.gram"];
    if (!(state.order[0] in state.files)) state.files[state.order[0]] = "";
    state.current = state.order[0];
    renderTabs(); renderEditor(); changed(); update();
  }
  function fromHash() {
    const m = /^#txtar=([A-Za-z0-9_-]*)$/.exec(location.hash);
    if (!m) return false;
    try {
      const { files, order } = fromTxtar(unbase64url(m[1]));
      load(files, order);
      return true;
    } catch (e) {
      $("status").textContent = "the link's package cannot be read: " + e.message;
      return false;
    }
  }
  window.addEventListener("hashchange", () => { if (location.hash !== linkOf()) fromHash(); });

  if (!fromHash()) {
    const first = examples[0];
    if (first) load(Object.assign({}, first.files), Object.keys(first.files));
    else load({ "main.gram": "" }, ["main.gram"]);
  }
  const t0 = performance.now();
  gramcLoad("gramc.wasm").then(() => {
    const ms = performance.now() - t0;
    document.body.dataset.loadMs = ms.toFixed(1);
    for (const t of gramc.targets()) $("target").append(new Option(t, t));
    update();
    document.body.dataset.ready = "1";
  }, (e) => { $("status").textContent = "the compiler did not load: " + e.message; });

  globalThis.gramcPlayground = { toTxtar, fromTxtar, base64url, unbase64url };
})();
