/* The camera page (host only): live picture, tag count and the zone editor.
   Uses say/report/post from app.js (loaded first). */
"use strict";

function camera(box) {
  const img = document.getElementById("live-img");
  const svg = document.getElementById("zones");
  const zones = JSON.parse(document.getElementById("zones-data").textContent || "{}");
  const choices = JSON.parse(document.getElementById("zone-choices").textContent || "[]");
  // the zones that grew as cards landed (the pile), as the camera uses them now
  let grown = JSON.parse(document.getElementById("grown-data").textContent || "{}");
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // a zone is drawn as grown while the editor holds the camera's grown outline of it
  const isGrown = (name) => name in grown && same(zones[name], grown[name]);
  const GREW = "grew to take in a card beside it";
  const labels = Object.fromEntries(choices.map((c) => [c.name, c.label]));
  const shorts = Object.fromEntries(choices.map((c) => [c.name, c.short || c.label]));
  const kind = document.getElementById("zone-kind");
  const other = document.getElementById("zone-other");
  const showOther = () => { other.hidden = kind.value !== ""; };
  kind.addEventListener("change", showOther);
  showOther();
  const zoneName = () => (kind.value || document.getElementById("zone-name").value.trim());
  let draft = [];
  const ns = "http://www.w3.org/2000/svg";
  const draw = () => {
    svg.replaceChildren();
    const poly = (points, cls) => {
      const p = document.createElementNS(ns, "polygon");
      p.setAttribute("points", points.map((q) => q.join(",")).join(" "));
      if (cls) p.setAttribute("class", cls);
      if (cls === "grown") {  // dashed, in the link colour: where the pile reaches now
        p.setAttribute("stroke-dasharray", "0.02 0.012");
        p.style.stroke = "var(--link)";
        p.style.strokeWidth = "0.006";
      }
      svg.appendChild(p);
    };
    Object.entries(zones).forEach(([name, pts]) => {
      poly(pts, isGrown(name) ? "grown" : "");
      const t = document.createElementNS(ns, "text");  // the zone's meaning at its centre
      t.setAttribute("x", pts.reduce((a, p) => a + p[0], 0) / pts.length);
      t.setAttribute("y", pts.reduce((a, p) => a + p[1], 0) / pts.length);
      t.setAttribute("font-size", "0.045");
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("fill", "#fff");
      t.textContent = (shorts[name] || name) + (isGrown(name) ? " (grew)" : "");
      svg.appendChild(t);
    });
    if (draft.length) poly(draft, "draft");
    draft.forEach(([x, y]) => {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 0.008);
      svg.appendChild(c);
    });
    const ul = document.getElementById("zone-list");
    ul.replaceChildren(...Object.entries(zones).map(([name, pts]) => {
      const li = document.createElement("li");
      li.textContent = `${labels[name] || name}: ${pts.length} corners` +
        (isGrown(name) ? ` (${GREW}: dashed)` : "");
      return li;
    }));
  };
  svg.addEventListener("pointerdown", (e) => {
    const r = svg.getBoundingClientRect();
    const x = (e.clientX - r.left) / r.width;
    const y = (e.clientY - r.top) / r.height;
    draft.push([Number(x.toFixed(4)), Number(y.toFixed(4))]);
    draw();
  });
  document.getElementById("zone-finish").addEventListener("click", () => {
    const name = zoneName();
    if (!name) { say("Choose what the zone is for, or type its name.", true); return; }
    if (draft.length < 3) { say("A zone needs at least 3 corners: tap the picture.", true); return; }
    zones[name] = draft; draft = []; draw();
    say(`${labels[name] || name}: done. Draw the next zone, or save.`, false);
  });
  document.getElementById("zone-from-cards").addEventListener("click", async () => {
    let box = null;
    try {
      const data = await (await fetch("/api/camera", { credentials: "same-origin" })).json();
      box = (data.camera || {}).cards_box;
    } catch (err) { box = null; }
    if (!box) {
      say("No card in view: lay the calibration card or a few cards where the zone is, then try again.", true);
      return;
    }
    draft = box; draw();
    say("The zone is drawn around the cards in view: finish it, then save the zones.", false);
  });
  document.getElementById("zone-undo").addEventListener("click", () => { draft.pop(); draw(); });
  document.getElementById("zone-clear").addEventListener("click", () => {
    Object.keys(zones).forEach((k) => delete zones[k]); draft = []; draw();
  });
  document.getElementById("zone-save").addEventListener("click", async () => {
    report(await post("/api/camera/zones", { zones }));
  });
  let undone = 0;
  const grownBox = document.getElementById("zone-grown");
  const showGrown = () => { grownBox.hidden = Object.keys(grown).length === 0; };
  document.getElementById("undo-growth").addEventListener("click", async () => {
    undone += 1;  // a status asked for before or during the undo is not followed
    const answer = await post("/api/camera/undo-growth", {});
    undone += 1;
    if (!answer.accepted) { report(answer); return; }
    Object.keys(grown).forEach((name) => {
      if (answer.zones && answer.zones[name]) zones[name] = answer.zones[name];
    });
    grown = {}; showGrown(); draw();
    say("The pile is back as you drew it.", false);
  });
  const moved = document.getElementById("camera-moved");
  const showMoved = (sentence) => {
    if (moved.textContent !== (sentence || "")) {
      const b = document.createElement("b");
      b.textContent = sentence || "";
      moved.replaceChildren(b);
    }
    moved.hidden = !sentence;
  };
  // what the camera says now: a zone that grew (the editor takes its new outline) or a
  // knocked camera whose zones must be drawn again
  const follow = (data) => {
    const now = data.grown || {};
    if (!same(now, grown)) {
      Object.entries(now).forEach(([name, pts]) => {
        if (!same(grown[name], pts)) zones[name] = pts;
      });
      grown = now; showGrown(); draw();
    }
    showMoved(data.moved);
  };
  const refresh = () => {
    const next = new Image();
    next.onload = () => { img.src = next.src; setTimeout(refresh, 250); };
    next.onerror = () => setTimeout(refresh, 1000);
    next.src = `/host/camera.jpg?t=${Date.now()}`;
  };
  setTimeout(refresh, 250);
  setInterval(async () => {
    try {
      const asked = undone;
      const data = await (await fetch("/api/camera", { credentials: "same-origin" })).json();
      const c = data.camera || {};
      if (asked === undone) follow(data);
      const tags = Object.keys(c.tags || {}).length;
      document.getElementById("cam-status").textContent =
        `${c.state || "unknown"} · ${c.fps || 0} fps · decode ${c.decode_ms ?? "–"} ms · ${tags} tag(s) visible` +
        (c.last_error ? ` · ${c.last_error}` : "");
    } catch (err) { /* the next poll tries again */ }
  }, 2000);
  draw();
}

document.addEventListener("DOMContentLoaded", () => {
  const cam = document.getElementById("camera");
  if (cam) camera(cam);
});
