// Host controls: buttons and forms that turn into JSON actions for /api/. The server
// says what is legal; this file only builds requests and shows refusals.
(function () {
  "use strict";
  var post = window.deckhand.post;
  function $(sel, root) { return (root || document).querySelector(sel); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function readJSON(id) { var s = document.getElementById(id); return s ? JSON.parse(s.textContent) : null; }
  var schema = readJSON("action-schema") || {};
  var games = readJSON("games-schema") || [];
  var words = readJSON("host-words") || {};
  var COLOURS = ["red", "green", "blue", "yellow"];
  function colourName(c) { return (words.colours || {})[c] || c; }

  function send(action, confirmText) {
    if (confirmText && !window.confirm(confirmText)) return Promise.resolve();
    return post("/api/action", action).catch(function () {});
  }

  // Two taps for what cannot be taken back lightly: the first asks in words, the
  // second (within a few seconds) does it.
  var armed = null, armTimer = null;
  function arm(button, question) {
    disarm();
    armed = button; button.dataset.label = button.textContent;
    button.textContent = question; button.classList.add("confirming");
    armTimer = setTimeout(disarm, 5000);
  }
  function disarm() {
    if (armed && armed.isConnected) { armed.textContent = armed.dataset.label; armed.classList.remove("confirming"); }
    armed = null; clearTimeout(armTimer);
  }

  // The card picker: "enter" sends the tapped card (to the chosen seat, or where the
  // referee expects it); "correct" replaces the last card with it.
  var pickMode = "enter", pickSeat = "";
  var reloading = false;
  function reload() { if (!reloading) { reloading = true; location.reload(); } }
  function applyPicker() {
    var picker = $("#picker");
    if (!picker) return;
    picker.dataset.mode = pickMode;
    var hint = $(".pickhint", picker);
    if (hint) hint.textContent = pickMode === "correct" ? hint.dataset.correct : hint.dataset.enter;
    document.querySelectorAll(".seatpick").forEach(function (b) {
      b.classList.toggle("chosen", b.dataset.seat === pickSeat);
    });
    var corr = $("#correct");
    if (corr) corr.classList.toggle("confirming", pickMode === "correct");
  }

  document.addEventListener("click", function (e) {
    var u = e.target.closest("#undo");
    if (u) {
      e.preventDefault();
      if (armed !== u) { arm(u, u.dataset.confirm + ": " + u.dataset.question); return; }
      disarm();
      post("/api/undo", { row: Number(u.dataset.row) }).catch(function () {});
      return;
    }
    var end = e.target.closest("#end-match");
    if (end) {
      e.preventDefault();
      if (armed !== end) { arm(end, end.dataset.question); return; }
      disarm();
      post("/api/action", { type: "end_match" }).catch(function () {});
      return;
    }
    var corr = e.target.closest("#correct");
    if (corr) { e.preventDefault(); pickMode = pickMode === "correct" ? "enter" : "correct"; applyPicker(); return; }
    var seatBtn = e.target.closest(".seatpick");
    if (seatBtn) { e.preventDefault(); pickSeat = seatBtn.dataset.seat; applyPicker(); return; }
    var faceBtn = e.target.closest("[data-card]");
    if (faceBtn && faceBtn.closest("#picker")) {
      e.preventDefault();
      var card = faceBtn.dataset.card;
      var req = pickMode === "correct" ? post("/api/correct", { card: card })
        : post("/api/card", { card: card, seat: pickSeat === "" ? null : Number(pickSeat) });
      pickMode = "enter"; pickSeat = ""; applyPicker();
      req.catch(function () {});
      return;
    }
    var free = e.target.closest("[data-free-seat]");
    if (free) { e.preventDefault(); post("/api/seats/" + free.dataset.freeSeat + "/free", {}).catch(function () {}); return; }
    var re = e.target.closest("#rematch");
    if (re) { e.preventDefault(); post("/api/rematch", {}).then(reload).catch(function () {}); return; }
    var b = e.target.closest("[data-action]");
    if (b) { e.preventDefault(); send(JSON.parse(b.dataset.action), b.dataset.confirm); return; }
    var c = e.target.closest("[data-camera]");
    if (c) {
      e.preventDefault();
      post("/api/camera/pause", { paused: c.dataset.camera === "true" })
        .then(function () { location.reload(); }).catch(function () {});
    }
  });
  // Correct a scored round: the inputs start from that round's scores.
  document.addEventListener("change", function (e) {
    var sel = e.target.closest("#fix-round select[name=round]");
    if (!sel) return;
    var scores = JSON.parse(sel.selectedOptions[0].dataset.scores);
    sel.form.querySelectorAll("input[name=score]").forEach(function (i, k) { i.value = scores[k]; });
  });
  document.addEventListener("submit", function (e) {
    var f = e.target.closest("#fix-round");
    if (!f) return;
    e.preventDefault();
    var scores = [];
    f.querySelectorAll("input[name=score]").forEach(function (i) { scores.push(Number(i.value)); });
    post("/api/action", { type: "correct_round", round: Number(f.round.value), scores: scores }).catch(function () {});
  });

  document.addEventListener("deckhand:update", function (e) {
    if (e.detail.kind === "match" && $("#action-form")) { reload(); return; }
    armed = null; clearTimeout(armTimer);   // the buttons were drawn again: ask again
    applyPicker();
  });

  // Quick buttons: actions with no fields, or only a seat, or only a colour.
  var quick = $("#quick");
  if (quick && schema.actions) {
    schema.actions.forEach(function (a) {
      if (a.type === "undo" || a.type === "end_match") return;
      var required = a.fields.filter(function (f) { return !f.optional; });
      var row = el("div", { "class": "quickrow" });
      row.appendChild(el("span", { "class": "qlabel", title: a.doc }, a.label || a.type));
      function btn(label, action, colour) {
        var b = el("button", { type: "button", "class": "act", "data-action": JSON.stringify(action) }, label);
        if (colour) b.style.setProperty("--seat", colour);
        row.appendChild(b);
      }
      if (a.fields.length === 0) {
        btn("▶", { type: a.type });
      } else if (required.length === 1 && required[0].kind === "seat" && a.fields.length === 1) {
        (schema.seats || []).forEach(function (name, i) {
          var act = { type: a.type }; act[required[0].name] = i; btn(name, act, (schema.colours || [])[i]);
        });
      } else if (required.length === 1 && required[0].kind === "colour" && a.fields.length === 1) {
        COLOURS.forEach(function (c) { var act = { type: a.type }; act[required[0].name] = c; btn(colourName(c), act, c); });
      } else { return; }
      quick.appendChild(row);
    });
  }

  // The generic action form, built from the game's vocabulary.
  var form = $("#action-form");
  if (form && schema.actions) {
    var typeSel = $("#action-type"), fieldsBox = $("#action-fields"), json = $("#action-json");
    schema.actions.forEach(function (a) { typeSel.appendChild(el("option", { value: a.type }, a.label || a.type)); });
    var current = {};
    function sync() { json.value = JSON.stringify(current); }
    function field(f) {
      var wrap = el("label", { "class": "field" }, (f.label || f.name) + " ");
      var input;
      function set(v) { if (v === undefined) delete current[f.name]; else current[f.name] = v; sync(); }
      if (f.kind === "seat" || f.kind === "card" || f.kind === "colour" || f.kind === "choice") {
        input = el("select", { name: f.name });
        var opts = f.kind === "seat" ? (schema.seats || []).map(function (n, i) { return [i, n]; })
          : f.kind === "card" ? (schema.cards || []).map(function (c) { return [c.code, c.label]; })
          : f.kind === "colour" ? COLOURS.map(function (c) { return [c, colourName(c)]; })
          : f.choices.map(function (c, i) { return [c, (f.choice_labels || [])[i] || String(c)]; });
        if (f.optional) input.appendChild(el("option", { value: "" }, "— " + (words.none || "none")));
        opts.forEach(function (o) { input.appendChild(el("option", { value: String(o[0]) }, o[1])); });
        input.addEventListener("change", function () {
          if (input.value === "") return set(f.optional ? undefined : "");
          set(f.kind === "seat" ? Number(input.value) : (f.kind === "choice" && typeof f.choices[0] === "number") ? Number(input.value) : input.value);
        });
        if (!f.optional && opts.length) set(f.kind === "seat" ? 0 : opts[0][0]);
        wrap.appendChild(input);
      } else if (f.kind === "cards") {
        var chosen = [], chips = el("div", { "class": "chips" }), grid = el("div", { "class": "picker" });
        function redraw() {
          chips.textContent = "";
          chosen.forEach(function (code, i) {
            var chip = el("button", { type: "button", "class": "chip" }, code + " ×");
            chip.addEventListener("click", function () { chosen.splice(i, 1); redraw(); });
            chips.appendChild(chip);
          });
          set(chosen.slice());
        }
        (schema.cards || []).forEach(function (c) {
          var b = el("button", { type: "button", "class": "pick card mini k-" + c.kind, title: c.label }, c.short);
          if (c.colour) { b.style.setProperty("--card", c.colour); b.classList.add("coloured"); }
          b.addEventListener("click", function () { chosen.push(c.code); redraw(); });
          grid.appendChild(b);
        });
        var clear = el("button", { type: "button" }, words.clear || "Clear");
        clear.addEventListener("click", function () { chosen = []; redraw(); });
        wrap.appendChild(el("span", { "class": "muted" }, words.tap || ""));
        wrap.appendChild(chips); wrap.appendChild(grid); wrap.appendChild(clear);
        set([]);
      } else if (f.kind === "bool") {
        input = el("input", { type: "checkbox", name: f.name });
        input.checked = !!f.default;
        input.addEventListener("change", function () { set(input.checked); });
        set(input.checked);
        wrap.appendChild(input);
      } else if (f.kind === "int") {
        input = el("input", { type: "number", name: f.name, inputmode: "numeric" });
        if (f.default !== null) input.value = f.default;
        input.addEventListener("input", function () { set(input.value === "" ? undefined : Number(input.value)); });
        if (input.value !== "") set(Number(input.value));
        wrap.appendChild(input);
      } else {
        input = el("input", { type: "text", name: f.name, placeholder: f.kind === "text" ? "" : "JSON" });
        input.addEventListener("input", function () {
          if (input.value === "") return set(undefined);
          if (f.kind === "text") return set(input.value);
          try { set(JSON.parse(input.value)); } catch (err) { set(input.value); }
        });
        wrap.appendChild(input);
      }
      return wrap;
    }
    function choose() {
      var a = schema.actions.filter(function (x) { return x.type === typeSel.value; })[0];
      current = { type: a.type }; fieldsBox.textContent = "";
      $("#action-doc").textContent = a.doc;
      a.fields.forEach(function (f) { fieldsBox.appendChild(field(f)); });
      sync();
    }
    typeSel.addEventListener("change", choose);
    choose();
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var action;
      try { action = JSON.parse(json.value); } catch (err) { window.deckhand.show("host-error", json.dataset.notJson); return; }
      send(action);
    });
  }

  // New match: game, seats (name + colour, from saved profiles), the game's settings.
  var mform = $("#match-form");
  if (mform) {
    var gameSel = $("#match-game"), seatsBox = $("#match-seats"), settingsBox = $("#match-settings");
    var SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "teal", "brown", "grey"];
    var profiles = {};
    document.querySelectorAll("#player-names option").forEach(function (o) { profiles[o.value] = o.dataset.colour; });
    function addSeat(name) {
      var n = seatsBox.children.length;
      var row = el("div", { "class": "row seatrow" });
      var nameIn = el("input", { name: "seat-name", placeholder: (words.name || "Name") + " " + (n + 1), list: "player-names", maxlength: "40" });
      nameIn.value = name || "";
      var col = el("select", { name: "seat-colour", "aria-label": words.colour || "Colour" });
      SEAT_COLOURS.forEach(function (c) { col.appendChild(el("option", { value: c }, colourName(c))); });
      col.value = SEAT_COLOURS[n % SEAT_COLOURS.length];
      nameIn.addEventListener("change", function () { if (profiles[nameIn.value]) col.value = profiles[nameIn.value]; });
      var del = el("button", { type: "button", "class": "small" }, "×");
      del.addEventListener("click", function () { row.remove(); });
      row.appendChild(nameIn); row.appendChild(col); row.appendChild(del);
      seatsBox.appendChild(row);
    }
    (schema.seats && schema.seats.length ? schema.seats : ["", "", ""]).forEach(addSeat);
    $("#add-seat").addEventListener("click", function () { addSeat(""); });
    function drawSettings() {
      settingsBox.textContent = "";
      var g = games.filter(function (x) { return x.name === gameSel.value; })[0];
      (g ? g.settings : []).forEach(function (f) {
        var wrap = el("label", { "class": "field", title: f.help || "" }, (f.label || f.name) + " ");
        var input;
        if (f.kind === "bool") { input = el("input", { type: "checkbox", name: f.name }); input.checked = !!f.default; }
        else if (f.kind === "choice") {
          input = el("select", { name: f.name });
          f.choices.forEach(function (c, i) { input.appendChild(el("option", { value: String(c) }, (f.choice_labels || [])[i] || String(c))); });
          input.value = String(f.default);
        } else if (f.kind === "int") { input = el("input", { type: "number", name: f.name }); if (f.default !== null) input.value = f.default; }
        else { input = el("input", { type: "text", name: f.name }); if (f.default !== null) input.value = f.default; }
        input.dataset.kind = f.kind;
        input.dataset.choiceType = f.choices && f.choices.length ? typeof f.choices[0] : "";
        wrap.appendChild(input); settingsBox.appendChild(wrap);
      });
    }
    gameSel.addEventListener("change", drawSettings);
    drawSettings();
    mform.addEventListener("submit", function (e) {
      e.preventDefault();
      var seats = [];
      seatsBox.querySelectorAll(".seatrow").forEach(function (row) {
        var name = row.querySelector("[name=seat-name]").value.trim();
        if (name) seats.push({ name: name, colour: row.querySelector("[name=seat-colour]").value });
      });
      var settings = {};
      settingsBox.querySelectorAll("input, select").forEach(function (i) {
        var k = i.dataset.kind;
        if (k === "bool") settings[i.name] = i.checked;
        else if (k === "int" || i.dataset.choiceType === "number") { if (i.value !== "") settings[i.name] = Number(i.value); }
        else if (i.value !== "") settings[i.name] = i.value;
      });
      var spec = { game: gameSel.value, seats: seats, settings: settings };
      var ask = $("#running-ask");
      function start(running) {
        if (running) spec.running = running;
        post("/api/match", spec).then(reload).catch(function (err) {
          if (err.status === 409 && err.data && err.data.running && ask) {
            window.deckhand.show("host-error", "");
            $("#running-words").textContent = err.data.error;
            ask.hidden = false;
            ask.scrollIntoView({ block: "center" });
          }
        });
      }
      if (ask) {
        ask.onclick = function (ev) {
          var c = ev.target.closest("[data-running]");
          if (!c) return;
          ask.hidden = true;
          if (c.dataset.running) start(c.dataset.running);
        };
      }
      start(null);
    });
  }

  var pform = $("#player-form");
  if (pform) {
    pform.addEventListener("submit", function (e) {
      e.preventDefault();
      post("/api/players", { name: pform.name.value, colour: pform.colour.value })
        .then(function () { location.reload(); }).catch(function () {});
    });
  }
})();
