// Copy buttons and the countdown to an intent's expiry. Served from our origin (the CSP allows no inline script).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (!button || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(button.dataset.copy).then(function () {
      var label = button.textContent;
      button.textContent = button.dataset.copied || "Copied";
      setTimeout(function () { button.textContent = label; }, 1500);
    });
  });
  function tick() {
    document.querySelectorAll("time.countdown[data-expires]").forEach(function (node) {
      var left = Math.floor((new Date(node.dataset.expires) - new Date()) / 1000);
      if (left <= 0) { node.textContent = node.dataset.expiredText || "expired: get new instructions"; return; }
      var days = Math.floor(left / 86400), hours = Math.floor((left % 86400) / 3600);
      var minutes = Math.floor((left % 3600) / 60), seconds = left % 60;
      var clock = (days ? days + "d " + hours + "h" : (hours ? hours + ":" + String(minutes).padStart(2, "0") : minutes))
        + (days ? "" : ":" + String(seconds).padStart(2, "0"));
      node.textContent = clock + " " + (node.dataset.leftText || "left");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
