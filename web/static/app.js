/* Table Companion dashboard: live updates (SSE with resume) morphed into the page so
   open sections, focus, typed text and scroll survive (morphdom, vendored in
   static/vendor/), forms that POST JSON, the hesitation timer bar, the setup form, and
   the phone comforts (turn alert by vibration and sound, screen wake lock). No framework.
   The camera page's zone editor is camera.js; each game's own page code is
   static/games/<game>.js. */
"use strict";

const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

function say(text, bad) {
  const el = document.getElementById("answer");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  el.classList.toggle("bad", !!bad);
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { el.hidden = true; }, bad ? 9000 : 3500);
}

/* A client request id: a retry of the same press carries the same id, so the table
   answers "already done" instead of storing it twice. (crypto.randomUUID needs https.) */
const newRequestId = () => Date.now().toString(36) + Math.random().toString(36).slice(2);

async function post(url, body, requestId = newRequestId()) {
  let resp;
  try {
    resp = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf(),
                 "X-Request-Id": requestId },
      body: JSON.stringify(body || {}),
    });
  } catch (err) {
    return { accepted: false, reason: "No connection to the table: check the Wi-Fi and try again." };
  }
  let data = null;
  try { data = await resp.json(); } catch (err) { data = null; }
  if (data && typeof data.accepted === "boolean") return data;
  const reason = resp.status === 403 ? "Not allowed: reload the page (or join your seat again)."
    : `The table answered ${resp.status}.`;
  return { accepted: false, reason: (data && data.description) || reason };
}

function report(result) {
  if (result.accepted) say(result.ignored ? "Nothing to do." : "Done.", false);
  else say(`Refused: ${result.reason}`, true);
}

/* ---- live view ----------------------------------------------------------------- */

function keepEdits(container, render) {
  // Without morphdom: keep edited fields and focus across an innerHTML swap.
  const edited = {};
  container.querySelectorAll("input[id], select[id], textarea[id]").forEach((el) => {
    if (el.dataset.dirty) edited[el.id] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
  });
  const open = [...container.querySelectorAll("details[open]")].map(summaryKey);
  const focused = document.activeElement && document.activeElement.id;
  render();
  for (const [id, value] of Object.entries(edited)) {
    const el = document.getElementById(id);
    if (!el) continue;
    if (el.type === "checkbox" || el.type === "radio") el.checked = value; else el.value = value;
    el.dataset.dirty = "1";
  }
  container.querySelectorAll("details").forEach((d) => { if (open.includes(summaryKey(d))) d.open = true; });
  if (focused) { const el = document.getElementById(focused); if (el) el.focus(); }
}

function summaryKey(details) {
  const summary = details.querySelector("summary");
  return details.id || (summary ? summary.textContent.trim() : "");
}

function keepState(fromEl, toEl) {
  // morphdom hook: what a person did to the page wins over the new snapshot.
  if (fromEl.isEqualNode(toEl)) return false;
  // the "your move" card (move.js) keeps a step half done while its moves are the same
  if (typeof tcCard !== "undefined" && tcCard.keep(fromEl, toEl)) return false;
  if (fromEl.tagName === "DETAILS") {
    if (fromEl.open) toEl.setAttribute("open", ""); else toEl.removeAttribute("open");
  }
  if (fromEl.dataset && fromEl.dataset.dirty) {
    toEl.dataset.dirty = "1";
    if (fromEl.type === "checkbox" || fromEl.type === "radio") {
      if (fromEl.checked) toEl.setAttribute("checked", ""); else toEl.removeAttribute("checked");
    } else if (fromEl.tagName === "SELECT") {
      [...toEl.options].forEach((o) => { o.toggleAttribute("selected", o.value === fromEl.value); });
    } else if ("value" in fromEl) {
      // the property only: the value attribute is the field's default, which an accepted
      // form is reset to (setting it here kept "4200" in the bribe field after placing it)
      toEl.value = fromEl.value;
    }
  }
  return true;
}

function morph(container, html) {
  if (typeof window.morphdom !== "function") {
    keepEdits(container, () => { container.innerHTML = html; });
    return;
  }
  const next = container.cloneNode(false);
  next.innerHTML = html;
  window.morphdom(container, next, { childrenOnly: true, onBeforeElUpdated: keepState });
  // morphing can leave a select with nothing chosen when no option carries "selected":
  // choose its first option again, as a freshly loaded page would
  container.querySelectorAll("select").forEach((s) => {
    if (s.selectedIndex < 0 && s.options.length) s.selectedIndex = 0;
  });
}

// the timers' animation runs only while a timer is on the page: a frame loop that ran
// forever cost an idle phone's browser a tenth of a core (its battery) with nothing to draw
let ticking = false;

function startTimers(root) {
  const t0 = performance.now();
  // a timer the morph left as it was keeps its start; a new or changed one starts now
  root.querySelectorAll(".timer[data-deadline]").forEach((el) => { if (!el.dataset.t0) el.dataset.t0 = t0; });
  if (!ticking && document.querySelector(".timer[data-deadline]")) {
    ticking = true;
    requestAnimationFrame(tickTimers);
  }
}

function tickTimers() {
  const timers = document.querySelectorAll(".timer[data-deadline]");
  timers.forEach((el) => {
    const elapsed = (performance.now() - Number(el.dataset.t0 || performance.now())) / 1000;
    const left = Number(el.dataset.deadline) - (Number(el.dataset.now) + elapsed);
    const total = Math.max(0.1, Number(el.dataset.seconds) || 3);
    const share = Math.max(0, Math.min(1, left / total));
    el.querySelector(".bar").style.width = `${(share * 100).toFixed(1)}%`;
    el.querySelector(".secs").textContent = `${Math.max(0, left).toFixed(1)} s`;
    el.classList.toggle("low", share < 0.34 && left > 0);
    el.classList.toggle("out", left <= 0);
  });
  ticking = timers.length > 0;
  if (ticking) requestAnimationFrame(tickTimers);
}

async function refresh(container) {
  // a page whose live part is not in the stream (the history): fetch it again
  try {
    const resp = await fetch(container.dataset.refresh, { credentials: "same-origin" });
    if (resp.ok) morph(container, await resp.text());
  } catch (err) { /* the next snapshot tries again */ }
}

function live(container) {
  const conn = document.getElementById("conn");
  let last = container.dataset.last || "";
  let source = null;
  let retry = null;
  const status = (text, ok) => {
    if (!conn) return;
    conn.textContent = text;
    conn.classList.toggle("live", ok);
    conn.classList.toggle("down", !ok);
  };
  const connect = () => {
    clearTimeout(retry);
    if (source) source.close();
    const url = container.dataset.stream;
    source = new EventSource(url + (url.includes("?") ? "&" : "?") + "last=" + encodeURIComponent(last));
    source.onopen = () => status("Live", true);
    source.addEventListener("snapshot", (e) => {
      last = e.lastEventId || last;
      const data = JSON.parse(e.data);
      const known = container.dataset.gameId;
      if (container.dataset.reloadOnGame && known !== undefined && (data.game_id || "") !== known) {
        location.reload();
        return;
      }
      if (typeof data.html === "string") {
        morph(container, data.html);
        startTimers(container);
      } else if (container.dataset.refresh) {
        refresh(container);
      }
      if (typeof data.can_undo === "boolean") {  // the panel's Undo follows the game
        document.querySelectorAll('button[data-command="undo"]').forEach((b) => { b.disabled = !data.can_undo; });
        document.querySelectorAll(".undo-off").forEach((p) => { p.hidden = data.can_undo; });
      }
      if (data.seq !== undefined && data.seq !== null) container.dataset.seen = String(data.seq);
      container.dispatchEvent(new CustomEvent("snapshot", { detail: data }));
      document.dispatchEvent(new CustomEvent("tc:snapshot", { detail: data }));
      status("Live", true);
    });
    source.addEventListener("denied", () => {
      source.close();
      status("Not your seat any more", false);
      location.reload();
    });
    source.onerror = () => {
      status("Reconnecting…", false);
      if (source.readyState === EventSource.CLOSED) retry = setTimeout(connect, 2000);
    };
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) connect();
  });
  window.addEventListener("online", connect);
  connect();
}

/* ---- forms --------------------------------------------------------------------- */

function fieldValue(el) {
  const type = el.dataset.type || (el.type === "number" ? "int" : "str");
  if (type === "bool") return el.checked;
  const raw = el.value.trim();
  if (raw === "") return undefined;
  if (type === "int") return parseInt(raw, 10);
  if (type === "float") return parseFloat(raw);
  if (type === "json") return JSON.parse(raw);
  if (type === "ints") return raw.split(/[,\s]+/).filter(Boolean).map((x) => parseInt(x, 10));
  if (type === "list") return [raw];  // one card, sent as a list
  if (type === "list3") return [raw, raw, raw];  // three identical cards
  return raw;
}

function actionOf(form) {
  const json = form.querySelector('[name="action_json"]');
  if (json) return JSON.parse(json.value);
  const action = { do: form.dataset.do };
  form.querySelectorAll("[name]").forEach((el) => {
    if (el.type === "radio" && !el.checked) return;
    if (["csrf_token", "do", "__types", "__extra", "__items"].includes(el.name)) return;  // plain-post fields
    if (el.dataset.item) {  // e.g. Casablanca bribes: amounts: [{agent, amount}]
      const v = fieldValue(el);
      if (v === undefined || v === 0) return;
      (action[el.dataset.item] = action[el.dataset.item] || []).push({ [el.dataset.key]: el.dataset.keyval, [el.name]: v });
      return;
    }
    const v = fieldValue(el);
    if (v !== undefined) action[el.name] = v;
  });
  if (form.dataset.extra) Object.assign(action, JSON.parse(form.dataset.extra));
  return action;
}

function startArgs(form) {
  const game = form.querySelector('[name="game"]').value;
  const players = [...form.querySelectorAll('[name="player"]')].map((el) => el.value.trim())
    .map((name, i) => name || `Player ${i + 1}`);
  const options = {};
  const box = form.querySelector(`fieldset.options[data-game="${game}"]`);
  if (box) box.querySelectorAll("[data-key]").forEach((el) => {
    if (el.type === "radio" && !el.checked) return;
    const v = fieldValue(el);
    if (v !== undefined) options[el.dataset.key] = v;
  });
  return { game, players, options };
}

async function submitForm(form) {
  let body;
  try {
    if (form.dataset.kind === "start") body = startArgs(form);
    else body = { action: actionOf(form) };
  } catch (err) {
    say(`That is not valid JSON: ${err.message}`, true);
    return;
  }
  const url = form.dataset.post || form.closest("[data-post]").dataset.post;
  // only the buttons this press disabled are enabled again (a button the table greyed
  // out stays so)
  const buttons = [...form.querySelectorAll("button")].filter((b) => !b.disabled);
  buttons.forEach((b) => { b.disabled = true; });
  // the same id until the table accepts: a retry after a lost answer is not stored twice
  form.dataset.rid = form.dataset.rid || newRequestId();
  const result = await post(url, body, form.dataset.rid);
  buttons.forEach((b) => { b.disabled = false; });
  report(result);
  if (result.accepted || (result.reason && !/connection/i.test(result.reason))) delete form.dataset.rid;
  if (result.accepted) {
    // the live view may have been redrawn meanwhile: reset the fields by id
    form.querySelectorAll("input[id], textarea[id]").forEach((old) => {
      const el = document.getElementById(old.id) || old;
      delete el.dataset.dirty;
      if (el.type !== "checkbox" && !form.dataset.then) el.value = el.defaultValue;
    });
    // page code that shows sums of the fields (a bribe sheet's "left") recounts
    document.dispatchEvent(new CustomEvent("fieldsreset"));
    if (form.dataset.then) location.href = form.dataset.then;
  }
}

document.addEventListener("submit", (e) => {
  const plain = e.target.closest("form[data-confirm]:not(.act):not([data-post])");
  if (plain) {  // a plain POST (e.g. re-issue a seat's code): ask first
    if (!window.confirm(plain.dataset.confirm)) e.preventDefault();
    return;
  }
  const form = e.target.closest("form.act, form[data-post]");
  if (!form) return;
  e.preventDefault();
  submitForm(form);
});

function markDirty(e) {
  const el = e.target;
  if (!el.dataset) return;
  el.dataset.dirty = "1";
  if (el.type === "radio" && el.form) {  // the whole group: its checked one moved
    el.form.querySelectorAll(`input[type="radio"][name="${CSS.escape(el.name)}"]`)
      .forEach((r) => { r.dataset.dirty = "1"; });
  }
}
document.addEventListener("input", markDirty);
document.addEventListener("change", markDirty);

document.addEventListener("click", async (e) => {
  const button = e.target.closest("button[data-command]");
  if (!button) return;
  let question = button.dataset.confirm;
  if (button.dataset.confirmFrom) {  // e.g. Undo names what it takes back, as of now
    try {
      const text = (await (await fetch(button.dataset.confirmFrom, { credentials: "same-origin" })).text()).trim();
      if (text) question = `Undo: ${text}?`;
    } catch (err) { /* keep the page's wording */ }
  }
  if (question && !window.confirm(question)) return;
  button.disabled = true;
  const result = await post(`/api/host/${button.dataset.command}`, {});
  button.disabled = false;
  report(result);
  if (result.accepted && location.pathname !== "/") setTimeout(() => location.reload(), 300);
});

/* ---- setup --------------------------------------------------------------------- */

function setup(form) {
  const game = form.querySelector("#game");
  const list = form.querySelector("#players");
  const show = () => {
    form.querySelectorAll("fieldset.options").forEach((fs) => {
      const on = fs.dataset.game === game.value;
      fs.hidden = !on;
      fs.disabled = !on;
    });
  };
  const seats = () => {
    // seat options (starter, dealer) offer the players by name: follow the list
    const names = [...list.querySelectorAll('[name="player"]')].map((el, i) => el.value.trim() || `Player ${i + 1}`);
    form.querySelectorAll('fieldset.choices[data-seats]').forEach((fs) => {
      const radios = [...fs.querySelectorAll('input[type="radio"]')];
      const proto = radios[radios.length - 1];
      if (!proto) return;
      const fixed = radios.filter((r) => r.value === "null");
      const seatRadios = radios.filter((r) => r.value !== "null");
      seatRadios.slice(names.length).forEach((r) => r.closest(".check").remove());
      names.forEach((name, i) => {
        let r = seatRadios[i];
        if (!r) {
          const row = proto.closest(".check").cloneNode(true);
          r = row.querySelector("input");
          r.id = `${proto.name.replace(/\W/g, "-")}-seat-${i}`;
          r.value = String(i);
          r.checked = false;
          row.querySelector("label").htmlFor = r.id;
          fs.appendChild(row);
        }
        r.closest(".check").querySelector("label").textContent = `${name} (seat ${i + 1})`;
      });
      if (!fs.querySelector("input:checked")) (fixed[0] || fs.querySelector("input")).checked = true;
    });
  };
  game.addEventListener("change", show);
  list.addEventListener("input", seats);
  show();
  form.querySelector("#add-player").addEventListener("click", () => {
    const max = Number(game.selectedOptions[0].dataset.max || 8);
    const n = list.children.length + 1;
    if (n > max) { say(`This game is for at most ${max} players.`, true); return; }
    const li = document.createElement("li");
    li.innerHTML = `<label class="sr-only" for="player-${n}">Player ${n}</label>` +
      `<input id="player-${n}" name="player" placeholder="Player ${n}" autocomplete="off">`;
    list.appendChild(li);
    li.querySelector("input").focus();
    seats();
  });
  form.querySelector("#remove-player").addEventListener("click", () => {
    if (list.children.length > 1) list.lastElementChild.remove();
    seats();
  });
}

/* ---- phone comforts: turn alert, screen wake lock ------------------------------- */

const prefs = {
  get(key, dflt) { try { const v = localStorage.getItem(`tc.${key}`); return v === null ? dflt : v === "1"; } catch (err) { return dflt; } },
  set(key, on) { try { localStorage.setItem(`tc.${key}`, on ? "1" : "0"); } catch (err) { /* private mode */ } },
};

function needsMe(data) {
  // Whether this seat's payload asks for its player: the engine's attention flag (the
  // same rule as web/render.py needs_me, which sets the page's first data-attention).
  const a = (data.private || {}).attention || {};
  return a.act === true;
}

let chime = null;
function alertTurn() {
  if (!prefs.get("alert", true)) return;
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
  if (prefs.get("sound", false)) {
    chime = chime || new Audio(document.body.dataset.chime || "/static/turn.wav");
    chime.currentTime = 0;
    chime.play().catch(() => { /* the phone did not allow sound yet */ });
  }
}

let wakeLock = null;
async function keepAwake(on) {
  const note = document.getElementById("wake-note");
  if (!("wakeLock" in navigator)) {
    if (note) note.textContent = "This browser cannot keep the screen on: set a longer screen timeout in the phone's settings.";
    return;
  }
  try {
    if (on && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
      if (note) note.textContent = "The screen stays on while this page is open.";
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
      if (note) note.textContent = "The screen turns off as usual.";
    }
  } catch (err) {
    if (note) note.textContent = "The screen could not be kept on (battery saver?): it turns off as usual.";
  }
}

function comforts(page) {
  const alert = page.querySelector("#pref-alert");
  const sound = page.querySelector("#pref-sound");
  const awake = page.querySelector("#pref-awake");
  if (alert) { alert.checked = prefs.get("alert", true); alert.addEventListener("change", () => { prefs.set("alert", alert.checked); if (sound) sound.disabled = !alert.checked; }); }
  if (sound) {
    sound.checked = prefs.get("sound", false);
    sound.disabled = alert && !alert.checked;
    sound.addEventListener("change", () => { prefs.set("sound", sound.checked); if (sound.checked) alertTurn(); });
  }
  if (awake) {
    awake.checked = prefs.get("awake", true);
    awake.addEventListener("change", () => { prefs.set("awake", awake.checked); keepAwake(awake.checked); });
    keepAwake(awake.checked);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && awake.checked) keepAwake(true);
    });
  }
  const live = document.querySelector('#live[data-stream*="/api/seat/"]');
  if (!live) return;
  let before = live.dataset.attention === "1";
  document.body.classList.toggle("my-turn", before);
  live.addEventListener("snapshot", (e) => {
    const now = needsMe(e.detail);
    if (!before && now) alertTurn();
    before = now;
    document.body.classList.toggle("my-turn", now);
  });
}

/* ---- start --------------------------------------------------------------------- */

document.addEventListener("DOMContentLoaded", () => {
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
  document.querySelectorAll("[data-stream]").forEach(live);
  startTimers(document);
  const form = document.getElementById("setup");
  if (form) setup(form);
  const prefsBox = document.getElementById("comforts");
  if (prefsBox) comforts(prefsBox);
});
