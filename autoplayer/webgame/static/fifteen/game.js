// The bundled 15-puzzle: draws the board on a canvas, slides a whole run when a tile in
// the gap's row or column is clicked (with a short animation, as Tatham's Fifteen does),
// judges the board itself, and reports every change to its server (the tests' ground truth).
"use strict";

(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const W = cfg.width, H = cfg.height, N = W * H;
  const pitch = cfg.tile;
  const SLIDE_MS = 130;
  const load = Math.random().toString(36).slice(2, 10);
  const COLOURS = {
    board: "#7a5c3e", tile: "#f0dcb4", hover: "#f9ebcf", edge: "#c9ad80", text: "#3b2a1a",
  };

  const start = cfg.cells.slice();
  let cells = start.slice();
  let events = 0, slides = 0, seq = 0, solved = false;
  let anim = null; // {moved: [{tile, from, to}], t0}
  // The cell under the pointer, lit when a click there would slide something (`hover` in
  // the config draws one lit before the pointer moves, for headless pictures).
  let hover = Number.isInteger(cfg.hover) ? cfg.hover : -1;

  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const cssW = W * pitch, cssH = H * pitch;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.width = cssW + "px";
  canvas.style.height = cssH + "px";
  ctx.scale(dpr, dpr);
  const fontPx = Math.round(pitch * 0.42);

  // --- drawing ------------------------------------------------------------------------
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }
  function drawTile(tile, x, y, lit) {
    const inset = 3, size = pitch - 2 * inset;
    roundRect(x + inset, y + inset, size, size, 6);
    ctx.fillStyle = lit ? COLOURS.hover : COLOURS.tile;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLOURS.edge;
    ctx.stroke();
    ctx.fillStyle = COLOURS.text;
    ctx.font = `bold ${fontPx}px "DejaVu Sans", "Liberation Sans", Arial, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(tile), x + pitch / 2, y + pitch / 2 + 1);
  }
  function cellXY(cell) {
    return [(cell % W) * pitch, Math.floor(cell / W) * pitch];
  }
  function draw(now) {
    ctx.fillStyle = COLOURS.board;
    ctx.fillRect(0, 0, cssW, cssH);
    const moving = new Map();
    let f = 1;
    if (anim) {
      f = Math.min(1, (now - anim.t0) / SLIDE_MS);
      for (const m of anim.moved) moving.set(m.tile, m);
    }
    cells.forEach((tile, cell) => {
      if (!tile) return;
      const m = moving.get(tile);
      if (m) {
        const [x0, y0] = cellXY(m.from), [x1, y1] = cellXY(m.to);
        drawTile(tile, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f);
      } else {
        const [x, y] = cellXY(cell);
        drawTile(tile, x, y, cell === hover && movable(cell));
      }
    });
    if (anim && f >= 1) anim = null;
    if (anim) requestAnimationFrame(draw);
  }

  // --- the rules ----------------------------------------------------------------------
  function isSolved() {
    for (let i = 0; i < N - 1; i++) if (cells[i] !== i + 1) return false;
    return cells[N - 1] === 0;
  }
  function movable(cell) {
    const gap = cells.indexOf(0);
    return cell !== gap && (Math.floor(cell / W) === Math.floor(gap / W) || cell % W === gap % W);
  }
  // Clicking a tile in the gap's row or column slides it and every tile between it and
  // the gap one cell towards the gap. Returns the tiles that moved.
  function slide(cell) {
    const gap = cells.indexOf(0);
    const gr = Math.floor(gap / W), gc = gap % W, r = Math.floor(cell / W), c = cell % W;
    if (cell === gap || (r !== gr && c !== gc)) return [];
    const step = r === gr ? Math.sign(c - gc) : Math.sign(r - gr) * W;
    const moved = [];
    for (let at = gap; at !== cell; at += step) {
      moved.push({ tile: cells[at + step], from: at + step, to: at });
      cells[at] = cells[at + step];
    }
    cells[cell] = 0;
    return moved;
  }

  // --- reporting ----------------------------------------------------------------------
  const statusEl = document.getElementById("status");
  const movesEl = document.getElementById("moves");
  function post(kind, body) {
    body.session = cfg.session;
    body.load = load;
    return fetch("/api/" + kind, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => {});
  }
  function reportState() {
    post("state", { seq: ++seq, cells, solved, events, slides, width: W, height: H });
  }
  function layout() {
    const r = canvas.getBoundingClientRect();
    return {
      session: cfg.session, width: W, height: H, pitch,
      board: { x: r.left, y: r.top, w: cssW, h: cssH },
      devicePixelRatio: dpr,
    };
  }
  function reportLayout() {
    window.fifteenLayout = layout();
    return post("layout", window.fifteenLayout);
  }
  function changed() {
    solved = isSolved();
    statusEl.textContent = solved ? "Solved!" : "Put the tiles in order.";
    statusEl.classList.toggle("solved", solved);
    movesEl.textContent = String(slides);
    reportState();
  }

  // --- input --------------------------------------------------------------------------
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    const c = Math.floor((ev.clientX - r.left) / pitch), row = Math.floor((ev.clientY - r.top) / pitch);
    if (c < 0 || c >= W || row < 0 || row >= H) return;
    events++;
    anim = null; // a click finishes the running animation first, as Tatham's games do
    const moved = slide(row * W + c);
    if (moved.length) {
      slides += moved.length;
      anim = { moved, t0: performance.now() };
    }
    changed();
    requestAnimationFrame(draw);
  });
  canvas.addEventListener("mousemove", (ev) => {
    const r = canvas.getBoundingClientRect();
    const c = Math.floor((ev.clientX - r.left) / pitch), row = Math.floor((ev.clientY - r.top) / pitch);
    const over = c >= 0 && c < W && row >= 0 && row < H ? row * W + c : -1;
    if (over !== hover) { hover = over; if (!anim) draw(performance.now()); }
  });
  canvas.addEventListener("mouseleave", () => { hover = -1; if (!anim) draw(performance.now()); });
  canvas.addEventListener("contextmenu", (ev) => ev.preventDefault());
  document.getElementById("restart").addEventListener("click", () => {
    cells = start.slice();
    anim = null;
    changed();
    requestAnimationFrame(draw);
  });
  window.addEventListener("resize", reportLayout);

  draw(performance.now());
  changed();
  reportLayout().then(() => { window.fifteenReady = true; });
})();
