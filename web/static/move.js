/* The "your move" card (templates/_yourmove.html), built from the engine's moves for
   every game alike: no game has card code of its own.

   A move is {do, label, fixed, params, group, allowed, why} (companion/games/moves.py).
   The card's first screen shows the moves as large buttons: moves of one group are one
   entry (the first group with anything allowed is laid out inline as chips, the others
   open as a step); a move that exists but is not allowed now is greyed with its why.
   A move with parameters asks them one at a time inside the card (kinds: one, some,
   number, split, text, fields); a parameter with a single choice is taken without
   asking, so one choice is one tap. The finished action is posted with app.js's post()
   (CSRF, request id) to the nearest [data-post]; a refusal shows the engine's sentence
   in the card. app.js's morph keeps a card whose moves did not change (keep()), so a
   step half done survives a live update that changes nothing for this card. */
"use strict";

const tcCard = (() => {
  const states = new WeakMap();

  function h(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === "on") node.addEventListener("click", v);
      else if (k === "text") node.textContent = tidy(v);
      else if (k in node && typeof v !== "string") node[k] = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    kids.flat().forEach((kid) => { if (kid) node.append(kid); });
    return node;
  }

  // an amount never breaks inside ("5 000 €" keeps together on a narrow phone)
  const tidy = (v) => String(v).replace(/(\d) (?=\d{3}(?!\d))/g, "$1\u202f").replace(/ (€)/g, "\u00a0$1");

  const words = (key) => {
    const text = String(key).replace(/_/g, " ").trim();
    return text.charAt(0).toUpperCase() + text.slice(1);
  };

  function entries(moves) {
    // groups in the order they first appear; a group of one move is that move
    const order = [];
    const groups = new Map();
    moves.forEach((m, i) => {
      const key = m.group || `#${i}`;
      if (!groups.has(key)) { groups.set(key, []); order.push(key); }
      groups.get(key).push(m);
    });
    return order.map((key) => ({ key, moves: groups.get(key),
      label: key.startsWith("#") ? groups.get(key)[0].label : words(key) }));
  }

  function alone(m) {
    // a move shown without its group's heading says what it does ("Eliminate: Agent Green")
    const group = words(m.group || "");
    return !group || m.label.toLowerCase().includes(group.toLowerCase().slice(0, 5))
      ? m.label : `${group}: ${m.label}`;
  }

  function uniqueWhys(moves) {
    return [...new Set(moves.filter((m) => !m.allowed && m.why).map((m) => m.why))];
  }

  /* ---- the state of one card ------------------------------------------------------ */

  function stateOf(card) {
    let st = states.get(card);
    const moves = JSON.parse(card.dataset.moves || "[]");
    if (!st || st.source !== card.dataset.moves) {
      st = { source: card.dataset.moves, moves, group: null, move: null, values: {},
             i: 0, pick: null, error: "", busy: false, rid: "" };
      states.set(card, st);
      openOnly(st);
    }
    return st;
  }

  function openOnly(st) {
    // one thing allowed, with something to ask (Illegal's reveal, card by card): its
    // first question is the card's first screen, so one choice is one tap
    const open = st.moves.filter((m) => m.allowed);
    if (open.length !== 1 || !open[0].params.length) return;
    st.move = open[0];
    fill(st);
    if (st.i >= st.move.params.length) reset(st);  // nothing to ask: a button to tap
  }

  function fill(st) {
    const params = st.move.params;
    while (st.i < params.length && autoChoice(params[st.i]) !== undefined) {
      st.values[params[st.i].name] = autoChoice(params[st.i]);
      st.i += 1;
    }
  }

  function draw(card) {
    const st = stateOf(card);
    const body = card.querySelector(".ym-body");
    body.replaceChildren();
    if (st.error) body.append(h("p", { class: "ym-refused", role: "alert", text: st.error }));
    if (st.move && st.i >= st.move.params.length) body.append(h("p", { class: "ym-crumbs", text: `${crumbs(st)}: sending…` }));
    else if (st.move) body.append(...paramStep(card, st));
    else if (st.group !== null) body.append(...groupStep(card, st));
    else body.append(...topStep(card, st));
    card.dataset.built = "1";
    if (st.busy) body.querySelectorAll("button, input, select").forEach((b) => { b.disabled = true; });
  }

  function reset(st) {
    Object.assign(st, { group: null, move: null, values: {}, i: 0, pick: null });
  }

  /* ---- first screen: every move or group -------------------------------------------- */

  // a move or a choice that costs a player a penalty ("costly": a card out of turn takes
  // the pile) has the warning look, never the look of the usual move
  const costly = (cls, x) => (x.costly ? `${cls} ym-costly` : cls);

  function moveButton(card, st, m, cls) {
    return h("button", { type: "button", class: costly(cls || "ym-choice", m), disabled: !m.allowed,
                         text: m.label, on: () => choose(card, st, m) });
  }

  function topStep(card, st) {
    const out = [];
    const off = [];
    let inlined = false;
    for (const e of entries(st.moves)) {
      const open = e.moves.filter((m) => m.allowed);
      if (!open.length) { off.push(e); continue; }
      if (e.moves.length === 1) {
        const button = moveButton(card, st, e.moves[0], "ym-big");
        button.textContent = alone(e.moves[0]);
        out.push(h("div", { class: "ym-row" }, button));
      } else if (!inlined) {
        inlined = true;
        out.push(groupBlock(card, st, e, true));
      } else {
        const cls = open.every((m) => m.costly) ? "ym-big ym-costly" : "ym-big secondary";
        out.push(h("div", { class: "ym-row" }, h("button", { type: "button", class: cls,
          text: `${e.label}…`, on: () => { st.group = e.key; st.error = ""; draw(card); } })));
      }
    }
    if (off.length) out.push(offBlock(off));
    return out;
  }

  function groupBlock(card, st, e, heading) {
    const open = e.moves.filter((m) => m.allowed);
    const shut = e.moves.filter((m) => !m.allowed);
    const box = h("div", { class: "ym-group" });
    if (heading) box.append(h("h3", { class: "ym-step", text: e.label }));
    box.append(h("div", { class: "ym-chips", role: "group", "aria-label": e.label },
                 open.map((m) => moveButton(card, st, m))));
    if (shut.length) {
      box.append(h("details", { class: "ym-notnow" },
        h("summary", { text: `Not now (${shut.length})` }),
        h("ul", {}, shut.map((m) => h("li", {}, h("span", { class: "ym-off-label", text: m.label }),
                                               h("span", { class: "muted", text: ` — ${m.why || ""}` }))))));
    }
    return box;
  }

  function offBlock(off) {
    // moves that exist but are not allowed now: greyed, with the reasons said once each
    const buttons = off.map((e) => h("button", { type: "button", class: "ym-choice", disabled: true,
                                                 text: e.moves.length === 1 ? alone(e.moves[0]) : e.label }));
    const whys = uniqueWhys(off.flatMap((e) => e.moves)).slice(0, 3);
    return h("div", { class: "ym-off" }, h("div", { class: "ym-chips" }, buttons),
             whys.map((w) => h("p", { class: "ym-whynot", text: w })));
  }

  function groupStep(card, st) {
    const e = entries(st.moves).find((x) => x.key === st.group);
    if (!e) { st.group = null; return topStep(card, st); }
    return [h("h3", { class: "ym-step", text: e.label }), groupBlock(card, st, e, false),
            backButton(card, st)];
  }

  function backButton(card, st) {
    return h("div", { class: "ym-row" }, h("button", { type: "button", class: "secondary ym-back", text: "Back",
      on: () => {
        st.error = "";
        if (st.move && st.i > 0) {
          st.i -= 1;
          while (st.i > 0 && autoChoice(st.move.params[st.i]) !== undefined) st.i -= 1;
          delete st.values[st.move.params[st.i].name];
          if (autoChoice(st.move.params[st.i]) !== undefined) st.move = null;
        } else if (st.move) st.move = null;
        else st.group = null;
        st.pick = null;
        draw(card);
      } }));
  }

  /* ---- a move's parameters, one step each ---------------------------------------------- */

  const autoChoice = (p) => (p.kind === "one" && (p.choices || []).length === 1 ? p.choices[0].value : undefined);

  function choose(card, st, m) {
    st.move = m;
    st.values = {};
    st.i = 0;
    st.pick = null;
    st.error = "";
    advance(card, st);
  }

  function advance(card, st) {
    fill(st);
    st.pick = null;
    if (st.i >= st.move.params.length) send(card, st);
    else draw(card);
  }

  function take(card, st, value) {
    st.values[st.move.params[st.i].name] = value;
    st.i += 1;
    advance(card, st);
  }

  function crumbs(st) {
    const said = st.move.params.slice(0, st.i).map((p) => {
      const v = st.values[p.name];
      const c = (p.choices || []).find((x) => JSON.stringify(x.value) === JSON.stringify(v));
      return c ? c.label : (p.kind === "number" || p.kind === "text" ? String(v) : "");
    }).filter(Boolean);
    return [st.move.label, ...said].join(" · ");
  }

  function paramStep(card, st) {
    const p = st.move.params[st.i];
    const last = st.i === st.move.params.length - 1;
    const go = last ? st.move.label : "Next";
    const picker = { one: pickOne, some: pickSome, number: pickNumber, split: pickSplit,
                     text: pickText, fields: pickFields }[p.kind] || pickText;
    return [h("p", { class: "ym-crumbs", text: crumbs(st) }),
            h("h3", { class: "ym-step", id: `${card.id}-step`, text: p.label }),
            picker(card, st, p, go), backButton(card, st)];
  }

  function pickOne(card, st, p) {
    return h("div", { class: "ym-chips", role: "group", "aria-labelledby": `${card.id}-step` },
             p.choices.map((c) => h("button", { type: "button", class: costly("ym-choice", c), text: c.label,
                                                 on: () => take(card, st, c.value) })));
  }

  function okButton(text, ok, onClick) {
    return h("div", { class: "ym-row" }, h("button", { type: "button", class: "ym-big ym-ok", text,
                                                         disabled: !ok, on: onClick }));
  }

  function chosenCount(k, fewest, most) {
    // how many are chosen, beside the button that sends them ("5 of 7 chosen")
    if (fewest === most) return `${k} of ${most} chosen`;
    return `${k} chosen (${Number.isFinite(most) ? `${fewest} to ${most}` : `at least ${fewest}`})`;
  }

  function pickSome(card, st, p) {
    // chips that toggle: a chosen one is filled with a tick (×n for copies), one still
    // open is outlined, and once as many are chosen as the step takes the others are
    // plainly not available; the count stands beside the button that sends them
    st.pick = st.pick || [];
    const most = p.most === null || p.most === undefined ? (p.repeat ? Infinity : p.choices.length) : p.most;
    const fewest = p.fewest ?? 1;
    const full = st.pick.length >= most;
    const ok = st.pick.length >= fewest && st.pick.length <= most;
    const count = (v) => st.pick.filter((x) => JSON.stringify(x) === JSON.stringify(v)).length;
    const chips = p.choices.map((c) => {
      const n = count(c.value);
      // no more than the step's most; with repeats, nor than the choice's own (c.most);
      // without repeats a chosen chip stays tappable: tapped again, it is put back
      const spent = p.repeat ? full || (c.most != null && n >= c.most) : full && !n;
      const look = n ? " on" : (spent ? " off" : "");
      return h("button", { type: "button", class: `ym-choice ym-pick${look}`, "aria-pressed": n ? "true" : "false",
        text: n > 1 ? `${c.label} ×${n}` : c.label, disabled: spent,
        on: () => {
          if (p.repeat) st.pick.push(c.value);
          else if (n) st.pick = st.pick.filter((x) => JSON.stringify(x) !== JSON.stringify(c.value));
          else st.pick.push(c.value);
          draw(card);
        } });
    });
    const out = [h("div", { class: "ym-chips", role: "group", "aria-labelledby": `${card.id}-step` }, chips)];
    if (p.repeat && st.pick.length) {
      out.push(h("button", { type: "button", class: "secondary", text: "Start again",
                             on: () => { st.pick = []; draw(card); } }));
    }
    const go = h("button", { type: "button", class: "ym-big ym-ok", disabled: !ok,
                             text: st.move.params.length - 1 === st.i ? st.move.label : "Next",
                             on: () => take(card, st, st.pick) });
    out.push(h("div", { class: "ym-row ym-send" },
               h("p", { class: `ym-count${ok ? " done" : ""}`, role: "status",
                        text: chosenCount(st.pick.length, fewest, most) }), go));
    return h("div", {}, out);
  }

  const inSteps = (x, p) => Number.isFinite(x) && x >= p.minimum && x <= p.maximum
    && (!(p.step > 0) || Math.abs((x - p.minimum) / p.step - Math.round((x - p.minimum) / p.step)) < 1e-9);

  function numberField(id, p, label, value) {
    return h("input", { id, type: "number", inputmode: "numeric", min: String(p.minimum),
                        max: String(p.maximum), step: String(p.step || "any"), value: value ?? "",
                        "aria-label": label, autocomplete: "off" });
  }

  function pickNumber(card, st, p, go) {
    const values = [];
    if (p.step > 0 && (p.maximum - p.minimum) / p.step <= 11) {
      for (let x = p.minimum; x <= p.maximum + 1e-9; x += p.step) values.push(Math.round(x * 1e6) / 1e6);
      return h("div", { class: "ym-chips", role: "group", "aria-labelledby": `${card.id}-step` },
               values.map((x) => h("button", { type: "button", class: "ym-choice", text: String(x),
                                               on: () => take(card, st, x) })));
    }
    // a wide range: a few small values as chips, any other typed in
    const quick = [0, 1, 2, 4, 6, 10].map((k) => Math.round((p.minimum + k * p.step) * 1e6) / 1e6)
      .filter((x) => x <= p.maximum);
    const chips = h("div", { class: "ym-chips", role: "group", "aria-labelledby": `${card.id}-step` },
                    quick.map((x) => h("button", { type: "button", class: "ym-choice", text: String(x),
                                                   on: () => take(card, st, x) })));
    const field = numberField(`${card.id}-number`, p, p.label, "");
    const hint = h("p", { class: "muted small", text: `From ${p.minimum} to ${p.maximum}${p.step > 1 ? `, in steps of ${p.step}` : ""}.` });
    const ok = okButton(go, false, () => take(card, st, Number(field.value)));
    field.addEventListener("input", () => { ok.querySelector("button").disabled = !inSteps(Number(field.value), p) || field.value === ""; });
    return h("div", {}, chips, field, hint, ok);
  }

  function pickText(card, st, p, go) {
    const field = h("input", { id: `${card.id}-text`, type: "text", "aria-label": p.label,
                               maxlength: String(p.maximum || 200), autocomplete: "off" });
    const ok = okButton(go, false, () => take(card, st, field.value.trim()));
    const valid = () => { const n = field.value.trim().length; return n >= (p.minimum || 0) && n <= (p.maximum || 200) && n > 0; };
    field.addEventListener("input", () => { ok.querySelector("button").disabled = !valid(); });
    return h("div", {}, field, ok);
  }

  function pickSplit(card, st, p, go) {
    // an amount per choice; the button is offered only once the whole is valid
    const [key, amount] = p.keys;
    const rows = p.choices.map((c, i) => ({ c, field: numberField(`${card.id}-split-${i}`, { ...p, minimum: 0 }, c.label, "") }));
    const total = h("p", { class: "ym-total", "aria-live": "polite" });
    const ok = okButton(go, false, () => take(card, st, chosen()));
    const chosen = () => rows.filter((r) => Number(r.field.value) > 0)
      .map((r) => ({ [key]: r.c.value, [amount]: Number(r.field.value) }));
    const check = () => {
      const picked = chosen();
      const sum = picked.reduce((a, x) => a + x[amount], 0);
      const n = (x) => x.toLocaleString("en-US");
      const bad = rows.find((r) => r.field.value !== "" && Number(r.field.value) !== 0
                            && Number(r.field.value) <= p.maximum && !inSteps(Number(r.field.value), p));
      let text = `Together ${n(sum)} of ${n(p.maximum)} available.`;
      if (sum > p.maximum) text = `Together ${n(sum)}: more than the ${n(p.maximum)} available.`;
      else if (bad) text = `${bad.c.label}: at least ${n(p.minimum)}, in steps of ${n(p.step)}.`;
      else if (picked.length < (p.fewest ?? 1)) text = `Enter an amount next to ${p.fewest > 1 ? `at least ${p.fewest}` : "at least one"}.`;
      total.textContent = text;
      ok.querySelector("button").disabled = !!bad || sum > p.maximum || picked.length < (p.fewest ?? 1);
    };
    rows.forEach((r) => r.field.addEventListener("input", check));
    const list = h("div", { class: "ym-split" }, rows.map((r) => h("div", { class: "ym-split-row" },
      h("label", { for: r.field.id, text: r.c.label }), r.field)));
    check();
    return h("div", {}, list, total, ok);
  }

  function pickFields(card, st, p, go) {
    const parts = p.fields.map((f, i) => {
      const id = `${card.id}-field-${i}`;
      let field;
      if (f.kind === "one") field = chipsField(id, f);
      else if (f.kind === "some") {
        field = h("select", { id },
          h("option", { value: "", text: f.fewest === 0 ? "— (leave out)" : "Choose…" }),
          (f.choices || []).map((c, j) => h("option", { value: String(j), text: c.label })));
      } else if (f.kind === "number") field = numberField(id, f, f.label, "");
      else field = h("input", { id, type: "text", maxlength: String(f.maximum || 200), autocomplete: "off" });
      const label = f.kind === "one" ? h("label", { id: `${id}-label`, text: f.label })
        : h("label", { for: id, text: f.label });
      return { f, field, row: h("div", { class: "ym-field" }, label, field) };
    });
    const value = () => {
      const out = {};
      for (const { f, field } of parts) {
        const raw = field.value.trim();
        if (raw === "") continue;
        if (f.kind === "one") out[f.name] = f.choices[Number(raw)].value;
        else if (f.kind === "some") out[f.name] = [f.choices[Number(raw)].value];
        else if (f.kind === "number") out[f.name] = Number(raw);
        else out[f.name] = raw;
      }
      return out;
    };
    const valid = () => parts.every(({ f, field }) => {
      const raw = field.value.trim();
      if (raw === "") return f.fewest === 0;
      if (f.kind === "number") return inSteps(Number(raw), f);
      if (f.kind === "text") return raw.length >= (f.minimum || 0) && raw.length <= (f.maximum || 200);
      return true;
    });
    const ok = okButton(go, false, () => take(card, st, value()));
    parts.forEach(({ field }) => ["input", "change"].forEach((t) => field.addEventListener(t, () => {
      ok.querySelector("button").disabled = !valid();
    })));
    return h("div", { class: "ym-fields" }, parts.map((x) => x.row), ok);
  }

  function chipsField(id, f) {
    // a part with listed values: its choices as chips, one tapped at a time (tapped
    // again, a part that may be left out is left out); value as a select's: the index
    const box = h("div", { id, class: "ym-chips", role: "group", "aria-labelledby": `${id}-label` });
    box.value = "";
    const chips = (f.choices || []).map((c, j) => h("button", {
      type: "button", class: "ym-choice", "aria-pressed": "false", text: c.label,
      on: () => {
        box.value = box.value === String(j) && f.fewest === 0 ? "" : String(j);
        chips.forEach((b, k) => {
          b.classList.toggle("on", box.value === String(k));
          b.setAttribute("aria-pressed", box.value === String(k) ? "true" : "false");
        });
        box.dispatchEvent(new Event("change"));
      } }));
    box.append(...chips);
    return box;
  }

  /* ---- sending ---------------------------------------------------------------------- */

  async function send(card, st) {
    const action = { do: st.move.do, ...st.move.fixed, ...st.values };
    const host = card.closest("[data-post]");
    if (!host) return;
    st.busy = true;
    st.rid = st.rid || newRequestId();
    draw(card);
    const result = await post(host.dataset.post, { action }, st.rid);
    st.busy = false;
    if (result.accepted || (result.reason && !/connection/i.test(result.reason))) st.rid = "";
    if (result.accepted) {
      reset(st);
      st.error = "";
      say(result.ignored ? "Nothing to do." : "Done.", false);
    } else {
      st.error = result.reason || "The table did not take this: try again.";
      if (st.i >= st.move.params.length) {  // nothing left to ask: back to the start
        reset(st);
      }
    }
    if (document.body.contains(card)) draw(card);
  }

  /* ---- life cycle --------------------------------------------------------------------- */

  function build(root) {
    (root || document).querySelectorAll(".yourmove").forEach((card) => {
      if (!card.dataset.built) draw(card);
    });
  }

  function keep(fromEl, toEl) {
    // morphdom: a built card whose moves are the same keeps its half-done step; only its
    // sentence (what the table waits for) and its look follow the new snapshot
    if (!fromEl.classList || !fromEl.classList.contains("yourmove") || !fromEl.dataset.built) return false;
    if (toEl.getAttribute("data-moves") !== fromEl.getAttribute("data-moves") && !carry(fromEl, toEl)) return false;
    const why = fromEl.querySelector(".ym-why");
    const next = toEl.querySelector(".ym-why");
    if (why && next && why.innerHTML !== next.innerHTML) why.innerHTML = next.innerHTML;
    fromEl.className = toEl.className;
    return true;
  }

  const sig = (m) => JSON.stringify([m.do, m.fixed, m.params, m.allowed]);

  function carry(fromEl, toEl) {
    // other moves changed, but the one half done is still offered as it was: keep its
    // step and what was typed into it (a bribe's amounts survive another seat's move)
    const st = states.get(fromEl);
    if (!st || !st.move || st.busy) return false;
    const next = JSON.parse(toEl.getAttribute("data-moves") || "[]");
    const same = next.find((m) => sig(m) === sig(st.move));
    if (!same) return false;
    fromEl.setAttribute("data-moves", toEl.getAttribute("data-moves"));
    Object.assign(st, { source: fromEl.dataset.moves, moves: next, move: same });
    return true;
  }

  document.addEventListener("DOMContentLoaded", () => build(document));
  document.addEventListener("tc:snapshot", () => build(document));
  return { build, keep };
})();
