// The Wi-Fi card's Print button (no inline scripts: the dashboard's CSP forbids them).
document.addEventListener("click", (e) => {
  if (e.target.closest("[data-print]")) window.print();
});
