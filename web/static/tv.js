// The TV view: fit the whole page on one screen (first leave out the older events the
// table has no room for, then, only if it still does not fit, scale it down; never
// scroll), put "Live" in a corner nothing is drawn in, and keep the join codes current
// while a seat is free (joining a seat changes no game state, so the live stream does
// not say so); before a game, the camera's pre-game check, asked for every few seconds
// (the host lays cards and moves the lamp while everyone watches the TV).
(function () {
  "use strict";
  const REFRESH_MS = 4000, CHECK_MS = 3000;
  // what a sofa can do without, left out in this order before any word would be drawn
  // smaller: the last events but the newest, oldest first; Illegal's points per hand
  // (the side's scores keep the totals) and the hands its players revealed for the Day
  // of Accounting (its lines say what they cost; every phone lists them); in Crime
  // Lords, an attack's line of who attacks whom (its heading names both) and its
  // showdown's line (the status says who must still act), the Mobs' names (each
  // player's name stays), their Rackets' names (each Mob's count of Rackets stays), and
  // the last event while an attack is shown (the attack's panel says what is going on)
  const DROPS = [
    { sel: ".tv-side ol.events > li:not(:last-child)", each: true },
    { sel: ".illegal .tv-main > :is(h2:has(+ .tv-hide-chart), .tv-hide-chart)", each: false },
    { sel: ".illegal .seats .revealed", each: false },
    { sel: ".cl #attack > p.muted", each: false },
    { sel: ".cl #attack > p:has(> b:first-child)", each: false },
    { sel: ".tv-mob-name", each: false },
    { sel: ".tv-rackets", each: false },
    { sel: ".tv-grid:has(#attack) > .tv-side", each: false },
  ];
  const CORNERS = ["br", "bl", "tr", "tl"];

  function fits(main, k) {
    main.style.width = (window.innerWidth / k) + "px";
    const h = main.scrollHeight, w = main.scrollWidth;
    return h * k <= window.innerHeight + 0.5 && w * k <= window.innerWidth + 0.5 ? 0 : h;
  }

  function fit() {
    const main = document.getElementById("main");
    if (!main) return;
    main.style.transform = "";
    document.body.classList.remove("tv-conn-strip");
    scale(main, drop(main));
    if (!placeConn(main)) {  // the table reaches every corner: a strip for "Live"
      document.body.classList.add("tv-conn-strip");
      scale(main, drop(main));
      placeConn(main);
    }
  }

  // leave out what DROPS names, oldest first, until the page fits at full size (or all
  // of it is out); the scale it needs then
  function drop(main) {
    main.querySelectorAll(".tv-dropped").forEach((e) => e.classList.remove("tv-dropped"));
    if (!fits(main, 1)) return 1;
    for (const { sel, each } of DROPS) {
      const found = [...main.querySelectorAll(sel)];
      for (const e of found) {
        e.classList.add("tv-dropped");
        if (each && !fits(main, 1)) return 1;
      }
      if (found.length && !fits(main, 1)) return 1;
    }
    return null;
  }

  // the largest scale at most 1 at which the page fits the screen (``known``: 1 fits)
  function scale(main, known) {
    let k = 1, best = known;
    for (let i = 0; i < 6 && known === null; i++) {
      const tall = fits(main, k);
      if (!tall) {
        best = k;
        const up = Math.min(1, window.innerHeight / main.scrollHeight);
        if (k >= 1 || up <= k * 1.01) break;
        k = up;
      } else {
        k = Math.min(window.innerHeight / tall, window.innerWidth / main.scrollWidth, k * 0.97);
      }
    }
    if (best === null) best = k;
    main.style.width = (window.innerWidth / best) + "px";
    main.style.transform = best < 1 ? "scale(" + best + ")" : "";
    document.documentElement.dataset.tvScale = best.toFixed(3);
  }

  // the boxes the page draws something in: each line of text, a picture, a background or
  // a border (a block's empty width beside its words is free)
  function drawn(main) {
    const out = [];
    for (const e of main.querySelectorAll("*")) {
      if (e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === "hidden") continue;
      if (/^(svg|img|canvas|video)$/i.test(e.tagName)
          || !/rgba\(0, 0, 0, 0\)|transparent/.test(cs.backgroundColor)
          || parseFloat(cs.borderTopWidth) + parseFloat(cs.borderLeftWidth) > 0) out.push(r);
      for (const n of e.childNodes) {
        if (n.nodeType !== 3 || !n.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        out.push(...range.getClientRects());
      }
    }
    return out;
  }

  // "Live" in the first corner where it covers nothing; false when every corner is taken
  function placeConn(main) {
    const conn = document.getElementById("conn");
    if (!conn || !conn.classList.contains("tv-conn")) return true;
    const boxes = drawn(main);
    for (const corner of CORNERS) {
      conn.dataset.corner = corner;
      const c = conn.getBoundingClientRect();
      if (!boxes.some((r) => r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom))
        return true;
    }
    conn.dataset.corner = CORNERS[0];
    return false;
  }

  function refreshJoins() {
    const aside = document.getElementById("tv-joins");
    if (!aside || !aside.dataset.refresh) return;
    fetch(aside.dataset.refresh, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null || html === aside.innerHTML) return;
        aside.innerHTML = html;
        const empty = html.trim() === "";
        aside.hidden = empty;
        const wifi = document.querySelector(".tv-codes .wifi-tv") !== null;
        document.getElementById("tv-screen").classList.toggle("with-joins", !empty || wifi);
        fit();
      })
      .catch(() => {});
  }

  function refreshCheck() {
    const box = document.getElementById("tv-check");
    if (!box) return;
    fetch(box.dataset.src, { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null || html === box.dataset.shown) return;
        box.dataset.shown = html;
        box.innerHTML = html;
        box.hidden = html.trim() === "";
        fit();
      })
      .catch(() => {});
  }

  function start() {
    fit();
    const conn = document.getElementById("conn"), main = document.getElementById("main");
    if (conn && main)  // its words come with the stream ("Live", "Reconnecting…")
      new MutationObserver(() => { if (!placeConn(main)) fit(); })
        .observe(conn, { childList: true, characterData: true, subtree: true });
    if (document.getElementById("tv-check")) {
      refreshCheck();
      window.setInterval(refreshCheck, CHECK_MS);
    }
    window.addEventListener("resize", fit);
    document.addEventListener("tc:snapshot", () => window.requestAnimationFrame(fit));
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
    window.setInterval(refreshJoins, REFRESH_MS);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
