// The TV view: fit the whole page on one screen (scale it down when a game's table is
// taller than the screen; never scroll), and keep the join codes current while a seat
// is free (joining a seat changes no game state, so the live stream does not say so);
// before a game, the camera's pre-game check, asked for every few seconds (the host lays
// cards and moves the lamp while everyone watches the TV).
(function () {
  "use strict";
  const REFRESH_MS = 4000, CHECK_MS = 3000;

  function fits(main, k) {
    main.style.width = (window.innerWidth / k) + "px";
    const h = main.scrollHeight, w = main.scrollWidth;
    return h * k <= window.innerHeight + 0.5 && w * k <= window.innerWidth + 0.5 ? 0 : h;
  }

  function fit() {
    const main = document.getElementById("main");
    if (!main) return;
    main.style.transform = "";
    let k = 1, best = null;
    for (let i = 0; i < 6; i++) {
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
