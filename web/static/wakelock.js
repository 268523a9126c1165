// Keeps a phone awake while the scoreboard or a pad is open (Screen Wake Lock API, where
// the browser has it; it needs a secure context or localhost). The lock is released by
// the browser when the page is hidden, so it is asked for again when the page comes back.
// window.deckhandWakeLock.state says what happened: "held", "unsupported" or "refused".
(function () {
  "use strict";
  var status = { state: "unsupported" };
  window.deckhandWakeLock = status;
  if (!("wakeLock" in navigator)) return;
  function ask() {
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      status.state = "held";
      lock.addEventListener("release", function () { status.state = "released"; });
    }, function () { status.state = "refused"; });
  }
  document.addEventListener("visibilitychange", ask);
  // Some browsers grant the lock only after a touch: ask again on the first one.
  document.addEventListener("pointerdown", function () { if (status.state !== "held") ask(); });
  ask();
})();
