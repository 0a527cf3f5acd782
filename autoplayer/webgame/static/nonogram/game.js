// The bundled nonogram game: draws the board on a canvas in the skin it was given,
// takes mouse input the way real nonogram sites do, judges the grid against the
// clues itself, and reports every change to its server (the test's ground truth).
"use strict";

// The clue face an appearance option names (a PostScript name, webgame/nonogram_looks.py)
// is loaded before anything is drawn: a canvas drawn earlier shows a fallback face.
(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const look = cfg.appearance || {};
  if (!look.face) {
    nonogramPage(cfg, null);
    return;
  }
  const face = new FontFace("clue-face", `local("${look.face}")`,
    { weight: String(look.weight || 400), style: look.style || "normal" });
  document.fonts.add(face);
  face.load().then(() => nonogramPage(cfg, "loaded"), () => nonogramPage(cfg, "missing"));
})();

function nonogramPage(cfg, faceStatus) {
  const puzzle = cfg.puzzle;
  const skin = cfg.skin;
  // The skin's colours, some replaced by appearance options (lines=, ink=).
  const look = cfg.appearance || {};
  const colours = Object.assign({}, skin[cfg.theme], look.colours || {});
  const W = puzzle.width;
  const H = puzzle.height;
  const pitch = cfg.cell;
  // LOCKED is a filled cell the lock button scheme has locked: filled for judging and in the
  // grid the page reports (which lists locked cells apart).
  const UNKNOWN = -1, EMPTY = 0, FILLED = 1, LOCKED = 2;
  const isFill = (v) => v === FILLED || v === LOCKED;
  // The rule set (RULE_CHOICES in webgame/nonogram.py): how cells are drawn, what the
  // buttons and drags do, when the game is solved and how it says so.
  const R = Object.assign({ fill: "skin", mark: "skin", highlight: "lines", buttons: "toggle",
    drag: "line", rule: "runs", sign: "none" }, cfg.rules || {});
  const marks = R.mark !== "none";
  const load = Math.random().toString(36).slice(2, 10);

  // --- the pixel font: a bitmap table, 5×9 blocks ("1" is 2 wide), as Pixelo draws digits.
  const PIXEL_DIGITS = {
    "0": ["#####", "#####", "##.##", "##.##", "##.##", "##.##", "##.##", "#####", "#####"],
    "1": ["##", "##", "##", "##", "##", "##", "##", "##", "##"],
    "2": ["#####", "#####", "...##", "...##", "#####", "##...", "##...", "#####", "#####"],
    "3": ["#####", "#####", "...##", "...##", ".####", "...##", "...##", "#####", "#####"],
    "4": ["##.##", "##.##", "##.##", "##.##", "#####", "...##", "...##", "...##", "...##"],
    "5": ["#####", "#####", "##...", "##...", "#####", "...##", "...##", "#####", "#####"],
    "6": ["#####", "#####", "##...", "##...", "#####", "##.##", "##.##", "#####", "#####"],
    "7": ["#####", "#####", "...##", "...##", "...##", "...##", "...##", "...##", "...##"],
    "8": ["#####", "#####", "##.##", "##.##", "#####", "##.##", "##.##", "#####", "#####"],
    "9": ["#####", "#####", "##.##", "##.##", "#####", "...##", "...##", "#####", "#####"],
  };
  const PIXEL_ROWS = 9;

  // The board, possibly a started game the URL gave (`grid=`).
  const grid = [];
  for (let r = 0; r < H; r++) grid.push(cfg.initial ? cfg.initial[r].slice() : new Array(W).fill(UNKNOWN));

  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const isPixel = skin.font === "pixel";
  // Pixel digits nearly fill a row (as Pixelo's do), and the widest column clue fits its column.
  let block = Math.max(1, Math.floor((pitch - 3) / 9));
  let fontPx = 0;
  let textAscent = 0, textDescent = 0;

  // --- measuring numbers in the skin's font -------------------------------------------
  const clueFamily = faceStatus === "loaded" ? `"clue-face", ${look.font}` : look.font || skin.font;
  function setFont(px) {
    ctx.font = `${look.style || "normal"} ${look.weight || skin.weight || "normal"} ${px}px ${clueFamily}`;
  }
  function numberWidth(n) {
    const s = String(n);
    if (isPixel) {
      let w = 0;
      for (const ch of s) w += PIXEL_DIGITS[ch][0].length * block;
      return w + (s.length - 1) * block;
    }
    return Math.round(ctx.measureText(s).width);
  }
  function numberHeight() {
    return isPixel ? PIXEL_ROWS * block : textAscent + textDescent;
  }
  if (isPixel) {
    const widestColumn = Math.max(0, ...puzzle.columns.flat());
    while (block > 1 && numberWidth(widestColumn) > pitch - 3) block--;
  } else if (look.digits) {
    fontPx = digitFontPx(Math.round(look.digits * pitch));
    setFont(fontPx);
  } else {
    fontPx = Math.max(8, Math.round(pitch * (skin.size || 0.6)));
    setFont(fontPx);
    // Two-digit column clues must fit their column, as on sites with small cells.
    while (fontPx > 7 && ctx.measureText("88").width > pitch - 3) setFont(--fontPx);
  }
  if (!isPixel) {
    const m = ctx.measureText("0123456789");
    textAscent = Math.round(m.actualBoundingBoxAscent);
    textDescent = Math.max(0, Math.round(m.actualBoundingBoxDescent));
  }

  // digits=F: the font size whose digits' ink is `want` px tall (top of the tallest to the
  // bottom of the lowest), the nearest of the sizes about it.
  function digitFontPx(want) {
    const inkHeight = (px) => {
      setFont(px);
      const m = ctx.measureText("0123456789");
      return Math.round(m.actualBoundingBoxAscent) + Math.max(0, Math.round(m.actualBoundingBoxDescent));
    };
    const guess = Math.max(6, Math.round(want * 100 / inkHeight(100)));
    let best = guess;
    for (let px = guess - 2; px <= guess + 2; px++) {
      if (px >= 6 && Math.abs(inkHeight(px) - want) < Math.abs(inkHeight(best) - want)) best = px;
    }
    return best;
  }
  // A column's number wider than its column (digits= taller than the font fits) is drawn
  // condensed to the column, as canvas games do with fillText's maxWidth: numbers never
  // run into the next column's.
  const colFit = pitch - 3;

  // The blank between a row's numbers: one space of the font on bars (as KDE's Picmi
  // writes a row's clue: numbers joined by spaces), else a fixed share of the font size.
  function numberSpacing() {
    if (isPixel) return 5 * block;
    if (bars) return Math.max(1, Math.round(ctx.measureText(" ").width));
    return Math.round(fontPx * 0.55);
  }

  // The numbers a line shows: a zero clue is "0" or nothing, depending on the skin.
  function shown(clue) {
    if (clue.length) return clue;
    return skin.zero === "0" ? [0] : [];
  }

  // --- layout options: where the clues stand, how the board is framed, text nearby ------
  // (LAYOUT_CHOICES in webgame/nonogram.py; how things look is the skin's business).
  const L = Object.assign({ rows: "left", columns: "top", frame: true, fives: true,
    clue_cells: "skin", heading: "", status: "" }, cfg.layout || {});
  const gridCells = L.clue_cells === "grid"; // clue boxes drawn exactly like grid cells
  const rowsRight = L.rows === "right";
  const colsBottom = L.columns === "bottom";

  // --- layout -------------------------------------------------------------------------
  const boxed = gridCells || (L.clue_cells === "skin" && skin.clues === "boxed");
  const bands = L.clue_cells === "skin" && skin.clues === "bands";
  const bars = L.clue_cells === "skin" && skin.clues === "bars";
  // Stacked column numbers: a box each, or a line of the font (digits=: the digits' ink
  // height and a third of it between numbers, so tall digits make the band grow).
  const lineH = boxed ? pitch : isPixel ? 12 * block
    : look.digits ? numberHeight() + Math.max(2, Math.round(numberHeight() / 3))
    : Math.round(fontPx * 1.25);
  const rowGap = numberSpacing();
  const colShown = puzzle.columns.map(shown);
  const rowShown = puzzle.rows.map(shown);
  const maxCol = Math.max(1, ...colShown.map((c) => c.length));
  const maxRow = Math.max(1, ...rowShown.map((c) => c.length));
  const boxW = gridCells ? pitch : Math.max(pitch, ...rowShown.flat().map((n) => numberWidth(n) + 6));
  const toBoard = gridCells ? 0 : boxed ? 1 : isPixel ? Math.max(3, 2 * block)
    : bars ? Math.max(3, Math.round(pitch / 5)) : 5;
  function rowTextWidth(nums) {
    if (boxed) return nums.length * boxW;
    return nums.reduce((a, n) => a + numberWidth(n), 0) + Math.max(0, nums.length - 1) * rowGap;
  }
  const widest = Math.max(...rowShown.map(rowTextWidth), boxed ? maxRow * boxW : 0);
  const thick = skin.thick || 2;
  const marginX = boxed ? 1 : 10, marginY = boxed ? 1 : 8;
  const rowBand = widest + toBoard, colBand = maxCol * lineH + toBoard;
  // A heading just beyond the column clues (or above the board when they are below it),
  // a status line beyond the other side: page text a reader must not take for clues.
  const textPx = Math.max(12, Math.round(pitch * 0.8));
  const headBlock = L.heading ? Math.round(textPx * 1.5) : 0;
  const statusBlock = L.status ? Math.round(textPx * 1.5) : 0;
  // panel=top: a puzzle player's menu bar and toolbar, ruled like the grid, between the
  // heading and the board's region.
  const panel = L.panel === "top" ? panelLayout(marginX, marginY + headBlock) : null;
  const topBlock = headBlock + (panel ? panel.block : 0);
  const bx = marginX + (rowsRight ? 0 : rowBand);
  const by = marginY + topBlock + (colsBottom ? 0 : colBand);
  const boardRight = bx + W * pitch + thick, boardBottom = by + H * pitch + thick;
  // The page text is never cut by the canvas's edge (a heading wider than a small board).
  const pageFont = `bold ${textPx}px ${isPixel ? "\"DejaVu Sans\", sans-serif" : skin.font}`;
  ctx.font = pageFont;
  const textW = Math.max(0, ...[L.heading, L.status].filter(Boolean).map((t) => ctx.measureText(t).width));
  const cssW = Math.max(boardRight + (rowsRight ? rowBand + marginX : 0),
    panel ? panel.x + panel.w + 1 + marginX : 0, Math.ceil(bx + textW + marginX));
  const cssH = boardBottom + (colsBottom ? colBand + marginY : 0) + statusBlock;
  // Where each line's clue area starts on the board's side (the slot next to the board).
  const colNear = colsBottom ? by + H * pitch + toBoard : by - toBoard;
  const rowNear = rowsRight ? bx + W * pitch + toBoard + (boxed ? 0 : thick) : bx - toBoard;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.width = cssW + "px";
  canvas.style.height = cssH + "px";
  ctx.scale(dpr, dpr);
  if (!isPixel) setFont(fontPx);

  const xLine = (i) => bx + i * pitch;
  const yLine = (i) => by + i * pitch;

  // Where every number goes (canvas pixels): the same table draws them and reports them.
  const cluePlaces = { rows: [], columns: [] };
  for (let c = 0; c < W; c++) {
    const nums = colShown[c];
    const places = [];
    nums.forEach((n, k) => {
      const slotTop = colsBottom ? colNear + k * lineH : colNear - (nums.length - k) * lineH;
      const natural = numberWidth(n), h = numberHeight();
      const w = isPixel ? natural : Math.min(natural, colFit);
      const x = xLine(c) + Math.floor((pitch + 1 - w) / 2); // centred in the cell's interior
      const y = slotTop + Math.round((lineH - h) / 2);
      places.push({ value: n, x, y, w, h, squeeze: w < natural,
        slot: { x: xLine(c), y: slotTop, w: pitch, h: lineH } });
    });
    cluePlaces.columns.push(places);
  }
  for (let r = 0; r < H; r++) {
    const nums = rowShown[r];
    const places = [];
    if (rowsRight) { // left-aligned, the first number next to the board
      let left = rowNear;
      nums.forEach((n) => {
        const w = numberWidth(n), h = numberHeight();
        const slotW = boxed ? boxW : w;
        const x = left + (boxed ? Math.round((boxW - w) / 2) : 0);
        const y = yLine(r) + Math.round((pitch - h) / 2) + 1;
        places.push({ value: n, x, y, w, h, slot: { x: left, y: yLine(r), w: slotW, h: pitch } });
        left += slotW + (boxed ? 0 : rowGap);
      });
      cluePlaces.rows.push(places);
      continue;
    }
    let right = rowNear;
    for (let k = nums.length - 1; k >= 0; k--) {
      const n = nums[k];
      const w = numberWidth(n), h = numberHeight();
      const slotW = boxed ? boxW : w;
      const x = right - slotW + (boxed ? Math.round((boxW - w) / 2) : 0);
      const y = yLine(r) + Math.round((pitch - h) / 2) + 1;
      places.unshift({ value: n, x, y, w, h, slot: { x: right - slotW, y: yLine(r), w: slotW, h: pitch } });
      right -= slotW + (boxed ? 0 : rowGap);
    }
    cluePlaces.rows.push(places);
  }

  // --- judging ------------------------------------------------------------------------
  function runsOf(cells) {
    const runs = [];
    let run = 0;
    for (const v of cells) {
      if (isFill(v)) run++;
      else if (run) { runs.push(run); run = 0; }
    }
    if (run) runs.push(run);
    return runs;
  }
  const sameRuns = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const rowDone = (r) => sameRuns(runsOf(grid[r]), puzzle.rows[r]);
  const colDone = (c) => sameRuns(runsOf(grid.map((row) => row[c])), puzzle.columns[c]);
  function isSolved() {
    for (let r = 0; r < H; r++) if (!rowDone(r)) return false;
    for (let c = 0; c < W; c++) if (!colDone(c)) return false;
    // rule=marks: every cell not filled must be marked empty too (as KDE's Picmi asks).
    if (R.rule === "marks" && grid.some((row) => row.some((v) => v === UNKNOWN))) return false;
    return true;
  }

  // --- drawing ------------------------------------------------------------------------
  let hover = cfg.hover ? { r: cfg.hover[0], c: cfg.hover[1] } : null; // {r, c} under the pointer
  // finished: the game is over and its board takes no more input (sign=restyle, freeze);
  // restyled: the board is drawn as the finished picture (sign=restyle).
  let finished = false, restyled = false;
  // Which lines' clues the pointer lights up (highlight=lines, and clues: the clues only).
  const litClues = () => (R.highlight === "lines" || R.highlight === "clues") && !finished;
  const hotColumn = (c) => litClues() && hover !== null && hover.c === c;
  const hotRow = (r) => litClues() && hover !== null && hover.r === r;
  function hotCell(r, c) {
    if (!hover || finished || R.highlight === "none" || R.highlight === "clues") return false;
    if (R.highlight === "cell") return hover.r === r && hover.c === c;
    return hover.r === r || hover.c === c;
  }

  function fadeGradient(x0, y0, x1, y1, colour) {
    const g = ctx.createLinearGradient(x0, y0, x1, y1);
    g.addColorStop(0, colours.canvas);
    g.addColorStop(0.45, colour);
    g.addColorStop(1, colour);
    return g;
  }

  // The clue band's extent across the lines, from the canvas side to the board side.
  const colFar = colsBottom ? cssH - statusBlock : topBlock;
  const colBoard = colsBottom ? boardBottom : by;
  const rowFar = rowsRight ? cssW : 0;
  const rowBoard = rowsRight ? boardRight : bx;
  const boxLine = gridCells ? colours.grid : colours.boxLine;
  const boxFill = gridCells ? colours.cell : colours.box;

  function drawBox(x, y, w, h, hot) {
    ctx.fillStyle = boxLine;
    ctx.fillRect(x, y, w + 1, h + 1);
    ctx.fillStyle = hot ? colours.hoverBand : boxFill;
    ctx.fillRect(x + 1, y + 1, w - 1, h - 1);
  }

  function drawClueBackgrounds() {
    if (bars) {
      drawLineBars();
      return;
    }
    const colLo = Math.min(colFar, colBoard), colHi = Math.max(colFar, colBoard);
    const rowLo = Math.min(rowFar, rowBoard), rowHi = Math.max(rowFar, rowBoard);
    for (let c = 0; c < W; c++) {
      const hot = hotColumn(c);
      const x = xLine(c) + 1, w = pitch - 1;
      if (bands) {
        ctx.fillStyle = fadeGradient(0, colFar, 0, colBoard, hot ? colours.hoverBand : c % 2 ? colours.band2 : colours.band1);
        ctx.fillRect(x, colLo + (colsBottom ? 2 : 0), w, colHi - colLo - 2);
      } else if (boxed) {
        for (let k = 0; k < maxCol; k++) {
          const y = colsBottom ? colNear + k * lineH : colNear - (k + 1) * lineH;
          drawBox(xLine(c), y, pitch, lineH, hot);
        }
      } else if (hot) {
        ctx.fillStyle = colours.hoverBand;
        ctx.fillRect(x, colLo + 2, w, colHi - colLo - 4);
      }
    }
    for (let r = 0; r < H; r++) {
      const hot = hotRow(r);
      const y = yLine(r) + 1, h = pitch - 1;
      if (bands) {
        ctx.fillStyle = fadeGradient(rowFar, 0, rowBoard, 0, hot ? colours.hoverBand : r % 2 ? colours.band2 : colours.band1);
        ctx.fillRect(rowLo + (rowsRight ? 2 : 0), y, rowHi - rowLo - 2, h);
      } else if (boxed) {
        for (let k = 0; k < maxRow; k++) {
          const x = rowsRight ? rowNear + k * boxW : rowNear - (k + 1) * boxW;
          drawBox(x, yLine(r), boxW, pitch, hot);
        }
      } else if (hot) {
        ctx.fillStyle = colours.hoverBand;
        ctx.fillRect(rowLo + 2, y, rowHi - rowLo - 4, h);
      }
    }
  }

  function drawPageText() {
    ctx.fillStyle = colours.ink;
    ctx.textBaseline = "alphabetic";
    ctx.font = pageFont;
    if (L.heading) ctx.fillText(L.heading, bx, marginY + Math.round(textPx * 1.1));
    if (L.status) ctx.fillText(L.status, bx, cssH - Math.round(textPx * 0.35));
    if (!isPixel) setFont(fontPx);
  }

  // --- panel=top: the menu bar (one ruled strip of labelled boxes) and the toolbar (a row
  // of abutting ruled squares with pictures, no digits), in the grid's line colour -------
  function panelLayout(x, y) {
    const px = Math.min(15, Math.max(11, Math.round(pitch * 0.55)));
    ctx.font = `${px}px "DejaVu Sans", sans-serif`;
    const pad = Math.round(px * 0.8);
    const menus = [];
    let left = x;
    for (const label of ["File", "Edit", "Display", "Setting", "Help"]) {
      const w = Math.round(ctx.measureText(label).width) + 2 * pad;
      menus.push({ label, x: left, w });
      left += w;
    }
    const menuH = Math.round(px * 1.8);
    const side = Math.min(34, Math.max(20, pitch + 2));
    const tools = 8;
    const toolY = y + menuH + 4;
    return { px, x, y, menus, menuH, side, tools, toolY,
      w: Math.max(left - x, tools * side), h: menuH + 4 + side,
      block: menuH + 4 + side + Math.max(8, Math.round(pitch / 2)) };
  }

  function drawPanel() {
    if (!panel) return;
    const ruled = (x, y, w, h) => {
      ctx.fillStyle = colours.grid;
      ctx.fillRect(x, y, w + 1, h + 1);
      ctx.fillStyle = colours.cell;
      ctx.fillRect(x + 1, y + 1, w - 1, h - 1);
    };
    ctx.font = `${panel.px}px "DejaVu Sans", sans-serif`;
    ctx.textBaseline = "middle";
    for (const m of panel.menus) {
      ruled(m.x, panel.y, m.w, panel.menuH);
      ctx.fillStyle = colours.ink;
      ctx.fillText(m.label, m.x + Math.round((m.w - ctx.measureText(m.label).width) / 2),
        panel.y + panel.menuH / 2 + 1);
    }
    ctx.textBaseline = "alphabetic";
    for (let k = 0; k < panel.tools; k++) {
      const x = panel.x + k * panel.side;
      ruled(x, panel.toolY, panel.side, panel.side);
      drawToolIcon(k, x + 1, panel.toolY + 1, panel.side - 1);
    }
    if (!isPixel) setFont(fontPx);
  }

  // Toolbar pictures: fill, mark, dot, undo, redo, zoom, check, eraser.
  function drawToolIcon(k, x, y, s) {
    const m = Math.round(s * 0.25), a = x + m, b = y + m, e = s - 2 * m;
    ctx.fillStyle = ctx.strokeStyle = colours.ink;
    ctx.lineWidth = Math.max(1.5, s / 14);
    ctx.beginPath();
    switch (k) {
      case 0: ctx.fillRect(a, b, e, e); return;
      case 1: ctx.moveTo(a, b); ctx.lineTo(a + e, b + e); ctx.moveTo(a + e, b); ctx.lineTo(a, b + e); break;
      case 2: ctx.arc(a + e / 2, b + e / 2, e / 5, 0, 2 * Math.PI); ctx.fill(); return;
      case 3: ctx.moveTo(a + e, b + e / 2); ctx.lineTo(a, b + e / 2); ctx.lineTo(a + e / 3, b + e / 6);
        ctx.moveTo(a, b + e / 2); ctx.lineTo(a + e / 3, b + 5 * e / 6); break;
      case 4: ctx.moveTo(a, b + e / 2); ctx.lineTo(a + e, b + e / 2); ctx.lineTo(a + 2 * e / 3, b + e / 6);
        ctx.moveTo(a + e, b + e / 2); ctx.lineTo(a + 2 * e / 3, b + 5 * e / 6); break;
      case 5: ctx.arc(a + e * 0.4, b + e * 0.4, e * 0.3, 0, 2 * Math.PI);
        ctx.moveTo(a + e * 0.62, b + e * 0.62); ctx.lineTo(a + e, b + e); break;
      case 6: ctx.moveTo(a, b + e * 0.55); ctx.lineTo(a + e * 0.38, b + e * 0.9); ctx.lineTo(a + e, b + e * 0.1); break;
      default: ctx.strokeRect(a, b + e * 0.3, e, e * 0.4); ctx.fillRect(a, b + e * 0.3, e * 0.4, e * 0.4); return;
    }
    ctx.stroke();
  }

  // --- appearance: bars and textures under the clues ---------------------------------
  // One bar per line, as KDE's Picmi draws its clues: alternating shades, a dark edge
  // between neighbours and a light rim inside it, the texture option on the bar.
  function drawLineBars() {
    // Each bar's edge is half the dark line between two bars (a rule, as thick as a
    // grid line at most). Bars run from the canvas side of their band to the board.
    const edge = Math.max(1, Math.round(pitch / 24));
    const colLo = Math.min(colFar, colBoard), colHi = Math.max(colFar, colBoard);
    const rowLo = Math.min(rowFar, rowBoard), rowHi = Math.max(rowFar, rowBoard);
    for (let c = 0; c < W; c++) {
      const hot = hotColumn(c);
      drawBar(xLine(c), colLo, pitch + 1, colHi - colLo, edge,
        hot ? colours.hoverBand : c % 2 ? colours.band2 : colours.band1, true, !colsBottom);
    }
    for (let r = 0; r < H; r++) {
      const hot = hotRow(r);
      drawBar(rowLo, yLine(r), rowHi - rowLo, pitch + 1, edge,
        hot ? colours.hoverBand : r % 2 ? colours.band2 : colours.band1, false, !rowsRight);
    }
  }

  function drawBar(x, y, w, h, edge, base, vertical, boardAtEnd) {
    ctx.fillStyle = colours.barEdge;
    ctx.fillRect(x, y, w, h);
    const ix = x + edge, iy = y + edge, iw = w - 2 * edge, ih = h - 2 * edge;
    ctx.fillStyle = base;
    ctx.fillRect(ix, iy, iw, ih);
    paintTexture(ix, iy, iw, ih, vertical);
    ctx.strokeStyle = colours.barRim;
    ctx.lineWidth = 1;
    ctx.strokeRect(ix + 0.5, iy + 0.5, iw - 1, ih - 1);
    drawBarShading(ix, iy, iw, ih, vertical, boardAtEnd);
  }

  // The bar's sides in shadow over its last cell before the board, as if rounded there:
  // ink-dark against the edge, fading into the bar a tenth of a cell in (light theme;
  // a dark theme's bars keep plain edges).
  function drawBarShading(x, y, w, h, vertical, boardAtEnd) {
    if (cfg.theme === "dark") return;
    const s = Math.max(2, Math.round(pitch / 10));
    const len = Math.min(vertical ? h : w, pitch);
    const sides = vertical ? [[x, 1], [x + w, -1]] : [[y, 1], [y + h, -1]];
    for (const [at, dir] of sides) {
      const g = vertical ? ctx.createLinearGradient(at, 0, at + dir * s, 0)
        : ctx.createLinearGradient(0, at, 0, at + dir * s);
      g.addColorStop(0, "rgba(0,0,0,0.7)");
      g.addColorStop(1, "rgba(0,0,0,0)");
      ctx.fillStyle = g;
      if (vertical) ctx.fillRect(dir > 0 ? at : at - s, boardAtEnd ? y + h - len : y, s, len);
      else ctx.fillRect(boardAtEnd ? x + w - len : x, dir > 0 ? at : at - s, len, s);
    }
  }

  // The texture option over a clue background: dots, noise or a gradient along the line,
  // faint beside the ink (an eighth to a quarter of the way to black or white).
  let texturePattern = null;
  function paintTexture(x, y, w, h, vertical) {
    const kind = look.texture || "flat";
    if (kind === "flat" || w <= 0 || h <= 0) return;
    const dark = cfg.theme === "dark";
    if (kind === "gradient") {
      const g = vertical ? ctx.createLinearGradient(0, y, 0, y + h) : ctx.createLinearGradient(x, 0, x + w, 0);
      g.addColorStop(0, dark ? "rgba(0,0,0,0.35)" : "rgba(255,255,255,0.45)");
      g.addColorStop(1, dark ? "rgba(255,255,255,0.10)" : "rgba(0,0,0,0.22)");
      ctx.fillStyle = g;
    } else {
      if (!texturePattern) texturePattern = ctx.createPattern(textureTile(kind, dark), "repeat");
      ctx.fillStyle = texturePattern;
    }
    ctx.fillRect(x, y, w, h);
  }

  function textureTile(kind, dark) {
    const tile = document.createElement("canvas");
    const n = kind === "dotted" ? 6 : 64;
    tile.width = tile.height = n;
    const t = tile.getContext("2d");
    const tone = dark ? "255,255,255" : "0,0,0";
    if (kind === "dotted") {
      // Dots on a diagonal lattice (two per tile), as on a printed halftone.
      t.fillStyle = `rgba(${tone},0.16)`;
      t.fillRect(0, 0, 2, 2);
      t.fillRect(3, 3, 2, 2);
      return tile;
    }
    let seed = 12345; // a fixed seed: the same page draws the same noise
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const img = t.createImageData(n, n);
    for (let i = 0; i < n * n; i++) {
      const v = dark ? 255 : 0;
      img.data[4 * i] = img.data[4 * i + 1] = img.data[4 * i + 2] = v;
      img.data[4 * i + 3] = Math.round(rand() * 32);
    }
    t.putImageData(img, 0, 0);
    return tile;
  }

  // The texture option on skins without bars: over their clue areas, as they are drawn.
  function drawClueAreaTexture() {
    if (bars || !look.texture) return;
    const colLo = Math.min(colFar, colBoard), colHi = Math.max(colFar, colBoard);
    const rowLo = Math.min(rowFar, rowBoard), rowHi = Math.max(rowFar, rowBoard);
    // Two pixels clear of the board's outer line, whichever side the band is on.
    paintTexture(bx + 1, colLo + (colsBottom ? 2 : 0), W * pitch - 1, colHi - colLo - 2, true);
    paintTexture(rowLo + (rowsRight ? 2 : 0), by + 1, rowHi - rowLo - 2, H * pitch - 1, false);
  }

  function drawPixelNumber(n, x, y, ink, shadow) {
    let cx = x;
    for (const ch of String(n)) {
      const rows = PIXEL_DIGITS[ch];
      for (const [colour, d] of [[shadow, block], [ink, 0]]) {
        if (!colour) continue;
        ctx.fillStyle = colour;
        rows.forEach((line, j) => {
          for (let i = 0; i < line.length; i++) {
            if (line[i] === "#") ctx.fillRect(cx + i * block + d, y + j * block + d, block, block);
          }
        });
      }
      cx += rows[0].length * block + block;
    }
  }

  function drawNumber(place, done) {
    const zero = place.value === 0;
    const ink = zero ? colours.inkZero : done && skin.done === "fade" ? colours.inkDone : colours.ink;
    if (isPixel) {
      drawPixelNumber(place.value, place.x, place.y, ink, zero ? null : colours.shadow);
    } else {
      ctx.fillStyle = ink;
      ctx.textBaseline = "alphabetic";
      if (place.squeeze) ctx.fillText(String(place.value), place.x, place.y + textAscent, place.w);
      else ctx.fillText(String(place.value), place.x, place.y + textAscent);
    }
    if (done && !zero && skin.done === "strike") {
      ctx.strokeStyle = colours.ink;
      ctx.lineWidth = Math.max(1, Math.round(pitch / 16));
      ctx.beginPath();
      ctx.moveTo(place.x - 2, place.y + place.h + 1);
      ctx.lineTo(place.x + place.w + 2, place.y - 1);
      ctx.stroke();
    }
  }

  function drawClues() {
    cluePlaces.columns.forEach((places, c) => {
      const done = colDone(c);
      places.forEach((p) => drawNumber(p, done));
    });
    cluePlaces.rows.forEach((places, r) => {
      const done = rowDone(r);
      places.forEach((p) => drawNumber(p, done));
    });
  }

  function drawCells() {
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const x = xLine(c) + 1, y = yLine(r) + 1, s = pitch - 1;
        ctx.fillStyle = colours.cell;
        ctx.fillRect(x, y, s, s);
        const v = grid[r][c];
        if (hotCell(r, c) && !isFill(v)) {
          ctx.fillStyle = colours.hoverCell;
          ctx.fillRect(x, y, s, s);
        }
        if (isFill(v)) {
          drawFill(x, y, s);
          if (v === LOCKED) drawPadlock(x, y, s);
        } else if (v === EMPTY) {
          drawEmpty(x, y, s);
        }
      }
    }
  }

  // --- rule sets: how filled, marked and locked cells are drawn ------------------------
  function drawFill(x, y, s) {
    if (R.fill === "image") {
      ctx.drawImage(cellPicture("fill"), x, y, s, s);
      return;
    }
    if (R.fill === "hatched") {
      ctx.fillStyle = hatching();
      ctx.fillRect(x, y, s, s);
      return;
    }
    // light: a pale blue with an inset shadow along the top and left (lighter than the ink).
    ctx.fillStyle = R.fill === "light" ? "#a9d3f5" : colours.filled;
    ctx.fillRect(x, y, s, s);
    if (R.fill !== "light") return;
    const k = Math.min(3, Math.max(2, Math.round(s / 10)));
    ctx.fillStyle = "#5f97c9";
    ctx.fillRect(x, y, s, k);
    ctx.fillRect(x, y, k, s);
  }

  function drawEmpty(x, y, s) {
    if (R.mark === "grey") {
      ctx.fillStyle = "#d0d0d0";
      ctx.fillRect(x, y, s, s);
    } else if (R.mark === "image") {
      ctx.drawImage(cellPicture("mark"), x, y, s, s);
    } else if (R.mark === "skin") {
      drawMark(x, y, s);
    }
  }

  // A padlock over a locked cell's fill: a gold body under a pale steel shackle, both
  // outlined dark so they show on any fill.
  function drawPadlock(x, y, s) {
    const w = Math.max(6, Math.round(s * 0.46)), h = Math.max(4, Math.round(s * 0.3));
    const lx = x + Math.round((s - w) / 2), ly = y + Math.round(s * 0.5);
    const rad = w * 0.3, legs = Math.max(1, Math.round(s * 0.08)), cx = x + s / 2;
    ctx.lineCap = "butt";
    for (const [colour, width] of [["#2a2000", Math.max(3, s / 7)], ["#e6e6e6", Math.max(1.5, s / 16)]]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.moveTo(cx - rad, ly);
      ctx.lineTo(cx - rad, ly - legs);
      ctx.arc(cx, ly - legs, rad, Math.PI, 2 * Math.PI);
      ctx.lineTo(cx + rad, ly);
      ctx.stroke();
    }
    ctx.fillStyle = "#2a2000";
    ctx.fillRect(lx - 1, ly - 1, w + 2, h + 2);
    ctx.fillStyle = "#f2c230";
    ctx.fillRect(lx, ly, w, h);
  }

  // fill=hatched: dark blue diagonal stripes, 3 px of every 8, on a pale blue, as a pattern
  // fixed to the canvas (so the stripes run on from one filled cell into the next).
  let hatchPattern = null;
  function hatching() {
    if (hatchPattern) return hatchPattern;
    const n = 8;
    const tile = document.createElement("canvas");
    tile.width = tile.height = n;
    const t = tile.getContext("2d");
    const img = t.createImageData(n, n);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const [r, g, b] = (x + y) % n < 3 ? [0x2f, 0x5f, 0xb3] : [0xbf, 0xd5, 0xf3];
        const i = 4 * (y * n + x);
        img.data[i] = r; img.data[i + 1] = g; img.data[i + 2] = b; img.data[i + 3] = 255;
      }
    }
    t.putImageData(img, 0, 0);
    hatchPattern = ctx.createPattern(tile, "repeat");
    return hatchPattern;
  }

  // Cell pictures drawn once on offscreen canvases (at device pixels), as games that draw
  // their cells from image files show them: not one flat colour a reader can count on.
  const pictures = {};
  function cellPicture(kind) {
    if (pictures[kind]) return pictures[kind];
    const n = Math.max(4, Math.round((pitch - 1) * dpr));
    const pic = document.createElement("canvas");
    pic.width = pic.height = n;
    const g = pic.getContext("2d");
    if (kind === "fill") paintFillPicture(g, n);
    else paintMarkPicture(g, n);
    pictures[kind] = pic;
    return pic;
  }

  // A bevelled tile: a blue gradient, light diagonal stripes, a lit top-left edge, a
  // shaded bottom-right one and a highlight spot.
  function paintFillPicture(g, n) {
    const grad = g.createLinearGradient(0, 0, n, n);
    grad.addColorStop(0, "#4f86cf");
    grad.addColorStop(1, "#1c3f78");
    g.fillStyle = grad;
    g.fillRect(0, 0, n, n);
    g.save();
    g.beginPath();
    g.rect(0, 0, n, n);
    g.clip();
    g.strokeStyle = "rgba(255,255,255,0.22)";
    g.lineWidth = Math.max(1, n / 12);
    for (let d = -n; d < n; d += Math.max(3, Math.round(n / 4))) {
      g.beginPath();
      g.moveTo(d, n);
      g.lineTo(d + n, 0);
      g.stroke();
    }
    g.restore();
    const b = Math.max(2, Math.round(n / 8));
    g.fillStyle = "rgba(255,255,255,0.45)";
    g.fillRect(0, 0, n, b);
    g.fillRect(0, b, b, n - b);
    g.fillStyle = "rgba(0,0,0,0.4)";
    g.fillRect(b, n - b, n - b, b);
    g.fillRect(n - b, b, b, n - 2 * b);
    const spot = g.createRadialGradient(n * 0.32, n * 0.3, 0, n * 0.32, n * 0.3, n * 0.3);
    spot.addColorStop(0, "rgba(255,255,255,0.6)");
    spot.addColorStop(1, "rgba(255,255,255,0)");
    g.fillStyle = spot;
    g.fillRect(0, 0, n, n);
  }

  // A thick, round-ended orange X with a dark red outline, on a clear background.
  function paintMarkPicture(g, n) {
    const m = n * 0.2, w = Math.max(3, n * 0.17);
    g.lineCap = "round";
    for (const [colour, width] of [["#7a1d00", w + Math.max(2, n / 12)], ["#ff7a1a", w]]) {
      g.strokeStyle = colour;
      g.lineWidth = width;
      g.beginPath();
      g.moveTo(m, m);
      g.lineTo(n - m, n - m);
      g.moveTo(n - m, m);
      g.lineTo(m, n - m);
      g.stroke();
    }
  }

  function drawMark(x, y, s) {
    ctx.strokeStyle = ctx.fillStyle = colours.mark;
    if (skin.mark === "dot") {
      ctx.beginPath();
      ctx.arc(x + s / 2, y + s / 2, Math.max(1.5, s * 0.12), 0, 2 * Math.PI);
      ctx.fill();
      return;
    }
    const m = Math.round(s * 0.28);
    ctx.lineWidth = Math.max(1, Math.round(s / 14));
    ctx.beginPath();
    ctx.moveTo(x + m, y + m);
    ctx.lineTo(x + s - m, y + s - m);
    ctx.moveTo(x + s - m, y + m);
    ctx.lineTo(x + m, y + s - m);
    ctx.stroke();
  }

  function drawLines() {
    const bw = W * pitch, bh = H * pitch;
    // Without a frame only the inner lines are drawn: the outer cells open on the page.
    const outer = L.frame ? 0 : 1;
    ctx.fillStyle = colours.grid;
    for (let i = outer; i <= W - outer; i++) ctx.fillRect(xLine(i), by, 1, bh + 1);
    for (let j = outer; j <= H - outer; j++) ctx.fillRect(bx, yLine(j), bw + 1, 1);
    // Thick lines every 5 cells, centred on the thin one; the border is thick too.
    const lo = Math.floor((thick - 1) / 2);
    ctx.fillStyle = colours.thickLine;
    if (L.fives) {
      for (let i = 5; i < W; i += 5) ctx.fillRect(xLine(i) - lo, by, thick, bh + 1);
      for (let j = 5; j < H; j += 5) ctx.fillRect(bx, yLine(j) - lo, bw + 1, thick);
    }
    if (!L.frame) return;
    ctx.fillStyle = colours.border;
    ctx.fillRect(bx - lo, by - lo, bw + thick, thick);
    ctx.fillRect(bx - lo, yLine(H) - lo, bw + thick, thick);
    ctx.fillRect(bx - lo, by - lo, thick, bh + thick);
    ctx.fillRect(xLine(W) - lo, by - lo, thick, bh + thick);
  }

  function drawCursor() {
    if (!hover || finished || !colours.cursor || R.highlight === "none" || R.highlight === "clues") {
      return;
    }
    ctx.strokeStyle = colours.cursor;
    ctx.lineWidth = 2;
    ctx.strokeRect(xLine(hover.c) + 2, yLine(hover.r) + 2, pitch - 3, pitch - 3);
  }

  // sign=restyle: the finished picture. No grid lines, no border, no marks: the board one
  // sheet of the cell colour, every filled cell a whole pitch square in its fill's base
  // colour, so neighbouring fills merge into one shape.
  function drawRestyledBoard() {
    ctx.fillStyle = colours.cell;
    ctx.fillRect(bx, by, W * pitch + 1, H * pitch + 1);
    const base = { skin: colours.filled, light: "#a9d3f5", image: "#2f5fa3" }[R.fill];
    ctx.fillStyle = base || hatching();
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) if (isFill(grid[r][c])) ctx.fillRect(xLine(c), yLine(r), pitch, pitch);
    }
  }

  function draw() {
    ctx.fillStyle = colours.canvas;
    ctx.fillRect(0, 0, cssW, cssH);
    drawClueBackgrounds();
    drawPageText();
    drawPanel();
    drawClueAreaTexture();
    drawClues();
    if (restyled) {
      drawRestyledBoard();
      return;
    }
    drawCells();
    drawLines();
    drawCursor();
    // sign=dim: the solved board greyed under a dark veil (the canvas only, no dialog).
    if (solved && R.sign === "dim") {
      ctx.fillStyle = "rgba(0,0,0,0.5)";
      ctx.fillRect(0, 0, cssW, cssH);
    }
  }

  // --- page chrome --------------------------------------------------------------------
  document.body.classList.add("skin-" + cfg.skinName, "theme-" + cfg.theme);
  for (const key of ["page", "panel", "text", "header", "canvas", "cell", "grid", "border", "filled"]) {
    document.documentElement.style.setProperty("--" + key, colours[key]);
  }
  document.getElementById("puzzle-name").textContent = puzzle.title || `${W}×${H}`;
  const statusEl = document.getElementById("status");
  const timerEl = document.getElementById("timer");
  const movesEl = document.getElementById("moves");
  const filledEl = document.getElementById("filled");
  let started = null, timerId = null, solved = false, events = 0, seq = 0;
  // changes: cell state changes applied (a drag's cells one by one), to set against events.
  let changes = 0;
  // The solved sign: shown at least once (latched), and a dialog or alert up right now.
  let signShown = false, signOpen = false;
  // When (ms since the page loaded) the game last became solved, and its sign last showed.
  let solvedMs = null, signMs = null;
  let playing = false; // false while the page draws the board it opened with
  let dialog = null; // the sign=dialog layer while it is up
  // Presses (any button, anywhere on the page) and key presses the page received after its
  // sign first showed: the game had answered, so any of them is input it should not get.
  let eventsAfterSign = 0;
  // The first few of them, for a person reading a failed test: what (a button's press or
  // a key), where (a cell, or the element it hit) and how long after the sign (ms).
  const afterSign = [];
  // The sign's elements while they are up (restyle, freeze, notice): { name: element }.
  const signParts = {};
  let frozen = null; // sign=freeze: the <img> that took the canvas's place
  const shownGrid = grid.map((row) => row.slice()); // the grid as last counted

  function tick() {
    const s = Math.floor((Date.now() - started) / 1000);
    timerEl.textContent = String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
  }
  function startTimer() {
    if (started !== null) return; // the clock starts with the first move, as on most sites
    started = Date.now();
    timerId = setInterval(tick, 1000);
  }

  // --- reporting ----------------------------------------------------------------------
  function post(kind, body) {
    body.session = cfg.session;
    body.load = load;
    const text = JSON.stringify(body);
    // keepalive lets a report outlive the page (a screenshot tool navigating away), but
    // the browser caps all keepalive bodies in flight at 64 KB, and a fast drag sends many.
    return fetch("/api/" + kind, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: text,
      keepalive: kind === "layout" && text.length < 32768,
    }).catch(() => {});
  }
  function reportState() {
    const locked = [];
    grid.forEach((row, r) => row.forEach((v, c) => { if (v === LOCKED) locked.push([r, c]); }));
    return post("state", {
      seq: ++seq,
      grid: grid.map((row) => row.map((v) => (v === LOCKED ? FILLED : v))),
      locked,
      solved,
      events,
      changes,
      sign_shown: signShown,
      sign_open: signOpen,
      solved_ms: solvedMs,
      sign_ms: signMs,
      events_after_sign: eventsAfterSign,
      after_sign: afterSign,
      finished,
      board_element: surface().tagName.toLowerCase(),
      dialog: dialogPlaces(),
      sign_parts: signPlaces(),
      width: W,
      height: H,
    });
  }
  // What shows the board: the canvas, or the image that took its place (sign=freeze).
  const surface = () => frozen || canvas;
  function layout() {
    const r = surface().getBoundingClientRect();
    const ox = r.left, oy = r.top;
    const rect = (p) => ({ x: p.x + ox, y: p.y + oy, w: p.w, h: p.h });
    const number = (p) => ({ value: p.value, ...rect(p), slot: rect(p.slot) });
    return {
      session: cfg.session,
      skin: cfg.skinName,
      theme: cfg.theme,
      width: W,
      height: H,
      pitch,
      thick,
      board: { x: ox + bx, y: oy + by, w: W * pitch + 1, h: H * pitch + 1 },
      xs: Array.from({ length: W + 1 }, (_, i) => ox + xLine(i)),
      ys: Array.from({ length: H + 1 }, (_, j) => oy + yLine(j)),
      canvas: { x: ox, y: oy, w: cssW, h: cssH },
      rowClueArea: rowsRight ? { x: ox + boardRight, y: oy + by, w: cssW - boardRight, h: H * pitch + 1 }
        : { x: ox, y: oy + by, w: bx, h: H * pitch + 1 },
      columnClueArea: colsBottom ? { x: ox + bx, y: oy + boardBottom, w: W * pitch + 1, h: cssH - boardBottom }
        : { x: ox + bx, y: oy, w: W * pitch + 1, h: by },
      layoutOptions: L,
      panel: panel ? { x: ox + panel.x, y: oy + panel.y, w: panel.w + 1, h: panel.h + 1 } : null,
      clueFace: faceStatus,
      clues: {
        rows: cluePlaces.rows.map((ps) => ps.map(number)),
        columns: cluePlaces.columns.map((ps) => ps.map(number)),
      },
      devicePixelRatio: dpr,
      viewport: { w: window.innerWidth, h: window.innerHeight },
      screen: { x: window.screenX, y: window.screenY },
      outer: { w: window.outerWidth, h: window.outerHeight },
    };
  }
  function reportLayout() {
    window.nonogramLayout = layout();
    return post("layout", window.nonogramLayout);
  }

  // --- input --------------------------------------------------------------------------
  function cellAt(ev, clamp) {
    const r = surface().getBoundingClientRect();
    const x = ev.clientX - r.left - bx, y = ev.clientY - r.top - by;
    let c = Math.floor(x / pitch), row = Math.floor(y / pitch);
    if (clamp) {
      c = Math.min(W - 1, Math.max(0, c));
      row = Math.min(H - 1, Math.max(0, row));
    } else if (c < 0 || c >= W || row < 0 || row >= H) {
      return null;
    }
    return { r: row, c };
  }
  const sameCell = (a, b) => a !== null && b !== null && a.r === b.r && a.c === b.c;

  // What a press of `button` (0 left, 1 middle, 2 right) does to a cell in state v, by the
  // buttons rule: { target, applies } (the state it and the drag's cells get, and which
  // cells a drag may change), or null for a press the game does not take.
  const anyCell = () => true;
  const unlocked = (v) => v !== LOCKED;
  const cycleOrder = marks ? [UNKNOWN, FILLED, EMPTY] : [UNKNOWN, FILLED];
  function cycled(v, step) {
    const i = cycleOrder.indexOf(v);
    return cycleOrder[(i + step + cycleOrder.length) % cycleOrder.length];
  }
  function pressAction(button, v) {
    const mark = (target) => (marks ? { target, applies: anyCell } : null);
    switch (R.buttons) {
      case "set": // set, never toggle; the middle button clears
        if (button === 0) return { target: FILLED, applies: anyCell };
        if (button === 1) return { target: UNKNOWN, applies: anyCell };
        return mark(EMPTY);
      case "cycle": // left only: blank → filled → marked → blank; right is the browser's
        return button === 0 ? { target: cycled(v, 1), applies: anyCell } : null;
      case "cycle2": // left one way round, right the other
        if (button === 0) return { target: cycled(v, 1), applies: anyCell };
        return button === 2 ? { target: cycled(v, -1), applies: anyCell } : null;
      case "lock": // toggle, but right locks a filled cell (and unlocks a locked one)
        if (button === 0) {
          if (v === LOCKED) return { target: null, applies: anyCell }; // taken, ignored
          return { target: v === FILLED ? UNKNOWN : FILLED, applies: unlocked };
        }
        if (button !== 2) return null;
        if (v === FILLED) return { target: LOCKED, applies: (w) => w === FILLED };
        if (v === LOCKED) return { target: FILLED, applies: (w) => w === LOCKED };
        return { target: v === EMPTY ? UNKNOWN : EMPTY, applies: unlocked };
      default: // toggle: a button sets its state, or clears a cell already in it
        if (button === 0) return { target: v === FILLED ? UNKNOWN : FILLED, applies: anyCell };
        return button === 2 ? mark(v === EMPTY ? UNKNOWN : EMPTY) : null;
    }
  }

  // {r0, c0, target, applies, before, last}: the press being held, if any.
  let drag = null;

  function setCell(r, c, from) {
    if (drag.target !== null && drag.applies(from)) grid[r][c] = drag.target;
  }

  function changed() {
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        if (grid[r][c] !== shownGrid[r][c]) { changes++; shownGrid[r][c] = grid[r][c]; }
      }
    }
    const was = solved;
    solved = isSolved();
    if (solved && timerId !== null) { clearInterval(timerId); timerId = null; }
    statusEl.textContent = solved ? "Solved!" : "Good luck!";
    statusEl.classList.toggle("solved", solved);
    movesEl.textContent = String(events);
    filledEl.textContent = String(grid.flat().filter(isFill).length);
    // The status text and a dimmed board show at once; a dialog or alert comes later.
    if (solved && !was) solvedMs = Math.round(performance.now());
    if (solved && !was && (R.sign === "none" || R.sign === "dim")) signShown = signAt(solvedMs);
    if (!solved && was) hideNotice();
    draw();
    const sent = reportState();
    // A dialog or alert answers play: a page opened on a solved board (grid=) raises none,
    // so a headless shot of it cannot hang on an alert.
    if (solved && !was && playing) showSign(sent);
  }

  // drag=line: the first cell's new state along the row or column (whichever the pointer
  // moved along more), every other cell back as it was before the press.
  function paintRun(to) {
    const before = drag.before;
    for (let r = 0; r < H; r++) grid[r] = before[r].slice();
    const dr = to.r - drag.r0, dc = to.c - drag.c0;
    const along = Math.abs(dc) >= Math.abs(dr);
    const n = along ? Math.abs(dc) : Math.abs(dr);
    const step = along ? Math.sign(dc) : Math.sign(dr);
    for (let i = 0; i <= n; i++) {
      const r = along ? drag.r0 : drag.r0 + i * step, c = along ? drag.c0 + i * step : drag.c0;
      setCell(r, c, before[r][c]);
    }
  }

  // Counted before the board's own handlers see the press (capture, on the window).
  function inputAfterSign(ev) {
    if (!signShown) return;
    eventsAfterSign++;
    if (afterSign.length < 20) {
      const cell = ev.type === "mousedown" ? cellAt(ev, false) : null;
      afterSign.push({
        input: ev.type === "keydown" ? `key ${ev.key}` : `button ${ev.button}`,
        at: cell ? [cell.r, cell.c] : ev.type === "mousedown" ? ev.target.tagName.toLowerCase() : null,
        ms: Math.round(performance.now()) - signMs,
      });
    }
    reportState();
  }
  window.addEventListener("mousedown", inputAfterSign, true);
  window.addEventListener("keydown", inputAfterSign, true);

  canvas.addEventListener("mousedown", (ev) => {
    const cell = cellAt(ev, false);
    if (!cell || dialog || finished) return;
    if (drag && (ev.buttons & (ev.buttons - 1))) return; // a second button during a drag
    const action = pressAction(ev.button, grid[cell.r][cell.c]);
    if (!action) return; // not a button this game uses: the browser's (a context menu)
    ev.preventDefault();
    events++;
    startTimer();
    drag = { r0: cell.r, c0: cell.c, ...action, before: grid.map((row) => row.slice()), last: cell };
    setCell(cell.r, cell.c, grid[cell.r][cell.c]);
    changed();
  });
  window.addEventListener("mousemove", (ev) => {
    if (finished) return;
    // An open dialog's layer lies over the board: the board sees no pointer.
    const over = dialog ? null : cellAt(ev, false);
    const moved = (over && (!hover || hover.r !== over.r || hover.c !== over.c)) || (!over && hover);
    hover = over;
    if (drag && ev.buttons === 0) drag = null; // released outside the window
    if (drag && R.drag === "line") {
      const to = cellAt(ev, true);
      if (!sameCell(to, drag.last)) {
        drag.last = to;
        paintRun(to);
        changed();
        return;
      }
    } else if (drag && R.drag === "enter") {
      // Only cells this event lands in: a jump over cells skips them, as games that
      // judge each mousemove on its own do.
      if (over && !sameCell(over, drag.last)) {
        drag.last = over;
        setCell(over.r, over.c, grid[over.r][over.c]);
        changed();
        return;
      }
      drag.last = over;
    }
    if (moved) draw();
  });
  window.addEventListener("mouseup", (ev) => {
    if (finished) return;
    // drag=ends: the cell under the release gets the press's state too.
    const to = drag && R.drag === "ends" ? cellAt(ev, false) : null;
    if (to && !(to.r === drag.r0 && to.c === drag.c0)) {
      setCell(to.r, to.c, grid[to.r][to.c]);
      drag = null;
      changed();
    }
    drag = null;
  });
  canvas.addEventListener("mouseleave", () => {
    if (!drag && hover && !finished) { hover = null; draw(); }
  });
  // buttons=cycle leaves the right button to the browser: its context menu opens.
  canvas.addEventListener("contextmenu", (ev) => { if (R.buttons !== "cycle") ev.preventDefault(); });

  // --- the solved sign (sign=) -----------------------------------------------------------
  function showSign(sent) {
    if (R.sign === "restyle") {
      restyle();
    } else if (R.sign === "freeze") {
      setTimeout(freeze, 250);
    } else if (R.sign === "notice") {
      setTimeout(showNotice, 200 + Math.random() * 400);
    } else if (R.sign === "dialog") {
      setTimeout(openDialog, 300 + Math.random() * 400);
    } else if (R.sign === "alert") {
      // The server has the solved report before the alert blocks this page, and hears
      // that the alert is up before it is.
      sent.then(() => setTimeout(() => {
        if (!solved) return;
        signShown = signOpen = signAt();
        reportState().then(() => {
          window.alert("Puzzle solved!");
          signOpen = false;
          reportState();
        });
      }, 200));
    }
  }

  // Notes the moment the sign shows (`ms`: one already taken for it); true, for the flags
  // it sets.
  function signAt(ms) {
    signMs = ms ?? Math.round(performance.now());
    return true;
  }

  function elapsed() {
    const s = started === null ? 0 : Math.floor((Date.now() - started) / 1000);
    return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
  }

  // An in-page modal: a dark layer over the whole page (it takes every press meant for the
  // board) and a dialog box that its title bar drags about and OK closes.
  function openDialog() {
    if (!solved || dialog) return;
    const layer = document.createElement("div");
    layer.className = "modal-layer";
    const box = document.createElement("div");
    box.className = "modal";
    const title = document.createElement("div");
    title.className = "modal-title";
    title.textContent = "Congratulations";
    const text = document.createElement("p");
    text.textContent = `Puzzle solved in ${elapsed()}`;
    const ok = document.createElement("button");
    ok.type = "button";
    ok.textContent = "OK";
    box.append(title, text, ok);
    layer.append(box);
    document.body.append(layer);
    box.style.left = Math.round((window.innerWidth - box.offsetWidth) / 2) + "px";
    box.style.top = Math.round((window.innerHeight - box.offsetHeight) / 2) + "px";
    for (const kind of ["mousedown", "contextmenu"]) {
      layer.addEventListener(kind, (ev) => ev.preventDefault());
    }
    title.addEventListener("mousedown", (ev) => {
      if (ev.button !== 0) return;
      const dx = ev.clientX - box.offsetLeft, dy = ev.clientY - box.offsetTop;
      const move = (e) => {
        box.style.left = (e.clientX - dx) + "px";
        box.style.top = (e.clientY - dy) + "px";
      };
      const up = () => {
        window.removeEventListener("mousemove", move);
        window.removeEventListener("mouseup", up);
        reportState();
      };
      window.addEventListener("mousemove", move);
      window.addEventListener("mouseup", up);
    });
    ok.addEventListener("click", () => {
      layer.remove();
      dialog = null;
      signOpen = false;
      reportState();
    });
    dialog = { layer, box, title, ok };
    drag = null;
    hover = null;
    draw();
    signShown = signOpen = signAt();
    reportState();
  }

  // --- restyle, freeze, notice: signs that change the page rather than open a box over it.
  const SVG = "http://www.w3.org/2000/svg";
  // A green check mark, `size` px square, as an SVG element.
  function checkMark(size) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", size);
    svg.setAttribute("height", size);
    svg.setAttribute("viewBox", "0 0 100 100");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", "M14 54 L40 80 L88 22");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "#22a33a");
    path.setAttribute("stroke-width", "16");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    svg.append(path);
    return svg;
  }
  const checkSize = () => Math.max(64, Math.min(120, 3 * pitch));
  // The board's rectangle (grid lines included) in viewport pixels.
  function boardRect() {
    const r = surface().getBoundingClientRect();
    return { x: r.left + bx, y: r.top + by, w: W * pitch + 1, h: H * pitch + 1 };
  }

  // sign=restyle, at once with the last cell: the board redrawn as the finished picture
  // (drawRestyledBoard) and a big check mark beside the board, right of its frame where the
  // window has room, else left of it; the board takes no more input.
  function restyle() {
    finished = restyled = true;
    drag = null;
    hover = null;
    draw();
    const size = checkSize();
    const frame = canvas.parentElement.getBoundingClientRect();
    const board = boardRect();
    const mark = document.createElement("div");
    mark.className = "sign-check beside";
    mark.append(checkMark(size));
    const x = frame.right + 16 + size <= window.innerWidth ? frame.right + 16 : frame.left - 16 - size;
    const y = Math.max(0, Math.min(window.innerHeight - size, board.y + board.h / 2 - size / 2));
    mark.style.left = Math.round(x) + "px";
    mark.style.top = Math.round(y) + "px";
    document.body.append(mark);
    signParts.check = mark;
    signShown = signAt();
    reportState();
  }

  // sign=freeze, 250 ms after the last cell: the board as drawn becomes an <img> in the
  // canvas's place (what the browser does to an image then, a context menu on the right
  // button, is the browser's), a frame pulsing round it for good, and a check mark over the
  // board that fades out over 1.5 s. The board takes no more input.
  function freeze() {
    if (!solved || finished) return;
    finished = true;
    drag = null;
    hover = null;
    draw();
    const img = new Image(cssW, cssH);
    img.className = "frozen";
    img.alt = "Solved puzzle";
    img.draggable = false;
    img.src = canvas.toDataURL("image/png");
    img.decode().catch(() => {}).then(() => {
      canvas.replaceWith(img);
      frozen = img;
      const frame = img.parentElement;
      const size = checkSize();
      const board = boardRect(), box = frame.getBoundingClientRect();
      const mark = document.createElement("div");
      mark.className = "sign-check over fading";
      mark.append(checkMark(size));
      mark.style.left = Math.round(board.x + board.w / 2 - size / 2 - box.left - frame.clientLeft) + "px";
      mark.style.top = Math.round(board.y + board.h / 2 - size / 2 - box.top - frame.clientTop) + "px";
      frame.append(mark);
      signParts.image = img;
      signParts.check = mark;
      mark.addEventListener("animationend", () => {
        mark.remove();
        delete signParts.check;
        reportState();
      });
      signShown = signAt();
      reportState();
    });
  }

  // sign=notice, 200-600 ms after the last cell: a small "Complete!" box over the middle
  // of the board (the cells under it hidden) and a grey veil over the rest of the page
  // (a backdrop filter: everything behind it, the board included, grey and darker; the
  // box stays in colour). Presses pass the veil: the board still takes them, and a board
  // made unsolved loses the notice.
  function showNotice() {
    if (!solved || signParts.notice) return;
    const veil = document.createElement("div");
    veil.className = "grey-veil";
    const box = document.createElement("div");
    box.className = "notice";
    box.textContent = "Complete!";
    const board = boardRect();
    if (board.w < 160) box.classList.add("small");
    document.body.append(veil, box);
    box.style.left = Math.round(board.x + board.w / 2 - box.offsetWidth / 2) + "px";
    box.style.top = Math.round(board.y + board.h / 2 - box.offsetHeight / 2) + "px";
    signParts.veil = veil;
    signParts.notice = box;
    signShown = signAt();
    reportState();
  }

  function hideNotice() {
    for (const name of ["veil", "notice"]) {
      if (signParts[name]) signParts[name].remove();
      delete signParts[name];
    }
  }

  // Where the sign's elements are (viewport pixels, like the layout report), null if none.
  function signPlaces() {
    const names = Object.keys(signParts);
    if (!names.length) return null;
    const out = {};
    for (const name of names) {
      const b = signParts[name].getBoundingClientRect();
      out[name] = { x: Math.round(b.left), y: Math.round(b.top), w: Math.round(b.width), h: Math.round(b.height) };
    }
    return out;
  }

  // Where the dialog's parts are, in page pixels like the layout report (test ground truth).
  function dialogPlaces() {
    if (!dialog) return null;
    const rect = (el) => {
      const b = el.getBoundingClientRect();
      return { x: Math.round(b.left), y: Math.round(b.top), w: Math.round(b.width), h: Math.round(b.height) };
    };
    return { box: rect(dialog.box), title: rect(dialog.title), ok: rect(dialog.ok) };
  }

  document.getElementById("restart").addEventListener("click", () => {
    if (finished) return; // the game is over
    for (const row of grid) row.fill(UNKNOWN);
    changed();
  });
  document.getElementById("help-toggle").addEventListener("click", () => {
    document.body.classList.toggle("help-hidden");
  });
  window.addEventListener("resize", reportLayout);
  window.addEventListener("scroll", reportLayout);

  changed();
  playing = true;
  reportLayout().then(() => { window.nonogramReady = true; });
}
