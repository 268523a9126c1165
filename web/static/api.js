// Sending changes: JSON POSTs with the page's CSRF token; refusals shown in words.
window.deckhand = (function () {
  "use strict";
  function token() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }
  function show(id, text) {
    var el = document.getElementById(id);
    if (el) { el.textContent = text; }
  }
  function post(url, body) {
    show("host-error", ""); show("host-ok", "");
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token() },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          var words = data.error || ("HTTP " + r.status);
          show("host-error", words); show("pad-error", words);
          var err = new Error(words); err.status = r.status; err.data = data;
          throw err;
        }
        var ok = document.getElementById("host-ok");
        if (ok) ok.textContent = ok.dataset.done || "OK";
        return data;
      });
    });
  }
  return { post: post, show: show };
})();
