// The withdrawal form's "You receive …" line: the amount typed minus the fee, in the page's language; or why the
// amount cannot be sent (below the smallest withdrawal, more than is available).
// Served from our origin (the CSP allows no inline script). The server checks the amount again.
(function () {
  "use strict";
  function cents(text) {
    // "150", "150.5", "150,50": the comma or the dot as the decimal mark, as the server accepts (decision 0400).
    var match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
    if (!match) { return null; }
    return parseInt(match[1], 10) * 100 + parseInt(((match[2] || "") + "00").slice(0, 2), 10);
  }
  function money(sample, amount) {
    // Write integer cents the way the server wrote `sample` (1,000,000.00 USD in the page's language:
    // "$1,000,000.00", "1.000.000,00 US$"), so the line reads like every other amount on the page.
    var parts = /1(\D)000(?:\1)000(\D)00/.exec(sample);
    if (!parts) { return null; }
    var whole = String(Math.floor(amount / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, parts[1]);
    return sample.replace(parts[0], whole + parts[2] + String(amount % 100).padStart(2, "0"));
  }
  document.addEventListener("DOMContentLoaded", function () {
    var line = document.querySelector("[data-testid=payout-net]");
    var input = document.getElementById("payout_amount_usd");
    if (!line || !input) { return; }
    var fallback = line.textContent;
    var fee = parseInt(line.dataset.feeCents, 10);
    var minimum = parseInt(line.dataset.minimumCents, 10);
    var available = parseInt(line.dataset.availableCents, 10);
    function update() {
      var amount = cents(input.value);
      // Never "You receive …" for an amount the server refuses: say why instead (QA walk 2).
      if (amount !== null && amount > 0 && amount < minimum) { line.textContent = line.dataset.below; return; }
      if (amount !== null && amount > available) { line.textContent = line.dataset.over; return; }
      var net = amount !== null && amount > fee ? money(line.dataset.sample, amount - fee) : null;
      line.textContent = net ? line.dataset.template.replace("__NET__", net) : fallback;
    }
    input.addEventListener("input", update);
    update();  // a refused form comes back with the amount typed: say what it would send at once
  });
})();
