// The bundled 15-puzzle: draws the board on a canvas in one of several looks, slides tiles
// by the rules its config names (clicks on a run or on a neighbour of the gap, arrow keys
// in either sense, animations that finish or drop input), judges the board by its own
// goal, and reports every change to its server (the tests' ground truth).
"use strict";

(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const W = cfg.width, H = cfg.height, N = W * H;
  const look = cfg.look || {};
  // Picture tiles: cut from one picture (cfg.picture), abutting on the flat look's panel.
  const PICTURE = look.tiles === "picture" && cfg.picture ? new Image() : null;
  const FLAT = look.tiles === "flat" || PICTURE !== null;
  const pitch = cfg.tile;
  const SLIDE_MS = Number.isInteger(cfg.slide) ? cfg.slide : 130;
  const goal = cfg.goal || [...Array(N - 1).keys()].map((i) => i + 1).concat([0]);
  const load = Math.random().toString(36).slice(2, 10);
  const THEMES = {
    wood: { board: "#7a5c3e", tile: "#f0dcb4", hover: "#f9ebcf", edge: "#c9ad80",
            text: "#3b2a1a", panel: "#d8c4a0", frame: "#33241a" },
    slate: { board: "#3c4650", tile: "#dfe6ee", hover: "#f0f4f8", edge: "#9aa8b6",
             text: "#1d2833", panel: "#b9c0c8", frame: "#202428" },
  };
  const COLOURS = THEMES[look.theme] || THEMES.wood;
  const FONTS = {
    sans: "bold {px}px \"DejaVu Sans\", \"Liberation Sans\", Arial, sans-serif",
    "serif-italic": "italic {px}px \"DejaVu Serif\", \"Liberation Serif\", serif",
    serif: "bold {px}px \"DejaVu Serif\", \"Liberation Serif\", serif",
    mono: "bold {px}px \"DejaVu Sans Mono\", \"Liberation Mono\", monospace",
  };
  const FONT = (FONTS[look.font] || FONTS.sans).replace("{px}", Math.round(pitch * 0.42));
  const CLICK = look.click || "line", KEYS = look.keys || "none", BUSY = look.busy || "finish";
  // The flat look: a dark rounded frame around one flat panel the numerals float on.
  const PAD = FLAT ? Math.round(pitch * 0.3) : 0;

  const start = cfg.cells.slice();
  let cells = start.slice();
  let events = 0, slides = 0, dropped = 0, seq = 0, solved = false;
  let anim = null; // {moved: [{tile, from, to}], t0}
  // The cell under the pointer, lit when a click there would slide something (`hover` in
  // the config draws one lit before the pointer moves, for headless pictures).
  let hover = Number.isInteger(cfg.hover) ? cfg.hover : -1;

  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const cssW = W * pitch + 2 * PAD, cssH = H * pitch + 2 * PAD;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.width = cssW + "px";
  canvas.style.height = cssH + "px";
  canvas.parentElement.classList.toggle("bare", FLAT);
  ctx.scale(dpr, dpr);

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
    if (PICTURE) {
      // The tile shows the part of the picture that belongs where the goal puts it.
      const home = goal.indexOf(tile);
      ctx.drawImage(PICTURE, (home % W) * pitch, Math.floor(home / W) * pitch, pitch, pitch,
                    x, y, pitch, pitch);
      return;
    }
    if (!FLAT) {
      const inset = 3, size = pitch - 2 * inset;
      roundRect(x + inset, y + inset, size, size, 6);
      ctx.fillStyle = lit ? COLOURS.hover : COLOURS.tile;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = COLOURS.edge;
      ctx.stroke();
    }
    ctx.fillStyle = COLOURS.text;
    ctx.font = FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(tile), x + pitch / 2, y + pitch / 2 + 1);
  }
  function cellXY(cell) {
    return [PAD + (cell % W) * pitch, PAD + Math.floor(cell / W) * pitch];
  }
  function drawGround() {
    if (FLAT) {
      ctx.clearRect(0, 0, cssW, cssH);
      roundRect(0, 0, cssW, cssH, PAD);
      ctx.fillStyle = COLOURS.frame;
      ctx.fill();
      ctx.fillStyle = COLOURS.panel;
      ctx.fillRect(PAD, PAD, W * pitch, H * pitch);
    } else {
      ctx.fillStyle = COLOURS.board;
      ctx.fillRect(0, 0, cssW, cssH);
    }
  }
  function draw(now) {
    drawGround();
    const moving = new Map();
    let f = 1;
    if (anim) {
      f = SLIDE_MS > 0 ? Math.min(1, (now - anim.t0) / SLIDE_MS) : 1;
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
    return cells.every((t, i) => t === goal[i]);
  }
  function movable(cell) {
    const gap = cells.indexOf(0);
    const gr = Math.floor(gap / W), gc = gap % W, r = Math.floor(cell / W), c = cell % W;
    if (cell === gap || CLICK === "none") return false;
    if (CLICK === "adjacent") return Math.abs(r - gr) + Math.abs(c - gc) === 1;
    return r === gr || c === gc;
  }
  // A tile the rules let slide: it and every tile between it and the gap move one cell
  // towards the gap. Returns the tiles that moved.
  function slide(cell) {
    if (!movable(cell)) return [];
    const gap = cells.indexOf(0);
    const gr = Math.floor(gap / W), gc = gap % W, r = Math.floor(cell / W), c = cell % W;
    const step = r === gr ? Math.sign(c - gc) : Math.sign(r - gr) * W;
    const moved = [];
    for (let at = gap; at !== cell; at += step) {
      moved.push({ tile: cells[at + step], from: at + step, to: at });
      cells[at] = cells[at + step];
    }
    cells[cell] = 0;
    return moved;
  }
  // An arrow key: the tile on the far side of the gap slides into it in the arrow's
  // direction ("tile"), or the gap moves the arrow's way ("gap": the tile there slides the
  // other way); "mixed": left and right as "tile", up and down as "gap". Returns the tiles
  // that moved.
  const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  function keySlide(key) {
    const d = ARROWS[key];
    if (!d || KEYS === "none") return [];
    const gap = cells.indexOf(0);
    const sense = KEYS === "tile" || (KEYS === "mixed" && d[0] === 0) ? -1 : 1;
    const r = Math.floor(gap / W) + sense * d[0], c = (gap % W) + sense * d[1];
    if (r < 0 || r >= H || c < 0 || c >= W) return [];
    const cell = r * W + c;
    cells[gap] = cells[cell];
    cells[cell] = 0;
    return [{ tile: cells[gap], from: cell, to: gap }];
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
    post("state", { seq: ++seq, cells, goal, solved, events, slides, dropped, width: W,
                    height: H });
  }
  function layout() {
    const r = canvas.getBoundingClientRect();
    return {
      session: cfg.session, width: W, height: H, pitch,
      board: { x: r.left + PAD, y: r.top + PAD, w: W * pitch, h: H * pitch },
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
  // One input: counted; during a slide it either finishes the slide first (as Tatham's
  // games do) or is dropped, as the config says.
  function input(act) {
    events++;
    if (anim && performance.now() - anim.t0 < SLIDE_MS && BUSY === "ignore") {
      dropped++;
      reportState();
      return;
    }
    anim = null;
    const moved = act();
    if (moved.length) {
      slides += moved.length;
      anim = { moved, t0: performance.now() };
    }
    changed();
    requestAnimationFrame(draw);
  }
  function cellAt(ev) {
    const r = canvas.getBoundingClientRect();
    const c = Math.floor((ev.clientX - r.left - PAD) / pitch);
    const row = Math.floor((ev.clientY - r.top - PAD) / pitch);
    return c >= 0 && c < W && row >= 0 && row < H ? row * W + c : -1;
  }
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    const cell = cellAt(ev);
    if (cell < 0) return;
    input(() => slide(cell));
  });
  document.addEventListener("keydown", (ev) => {
    if (!(ev.key in ARROWS)) return;
    ev.preventDefault();
    input(() => keySlide(ev.key));
  });
  canvas.addEventListener("mousemove", (ev) => {
    const over = FLAT ? -1 : cellAt(ev);
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

  function begin() {
    draw(performance.now());
    changed();
    reportLayout().then(() => { window.fifteenReady = true; });
  }
  if (PICTURE) {
    ctx.imageSmoothingEnabled = false;
    PICTURE.onload = begin;
    PICTURE.src = cfg.picture;
  } else {
    begin();
  }
})();
