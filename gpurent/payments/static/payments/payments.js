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
  // The time left in the page's language, as the server's `time_left` writes it (core/formats.py, decision 0442):
  // the two largest units in the words of `data-words` (per plural category, joined by its "join"), under an
  // hour a clock.
  var lang = document.documentElement.lang || "en";
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
  var number = window.Intl ? new Intl.NumberFormat(lang) : null;
  function unit(words, name, count) {
    var patterns = words[name] || {};
    var pattern = (plural && patterns[plural.select(count)]) || patterns.other || "{0}";
    return pattern.replace("{0}", number ? number.format(count) : String(count));
  }
  function duration(words, left) {
    var units = [["day", 86400], ["hour", 3600], ["minute", 60]];
    for (var i = 0; i < 2; i++) {
      if (left >= units[i][1]) {
        var count = Math.floor(left / units[i][1]), rest = left % units[i][1];
        if (rest < units[i + 1][1]) { return unit(words, units[i][0], count); }
        return (words.join || "{larger} {smaller}").replace("{larger}", unit(words, units[i][0], count))
          .replace("{smaller}", unit(words, units[i + 1][0], Math.floor(rest / units[i + 1][1])));
      }
    }
    return Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("time.countdown[data-expires]").forEach(function (node) {
      var left = Math.floor((new Date(node.dataset.expires) - new Date()) / 1000);
      if (left <= 0) { node.textContent = node.dataset.expiredText || "expired: get new instructions"; return; }
      var words;
      try { words = JSON.parse(node.dataset.words || "{}"); } catch (error) { return; }
      node.textContent = duration(words, left);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
