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
  // The page's own words (base.html) for an answer that brought none, and for no answer.
  function said(key) { return document.body.getAttribute("data-said-" + key) || ""; }
  function refused(words, status, data) {
    show("host-error", words); show("pad-error", words);
    var err = new Error(words); err.status = status; err.data = data;
    return err;
  }
  function post(url, body) {
    show("host-error", ""); show("host-ok", "");
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token() },
      body: JSON.stringify(body)
    }).catch(function () {
      throw refused(said("offline"), 0, {});
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          // a refusal says why in "error" ("said": in each language, when the server could
          // not know the page's); live teaching's answer that it failed, in "message"
          var mine = data.said && data.said[document.body.getAttribute("data-lang")];
          var words = [mine, data.error, data.message].filter(function (w) {
            return typeof w === "string" && w;
          })[0] || said("failed");
          throw refused(words, r.status, data);
        }
        var ok = document.getElementById("host-ok");
        if (ok) ok.textContent = ok.dataset.done || said("done");
        return data;
      });
    });
  }
  // A form the page's own script sends (data-scripted) comes with its submit buttons
  // disabled, so that a tap before that script is ready cannot send the form as a plain
  // page load (which would lose what was typed and do nothing). Deferred scripts have all
  // run, their handlers attached, when DOMContentLoaded fires.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-scripted] [type=submit][disabled]").forEach(function (b) {
      b.disabled = false;
    });
  });
  return { post: post, show: show, said: said };
})();
