/* The board page: place spaces (zones over the camera picture), name them, connect them. */
"use strict";

(function () {
  const data = document.getElementById("board-data");
  if (!data) return;
  const board = JSON.parse(data.textContent);
  const zones = {};
  const svg = document.getElementById("board-svg");
  const pickSel = document.getElementById("board-space");
  const spacesBox = document.getElementById("board-spaces");
  const streetsBox = document.getElementById("board-streets");
  const pickNote = document.getElementById("board-pick");
  const NS = "http://www.w3.org/2000/svg";
  const HALF = 0.05;
  let first = null;

  const byId = (id) => board.spaces.find((s) => s.id === id);
  const slug = (name) => name.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "_").replace(/^_+|_+$/g, "");
  const key = (a, b) => [a, b].sort().join("|");

  function el(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    if (text) e.textContent = text;
    return e;
  }

  function draw() {
    svg.replaceChildren(el("rect", { x: 0, y: 0, width: 1, height: 1, fill: "#0003", stroke: "#555", "stroke-width": 0.004 }));
    board.streets.forEach(([a, b]) => {
      const p = byId(a), q = byId(b);
      if (p && q && p.x !== null && q.x !== null) svg.append(el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: "#aaa", "stroke-width": 0.004 }));
    });
    board.spaces.forEach((s) => {
      if (s.x === null || s.y === null) return;
      svg.append(el("rect", { x: s.x - HALF, y: s.y - HALF * 0.7, width: 2 * HALF, height: 1.4 * HALF, fill: s.kind === "homebase" ? "#3a3320cc" : "#26262ecc", stroke: s.id === pickSel.value ? "#e0c060" : "#888", "stroke-width": 0.004 }));
      svg.append(el("text", { x: s.x, y: s.y + 0.012, "font-size": 0.03, "text-anchor": "middle", fill: "#fff" }, s.name.slice(0, 14)));
    });
    pickSel.replaceChildren(...board.spaces.map((s) => new Option(s.name, s.id, false, s.id === pickSel.value)));
    spacesBox.replaceChildren(...board.spaces.map((s) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = first === s.id ? "" : "secondary";
      b.textContent = s.name;
      b.addEventListener("click", () => connect(s.id));
      return b;
    }));
    streetsBox.replaceChildren(...board.streets.map(([a, b]) => {
      const li = document.createElement("li");
      li.textContent = `${byId(a).name} — ${byId(b).name}`;
      return li;
    }));
  }

  function connect(id) {
    if (first === null) {
      first = id;
      pickNote.textContent = `${byId(id).name}: now tap the space it connects to.`;
    } else if (first === id) {
      first = null;
      pickNote.textContent = "Tap a space, then the one it connects to.";
    } else {
      const k = key(first, id);
      const i = board.streets.findIndex(([a, b]) => key(a, b) === k);
      if (i >= 0) board.streets.splice(i, 1); else board.streets.push([first, id].sort());
      pickNote.textContent = `${i >= 0 ? "Removed" : "Connected"}: ${byId(first).name} — ${byId(id).name}.`;
      first = null;
    }
    draw();
  }

  document.getElementById("board-area").addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) / r.width, y = (ev.clientY - r.top) / r.height;
    const s = byId(pickSel.value);
    if (!s || x < 0 || x > 1 || y < 0 || y > 1) return;
    s.x = Math.round(x * 1000) / 1000;
    s.y = Math.round(y * 1000) / 1000;
    const c = (v) => Math.min(1, Math.max(0, v));
    zones[s.name] = [[c(x - HALF), c(y - HALF)], [c(x + HALF), c(y - HALF)], [c(x + HALF), c(y + HALF)], [c(x - HALF), c(y + HALF)]];
    draw();
  });
  pickSel.addEventListener("change", draw);

  document.getElementById("board-add").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = document.getElementById("board-name").value.trim();
    if (!name) { say("Give the space a name.", true); return; }
    if (board.spaces.some((s) => s.name.toLowerCase() === name.toLowerCase() || s.id === slug(name))) {
      say(`There is already a space called ${name}.`, true);
      return;
    }
    board.spaces.push({ id: slug(name) || name, name, kind: document.getElementById("board-kind").value, x: null, y: null });
    pickSel.value = board.spaces[board.spaces.length - 1].id;
    document.getElementById("board-name").value = "";
    draw();
    pickSel.value = board.spaces[board.spaces.length - 1].id;
    say(`${name} added: tap the picture where it lies.`);
  });
  document.getElementById("board-remove").addEventListener("click", () => {
    const id = pickSel.value;
    board.spaces = board.spaces.filter((s) => s.id !== id);
    board.streets = board.streets.filter(([a, b]) => a !== id && b !== id);
    draw();
  });
  document.getElementById("board-save").addEventListener("click", async () => {
    report(await post("/api/board", { board, zones }));
  });
  document.getElementById("board-reset").addEventListener("click", async () => {
    const result = await post("/api/board", { reset: true });
    report(result);
    if (result.accepted) location.reload();
  });
  draw();
}());
