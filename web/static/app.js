/* Table Companion dashboard: live updates (SSE with resume), forms that POST JSON,
   the hesitation timer bar, the setup form. No framework. The camera page's zone editor is camera.js; each
   game's own page code is static/games/<game>.js. */
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

async function post(url, body) {
  let resp;
  try {
    resp = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
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
  // A snapshot must not wipe what a player is typing: keep edited fields and focus.
  const edited = {};
  container.querySelectorAll("input[id], select[id], textarea[id]").forEach((el) => {
    if (el.dataset.dirty) edited[el.id] = el.type === "checkbox" ? el.checked : el.value;
  });
  const focused = document.activeElement && document.activeElement.id;
  render();
  for (const [id, value] of Object.entries(edited)) {
    const el = document.getElementById(id);
    if (!el) continue;
    if (el.type === "checkbox") el.checked = value; else el.value = value;
    el.dataset.dirty = "1";
  }
  if (focused) { const el = document.getElementById(focused); if (el) el.focus(); }
}

function startTimers(root) {
  const t0 = performance.now();
  root.querySelectorAll(".timer[data-deadline]").forEach((el) => { el.dataset.t0 = t0; });
}

function tickTimers() {
  document.querySelectorAll(".timer[data-deadline]").forEach((el) => {
    const elapsed = (performance.now() - Number(el.dataset.t0 || performance.now())) / 1000;
    const left = Number(el.dataset.deadline) - (Number(el.dataset.now) + elapsed);
    const total = Math.max(0.1, Number(el.dataset.seconds) || 3);
    const share = Math.max(0, Math.min(1, left / total));
    el.querySelector(".bar").style.width = `${(share * 100).toFixed(1)}%`;
    el.querySelector(".secs").textContent = `${Math.max(0, left).toFixed(1)} s`;
    el.classList.toggle("low", share < 0.34 && left > 0);
    el.classList.toggle("out", left <= 0);
  });
  requestAnimationFrame(tickTimers);
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
        keepEdits(container, () => { container.innerHTML = data.html; });
        startTimers(container);
      }
      container.dispatchEvent(new CustomEvent("snapshot", { detail: data }));
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
  if (box) box.querySelectorAll("[name]").forEach((el) => {
    const v = fieldValue(el);
    if (v !== undefined) options[el.name] = v;
  });
  const json = form.querySelector('[name="options_json"]').value.trim();
  return { game, players, options: json ? JSON.parse(json) : options };
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
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => { b.disabled = true; });
  const result = await post(url, body);
  buttons.forEach((b) => { b.disabled = false; });
  report(result);
  if (result.accepted) {
    // the live view may have been redrawn meanwhile: reset the fields by id
    form.querySelectorAll("input[id], textarea[id]").forEach((old) => {
      const el = document.getElementById(old.id) || old;
      delete el.dataset.dirty;
      if (el.type !== "checkbox" && !form.dataset.then) el.value = el.defaultValue;
    });
    if (form.dataset.then) location.href = form.dataset.then;
  }
}

document.addEventListener("submit", (e) => {
  const form = e.target.closest("form.act, form[data-post]");
  if (!form) return;
  e.preventDefault();
  submitForm(form);
});

document.addEventListener("input", (e) => { if (e.target.dataset) e.target.dataset.dirty = "1"; });

document.addEventListener("click", async (e) => {
  const button = e.target.closest("button[data-command]");
  if (!button) return;
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
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
  game.addEventListener("change", show);
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
  });
  form.querySelector("#remove-player").addEventListener("click", () => {
    if (list.children.length > 1) list.lastElementChild.remove();
  });
}

/* ---- start --------------------------------------------------------------------- */

document.addEventListener("DOMContentLoaded", () => {
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
  document.querySelectorAll("[data-stream]").forEach(live);
  startTimers(document);
  requestAnimationFrame(tickTimers);
  const form = document.getElementById("setup");
  if (form) setup(form);
});
