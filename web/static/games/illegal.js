/* illegal: page code of this game (loaded by base.html after app.js).
   A whole hand is entered as a count per card type; before app.js sends the form, the
   counts become the list of card ids in the form's hidden "hand" field. */
"use strict";

document.addEventListener("submit", (e) => {
  const form = e.target.closest("form.act");
  if (!form) return;
  const list = form.querySelector("input.hand-list");
  if (!list) return;
  const hand = [];
  form.querySelectorAll("input.hand-count").forEach((el) => {
    const n = Math.max(0, parseInt(el.value || "0", 10) || 0);
    for (let i = 0; i < n; i += 1) hand.push(el.dataset.card);
  });
  list.value = JSON.stringify(hand);
}, true);

