// "How this works": three steps per game, shown once per phone or screen (localStorage
// "tc-intro-<game>"), skippable; the last step's button reads "Got it".
(function () {
  "use strict";

  function remembered(key) {
    try { return window.localStorage.getItem(key) === "seen"; } catch (e) { return false; }
  }

  function remember(key) {
    try { window.localStorage.setItem(key, "seen"); } catch (e) { /* private mode: ask again */ }
  }

  function start() {
    const box = document.getElementById("intro");
    if (!box) return;
    const key = "tc-intro-" + box.dataset.intro;
    if (remembered(key)) return;
    const steps = Array.from(box.querySelectorAll("[data-step]"));
    if (!steps.length) return;  // a game without its three steps
    steps.forEach((li, i) => {
      const n = document.createElement("span");
      n.className = "intro-n";
      n.textContent = (i + 1) + " of " + steps.length;
      li.prepend(n, " ");
    });
    const next = box.querySelector(".intro-next");
    let at = 0;
    function show() {
      steps.forEach((li, i) => { li.hidden = i !== at; });
      next.textContent = at === steps.length - 1 ? "Got it" : "Next";
    }
    function close() { remember(key); box.hidden = true; }
    next.addEventListener("click", () => {
      if (at >= steps.length - 1) { close(); return; }
      at += 1;
      show();
    });
    box.querySelector(".intro-skip").addEventListener("click", close);
    show();
    box.hidden = false;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
