// Camera page: the newest frame, the cards found in it outlined and labelled; the host
// form to teach a card. The zones are drawn and edited by zones.js (it hears each
// reading as a "deckhand:camera" event).
(function () {
  "use strict";
  var img = document.getElementById("frame"), overlay = document.getElementById("overlay");
  var list = document.getElementById("detections");
  var NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function draw(data) {
    overlay.textContent = ""; list.textContent = "";
    (data.detections || []).forEach(function (d) {
      var pts = (d.quad || []).map(function (p) { return p[0] + "," + p[1]; }).join(" ");
      overlay.appendChild(svg("polygon", { points: pts, "class": d.card ? "found" : "unsure" }));
      if (d.quad && d.quad.length) {
        overlay.appendChild(svg("text", { x: d.quad[0][0], y: d.quad[0][1] - 0.01, "class": "cardname" }, d.label || d.card || "?"));
      }
      var li = document.createElement("li");
      li.textContent = (d.label || d.card || "?") + " — " + Math.round((d.confidence || 0) * 100) + "%" + (d.zone ? " (" + d.zone + ")" : "");
      list.appendChild(li);
    });
    document.dispatchEvent(new CustomEvent("deckhand:camera", { detail: data }));
  }
  function tick() {
    fetch("/api/camera", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(draw)
      .catch(function () {}).then(function () {
        img.src = "/camera/frame.jpg?t=" + Date.now();
        setTimeout(tick, 800);
      });
  }
  tick();
  var teach = document.getElementById("teach-form");
  if (teach) teach.addEventListener("submit", function (e) {
    e.preventDefault();
    window.deckhand.post("/api/camera/teach", { label: teach.label.value })
      .then(function (r) { window.deckhand.show("host-ok", r.message || "OK"); }).catch(function () {});
  });
})();
