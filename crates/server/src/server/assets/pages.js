// What the daemon's pages share: the token from the address, reading the API, and
// writing rows. Every cell is written with textContent: bot names and owners are other
// people's text.
"use strict";
const Z = (function () {
  // A token given in the address (#token=...) is kept as a cookie for the read routes and
  // taken out of the address, so that it is not left in the history or shared by a copy.
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    document.cookie = "zebra_token=" + encodeURIComponent(hash.get("token")) + "; path=/; SameSite=Strict";
    hash.delete("token");
    const rest = hash.toString();
    history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  }
  const problem = () => document.getElementById("problem");
  function say(text) {
    const p = problem();
    p.textContent = text;
    p.classList.toggle("shown", !!text);
  }
  function cell(c) {
    const td = document.createElement("td");
    if (c instanceof Node) td.appendChild(c);
    else {
      td.textContent = c === null || c === undefined ? "" : String(c);
      // Figures line up on the right, whether given as numbers or as written ("91.5", "55.0%").
      if (typeof c === "number" || (typeof c === "string" && /^-?\d+(\.\d+)?%?$/.test(c))) td.className = "num";
    }
    return td;
  }
  function row(cells, attrs) {
    const tr = document.createElement("tr");
    for (const [k, v] of Object.entries(attrs || {})) tr.setAttribute(k, v);
    for (const c of cells) tr.appendChild(cell(c));
    return tr;
  }
  function state(s) {
    const span = document.createElement("span");
    span.className = "state-" + s;
    span.textContent = s;
    return span;
  }
  function link(text, href) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  }
  function fill(id, rows) {
    document.querySelector("#" + id + " tbody").replaceChildren(...rows);
  }
  async function get(path) {
    const r = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (r.status === 401) throw new Error("This server needs a token to read: open " + location.origin + location.pathname + "#token=YOUR_TOKEN");
    if (!r.ok) {
      let detail = r.statusText;
      try { detail = (await r.json()).detail || detail; } catch (e) { /* not JSON */ }
      throw new Error(path + ": " + detail);
    }
    return r.json();
  }
  function when(ms) {
    return ms ? new Date(ms).toISOString().slice(0, 16).replace("T", " ") : "";
  }
  const GAMES = { "football-chess": "Football Chess", "boyer-football": "Boyer's Football", "chess-eleven": "Chess Eleven" };
  // Pages of a list the API answers newest first, by cursor: the buttons #newer and #older,
  // the line #<count> ("series 1 to 25 of 90"). `load(before)` fetches a page and gives
  // back its answer ({next_before, total, and the rows under `key`}).
  function pager(size, what, count, load, key) {
    let before = null, next = null;
    const earlier = [];
    const older = document.getElementById("older"), newer = document.getElementById("newer");
    async function show() {
      const page = await load(before);
      next = page.next_before;
      older.disabled = !next;
      newer.disabled = earlier.length === 0;
      const first = earlier.length * size + 1, n = page[key].length;
      document.getElementById(count).textContent = page.total === 0 ? "no " + what :
        what + " " + first + " to " + (first + n - 1) + " of " + page.total;
      return page;
    }
    older.addEventListener("click", () => { if (next) { earlier.push(before); before = next; show().catch((e) => say(e.message)); } });
    newer.addEventListener("click", () => { if (earlier.length) { before = earlier.pop(); show().catch((e) => say(e.message)); } });
    return { show, restart() { before = null; earlier.length = 0; return show(); } };
  }
  return { say, row, state, link, fill, get, when, pager, GAMES };
})();
