// The Wi-Fi card's Print button (no inline scripts: the dashboard's CSP forbids them).
document.addEventListener("click", (e) => {
  if (e.target.closest("[data-print]")) window.print();
});

// The switch page: ask how the switch ended until it is no longer "switching", and say it.
// The phone may lose the table while it switches: then say so and keep asking.
(() => {
  const box = document.getElementById("switch-outcome");
  if (!box) return;
  const LOST = "This phone cannot reach the table right now: put it on the table's new " +
    "Wi-Fi (above); this line says how the switch ended once it can.";
  const ask = async () => {
    try {
      const resp = await fetch(box.dataset.outcome, { cache: "no-store" });
      if (!resp.ok) throw new Error(String(resp.status));
      const got = await resp.json();
      box.dataset.state = got.state;
      box.className = "outcome " + got.state;
      box.textContent = got.message;
      if (got.state === "switching") setTimeout(ask, 1500);
    } catch (err) {
      box.textContent = LOST;
      setTimeout(ask, 3000);
    }
  };
  if (box.dataset.state === "switching") setTimeout(ask, 1500);
})();
