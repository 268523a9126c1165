// Blocks marked data-show-for="SECONDS" (and a data-key naming what they report) are shown
// for that long from the moment this screen first saw that key, then hidden, even though
// the live region is re-rendered on every change.
(function () {
  "use strict";
  var firstSeen = {};
  function sweep() {
    var now = Date.now();
    var blocks = document.querySelectorAll("[data-show-for][data-key]");
    for (var i = 0; i < blocks.length; i++) {
      var el = blocks[i], key = el.dataset.key;
      if (!(key in firstSeen)) firstSeen[key] = now;
      var left = firstSeen[key] + 1000 * parseFloat(el.dataset.showFor) - now;
      el.hidden = left <= 0;
      if (left > 0) setTimeout(sweep, left + 20);
    }
  }
  document.addEventListener("deckhand:update", sweep);
  document.addEventListener("DOMContentLoaded", sweep);
  sweep();
})();
