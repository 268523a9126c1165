// Live region: one EventSource per page; the server sends the region's new HTML with
// the change's seq as the event id (the browser resumes with Last-Event-ID by itself).
// When the server cannot be reached the page says so plainly (#offline: over the whole
// table screen, a banner on phones) within about a second, and keeps trying; the
// notice goes when the stream is open again.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var conn = document.getElementById("conn");
  var offline = document.getElementById("offline");
  var SHOW_AFTER = 1000;   // ms without a stream before the notice shows (a restart is quick)
  var RETRY = 1500;        // ms between new attempts once the browser has given up
  var source = null, showTimer = null, retryTimer = null;

  function url() {
    var u = "/api/events?view=" + encodeURIComponent(live.dataset.screen) +
            "&since=" + encodeURIComponent(live.dataset.seq);
    if (live.dataset.seat) u += "&seat=" + encodeURIComponent(live.dataset.seat);
    return u;
  }
  function status(ok) {
    if (conn) {
      conn.textContent = ok ? conn.dataset.live : conn.dataset.lost;
      conn.className = "conn " + (ok ? "ok" : "lost");
    }
    if (ok) {
      clearTimeout(showTimer); showTimer = null;
      if (offline) offline.hidden = true;
      document.documentElement.classList.remove("is-offline");
    } else if (!showTimer && offline && offline.hidden) {
      showTimer = setTimeout(function () {
        showTimer = null;
        if (source && source.readyState === EventSource.OPEN) return;
        offline.hidden = false;
        document.documentElement.classList.add("is-offline");
      }, SHOW_AFTER);
    }
  }
  function connect() {
    retryTimer = null;
    source = new EventSource(url());
    source.onopen = function () { status(true); };
    source.onerror = function () {
      status(false);
      // CLOSED: the browser will not retry by itself (the server answered with an error
      // page, say, while restarting): start a new stream from the last seq we saw.
      if (source.readyState === EventSource.CLOSED && !retryTimer) {
        source.close();
        retryTimer = setTimeout(connect, RETRY);
      }
    };
    source.onmessage = function (e) {
      var data = JSON.parse(e.data);
      if (typeof data.html === "string") live.innerHTML = data.html;
      live.dataset.seq = data.seq;
      status(true);
      document.dispatchEvent(new CustomEvent("deckhand:update", { detail: data }));
      if (data.kind === "match" && live.dataset.reload === "match") location.reload();
    };
  }
  connect();
  window.addEventListener("pagehide", function () {
    if (source) source.close();
    clearTimeout(retryTimer); retryTimer = null;
  });
  // A page restored from the back/forward cache keeps its script but not its stream:
  // open it again from the last seq shown, or the screen would stand still while it
  // still says it is live.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted && !retryTimer) connect();
  });
})();
