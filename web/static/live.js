// Live region: one EventSource per page; the server sends the region's new HTML with
// the change's seq as the event id (the browser resumes with Last-Event-ID by itself).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var conn = document.getElementById("conn");
  var url = "/api/events?view=" + encodeURIComponent(live.dataset.screen) +
            "&since=" + encodeURIComponent(live.dataset.seq);
  if (live.dataset.seat) url += "&seat=" + encodeURIComponent(live.dataset.seat);
  var source = new EventSource(url);
  function status(ok) {
    if (!conn) return;
    conn.textContent = ok ? conn.dataset.live : conn.dataset.lost;
    conn.className = "conn " + (ok ? "ok" : "lost");
  }
  source.onopen = function () { status(true); };
  source.onerror = function () { status(false); };
  source.onmessage = function (e) {
    var data = JSON.parse(e.data);
    if (typeof data.html === "string") live.innerHTML = data.html;
    live.dataset.seq = data.seq;
    document.dispatchEvent(new CustomEvent("deckhand:update", { detail: data }));
    if (data.kind === "match" && live.dataset.reload === "match") location.reload();
  };
  window.addEventListener("pagehide", function () { source.close(); });
})();
