/* casablanca: page code of this game (loaded by base.html after app.js).
   - the bribe sheet shows what is left after the amounts typed so far, live;
   - the move form offers only the spaces next to the chosen agent. */
"use strict";

function casaMoney(n) {
  return "$" + Math.max(0, n).toLocaleString("en-US");
}

function casaLeft(form) {
  const box = document.getElementById("casa-left");
  const after = form.querySelector("#casa-after .amt");
  if (!box || !after) return;
  let sum = 0;
  form.querySelectorAll(".casa-amount").forEach((el) => {
    const v = parseInt(el.value, 10);
    if (v > 0) sum += v;
  });
  const left = parseInt(box.dataset.left, 10) - sum;
  after.textContent = left < 0 ? `${casaMoney(-left)} too much` : casaMoney(left);
  const button = form.querySelector('button[type="submit"]');
  if (button && !button.dataset.casaWas) button.dataset.casaWas = button.disabled ? "1" : "0";
  if (button && button.dataset.casaWas === "0") button.disabled = left < 0;
}

function casaSpaces(form) {
  const agent = form.querySelector('[name="agent"]');
  const to = form.querySelector('[name="to"]');
  if (!agent || !to) return;
  if (!to.dataset.all) to.dataset.all = to.innerHTML;  // every agent's neighbours
  const keep = to.value;
  const box = document.createElement("select");
  box.innerHTML = to.dataset.all;
  const mine = [...box.querySelectorAll("optgroup")].filter((g) => g.dataset.agent === agent.value);
  to.replaceChildren(...mine);
  if ([...to.options].some((o) => o.value === keep)) to.value = keep;
}

document.addEventListener("input", (ev) => {
  const form = ev.target.closest && ev.target.closest("form.casa-bribe");
  if (form) casaLeft(form);
});
document.addEventListener("change", (ev) => {
  const form = ev.target.closest && ev.target.closest("form.casa-move");
  if (form && ev.target.name === "agent") casaSpaces(form);
});

function casaRefresh() {
  document.querySelectorAll("form.casa-move").forEach(casaSpaces);
  document.querySelectorAll("form.casa-bribe").forEach(casaLeft);
}
document.addEventListener("snapshot", casaRefresh, true);
document.addEventListener("fieldsreset", casaRefresh);  // an accepted bribe emptied its fields
document.addEventListener("DOMContentLoaded", casaRefresh);
