// The camera check on the host and camera pages: refreshed from GET /api/camera every
// few seconds (the figures move as the host lays cards and moves the lamp).
(function () {
  "use strict";
  var box = document.getElementById("camera-check");
  if (!box) return;
  var WORDS = { green: "ready", amber: "check this", red: "fix this first" };
  var LABELS = { light: "Light", glare: "Glare", reads: "Reads", size: "Code size" };
  var OVERALL = { green: "Ready to play.", amber: "Not ready yet: see the lines marked \u201ccheck this\u201d.",
                  red: "Fix the red lines before playing." };

  function line(tag, cls, bold, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (bold) { var b = document.createElement("b"); b.textContent = bold; el.appendChild(b); }
    if (text) el.appendChild(document.createTextNode(text));
    return el;
  }

  function show(check) {
    if (!check || !check.verdicts) return;
    var level = document.getElementById("check-level");
    level.className = "cc-line " + check.level;
    level.replaceChildren(line("b", "", "", OVERALL[check.level] || ""));
    var list = document.getElementById("check-list");
    list.replaceChildren.apply(list, check.verdicts.map(function (v) {
      return line("li", "cc-line " + v.level, LABELS[v.what] || v.what,
                  " (" + (WORDS[v.level] || v.level) + "): " + v.sentence);
    }));
    var warn = document.getElementById("check-warnings");
    warn.replaceChildren.apply(warn, (check.warnings || []).map(function (w) {
      return line("p", "muted", "", w);
    }));
  }

  function poll() {
    fetch(box.dataset.src, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { if (body && body.camera) show(body.camera.check); })
      .catch(function () {})
      .then(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 3000);
})();
