/* nasty7: page code of this game (loaded by base.html after app.js).
   The dispute clip player (/clips/<game>/<n>): play, pause and step frame by frame, with
   the running clock since the card before ("2.4 s of 3 s"). */
"use strict";

function clipPlayer(box) {
  const img = document.getElementById("clip-frame");
  const clock = document.getElementById("clip-clock");
  const pos = document.getElementById("clip-pos");
  const play = document.getElementById("clip-play");
  let meta = null;
  let i = 0;
  let timer = null;
  const show = (k) => {
    if (!meta || !meta.frames.length) return;
    i = Math.max(0, Math.min(meta.frames.length - 1, k));
    const f = meta.frames[i];
    img.src = box.dataset.base + f.file;
    const secs = Math.max(0, f.t - meta.start);
    const limit = Number(meta.limit) || 3;
    clock.textContent = `${secs.toFixed(1)} s${secs > limit ? ` — over ${limit} s` : ` of ${limit} s`}`;
    clock.classList.toggle("late", secs > limit);
    pos.textContent = `Frame ${i + 1} of ${meta.frames.length}`;
  };
  const stop = () => { clearTimeout(timer); timer = null; play.textContent = "Play"; };
  const step = () => {
    if (i >= meta.frames.length - 1) { stop(); return; }
    const wait = Math.max(20, (meta.frames[i + 1].t - meta.frames[i].t) * 1000);
    timer = setTimeout(() => { show(i + 1); step(); }, wait);
  };
  play.addEventListener("click", () => {
    if (!meta) return;
    if (timer) { stop(); return; }
    if (i >= meta.frames.length - 1) show(0);
    play.textContent = "Pause";
    step();
  });
  document.getElementById("clip-prev").addEventListener("click", () => { stop(); show(i - 1); });
  document.getElementById("clip-next").addEventListener("click", () => { stop(); show(i + 1); });
  const what = document.getElementById("clip-what");
  let tries = 0;
  const load = () => {
    fetch(box.dataset.meta, { credentials: "same-origin" }).then((r) => {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then((m) => {
      meta = m;
      what.textContent = m.title || "Replay";
      if (!m.frames.length) { what.textContent += " (no frames were recorded)"; return; }
      img.hidden = false;
      [play, document.getElementById("clip-prev"), document.getElementById("clip-next")]
        .forEach((b) => { b.disabled = false; });
      show(0);
      box.dataset.ready = "1";
    }).catch(() => {
      tries += 1;
      if (tries < 20) { what.textContent = "The clip is being saved…"; setTimeout(load, 500); }
      else what.textContent = "No clip was saved for this moment (was the camera running?).";
    });
  };
  load();
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("clip");
  if (box) clipPlayer(box);
});
