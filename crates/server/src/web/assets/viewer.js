// Zebra's viewer: draws the view stream (crates/engine/src/view/, protocol/schemas/view.json).
// It never runs the rules: every position comes from the stream. Text that came from a
// record or a bot is only ever written with textContent.
"use strict";
(function () {
  const VERSION = 1;
  const SQ = 60; // one square in SVG units
  const NS = "http://www.w3.org/2000/svg";
  const GLYPH = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };
  const ROLES = ["P", "N", "B", "R", "Q", "K"];
  const FILES = "abcdefgh";

  const started = performance.now();
  // Inlined games (a written page); null: the server lists them at api/games and sends
  // each game's stream at api/games/N when it is opened; "live": games being played, from
  // the feeds at api/live (the run's events) and api/live/games/N (a game's steps as they
  // come). One drawing path for all three: a game is its view stream, whole or growing.
  let games = JSON.parse(document.getElementById("zebra-games").textContent);
  const live = games === "live";
  const remote = games === null;
  if (live) games = [];
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // Square name -> top-left corner, White's end zone (rank 1) at the bottom.
  const fileOf = (s) => FILES.indexOf(s[0]);
  const rankOf = (s) => Number(s[1]);
  const cx = (s) => fileOf(s) * SQ + SQ / 2;
  const cy = (s) => (8 - rankOf(s)) * SQ + SQ / 2;

  let g = 0; // game index
  let at = 0; // frame index: 0 = before the first entry, k = after entry k
  let plays = []; // [{header, first, last}] entry ranges of each play
  let timer = null;
  // The play-by-play list's elements, and the ones highlighted now.
  let listItems = [];
  let stepSpans = [];
  let marked = { li: null, span: null };
  let scrollPending = false;

  function problem(text) {
    const p = $("problem");
    p.hidden = !text;
    p.textContent = text || "";
  }

  function game() { return games[g]; }
  function frames() { return game().steps.length + 1; }
  function frame(k) { return k === 0 ? game().start : game().steps[k - 1].frame; }

  function buildPlays() {
    plays = [];
    const steps = game().steps;
    steps.forEach((s, i) => {
      if (s.header !== null || plays.length === 0) {
        plays.push({ header: s.header || game().start.situation, first: i + 1, last: i + 1 });
      } else {
        plays[plays.length - 1].last = i + 1;
      }
    });
  }

  function playOf(k) {
    for (let i = plays.length - 1; i >= 0; i--) if (k >= plays[i].first) return i;
    return -1;
  }

  // ---- the field ----
  // The turf, end zones, yard lines and labels never change: drawn once into the field,
  // with one layer above them that every step redraws.
  function staticField(root) {
    while (root.firstChild) root.removeChild(root.firstChild);
    root.setAttribute("data-board", "field");
    const field = svg("g", { id: "turf" });
    root.appendChild(field);
    const defs = svg("defs");
    for (const [id, color] of [["arrow", "#ffd400"], ["arrow-throw", "#ffffff"], ["arrow-push", "#ff8a3d"], ["arrow-shift", "#9ad0ff"]]) {
      const m = svg("marker", { id, viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" });
      m.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
      defs.appendChild(m);
    }
    field.appendChild(defs);
    // Turf, end zones, out-of-bounds files, yard lines.
    for (let r = 1; r <= 8; r++) {
      const y = (8 - r) * SQ;
      let fill = r % 2 ? "var(--turf)" : "var(--turf2)";
      if (r === 1) fill = "var(--endzone-w)";
      if (r === 8) fill = "var(--endzone-b)";
      field.appendChild(svg("rect", { x: 0, y, width: 8 * SQ, height: SQ, fill }));
    }
    for (const x of [0, 7 * SQ]) field.appendChild(svg("rect", { x, y: 0, width: SQ, height: 8 * SQ, fill: "var(--oob)" }));
    for (let r = 1; r < 8; r++) {
      const y = (8 - r) * SQ;
      field.appendChild(svg("line", { x1: 0, x2: 8 * SQ, y1: y, y2: y, stroke: "var(--line)", "stroke-width": r === 1 || r === 7 ? 3 : 1.2 }));
    }
    for (const x of [SQ, 7 * SQ]) field.appendChild(svg("line", { x1: x, x2: x, y1: 0, y2: 8 * SQ, stroke: "var(--line)", "stroke-width": 1, "stroke-dasharray": "4 6" }));
    field.appendChild(svg("text", { x: 4 * SQ, y: 8 * SQ - 14, "text-anchor": "middle", fill: "rgba(255,255,255,.35)", "font-size": 22, "font-weight": 800, "letter-spacing": 8 }, "WHITE"));
    field.appendChild(svg("text", { x: 4 * SQ, y: 30, "text-anchor": "middle", fill: "rgba(255,255,255,.35)", "font-size": 22, "font-weight": 800, "letter-spacing": 8 }, "BLACK"));
    for (let i = 0; i < 8; i++) {
      field.appendChild(svg("text", { class: "sq-label", x: i * SQ + SQ / 2, y: 8 * SQ + 13, "text-anchor": "middle" }, FILES[i]));
      field.appendChild(svg("text", { class: "sq-label", x: -12, y: (7 - i) * SQ + SQ / 2 + 4, "text-anchor": "middle" }, String(i + 1)));
    }
    const layer = svg("g", { id: "layer" });
    root.appendChild(layer);
    // Above the position: the human seat's marks (targets, a formation draft), and one
    // transparent square per square to click or drop on.
    root.appendChild(svg("g", { id: "marks" }));
    const hits = svg("g", { id: "hits" });
    for (let r = 1; r <= 8; r++) {
      for (let i = 0; i < 8; i++) {
        const name = FILES[i] + r;
        hits.appendChild(svg("rect", { x: i * SQ, y: (8 - r) * SQ, width: SQ, height: SQ, fill: "transparent", "data-sq": name }));
      }
    }
    root.appendChild(hits);
    return layer;
  }

  function drawField(f, step) {
    const root = $("field");
    let field = root.getAttribute("data-board") === "field" ? document.getElementById("layer") : staticField(root);
    const fresh = svg("g", { id: "layer" });
    root.replaceChild(fresh, field);
    field = fresh;
    // Line of scrimmage and line to gain, drawn on the edges the offense faces.
    const up = f.offense === "white";
    const spotRank = rankOf(f.spot);
    const losY = up ? (8 - spotRank) * SQ : (9 - spotRank) * SQ;
    const gainY = up ? (9 - f.to_gain) * SQ : (8 - f.to_gain) * SQ;
    field.appendChild(svg("line", { x1: 0, x2: 8 * SQ, y1: gainY, y2: gainY, stroke: "var(--gain)", "stroke-width": 4, opacity: 0.9 }));
    field.appendChild(svg("line", { x1: 0, x2: 8 * SQ, y1: losY, y2: losY, stroke: "var(--los)", "stroke-width": 4, opacity: 0.95 }));
    // Squares with their pieces (one group per square: the tests read data-pieces).
    const ball = f.ball;
    root.setAttribute("data-ball-state", ball.state);
    root.setAttribute("data-ball-square", ball.square || ball.to);
    for (const [name, stack] of f.pieces) {
      const grp = svg("g", { "data-square": name, "data-pieces": stack });
      const top = stack[stack.length - 1];
      const white = top === top.toUpperCase();
      grp.appendChild(svg("text", { class: "piece " + (white ? "w" : "b"), x: cx(name), y: cy(name) + 2 }, GLYPH[top.toUpperCase()]));
      if (stack.length > 1) {
        grp.appendChild(svg("circle", { cx: cx(name) - 20, cy: cy(name) - 20, r: 9, fill: "#c62828", stroke: "#fff" }));
        grp.appendChild(svg("text", { class: "stack", x: cx(name) - 20, y: cy(name) - 16, "text-anchor": "middle" }, String(stack.length)));
        grp.appendChild(svg("title", {}, "pile, bottom first: " + stack));
      }
      field.appendChild(grp);
    }
    // The last action.
    if (step && step.from && step.to) {
      const kind = step.arrow;
      const id = kind === "throw" ? "arrow-throw" : kind === "shift" ? "arrow-shift" : "arrow";
      const color = kind === "throw" ? "#ffffff" : kind === "shift" ? "#9ad0ff" : "#ffd400";
      const pts = [step.from].concat(step.corner ? [step.corner] : []).concat([step.to]);
      const d = pts.map((s, i) => (i ? "L" : "M") + cx(s) + "," + cy(s)).join(" ");
      field.appendChild(svg("path", { d, fill: "none", stroke: color, "stroke-width": kind === "shift" ? 3 : 5, opacity: 0.85,
        "stroke-dasharray": kind === "throw" ? "10 7" : "none", "marker-end": "url(#" + id + ")", "stroke-linejoin": "round" }));
    }
    for (const [from, to] of (step && step.pushes) || []) {
      field.appendChild(svg("line", { x1: cx(from), y1: cy(from), x2: cx(to), y2: cy(to), stroke: "#ff8a3d", "stroke-width": 4, "marker-end": "url(#arrow-push)" }));
    }
    // The ball.
    const drawBall = (x, y, ghost) => {
      const b = svg("g", { opacity: ghost ? 0.55 : 1 });
      b.appendChild(svg("ellipse", { cx: x, cy: y, rx: 10, ry: 6.5, fill: "#8b4a1c", stroke: "#3b1d08", "stroke-width": 1.5, transform: "rotate(-30 " + x + " " + y + ")" }));
      b.appendChild(svg("line", { x1: x - 4, y1: y + 2, x2: x + 4, y2: y - 2, stroke: "#fff", "stroke-width": 1.4 }));
      field.appendChild(b);
    };
    if (ball.state === "in_flight") {
      field.appendChild(svg("line", { x1: cx(ball.from), y1: cy(ball.from), x2: cx(ball.to), y2: cy(ball.to), stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "3 5", opacity: 0.8 }));
      field.appendChild(svg("circle", { cx: cx(ball.to), cy: cy(ball.to), r: 24, fill: "none", stroke: "#fff", "stroke-dasharray": "4 4" }));
      drawBall((cx(ball.from) + cx(ball.to)) / 2, (cy(ball.from) + cy(ball.to)) / 2, true);
    } else if (ball.state === "carried") {
      drawBall(cx(ball.square) + 18, cy(ball.square) + 18, false);
    } else if (ball.state === "contested") {
      field.appendChild(svg("circle", { cx: cx(ball.square), cy: cy(ball.square), r: 27, fill: "none", stroke: "#ff5252", "stroke-width": 3 }));
      drawBall(cx(ball.square) + 18, cy(ball.square) + 18, false);
    } else {
      drawBall(cx(ball.square) + (ball.state === "spotted" ? 0 : 0), cy(ball.square) + (ball.state === "spotted" ? 22 : 0), false);
    }
  }

  // ---- Boyer's Football: a 9x9 board, goal squares e1 (White's end) and e9 ----
  const B = 54; // one square of the 9x9 board in SVG units (the field's viewBox holds it)
  const BFILES = "abcdefghi";
  const bx = (s) => BFILES.indexOf(s[0]) * B + B / 2;
  const by = (s) => (9 - Number(s[1])) * B + B / 2;

  // The static layers of a square board (Boyer's 9x9, Chess Eleven's 8x8): squares with
  // their goal squares coloured, the frame, labels, GOAL marks, the markers of its arrows,
  // and above the pieces' layer the seat's marks and one transparent square per square to
  // click. `spec`: { kind, n, unit, files, goal(i, r) -> "var(--...)" or null, arrows:
  // [[id, colour]], extra(board) for lines of its own }.
  function staticGrid(root, spec) {
    const { kind, n, unit: U, files } = spec;
    while (root.firstChild) root.removeChild(root.firstChild);
    root.setAttribute("data-board", kind);
    const board = svg("g", { id: "turf" });
    root.appendChild(board);
    const defs = svg("defs");
    for (const [id, color] of spec.arrows) {
      const m = svg("marker", { id, viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" });
      m.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
      defs.appendChild(m);
    }
    board.appendChild(defs);
    for (let r = 1; r <= n; r++) {
      for (let i = 0; i < n; i++) {
        const goal = spec.goal(i, r);
        const sq = svg("rect", { x: i * U, y: (n - r) * U, width: U, height: U, fill: goal || ((i + r) % 2 ? "var(--turf)" : "var(--turf2)") });
        if (goal) sq.setAttribute("data-goal", files[i] + r);
        board.appendChild(sq);
      }
    }
    board.appendChild(svg("rect", { x: 0, y: 0, width: n * U, height: n * U, fill: "none", stroke: "var(--line)", "stroke-width": 2 }));
    if (spec.extra) spec.extra(board);
    for (const [r, text] of [[n, "GOAL"], [1, "GOAL"]]) {
      board.appendChild(svg("text", { x: (n / 2) * U, y: (n - r) * U + (r === n ? 12 : U - 4), "text-anchor": "middle", fill: "rgba(255,255,255,.6)", "font-size": 10, "font-weight": 800 }, text));
    }
    for (let i = 0; i < n; i++) {
      board.appendChild(svg("text", { class: "sq-label", x: i * U + U / 2, y: n * U + 13, "text-anchor": "middle" }, files[i]));
      board.appendChild(svg("text", { class: "sq-label", x: -12, y: (n - 1 - i) * U + U / 2 + 4, "text-anchor": "middle" }, String(i + 1)));
    }
    const layer = svg("g", { id: "layer" });
    root.appendChild(layer);
    root.appendChild(svg("g", { id: "marks" }));
    const hits = svg("g", { id: "hits" });
    for (let r = 1; r <= n; r++) {
      for (let i = 0; i < n; i++) {
        hits.appendChild(svg("rect", { x: i * U, y: (n - r) * U, width: U, height: U, fill: "transparent", "data-sq": files[i] + r }));
      }
    }
    root.appendChild(hits);
    return layer;
  }

  // The goals: the ball on e9 scores for White, on e1 for Black.
  const staticBoard = (root) => staticGrid(root, {
    kind: "boyer", n: 9, unit: B, files: BFILES,
    arrows: [["arrow", "#ffd400"], ["arrow-kick", "#ffffff"]],
    goal: (i, r) => (i === 4 && r === 9 ? "var(--endzone-b)" : i === 4 && r === 1 ? "var(--endzone-w)" : null),
  });

  function drawBoard(f, step) {
    const root = $("field");
    const old = root.getAttribute("data-board") === "boyer" ? document.getElementById("layer") : staticBoard(root);
    const layer = svg("g", { id: "layer" });
    root.replaceChild(layer, old);
    root.setAttribute("data-ball-state", "on-board");
    root.setAttribute("data-ball-square", f.ball);
    for (const [name, letter] of f.pieces) {
      const grp = svg("g", { "data-square": name, "data-pieces": letter });
      const white = letter === letter.toUpperCase();
      grp.appendChild(svg("text", { class: "piece " + (white ? "w" : "b"), x: bx(name), y: by(name) + 2, "font-size": 40 }, GLYPH[letter.toUpperCase()]));
      // A piece that kicked in this turn cannot kick again: ringed.
      if (f.kicked.includes(name)) {
        grp.setAttribute("data-kicked", "yes");
        grp.appendChild(svg("circle", { cx: bx(name), cy: by(name), r: B / 2 - 3, fill: "none", stroke: "#ff8a3d", "stroke-width": 2.5, "stroke-dasharray": "5 4" }));
      }
      layer.appendChild(grp);
    }
    if (step && step.from && step.to) {
      const kick = step.arrow === "kick";
      layer.appendChild(svg("line", { x1: bx(step.from), y1: by(step.from), x2: bx(step.to), y2: by(step.to), stroke: kick ? "#ffffff" : "#ffd400",
        "stroke-width": kick ? 3 : 5, opacity: 0.85, "stroke-dasharray": kick ? "9 6" : "none", "marker-end": "url(#" + (kick ? "arrow-kick" : "arrow") + ")" }));
    }
    const x = bx(f.ball), y = by(f.ball);
    const ball = svg("g", { id: "ball" });
    ball.appendChild(svg("ellipse", { cx: x, cy: y, rx: 13, ry: 8.5, fill: "#8b4a1c", stroke: "#3b1d08", "stroke-width": 1.5, transform: "rotate(-30 " + x + " " + y + ")" }));
    ball.appendChild(svg("line", { x1: x - 5, y1: y + 3, x2: x + 5, y2: y - 3, stroke: "#fff", "stroke-width": 1.6 }));
    layer.appendChild(ball);
  }

  // ---- Chess Eleven: an 8x8 board, goals d1-e1 (White's) and d8-e8 (Black's), the
  // centre circle on d4-e5, the ball with its carrier, on the centre spot or at a flag ----
  const E = 60; // one square of the 8x8 board in SVG units
  const EFILES = "abcdefgh";
  const ex = (s) => EFILES.indexOf(s[0]) * E + E / 2;
  const ey = (s) => (8 - Number(s[1])) * E + E / 2;

  // Goals d1-e1 and d8-e8, the halfway line and the centre circle.
  const staticEleven = (root) => staticGrid(root, {
    kind: "eleven", n: 8, unit: E, files: EFILES,
    arrows: [["arrow", "#ffd400"], ["arrow-pass", "#ffffff"], ["arrow-shot", "#ff5252"]],
    goal: (i, r) => ((i === 3 || i === 4) && (r === 1 || r === 8) ? (r === 8 ? "var(--endzone-b)" : "var(--endzone-w)") : null),
    extra: (board) => {
      board.appendChild(svg("line", { x1: 0, y1: 4 * E, x2: 8 * E, y2: 4 * E, stroke: "var(--line)", "stroke-width": 1.5, opacity: 0.6 }));
      board.appendChild(svg("circle", { cx: 4 * E, cy: 4 * E, r: E * 0.9, fill: "none", stroke: "var(--line)", "stroke-width": 1.5, opacity: 0.6 }));
    },
  });

  function drawEleven(f, step) {
    const root = $("field");
    const old = root.getAttribute("data-board") === "eleven" ? document.getElementById("layer") : staticEleven(root);
    const layer = svg("g", { id: "layer" });
    root.replaceChild(layer, old);
    root.setAttribute("data-ball-state", f.ball_kind);
    root.setAttribute("data-ball-square", f.ball || "");
    for (const [name, letter] of f.pieces) {
      const grp = svg("g", { "data-square": name, "data-pieces": letter });
      const white = letter === letter.toUpperCase();
      grp.appendChild(svg("text", { class: "piece " + (white ? "w" : "b"), x: ex(name), y: ey(name) + 2, "font-size": 44 }, GLYPH[letter.toUpperCase()]));
      layer.appendChild(grp);
    }
    if (step && step.from && step.to) {
      const kind = step.arrow;
      const color = kind === "pass" ? "#ffffff" : kind === "shot" ? "#ff5252" : "#ffd400";
      layer.appendChild(svg("line", { x1: ex(step.from), y1: ey(step.from), x2: ex(step.to), y2: ey(step.to), stroke: color,
        "stroke-width": kind === "move" ? 5 : 3, opacity: 0.85, "stroke-dasharray": kind === "move" ? "none" : "9 6",
        "marker-end": "url(#" + (kind === "pass" ? "arrow-pass" : kind === "shot" ? "arrow-shot" : "arrow") + ")" }));
    }
    // The ball: at the carrier's feet, on the centre spot, or at a flag outside its corner.
    let x = null, y = null;
    if (f.ball_kind === "carried") { x = ex(f.ball) + 19; y = ey(f.ball) + 19; }
    else if (f.ball_kind === "spot") { x = 4 * E; y = 4 * E; }
    else if (f.ball_kind === "flag") {
      x = f.ball[0] === "a" ? 6 : 8 * E - 6;
      y = f.ball[1] === "8" ? 6 : 8 * E - 6;
    }
    if (x !== null) {
      const ball = svg("g", { id: "ball" });
      ball.appendChild(svg("circle", { cx: x, cy: y, r: 9, fill: "#fafafa", stroke: "#222", "stroke-width": 1.5 }));
      ball.appendChild(svg("circle", { cx: x, cy: y, r: 3.2, fill: "#222" }));
      layer.appendChild(ball);
    }
  }

  // The scoreboard of a Chess Eleven game: goals, the half and go, and the benches.
  function elevenScoreboard(gm, f) {
    $("white-score").textContent = f.score[0];
    $("black-score").textContent = f.score[1];
    $("white-tos").textContent = "";
    $("black-tos").textContent = "";
    const over = f.to_move === null;
    $("quarter").textContent = over ? "final" : "half " + f.half;
    $("down").textContent = over ? gm.result + " \u00B7 " + f.situation : f.situation;
    $("clock").textContent = "";
    // The sidelines show each side's bench piece.
    for (const [i, side] of [[0, "white"], [1, "black"]]) {
      const box = $("sideline-" + side);
      box.style.visibility = "";
      while (box.firstChild) box.removeChild(box.firstChild);
      const bench = f.bench[i];
      box.appendChild(el("div", { class: "glyph " + (i ? "b" : "w"), title: side + " bench" + (bench ? "" : ": not yet chosen") }, bench ? GLYPH[bench] : "\u00B7"));
      box.appendChild(el("div", { class: "count" }, "bench"));
    }
  }

  // The scoreboard of a Boyer game: goals, whose turn and how far into it.
  function boyerScoreboard(gm, f) {
    $("white-score").textContent = f.score[0];
    $("black-score").textContent = f.score[1];
    $("white-tos").textContent = "";
    $("black-tos").textContent = "";
    const over = f.to_move === null;
    $("quarter").textContent = over ? "final" : "turn " + (f.turns + 1) + " \u00B7 " + f.to_move + " to move";
    $("down").textContent = over ? gm.result + " \u00B7 " + f.situation
      : f.made === 0 ? "start of the turn" : f.made + " sub-move" + (f.made > 1 ? "s" : "") + " made" + (f.kicked.length ? ", kicked: " + f.kicked.join(" ") : "");
    $("clock").textContent = "";
    // No sidelines in this game.
    for (const side of ["white", "black"]) $("sideline-" + side).style.visibility = "hidden";
  }

  function drawSidelines(f) {
    for (const [i, side] of [[0, "white"], [1, "black"]]) {
      const box = $("sideline-" + side);
      while (box.firstChild) box.removeChild(box.firstChild);
      ROLES.forEach((r, j) => {
        const n = f.sidelines[i][j];
        const glyph = el("div", { class: "glyph " + (i ? "b" : "w"), title: side + " " + r + " on the sideline" }, GLYPH[r]);
        if (!n) glyph.style.opacity = "0.2";
        box.appendChild(glyph);
        box.appendChild(el("div", { class: "count" }, String(n)));
      });
    }
  }

  const ordinal = (n) => ["", "1st", "2nd", "3rd", "4th"][n] || n + "th";
  const clock = (ms) => {
    if (ms === null || ms === undefined) return "";
    const s = ms / 1000;
    const m = Math.floor(s / 60);
    return m + ":" + (s - 60 * m).toFixed(1).padStart(4, "0");
  };

  function render() {
    const gm = game();
    const f = frame(at);
    const step = at > 0 ? gm.steps[at - 1] : null;
    if (gm.rules === "boyer-football") {
      drawBoard(f, step);
      boyerScoreboard(gm, f);
    } else if (gm.rules === "chess-eleven") {
      drawEleven(f, step);
      elevenScoreboard(gm, f);
    } else {
      fieldScoreboard(gm, f, step);
    }
    renderCommon(gm, f, step);
  }

  function fieldScoreboard(gm, f, step) {
    for (const side of ["white", "black"]) $("sideline-" + side).style.visibility = "";
    drawField(f, step);
    drawSidelines(f);
    $("white-score").textContent = f.score[0];
    $("black-score").textContent = f.score[1];
    $("white-tos").textContent = "\u25CF".repeat(f.timeouts[0]) + "\u25CB".repeat(3 - f.timeouts[0]);
    $("black-tos").textContent = "\u25CF".repeat(f.timeouts[1]) + "\u25CB".repeat(3 - f.timeouts[1]);
    $("quarter").textContent = f.phase === "over" ? "final" : "quarter " + f.quarter + " \u00B7 " + f.offense + " ball";
    $("down").textContent = f.phase === "over" ? gm.result : ordinal(f.down) + " & " + (f.goal_to_go ? "goal" : f.yards_to_go) + " at " + f.spot;
    // The clocks: the game clock left after the last decision, and its think time.
    let last = null;
    for (let k = at; k > 0 && last === null; k--) if (gm.steps[k - 1].clk_ms !== null) last = gm.steps[k - 1].clk_ms;
    const parts = [];
    if (last !== null) parts.push("game clock " + clock(last) + (f.clock_running ? " \u25B6" : " \u25A0"));
    if (step && step.emt_ms !== null) parts.push("think " + step.emt_ms + " ms");
    if (f.to_move) parts.push(f.to_move + " to decide (" + f.phase + ")");
    $("clock").textContent = parts.join(" \u00B7 ");
  }

  // What every game shows alike: the caption (the entry in words and in notation), the
  // flags, the position in the game, and the play-by-play list's highlight.
  function renderCommon(gm, f, step) {
    // The caption.
    const cap = $("caption");
    while (cap.firstChild) cap.removeChild(cap.firstChild);
    if (step) {
      // The entry in plain English, then its notation.
      cap.appendChild(el("span", { class: "words" }, step.caption || ""));
      cap.appendChild(el("span", { class: "tok" }, step.token));
    } else {
      cap.appendChild(el("span", { class: "who" }, "before the first decision"));
    }
    const fl = $("flags");
    while (fl.firstChild) fl.removeChild(fl.firstChild);
    for (const x of f.flags || []) fl.appendChild(el("div", {}, "\u{1F6A9} " + x));
    $("position").textContent = at + " / " + (frames() - 1);
    $("permalink").setAttribute("href", permalink());
    // Highlight the current play and action in the list (only what changed: a long game
    // has hundreds of entries).
    const li = listItems[playOf(at)] || null;
    if (li !== marked.li) {
      if (marked.li) marked.li.classList.remove("current");
      if (li) {
        li.classList.add("current");
        // Scrolling forces a layout: once per painted frame, not inside every step.
        if (!scrollPending) {
          scrollPending = true;
          requestAnimationFrame(() => {
            scrollPending = false;
            const cur = marked.li;
            if (cur && cur.scrollIntoViewIfNeeded) cur.scrollIntoViewIfNeeded(false);
            else if (cur) cur.scrollIntoView({ block: "nearest" });
          });
        }
      }
      marked.li = li;
    }
    const span = stepSpans[at] || null;
    if (span !== marked.span) {
      if (marked.span) marked.span.classList.remove("cur");
      if (span) span.classList.add("cur");
      marked.span = span;
    }
    $("field").setAttribute("data-step", String(at));
  }

  function buildList() {
    const ol = $("plays");
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    listItems = [];
    stepSpans = [];
    marked = { li: null, span: null };
    plays.forEach((p) => {
      const li = addPlayItem(p);
      for (let k = p.first; k <= p.last; k++) addStepSpan(li, k);
    });
  }

  function addPlayItem(p) {
    const li = el("li", { "data-first": p.first });
    li.appendChild(el("div", { class: "hdr" }, p.header));
    li.appendChild(el("div", { class: "acts" }));
    listItems.push(li);
    li.addEventListener("click", (e) => {
      const hit = e.target && e.target.closest && e.target.closest("[data-step]");
      const k = hit && hit.getAttribute("data-step");
      go(k ? Number(k) : p.first);
    });
    $("plays").appendChild(li);
    return li;
  }

  function addStepSpan(li, k) {
    // Each entry as a line of plain English, its notation after it in small type.
    const s = game().steps[k - 1];
    const span = el("div", { "data-step": k, class: s.notable ? "act flag" : "act" }, s.caption || s.token);
    span.appendChild(el("code", {}, s.token));
    stepSpans[k] = span;
    li.lastChild.appendChild(span);
  }

  // Steps of a live game, appended to its stream, its plays and its list as they come.
  // At the live edge the field jumps to the newest position: a batch of many steps is shown
  // once, not animated action by action. A person who stepped back stays where they are.
  function appendSteps(newSteps) {
    const gm = game();
    const atEdge = at === frames() - 1;
    for (const s of newSteps) {
      gm.steps.push(s);
      const k = gm.steps.length;
      if (s.header !== null || plays.length === 0) {
        plays.push({ header: s.header || gm.start.situation, first: k, last: k });
        addPlayItem(plays[plays.length - 1]);
      } else {
        plays[plays.length - 1].last = k;
      }
      addStepSpan(listItems[listItems.length - 1], k);
    }
    if (atEdge) go(frames() - 1);
    else $("position").textContent = at + " / " + (frames() - 1);
  }

  function go(k) {
    at = Math.max(0, Math.min(frames() - 1, k));
    render();
  }
  function nextPlay() {
    const i = playOf(at);
    go(i + 1 < plays.length ? plays[i + 1].first : frames() - 1);
  }
  function prevPlay() {
    const i = playOf(at);
    if (i < 0) return go(0);
    go(at > plays[i].first ? plays[i].first : i > 0 ? plays[i - 1].first : 0);
  }
  function autoplay(on) {
    if (timer) clearInterval(timer);
    timer = null;
    $("play").textContent = on ? "pause" : "play";
    if (!on) return;
    timer = setInterval(() => {
      if (at >= frames() - 1) return autoplay(false);
      go(at + 1);
    }, Number($("speed").value));
  }

  function load(index, step) {
    g = Math.max(0, Math.min(games.length - 1, index));
    if (live) return openLive(g, step);
    if (!game().steps) {
      const wanted = g;
      problem("Loading game " + (wanted + 1) + "\u2026");
      // By its number where the list names one (a series' games: some may be missing
      // from the list, unfinished), else by its place.
      fetch("api/games/" + (games[wanted].number || (wanted + 1)))
        .then((r) => r.json().then((body) => {
          if (!r.ok) throw new Error(body.error || r.statusText);
          return body;
        }))
        .then((view) => { games[wanted] = view; load(wanted, step); })
        .catch((e) => problem("Cannot load game " + (wanted + 1) + ": " + e.message));
      return;
    }
    show(step);
  }

  // Draws game g (its stream loaded) from `step` (the last one with `Infinity`).
  function show(step) {
    heading();
    buildPlays();
    buildList();
    go(step === undefined ? 0 : step === Infinity ? frames() - 1 : step);
    if (!shown) {
      shown = true;
      firstShown();
    }
  }
  let shown = false;

  // The line above the field: who plays, the result, and a banner if the game has a problem.
  function heading() {
    const gm = game();
    $("game-select").value = String(g);
    const m = $("matchup");
    while (m.firstChild) m.removeChild(m.firstChild);
    m.appendChild(el("span", {}, gm.white + " (White)  vs  " + gm.black + " (Black)"));
    // A game still being played has no result yet: say so rather than "* ?".
    m.appendChild(el("span", { class: "res" }, gm.running ? "" : gm.result));
    m.appendChild(el("span", { class: "term" }, gm.running ? "in play" : gm.termination));
    $("white-name").textContent = gm.white;
    $("black-name").textContent = gm.black;
    $("list-title").textContent = gm.rules === "boyer-football" ? "Turn by turn" : gm.rules === "chess-eleven" ? "Go by go" : "Play by play";
    if (gm.version !== VERSION) problem("This viewer shows view stream version " + VERSION + "; this game is version " + gm.version + ".");
    else problem(gm.error ? "This record stops replaying after " + gm.steps.length + " entries: " + gm.error : "");
  }

  // The link to this game and step: by place in a record file, by the game's number in a
  // live series (its place in the page's list depends on when the page was opened).
  function permalink() {
    if (live && game()) return "#number=" + game().number + "&step=" + at;
    return "#game=" + (g + 1) + "&step=" + at;
  }

  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    // A live page names games by their number in the run (#number=N, or #game=N): the
    // game is shown once the run's events have named it.
    if (live) {
      $("follow").checked = false;
      wantFromHash(h);
      return;
    }
    let gi = Number(h.get("game") || "1") - 1;
    // A game named by its number in the series (the daemon's bot pages link so).
    const number = h.get("number");
    if (number && Array.isArray(games)) {
      const k = games.findIndex((gm) => String(gm.number) === number);
      if (k >= 0) gi = k;
    }
    const st = Number(h.get("step") || "0");
    load(Number.isFinite(gi) ? gi : 0, Number.isFinite(st) ? st : 0);
  }

  // ---- wiring ----
  function start() {
    if (!live && (!Array.isArray(games) || games.length === 0)) {
      problem("No game to show.");
      return;
    }
    const sel = $("game-select");
    games.forEach((gm, i) => sel.appendChild(el("option", { value: String(i) },
      (i + 1) + ". " + gm.white + " \u2013 " + gm.black + "  " + gm.result + " (" + gm.termination + ")")));
    sel.hidden = games.length < 2;
    if (live) { startLive(); startSeat(); }
    sel.addEventListener("change", () => { wanted = null; load(Number(sel.value), 0); });
    $("to-start").addEventListener("click", () => go(0));
    $("to-end").addEventListener("click", () => go(frames() - 1));
    $("prev").addEventListener("click", () => go(at - 1));
    $("next").addEventListener("click", () => go(at + 1));
    $("prev-play").addEventListener("click", prevPlay);
    $("next-play").addEventListener("click", nextPlay);
    $("play").addEventListener("click", () => autoplay(!timer));
    $("speed").addEventListener("change", () => { if (timer) autoplay(true); });
    $("permalink").addEventListener("click", (e) => { e.preventDefault(); history.replaceState(null, "", permalink()); });
    document.addEventListener("keydown", (e) => {
      if (!game() || !game().steps) return;
      if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT")) return;
      const keys = {
        ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1),
        ArrowDown: nextPlay, PageDown: nextPlay, ArrowUp: prevPlay, PageUp: prevPlay,
        Home: () => go(0), End: () => go(frames() - 1), " ": () => autoplay(!timer),
        "+": () => { const s = $("speed"); s.selectedIndex = Math.min(s.options.length - 1, s.selectedIndex + 1); if (timer) autoplay(true); },
        "-": () => { const s = $("speed"); s.selectedIndex = Math.max(0, s.selectedIndex - 1); if (timer) autoplay(true); },
      };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    window.addEventListener("hashchange", fromHash);
    if (!live) fromHash();
  }

  // ---- live games ----
  // The run's event stream (protocol/schemas/series-event.json, through api/live) keeps
  // the game list and the standings; the game on show follows api/live/games/N. An
  // EventSource reconnects by itself with the last id it had: the server resumes after it.
  const byNumber = new Map(); // game number -> index in games
  let gameFeed = null;
  let followTimer = null;
  let shownNumber = null;

  function label(gm) {
    return gm.number + ". " + gm.white + " \u2013 " + gm.black + "  " + (gm.running ? "running" : gm.result + " (" + gm.termination + ")");
  }

  // The run's events change the model at once and the page once a second: a series of
  // instant bots finishes dozens of games a second, and each redraw of the list and the
  // standings costs a layout of the page, CPU that a series on a busy machine gives up
  // (measured with zebra bench match --watch-with chromium).
  const dirty = new Set(); // game indices whose list line changed
  let lastStats = null;
  let flushTimer = null;

  function upsert(ev, running) {
    let i = byNumber.get(ev.game);
    if (i === undefined) {
      i = games.length;
      byNumber.set(ev.game, i);
      games.push({ number: ev.game, white: ev.white, black: ev.black, result: "*", termination: "running", running: true });
    }
    const gm = games[i];
    gm.running = running;
    if (running) { gm.result = "*"; gm.termination = "running"; gm.steps = undefined; gm.complete = false; }
    else { gm.result = ev.result; gm.termination = ev.termination; }
    dirty.add(i);
    later();
    return i;
  }

  function later() {
    if (flushTimer === null) flushTimer = setTimeout(flush, 1000);
  }

  function flush() {
    flushTimer = null;
    const sel = $("game-select");
    for (const i of Array.from(dirty).sort((a, b) => a - b)) {
      while (sel.options.length <= i) sel.appendChild(el("option", { value: String(sel.options.length) }, ""));
      sel.options[i].textContent = label(games[i]);
    }
    dirty.clear();
    sel.hidden = games.length < 2;
    if (g < games.length && games[g]) sel.value = String(g);
    if (lastStats) { standings(lastStats); lastStats = null; }
  }

  function standings(ev) {
    const t = $("standings");
    // The same bots as last time: only the numbers change, in place.
    const rows = ev.standings.length + 1 + (ev.head_to_head && ev.head_to_head.elo ? 1 : 0);
    if (t.rows.length === rows && t.dataset.bots === ev.standings.map((b) => b.name).join("\n")) {
      t.caption.textContent = standingsCaption(ev);
      ev.standings.forEach((b, r) => standingsCells(b).forEach((c, k) => {
        const cell = t.rows[r + 1].cells[k];
        if (cell.textContent !== c) cell.textContent = c;
      }));
      if (rows > ev.standings.length + 1) t.rows[rows - 1].cells[0].textContent = eloLine(ev);
      return;
    }
    t.dataset.bots = ev.standings.map((b) => b.name).join("\n");
    while (t.firstChild) t.removeChild(t.firstChild);
    t.appendChild(el("caption", {}, standingsCaption(ev)));
    const head = el("tr");
    for (const h of ["bot", "games", "points", "W", "D", "L", "score"]) head.appendChild(el("th", {}, h));
    t.appendChild(head);
    for (const b of ev.standings) {
      const tr = el("tr");
      for (const c of standingsCells(b)) tr.appendChild(el("td", {}, c));
      t.appendChild(tr);
    }
    const h2h = ev.head_to_head;
    if (h2h && h2h.elo) {
      const tr = el("tr");
      tr.appendChild(el("td", { colspan: "7" }, eloLine(ev)));
      t.appendChild(tr);
    }
    t.hidden = false;
  }

  function standingsCaption(ev) {
    return "Standings after " + ev.games_finished + " game" + (ev.games_finished === 1 ? "" : "s");
  }
  function standingsCells(b) {
    return [b.name, b.games, b.points, b.wins, b.draws, b.losses, b.score === null ? "\u2013" : (100 * b.score).toFixed(1) + "%"].map(String);
  }
  // The head-to-head Elo is the first bot's against the second (series-event.json).
  function eloLine(ev) {
    const elo = ev.head_to_head.elo;
    const signed = (x) => (x > 0 ? "+" : "") + x.toFixed(1);
    return "Elo of " + ev.standings[0].name + " against " + ev.standings[1].name + ": " + signed(elo.elo)
      + " (95%: " + signed(elo.lower) + " to " + signed(elo.upper) + ")";
  }

  function liveStatus(text, ended) {
    $("live").hidden = false;
    $("live-text").textContent = text;
    $("live").classList.toggle("ended", !!ended);
  }

  // A live page opened from a permalink (#number=N&step=K, or #game=N): that game, at that
  // step, once the run's events name it; the page stays on it (following is turned off).
  let wanted = null;

  // The game a live link names (#number=N&step=K, or #game=N), wanted until the run's
  // events name it; shown at once if they already have.
  function wantFromHash(hash) {
    const number = Number(hash.get("number") || hash.get("game") || "NaN");
    if (!Number.isInteger(number) || number < 1) return false;
    const st = Number(hash.get("step"));
    wanted = { number, step: hash.has("step") && Number.isFinite(st) ? st : Infinity };
    showWanted();
    return true;
  }

  // The wanted game if the run has named it; else a word that the page waits for it.
  function showWanted() {
    if (wanted === null) return;
    if (byNumber.has(wanted.number)) {
      const w = wanted;
      wanted = null;
      problem("");
      switchTo(byNumber.get(w.number), w.step);
    } else {
      problem("Waiting for game " + wanted.number + " of this run\u2026");
    }
  }

  function startLive() {
    liveStatus("live", false);
    if (wantFromHash(new URLSearchParams(location.hash.slice(1)))) $("follow").checked = false;
    // A link may say not to follow (#follow=0): the page stays on the game it shows.
    if (new URLSearchParams(location.hash.slice(1)).get("follow") === "0") $("follow").checked = false;
    // Ticked again on a finished game: on to the newest running one (or the next to start).
    $("follow").addEventListener("change", () => {
      if (!$("follow").checked || games.length === 0 || (games[g] && games[g].running)) return;
      if (games[newest()].running) switchTo(newest());
      else idle = true;
    });
    const feed = new EventSource("api/live");
    // A message carries one or more lines of the stream, one JSON object each.
    feed.onmessage = (m) => {
      for (const line of m.data.split("\n")) runEvent(JSON.parse(line), feed);
      // Which game to show is decided once a message: a batch may start and finish many.
      if (wanted !== null) showWanted();
      else if (shownNumber === null && games.length > 0) switchTo(newest());
      else if (idle && $("follow").checked && games[newest()].running) switchTo(newest());
    };
  }

  // The newest running game, else the newest game.
  function newest() {
    for (let i = games.length - 1; i >= 0; i--) if (games[i].running) return i;
    return games.length - 1;
  }

  function runEvent(ev, feed) {
    switch (ev.type) {
      case "reset":
        // Lines were missed for good: the list starts again from what the server holds.
        games = []; byNumber.clear(); dirty.clear();
        while ($("game-select").firstChild) $("game-select").removeChild($("game-select").firstChild);
        break;
      case "series_started":
        liveStatus("live \u00B7 " + ev.games_planned + " games", false);
        break;
      case "game_started":
        upsert(ev, true);
        break;
      case "game_finished":
      case "game_voided":
        upsert(ev, false);
        break;
      case "stats_updated":
        lastStats = ev;
        later();
        break;
      case "series_finished":
        flush();
        liveStatus("finished: " + ev.outcome, true);
        feed.close();
        // A link to a game this run never played: say so (the list offers the others).
        if (wanted !== null && !byNumber.has(wanted.number)) {
          problem("This run has no game " + wanted.number + ": choose one from the list.");
          wanted = null;
        }
        break;
    }
  }

  function switchTo(i, step) {
    if (followTimer !== null) { clearTimeout(followTimer); followTimer = null; }
    idle = false;
    load(i, step === undefined ? Infinity : step);
  }

  // The followed game ended: after a moment on its last position, the newest running game
  // (or the next one to start: `idle` until then).
  let idle = false;
  function followNext() {
    if (!$("follow").checked || followTimer !== null) return;
    followTimer = setTimeout(() => {
      followTimer = null;
      if (!$("follow").checked) return;
      const i = newest();
      if (i >= 0 && games[i].running) switchTo(i);
      else idle = true;
    }, 3000);
  }

  function openLive(i, step) {
    const gm = games[i];
    if (gameFeed) gameFeed.close();
    gameFeed = null;
    shownNumber = gm.number;
    idle = false;
    // A game whose feed reached its end is complete; one left while it ran is asked for
    // again (a reconnection from scratch: the view so far, then the rest).
    if (gm.steps && gm.complete) return show(step);
    problem("");
    const feed = new EventSource("api/live/games/" + gm.number);
    gameFeed = feed;
    feed.onmessage = (m) => {
      if (gameFeed !== feed) return feed.close();
      const msg = JSON.parse(m.data);
      switch (msg.type) {
        case "view":
          // The whole game so far (first message, or another attempt at this game).
          Object.assign(gm, msg.view, { number: gm.number, running: gm.running, complete: false });
          if (g === i) show(step === undefined ? Infinity : step);
          break;
        case "steps":
          if (g === i && gm.steps && msg.first === gm.steps.length) appendSteps(msg.steps);
          break;
        case "end":
          gm.running = false;
          gm.complete = true;
          gm.result = msg.result;
          gm.termination = msg.termination;
          // The game list says so now, as the board does (not at the next redraw).
          if ($("game-select").options[i]) $("game-select").options[i].textContent = label(gm);
          if (msg.error) gm.error = msg.error;
          feed.close();
          if (gameFeed === feed) gameFeed = null;
          // The lists already hold every step: only the heading and the field change.
          if (g === i) { heading(); render(); followNext(); }
          break;
        case "gone":
          feed.close();
          if (gameFeed === feed) gameFeed = null;
          problem(msg.message);
          break;
      }
    };
  }

  // ---- the human seat (zebra play --white human) ----
  // The seat's state comes from api/seat: the open request with each legal action's
  // squares and the actions without squares. A click on one of the person's pieces shows
  // where it may go; a click on a target sends the action. In Boyer's Football a piece's
  // targets are its moves and, next to the ball, its kicks (ringed white: where the ball
  // goes); pass is a button. Formations are drafted on the
  // field (pick a role, click or drop on squares) and checked by the engine as they change.
  let seat = null;
  let selected = null; // the square of the piece picked on the field
  let draft = new Map(); // formation draft: square -> role
  let picked = null; // the role picked for the draft
  let bench = "B"; // Chess Eleven: the bench piece of the draft
  let deadlineAt = 0;

  function startSeat() {
    const feed = new EventSource("api/seat");
    feed.onerror = () => { if (!seat) feed.close(); };
    feed.onmessage = (m) => {
      const fresh = JSON.parse(m.data);
      const newRequest = !seat || seat.id !== fresh.id;
      seat = fresh;
      if (newRequest) {
        selected = null;
        if (seat.decision !== "formation") draft = new Map();
        deadlineAt = seat.deadline_ms ? performance.now() + seat.deadline_ms : 0;
      }
      if (seat.over) feed.close();
      renderSeat();
    };
    $("field").addEventListener("click", (e) => {
      const sq = e.target.getAttribute && e.target.getAttribute("data-sq");
      if (sq) clickSquare(sq);
    });
    $("field").addEventListener("pointerup", (e) => {
      // A role dragged from the palette is dropped where the pointer is let go.
      const sq = e.target.getAttribute && e.target.getAttribute("data-sq");
      if (sq && dragging) { const role = dragging; dragging = null; place(sq, role); }
    });
    document.addEventListener("pointerup", () => { dragging = null; });
    setInterval(() => {
      if (seat && seat.id !== null && deadlineAt) {
        const left = Math.max(0, deadlineAt - performance.now());
        $("seat-clock").textContent = (left / 1000).toFixed(1) + " s";
      }
    }, 200);
  }
  let dragging = null; // the role being dragged from the palette

  function send(action) {
    if (!seat || seat.id === null) return;
    const id = seat.id;
    fetch("api/seat/action", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id, action }) })
      .then((r) => r.json().then((b) => { if (!r.ok) seatNote(b.error || r.statusText, "bad"); }))
      .catch((e) => seatNote(e.message, "bad"));
    selected = null;
    draft = new Map();
  }

  function seatNote(text, kind) {
    const n = $("seat-note");
    if (!n) return;
    n.textContent = text;
    n.className = kind || "";
  }

  function movesFrom(sq) { return seat && seat.id !== null ? seat.moves.filter((m) => m.from === sq) : []; }

  function clickSquare(sq) {
    if (!seat || seat.id === null) return;
    if (seat.decision === "formation") {
      if (draft.has(sq) && !picked) draft.delete(sq);
      else if (picked) draft.set(sq, picked);
      else return;
      drawMarks();
      checkDraft();
      return;
    }
    if (selected) {
      const choices = movesFrom(selected).filter((m) => m.to === sq);
      if (choices.length === 1) return send(choices[0].action);
      if (choices.length > 1) { renderSeat(choices); return; }
    }
    selected = movesFrom(sq).length ? sq : null;
    renderSeat();
  }

  function place(sq, role) { draft.set(sq, role); drawMarks(); checkDraft(); }

  function draftText() {
    if (seat && seat.rules === "chess-eleven") {
      // Chess Eleven: the pieces in square order (a1, b1, ..., h8), then the bench piece.
      const order = (sq) => (Number(sq[1]) - 1) * 8 + "abcdefgh".indexOf(sq[0]);
      const items = Array.from(draft).sort((a, b) => order(a[0]) - order(b[0]));
      return "[" + items.map(([sq, role]) => role + sq).join(",") + "]/" + bench;
    }
    return "[" + Array.from(draft, ([sq, role]) => role + sq).join(",") + "]";
  }

  function checkDraft() {
    const text = draftText();
    $("seat-draft").textContent = text;
    if (draft.size === 0) return seatNote("", "");
    fetch("api/seat/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ action: text }) })
      .then((r) => r.json())
      .then((v) => {
        if (draftText() !== text) return; // an older draft's verdict
        if (!v.legal) seatNote("cannot be placed: " + v.problem, "bad");
        else if (v.flag) seatNote("would draw a flag: " + v.flag, "warn");
        else seatNote("a legal formation", "good");
      });
  }

  // The squares' geometry of the board drawn: Football Chess's field or Boyer's 9x9 board.
  function geometry() {
    if ($("field").getAttribute("data-board") === "boyer") {
      return { size: B, left: (s) => BFILES.indexOf(s[0]) * B, top: (s) => (9 - Number(s[1])) * B, cx: bx, cy: by };
    }
    if ($("field").getAttribute("data-board") === "eleven") {
      return { size: E, left: (s) => EFILES.indexOf(s[0]) * E, top: (s) => (8 - Number(s[1])) * E, cx: ex, cy: ey };
    }
    return { size: SQ, left: (s) => fileOf(s) * SQ, top: (s) => (8 - rankOf(s)) * SQ, cx, cy };
  }

  function drawMarks() {
    const marks = $("marks");
    if (!marks) return;
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    if (!seat || seat.id === null) return;
    const mine = seat.side === "white" ? "w" : "b";
    const g = geometry();
    const square = (sq, inset, cls) => svg("rect", { x: g.left(sq) + inset, y: g.top(sq) + inset, width: g.size - 2 * inset, height: g.size - 2 * inset, class: cls });
    for (const [sq, role] of draft) {
      marks.appendChild(square(sq, 3, "draft-sq"));
      marks.appendChild(svg("text", { class: "piece draft " + mine, x: g.cx(sq), y: g.cy(sq) + 2, "data-draft": sq }, GLYPH[role]));
    }
    if (selected) {
      marks.appendChild(square(selected, 2, "sel-sq"));
      for (const m of movesFrom(selected)) {
        marks.appendChild(svg("circle", { cx: g.cx(m.to), cy: g.cy(m.to), r: 11, class: "target " + m.kind, "data-target": m.to }));
        if (m.corner) marks.appendChild(svg("circle", { cx: g.cx(m.corner), cy: g.cy(m.corner), r: 4, class: "corner" }));
      }
    } else {
      for (const from of new Set(seat.moves.map((m) => m.from))) marks.appendChild(square(from, 2, "can-sq"));
    }
  }

  function renderSeat(choices) {
    const box = $("seat");
    box.hidden = false;
    while (box.firstChild) box.removeChild(box.firstChild);
    box.dataset.id = seat.id === null ? "" : String(seat.id);
    box.dataset.decision = seat.decision || "";
    const head = el("div", { class: "seat-head" });
    head.appendChild(el("strong", {}, "You play " + seat.side));
    head.appendChild(el("span", { id: "seat-clock" }, ""));
    box.appendChild(head);
    if (seat.over) {
      box.appendChild(el("div", {}, "The game is over."));
    } else if (seat.id === null) {
      box.appendChild(el("div", { class: "muted" }, seat.connected ? "Waiting for the opponent\u2026" : "Waiting for the game to start\u2026"));
    } else {
      box.appendChild(el("div", { class: "seat-ask" }, "Your decision: " + seat.decision));
      const row = el("div", { class: "seat-buttons" });
      const button = (label, action, attrs) => {
        const b = el("button", Object.assign({ "data-action": action }, attrs || {}), label);
        b.addEventListener("click", () => send(action));
        row.appendChild(b);
      };
      if (seat.decision === "formation") {
        const palette = el("div", { class: "seat-palette" });
        for (const role of ROLES) {
          const b = el("button", { "data-role": role, class: picked === role ? "picked" : "" }, GLYPH[role] + " " + role);
          b.addEventListener("click", () => { picked = picked === role ? null : role; renderSeat(); });
          b.addEventListener("pointerdown", () => { dragging = role; });
          palette.appendChild(b);
        }
        box.appendChild(palette);
        box.appendChild(el("div", { class: "muted" }, "Pick a role, then click squares (or drag it there); click a placed piece to take it back."));
        if (seat.rules === "chess-eleven") {
          // The bench piece (C6); the king stands on its goal square, a pawn in front (C7, C8).
          const benchRow = el("div", { class: "seat-palette", id: "seat-bench" });
          benchRow.appendChild(el("span", { class: "muted" }, "bench: "));
          for (const role of ["Q", "R", "B", "N", "P"]) {
            const b = el("button", { "data-bench": role, class: bench === role ? "picked" : "" }, GLYPH[role] + " " + role);
            b.addEventListener("click", () => { bench = role; renderSeat(); });
            benchRow.appendChild(b);
          }
          box.appendChild(benchRow);
        }
        box.appendChild(el("code", { id: "seat-draft" }, draftText()));
        const tools = el("div", { class: "seat-buttons" });
        const tool = (label, id, f) => { const b = el("button", { id }, label); b.addEventListener("click", f); tools.appendChild(b); };
        tool("suggested", "seat-suggest", () => {
          draft = new Map();
          let text = seat.suggestion || "";
          const slash = text.lastIndexOf("]/");
          if (slash >= 0) { bench = text.slice(slash + 2); text = text.slice(0, slash + 1); }
          for (const item of text.replace(/[\[\]]/g, "").split(",")) if (item) draft.set(item.slice(1), item[0]);
          drawMarks(); checkDraft();
        });
        tool("clear", "seat-clear", () => { draft = new Map(); drawMarks(); checkDraft(); });
        tool("send formation", "seat-send-formation", () => send(draftText()));
        box.appendChild(tools);
      } else if (choices) {
        box.appendChild(el("div", { class: "muted" }, "Which route?"));
        for (const m of choices) button(m.action + (m.corner ? " via " + m.corner : ""), m.action);
      } else if (selected) {
        box.appendChild(el("div", { class: "muted" }, "From " + selected + ": click a marked square, or"));
        for (const m of movesFrom(selected)) button(m.action, m.action, { class: "move" });
      } else if (seat.moves.length) {
        box.appendChild(el("div", { class: "muted" }, seat.rules === "boyer-football"
          ? "Click one of your marked pieces: then where it moves, or where it kicks the ball (ringed white)."
          : "Click one of your marked pieces."));
      }
      for (const b of seat.buttons) button(b, b);
      box.appendChild(row);
    }
    box.appendChild(el("div", { id: "seat-note" }, ""));
    if (seat.last_status && seat.last_status !== "ok") seatNote("your last reply: " + seat.last_status + (seat.last_reason ? " \u2013 " + seat.last_reason : ""), "bad");
    if (seat.decision === "formation" && seat.id !== null) checkDraft();
    drawMarks();
  }

  // Timings, for the benchmark in the book (docs/src/benchmarks.md): the first position (performance.now()
  // counts from the navigation: loading and parsing included), and with `bench=1` in the
  // link, every step of the game rendered and laid out once (mean and worst, in ms).
  function firstShown() {
    document.body.dataset.firstRenderMs = performance.now().toFixed(1);
    document.body.dataset.scriptMs = (performance.now() - started).toFixed(1);
    if (new URLSearchParams(location.hash.slice(1)).get("bench") !== "1") return;
    let worst = 0;
    let worstAt = 0;
    let warm = 0;
    const t0 = performance.now();
    for (let k = 0; k < frames(); k++) {
      const t = performance.now();
      go(k);
      // Include the layout the browser needs before it can paint the step.
      void document.body.offsetHeight;
      const took = performance.now() - t;
      if (took > worst) { worst = took; worstAt = k; }
      if (k >= 2) warm = Math.max(warm, took);
    }
    document.body.dataset.stepWorstAt = String(worstAt);
    // The worst once the first two steps have warmed the page up.
    document.body.dataset.stepWorstWarmMs = warm.toFixed(2);
    document.body.dataset.stepMeanMs = ((performance.now() - t0) / frames()).toFixed(2);
    document.body.dataset.stepWorstMs = worst.toFixed(2);
    document.body.dataset.steps = String(frames() - 1);
  }

  if (live) {
    start();
  } else if (remote) {
    fetch("api/games")
      .then((r) => { if (!r.ok) throw new Error(r.statusText); return r.json(); })
      .then((list) => { games = list; start(); })
      .catch((e) => problem("Cannot list the games: " + e.message));
  } else {
    start();
  }
})();
