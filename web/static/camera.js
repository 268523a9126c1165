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
        overlay.appendChild(svg("text", { x: d.quad[0][0], y: d.quad[0][1] - 0.01, "class": "cardname" }, d.label || ""));
      }
      var li = document.createElement("li");
      li.textContent = (d.label || "") + " — " + Math.round((d.confidence || 0) * 100) + " %" + (d.zone_name ? " (" + d.zone_name + ")" : "");
      list.appendChild(li);
    });
    showDeck(data.deck);
    document.dispatchEvent(new CustomEvent("deckhand:camera", { detail: data }));
  }
  var deckSaid = document.getElementById("deck-said"), deckProblem = document.getElementById("deck-problem");
  var deckSwitch = document.getElementById("deck-switch");
  var idleWords = deckSaid ? deckSaid.textContent : "";
  function showDeck(deck) {
    if (!deckSaid) return;
    deckSaid.textContent = deck ? deck.said : idleWords;
    deckProblem.hidden = !(deck && deck.problem);
    deckProblem.textContent = (deck && deck.problem) || "";
    if (!deckSwitch) return;
    deckSwitch.hidden = !deck;
    if (!deck) return;
    document.getElementById("deck-printed").disabled = deck.reading === "printed";
    document.getElementById("deck-taught").disabled = deck.reading === "taught" || !deck.taught_available;
  }
  if (deckSwitch) deckSwitch.addEventListener("click", function (e) {
    var which = e.target.getAttribute("data-deck");
    if (!which) return;
    window.deckhand.post("/api/camera/deck", { deck: which })
      .then(function (r) { showDeck(r.deck); }).catch(function () {});
  });
  function tick() {
    fetch("/api/camera", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(draw)
      .catch(function () {}).then(function () {
        img.src = "/camera/frame.jpg?t=" + Date.now();
        setTimeout(tick, 800);
      });
  }
  tick();
  var liveFaces = document.getElementById("live-faces");
  function showTeaching(s) {
    if (!liveFaces || !s.available) return;
    document.getElementById("live-seen").textContent = (s.collecting.length ? s.seen : s.message) || "";
    liveFaces.textContent = "";
    (s.faces || []).forEach(function (f) {
      var li = document.createElement("li");
      li.className = f.enough ? "ok" : "";
      li.setAttribute("data-label", f.label);
      li.textContent = f.label + ": " + f.shots + " / " + s.enough + (f.enough ? " ✓" : "");
      liveFaces.appendChild(li);
    });
    document.getElementById("live-training").hidden = !s.training;
    document.getElementById("live-progress").value = s.progress || 0;
    document.getElementById("live-percent").textContent = Math.round((s.progress || 0) * 100) + " %";
    document.getElementById("live-check").textContent = (s.check || []).join("\n");
    document.getElementById("live-deck").textContent = s.deck || "";
  }
  function teachTick() {
    fetch("/api/camera/teaching", { credentials: "same-origin" }).then(function (r) { return r.json(); })
      .then(showTeaching).catch(function () {}).then(function () { setTimeout(teachTick, 500); });
  }
  if (liveFaces) teachTick();
  var live = document.getElementById("live-form");
  if (live) {
    live.addEventListener("submit", function (e) {
      e.preventDefault();
      var labels = live.labels.value.split(",").map(function (x) { return x.trim(); }).filter(Boolean);
      window.deckhand.post("/api/camera/teaching/start", { labels: labels }).then(showTeaching).catch(function () {});
    });
    document.getElementById("live-stop").addEventListener("click", function () {
      window.deckhand.post("/api/camera/teaching/stop", {}).then(showTeaching).catch(function () {});
    });
    document.getElementById("live-train").addEventListener("click", function () {
      window.deckhand.post("/api/camera/teaching/train", {}).then(showTeaching).catch(function () {});
    });
  }
  var teach = document.getElementById("teach-form");
  if (teach) teach.addEventListener("submit", function (e) {
    e.preventDefault();
    window.deckhand.post("/api/camera/teach", { label: teach.label.value })
      .then(function (r) { window.deckhand.show("host-ok", r.message || window.deckhand.said("done")); }).catch(function () {});
  });
})();
