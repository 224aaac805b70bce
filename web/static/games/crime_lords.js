/* crime_lords: page code of this game (loaded by base.html after app.js).
   - forms with class "cl-form": actions with nested stats ({"stats": {...}}) or lists of
     checked boxes (claim: rackets, tokens), posted with app.js's post();
   - the attack builder: kind, then attacker, then target; the success number and its
     terms come from the public view (v.attacks, the player on turn's options), plus the money on a Hit;
   - collect: tap Crooks in the order they are paid; the pay-off is shown before it is sent;
   - the roll: two dice as one "dice" list. */
"use strict";

(function clStyle() {  // this game's stylesheet (the page's policy allows only files)
  if (document.querySelector('link[data-cl-style]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/crime_lords.css";
  link.dataset.clStyle = "1";
  document.head.append(link);
})();

function clAction(form) {
  const action = { do: form.dataset.do };
  if (form.dataset.extra) Object.assign(action, JSON.parse(form.dataset.extra));
  form.querySelectorAll("[name]").forEach((el) => {
    if (el.type === "radio" && !el.checked) return;
    const v = fieldValue(el);
    if (v !== undefined) action[el.name] = v;
  });
  const stats = {};
  form.querySelectorAll("[data-stat]").forEach((el) => {
    const v = fieldValue(el);
    if (v !== undefined) stats[el.dataset.stat] = v;
  });
  if (form.querySelector("[data-stat]")) action.stats = stats;
  form.querySelectorAll("[data-list]").forEach((el) => {
    const list = (action[el.dataset.list] = action[el.dataset.list] || []);
    if (el.checked) list.push(el.value);
  });
  return action;
}

document.addEventListener("submit", async (e) => {
  const form = e.target.closest("form.cl-form");
  if (!form) return;
  e.preventDefault();
  e.stopPropagation();
  const url = form.dataset.post || form.closest("[data-post]").dataset.post;
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => { b.disabled = true; });
  const result = await post(url, { action: clAction(form) });
  buttons.forEach((b) => { b.disabled = false; });
  report(result);
  if (result.accepted && result.reason) say(result.reason, true);
}, true);

/* ---- the attack builder --------------------------------------------------------- */

function clOptions(form) {
  const data = form.querySelector("script.cl-attacks");
  try { return data ? JSON.parse(data.textContent) : []; } catch (err) { return []; }
}

function clFill(select, items, keep) {
  const old = keep ? select.value : null;
  [...select.options].forEach((o) => {
    const on = items.includes(o.value);
    o.hidden = !on;
    o.disabled = !on;
  });
  if (!items.includes(old)) {
    const first = [...select.options].find((o) => !o.disabled);
    if (first) select.value = first.value;
  }
}

function clBuilder(form) {
  const options = clOptions(form);
  const kind = form.querySelector('[name="kind"]');
  const attacker = form.querySelector('[name="attacker"]');
  const target = form.querySelector('[name="target"]');
  if (!kind || !attacker || !target) return;
  const ofKind = options.filter((o) => o.kind === kind.value);
  clFill(attacker, [...new Set(ofKind.map((o) => o.attacker))], true);
  const mine = ofKind.filter((o) => o.attacker === attacker.value);
  [...target.options].forEach((o) => {
    const on = o.dataset.kind === kind.value && o.dataset.attacker === attacker.value;
    o.hidden = !on;
    o.disabled = !on;
  });
  const sel = target.selectedOptions[0];
  if (!sel || sel.disabled) {
    const first = [...target.options].find((o) => !o.disabled);
    if (first) first.selected = true;
  }
  const chosen = mine.find((o) => o.target === target.value);
  const money = form.querySelector('[name="money"]');
  const box = form.querySelector(".cl-hit-money");
  if (box) box.hidden = kind.value !== "hit";
  const terms = chosen ? chosen.terms.slice() : [];
  const extra = kind.value === "hit" && money ? parseInt(money.value || "0", 10) || 0 : 0;
  if (extra) terms.push([`${extra} G spent on the Hit`, extra]);
  const needed = terms.reduce((sum, t) => sum + t[1], 0);
  const out = form.querySelector(".cl-needed");
  if (out) out.textContent = chosen ? String(needed) + (needed < 2 ? " (cannot succeed)" : "") : "?";
  const table = form.querySelector(".cl-terms");
  if (table) {
    table.replaceChildren(...terms.map(([why, value]) => {
      const tr = document.createElement("tr");
      const a = document.createElement("td");
      a.textContent = why;
      const b = document.createElement("td");
      b.className = "v";
      b.textContent = (value >= 0 ? "+" : "") + value;
      tr.append(a, b);
      return tr;
    }));
  }
}

/* ---- collect: the pay order and the pay-off before it is sent -------------------- */

function clPayOrder(form) {
  const hidden = form.querySelector('[name="pay_order"]');
  if (!hidden) return;
  const order = JSON.parse(hidden.value || "[]");
  const buttons = [...form.querySelectorAll(".payorder button")];
  buttons.forEach((b) => {
    const at = order.indexOf(b.dataset.card);
    b.classList.toggle("picked", at >= 0);
    b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
    const base = `${b.dataset.name} (${b.dataset.owed} G)`;
    b.textContent = at >= 0 ? `${at + 1}. ${base}` : base;
  });
  const preview = form.querySelector(".cl-pay-preview");
  if (!preview) return;
  let money = Number(form.dataset.money) + Number(form.dataset.income);
  const lines = [`You collect ${form.dataset.income} G: ${money} G to pay with.`];
  const bossOwed = Number(preview.dataset.bossOwed);
  const rest = [...order, ...buttons.map((b) => b.dataset.card).filter((c) => !order.includes(c))];
  const pay = (name, owed, nothing) => {
    const paid = nothing ? 0 : Math.min(owed, money);
    money -= paid;
    if (paid >= owed) return `${name} ${owed} G`;
    return `${name} ${paid} of ${owed} G (${paid === 0 ? "2 Unhappy markers" : "1 Unhappy marker"})`;
  };
  const parts = [pay(preview.dataset.boss, bossOwed, false)];
  const bossShort = parts[0].includes("of");
  rest.forEach((card) => {
    const b = buttons.find((x) => x.dataset.card === card);
    parts.push(pay(b.dataset.name, Number(b.dataset.owed), bossShort));
  });
  preview.textContent = `${lines[0]} Pay: ${parts.join("; ")}. Left: ${money} G.`;
}

document.addEventListener("click", (e) => {
  const b = e.target.closest(".cl-collect .payorder button");
  if (!b) return;
  const form = b.closest("form");
  const hidden = form.querySelector('[name="pay_order"]');
  let order = JSON.parse(hidden.value || "[]");
  order = order.includes(b.dataset.card) ? order.filter((c) => c !== b.dataset.card) : [...order, b.dataset.card];
  hidden.value = JSON.stringify(order);
  hidden.dataset.dirty = "1";
  clPayOrder(form);
});

/* ---- the dice ------------------------------------------------------------------- */

function clDice(form) {
  const dice = [...form.querySelectorAll("select.cl-die")].map((s) => parseInt(s.value, 10));
  const hidden = form.querySelector('[name="dice"]');
  if (hidden && dice.length === 2) hidden.value = JSON.stringify(dice);
}

function clRefresh(root) {
  // a choice whose option went away (the card was drawn) falls back to the first one
  root.querySelectorAll(".cl select").forEach((s) => {
    if (s.selectedIndex < 0 && s.options.length) s.selectedIndex = 0;
  });
  root.querySelectorAll("form.cl-builder").forEach(clBuilder);
  root.querySelectorAll("form.cl-collect").forEach(clPayOrder);
  root.querySelectorAll("#roll-form").forEach(clDice);
}

document.addEventListener("change", (e) => {
  const form = e.target.closest("form");
  if (!form) return;
  if (form.classList.contains("cl-builder")) clBuilder(form);
  if (form.id === "roll-form") clDice(form);
});
document.addEventListener("input", (e) => {
  const form = e.target.closest("form.cl-builder");
  if (form) clBuilder(form);
});
document.addEventListener("tc:snapshot", () => clRefresh(document));
document.addEventListener("DOMContentLoaded", () => clRefresh(document));
clRefresh(document);
