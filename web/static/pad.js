// A virtual pad: tap (short press) or hold (half a second or more), sent on release.
(function () {
  "use strict";
  var pad = document.getElementById("pad");
  if (!pad) return;
  var HOLD_MS = 500, down = null;
  function press(e) {
    if (pad.disabled || down !== null) return;
    e.preventDefault(); down = Date.now(); pad.classList.add("pressed");
  }
  function release(e) {
    if (down === null) return;
    e.preventDefault();
    var held = Date.now() - down >= HOLD_MS;
    down = null; pad.classList.remove("pressed");
    window.deckhand.show("pad-error", "");
    var send = pad.dataset.url ? window.deckhand.post(pad.dataset.url, { held: held })
      : window.deckhand.post("/api/observe", { type: "pad", seat: Number(pad.dataset.seat), held: held });
    send.catch(function () {});
  }
  pad.addEventListener("pointerdown", press);
  pad.addEventListener("pointerup", release);
  pad.addEventListener("pointercancel", function () { down = null; pad.classList.remove("pressed"); });
  pad.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  document.addEventListener("keydown", function (e) { if (e.code === "Space" && !e.repeat) press(e); });
  document.addEventListener("keyup", function (e) { if (e.code === "Space") release(e); });
})();
