// The bundled Ripple Effect game: draws rooms and digits on a canvas in the look it was
// given, takes input in one of the schemes real sites use, judges the board by the rules
// itself, and reports every change to its server (the tests' ground truth).
"use strict";

(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const P = cfg.puzzle, look = cfg.look, scheme = cfg.scheme;
  const commit = cfg.commit || "none", focusRule = cfg.focus || "none", lag = cfg.lag || 0;
  const R = P.rows, C = P.cols, N = R * C;
  const THEMES = {
    light: {
      cell: "#ffffff", thin: "#aeb5be", thick: "#1b2027", colour: "#d2452c", given: "#14181d",
      enteredColour: "#2159c9", enteredWeight: "#14181d", cursor: "#f2a41c", pencil: "#7b838d",
    },
    dark: {
      cell: "#20252b", thin: "#56606b", thick: "#dde3ea", colour: "#f08a3c", given: "#f3f5f7",
      enteredColour: "#72b4ff", enteredWeight: "#f3f5f7", cursor: "#ffd24a", pencil: "#8d97a2",
    },
  };
  const col = THEMES[look.theme];
  const borderColour = look.border === "thick" ? col.thick : col.colour;
  document.body.style.setProperty("--rule", borderColour);
  document.body.style.setProperty("--rule-thin", col.thin);
  document.body.style.setProperty("--cell", col.cell);
  // --- the room of each cell and the size of each room ---------------------------------
  const roomSize = {};
  P.rooms.forEach((r) => { roomSize[r] = (roomSize[r] || 0) + 1; });
  const sizeOf = (cell) => roomSize[P.rooms[cell]];
  const maxValue = Math.max(...Object.values(roomSize));
  // menu=panel: a ruled menu bar and toolbar above the board (they do nothing).
  if (look.menu === "panel") {
    const panel = document.getElementById("panel");
    const row = (cls, labels) => {
      const div = document.createElement("div");
      div.className = cls;
      labels.forEach((t) => { const b = document.createElement("div"); b.textContent = t; div.appendChild(b); });
      panel.appendChild(div);
    };
    row("menus", ["File", "Edit", "Display", "Setting", "Input", "Mode", "Other", "Help"]);
    row("tools", ["\u21b6", "\u21b7", "\u2713", "\u2715", "\u25a1", "\u25a0", "\u25cb",
                  "\u25cf", "\u2190", "\u2192"]);
    panel.hidden = false;
  }
  // scheme=pad: a button per value beside the board, three to a row.
  const padEl = document.getElementById("pad");
  if (scheme === "pad") {
    const side = Math.max(34, Math.min(48, look.cell));
    padEl.style.gridTemplateColumns = `repeat(3, ${side}px)`;
    for (let v = 1; v <= maxValue; v++) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = String(v);
      b.dataset.value = String(v);
      b.style.width = b.style.height = side + "px";
      b.style.fontSize = Math.round(side * 0.5) + "px";
      padEl.appendChild(b);
    }
    padEl.hidden = false;
  }
  // The cell size asked for, made smaller when the board would not fit the window (as
  // sites do); never below 24 px.
  const canvas = document.getElementById("board");
  const fit = (space, n) => Math.floor((space - 4) / n);
  const top = canvas.getBoundingClientRect().top;
  const beside = scheme === "pad" ? padEl.getBoundingClientRect().width + 18 : 0;
  const pitch = Math.max(24, Math.min(look.cell, fit(window.innerHeight - top - 40, R),
                                      fit(window.innerWidth - 60 - beside, C)));
  const load = Math.random().toString(36).slice(2, 10);
  document.body.className = look.theme;

  const FONTS = {
    sans: '"DejaVu Sans", "Liberation Sans", sans-serif',
    serif: '"Liberation Serif", "DejaVu Serif", serif',
    mono: '"DejaVu Sans Mono", "Liberation Mono", monospace',
  };
  const family = FONTS[look.font];
  const borderW = look.border === "thick" ? Math.max(3, Math.round(pitch / 12)) : 2;
  const margin = Math.ceil(borderW / 2) + 1;

  // --- state ----------------------------------------------------------------------------
  const values = cfg.initial ? cfg.initial.slice() : new Array(N).fill(0);
  const pencil = Array.from({ length: N }, () => new Set());
  let active = Number.isInteger(cfg.cursor) ? cfg.cursor : -1;
  let typedIn = -1; // the cell whose value the previous key typed (a second digit joins it)
  let events = 0, clicks = 0, keys = 0, seq = 0, solved = false;
  let dropped = 0, pending = "", busyUntil = 0;
  if (look.pencil === "corners") seedPencil();

  function seedPencil() {
    // A player's notes: a few candidates in the corners of some empty cells.
    let s = (cfg.pencilSeed * 2654435761 + N) >>> 0;
    const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return (s >>> 8) / (1 << 24); };
    for (let i = 0; i < N; i++) {
      if (P.givens[i] || values[i] || rnd() > 0.35) continue;
      const k = 1 + Math.floor(rnd() * Math.min(4, sizeOf(i)));
      while (pencil[i].size < k) pencil[i].add(1 + Math.floor(rnd() * sizeOf(i)));
    }
  }

  // --- canvas -----------------------------------------------------------------------------
  const ctx = canvas.getContext("2d");
  const cssW = 2 * margin + C * pitch, cssH = 2 * margin + R * pitch;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.width = cssW + "px";
  canvas.style.height = cssH + "px";
  ctx.scale(dpr, dpr);
  const xAt = (i) => margin + i * pitch, yAt = (i) => margin + i * pitch;

  function fontFor(text, weight) {
    let px = Math.round(pitch * 0.6);
    ctx.font = `${weight} ${px}px ${family}`;
    while (px > 8 && ctx.measureText(text).width > pitch * 0.78) {
      px--;
      ctx.font = `${weight} ${px}px ${family}`;
    }
  }

  function line(x0, y0, x1, y1) {
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
  }

  function draw() {
    ctx.fillStyle = col.cell;
    ctx.fillRect(0, 0, cssW, cssH);
    // Thin cell lines, solid or dotted, on half pixels so one pixel wide.
    ctx.strokeStyle = col.thin;
    ctx.lineWidth = 1;
    ctx.setLineDash(look.lines === "dotted" ? [1, 2] : []);
    for (let c = 1; c < C; c++) line(xAt(c) + 0.5, yAt(0), xAt(c) + 0.5, yAt(R));
    for (let r = 1; r < R; r++) line(xAt(0), yAt(r) + 0.5, xAt(C), yAt(r) + 0.5);
    ctx.setLineDash([]);
    // Room borders and the frame, centred on the cell line.
    ctx.strokeStyle = borderColour;
    ctx.lineWidth = borderW;
    ctx.lineCap = "square";
    const off = borderW % 2 ? 0.5 : 0;
    for (let r = 0; r < R; r++) {
      for (let c = 0; c < C; c++) {
        const i = r * C + c;
        if (c + 1 < C && P.rooms[i] !== P.rooms[i + 1]) {
          line(xAt(c + 1) + off, yAt(r), xAt(c + 1) + off, yAt(r + 1));
        }
        if (r + 1 < R && P.rooms[i] !== P.rooms[i + C]) {
          line(xAt(c), yAt(r + 1) + off, xAt(c + 1), yAt(r + 1) + off);
        }
      }
    }
    ctx.lineCap = "butt";
    ctx.strokeRect(xAt(0) + off, yAt(0) + off, C * pitch, R * pitch);
    // Digits: givens bold, entered ones in their colour or a lighter weight.
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let i = 0; i < N; i++) {
      const cx = xAt(i % C) + pitch / 2 + 1, cy = yAt(Math.floor(i / C)) + pitch / 2 + 1;
      if (P.givens[i]) {
        ctx.fillStyle = col.given;
        fontFor(String(P.givens[i]), "bold");
        ctx.fillText(String(P.givens[i]), cx, cy);
      } else if (values[i]) {
        const byColour = look.entered === "colour";
        ctx.fillStyle = byColour ? col.enteredColour : col.enteredWeight;
        fontFor(String(values[i]), byColour ? "bold" : "normal");
        ctx.fillText(String(values[i]), cx, cy);
      } else if (pencil[i].size) {
        drawPencil(i);
      }
    }
    if (active >= 0) {
      const inset = 2 + Math.ceil(borderW / 2), w = Math.max(2, Math.round(pitch / 20));
      ctx.strokeStyle = col.cursor;
      ctx.lineWidth = w;
      ctx.strokeRect(xAt(active % C) + inset + w / 2, yAt(Math.floor(active / C)) + inset + w / 2,
                     pitch - 2 * inset - w + 1, pitch - 2 * inset - w + 1);
    }
  }

  function drawPencil(i) {
    const px = Math.max(8, Math.round(pitch * 0.22));
    ctx.font = `normal ${px}px ${family}`;
    ctx.fillStyle = col.pencil;
    const x0 = xAt(i % C), y0 = yAt(Math.floor(i / C));
    const pad = Math.ceil(borderW / 2) + 3 + px * 0.35;
    const spots = [[pad, pad], [pitch - pad, pad], [pad, pitch - pad], [pitch - pad, pitch - pad]];
    [...pencil[i]].sort((a, b) => a - b).slice(0, 4).forEach((v, k) => {
      ctx.fillText(String(v), x0 + spots[k][0], y0 + spots[k][1] + 1);
    });
  }

  // --- the rules ----------------------------------------------------------------------------
  function isSolved() {
    const seen = {};
    for (let i = 0; i < N; i++) {
      const v = P.givens[i] || values[i];
      if (!v || v > sizeOf(i)) return false;
      const key = P.rooms[i] + ":" + v;
      if (seen[key]) return false;
      seen[key] = true;
      const r = Math.floor(i / C), c = i % C;
      for (let d = 1; d <= v; d++) {
        if (c + d < C && (P.givens[i + d] || values[i + d]) === v) return false;
        if (r + d < R && (P.givens[i + d * C] || values[i + d * C]) === v) return false;
      }
    }
    return true;
  }

  // --- reporting ----------------------------------------------------------------------------
  const statusEl = document.getElementById("status");
  const movesEl = document.getElementById("moves");
  const entryEl = document.getElementById("entry");
  document.getElementById("puzzle-name").textContent = P.title;
  document.getElementById("help").textContent = (scheme === "count"
    ? "Click a cell to select it; click it again to count up, right-click to count down. "
      + "Backspace clears."
    : scheme === "cycle"
    ? "Click a cell to count it up, right-click to count it down."
    : scheme === "pad"
      ? "Click a cell, then its number on the pad. Backspace clears; arrow keys move."
      : "Click a cell and type its number (10 to 12: two keys)"
        + (commit === "enter" ? ", then Enter" : "") + ". Backspace clears; "
        + "arrow keys move; Shift+digit writes a note.")
    + (focusRule === "click" ? " Click the board once to start." : "");
  function post(kind, body) {
    body.session = cfg.session;
    body.load = load;
    return fetch("/api/" + kind, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }).catch(() => {});
  }
  function reportState() {
    post("state", { seq: ++seq, values, solved, events, clicks, keys, dropped, pending,
                    rows: R, cols: C, active, focused: hasFocus() });
  }
  function layout() {
    const r = canvas.getBoundingClientRect();
    return {
      session: cfg.session, rows: R, cols: C, pitch, borderW, scheme, commit, focus: focusRule,
      lag, look,
      board: { x: r.left + xAt(0), y: r.top + yAt(0), w: C * pitch, h: R * pitch },
      pad: scheme === "pad" ? rectOf(padEl) : null,
      panel: look.menu === "panel" ? rectOf(document.getElementById("panel")) : null,
      devicePixelRatio: dpr,
    };
  }
  function rectOf(el) {
    const b = el.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  }
  function reportLayout() {
    window.rippleLayout = layout();
    return post("layout", window.rippleLayout);
  }
  // lag=MS: an input is drawn MS ms after it came, and input arriving meanwhile is dropped
  // (a page busy drawing); without lag it is drawn at once.
  function busy() {
    if (performance.now() < busyUntil) { dropped++; reportState(); return true; }
    busyUntil = performance.now() + lag;
    return false;
  }
  function changed() {
    if (lag) setTimeout(redraw, lag); else redraw();
  }
  function redraw() {
    solved = isSolved();
    entryEl.textContent = pending ? "Entry: " + pending + " (Enter)" : "";
    statusEl.textContent = solved ? "Solved!" : "Fill every room with 1 to its size.";
    statusEl.classList.toggle("solved", solved);
    movesEl.textContent = String(events);
    draw();
    reportState();
  }

  // --- input --------------------------------------------------------------------------------
  function setValue(cell, v) {
    if (cell < 0 || P.givens[cell]) return;
    values[cell] = v;
  }
  function count(cell, step) {
    const n = sizeOf(cell);
    setValue(cell, (values[cell] + step + n + 1) % (n + 1));
  }
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0 && ev.button !== 2) return;
    ev.preventDefault();
    if (focusRule !== "click") canvas.focus();
    const r = canvas.getBoundingClientRect();
    const c = Math.floor((ev.clientX - r.left - margin) / pitch);
    const row = Math.floor((ev.clientY - r.top - margin) / pitch);
    if (c < 0 || c >= C || row < 0 || row >= R) return;
    const cell = row * C + c;
    if (busy()) return;
    events++;
    clicks++;
    typedIn = -1;
    pending = "";
    if (focusRule === "click" && !focused) {
      focused = true;  // the first click only gives the board the keyboard focus
      changed();
      return;
    }
    if (scheme === "count") {
      if (ev.button === 2) count(cell, -1);
      else if (cell === active) count(cell, +1);
    } else if (scheme === "cycle") {
      count(cell, ev.button === 2 ? -1 : +1);  // every click counts; nothing is selected
      changed();
      return;
    }
    active = cell;
    changed();
  });
  canvas.addEventListener("contextmenu", (ev) => ev.preventDefault());
  // focus=click: the keys go to the board only once a click has given it the focus (the
  // page draws nothing to show it); a click elsewhere takes it away.
  let focused = false;
  function hasFocus() { return focusRule === "click" ? focused : true; }
  if (focusRule === "click") {
    window.addEventListener("blur", () => { focused = false; });
    document.addEventListener("mousedown", (ev) => { if (ev.target !== canvas && !padEl.contains(ev.target)) focused = false; });
  }
  padEl.addEventListener("mousedown", (ev) => {
    const b = ev.target.closest("button");
    ev.preventDefault();  // the board keeps the focus
    if (!b || ev.button !== 0 || busy()) return;
    events++;
    clicks++;
    typedIn = -1;
    if (active >= 0) setValue(active, Number(b.dataset.value));
    changed();
  });
  window.addEventListener("keydown", (ev) => {
    if (active < 0 || !hasFocus()) return;
    const k = ev.key;
    if (["Shift", "Control", "Alt", "Meta"].includes(k)) return;
    if (busy()) { ev.preventDefault(); return; }
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    let used = true;
    if (moves[k]) {
      const r = Math.min(R - 1, Math.max(0, Math.floor(active / C) + moves[k][0]));
      const c = Math.min(C - 1, Math.max(0, active % C + moves[k][1]));
      active = r * C + c;
      typedIn = -1;
      pending = "";
    } else if (k === "Backspace" || k === "Delete") {
      setValue(active, 0);
      typedIn = -1;
      pending = "";
    } else if (scheme === "type" && commit === "enter" && /^[0-9]$/.test(k) && !ev.shiftKey) {
      // Typed digits wait in the entry field (beside the status, not on the board).
      pending = (pending + k).replace(/^0+/, "").slice(-2);
    } else if (scheme === "type" && commit === "enter" && k === "Enter") {
      const v = Number(pending);
      if (v >= 1 && v <= maxValue) setValue(active, v);
      pending = "";
    } else if (scheme === "type" && /^[0-9]$/.test(k) && !ev.shiftKey) {
      const d = Number(k);
      const joined = values[active] * 10 + d;
      if (typedIn === active && joined <= maxValue) setValue(active, joined);
      else if (d > 0) setValue(active, d);
      typedIn = active;
    } else if (scheme === "type" && /^Digit[1-9]$/.test(ev.code) && ev.shiftKey) {
      const d = Number(ev.code.slice(5));
      if (pencil[active].has(d)) pencil[active].delete(d); else pencil[active].add(d);
    } else {
      used = false;
    }
    if (!used) return;
    ev.preventDefault();
    events++;
    keys++;
    changed();
  });
  document.getElementById("restart").addEventListener("click", () => {
    values.fill(0);
    pending = "";
    typedIn = -1;
    changed();
  });
  window.addEventListener("resize", reportLayout);

  document.fonts.ready.then(() => {
    changed();
    reportLayout().then(() => { window.rippleReady = true; });
  });
})();
