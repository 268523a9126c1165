// Camera page, zones: each zone drawn on the picture and, for the host, edited as
// x, y, w, h (fractions of the picture, three decimals: what `--zone NAME=x,y,w,h`
// takes) in the table or by dragging a rectangle on the picture. The server keeps
// zones as [x0, y0, x1, y1]; this file converts both ways.
(function () {
  "use strict";
  var layer = document.getElementById("zone-layer");
  if (!layer) return;
  var form = document.getElementById("zones-form");
  var rows = document.getElementById("zone-rows");
  var cli = document.getElementById("zone-cli");
  var NS = "http://www.w3.org/2000/svg";
  var zones = {};          // name -> [x, y, w, h]
  var order = [];
  var active = null;       // the zone a drag draws
  var touched = false;     // the host has edited: stop taking the server's zones
  var drag = null;
  var names = {};          // name -> the zone in the page's words (the server says them)
  var letters = ((form && form.dataset.letters) || "x y w h").split(" ");   // x, y, w, h in its words
  function said(name) { return names[name] || name; }

  function round3(v) { return Math.round(v * 1000) / 1000; }
  function clamp(v) { return Math.min(1, Math.max(0, v)); }
  function fromServer(z) { return [z[0], z[1], z[2] - z[0], z[3] - z[1]].map(round3); }
  function toServer(z) { return [z[0], z[1], round3(z[0] + z[2]), round3(z[1] + z[3])]; }
  function fmt(v) { return round3(v).toFixed(3).replace(/0+$/, "").replace(/\.$/, ""); }

  function draw() {
    layer.textContent = "";
    order.forEach(function (name) {
      var z = zones[name];
      var r = document.createElementNS(NS, "rect");
      r.setAttribute("x", z[0]); r.setAttribute("y", z[1]);
      r.setAttribute("width", z[2]); r.setAttribute("height", z[3]);
      r.setAttribute("class", "zone" + (name === active ? " active" : ""));
      layer.appendChild(r);
      var t = document.createElementNS(NS, "text");
      t.setAttribute("x", z[0] + 0.005); t.setAttribute("y", z[1] + 0.035);
      t.textContent = said(name);
      layer.appendChild(t);
    });
    if (cli) cli.textContent = order.map(function (name) {
      return "--zone " + name + "=" + zones[name].map(fmt).join(",");
    }).join(" ");
  }

  function table() {
    if (!rows) return;
    rows.textContent = "";
    order.forEach(function (name) {
      var tr = document.createElement("tr");
      var pick = document.createElement("input");
      pick.type = "radio"; pick.name = "zone-active"; pick.value = name; pick.checked = name === active;
      pick.setAttribute("aria-label", said(name));
      pick.addEventListener("change", function () { active = name; draw(); });
      var cell = document.createElement("td"); cell.appendChild(pick); tr.appendChild(cell);
      var label = document.createElement("td"); label.textContent = said(name); tr.appendChild(label);
      zones[name].forEach(function (v, i) {
        var input = document.createElement("input");
        input.type = "number"; input.min = "0"; input.max = "1"; input.step = "0.001";
        input.value = fmt(v); input.dataset.zone = name; input.dataset.i = i;
        input.setAttribute("aria-label", said(name) + " " + letters[i]);
        input.addEventListener("input", function () {
          var n = parseFloat(input.value);
          if (!isNaN(n)) { zones[name][i] = clamp(n); touched = true; draw(); }
        });
        var td = document.createElement("td"); td.appendChild(input); tr.appendChild(td);
      });
      var del = document.createElement("button");
      del.type = "button"; del.textContent = form ? form.dataset.remove : "×";
      del.addEventListener("click", function () {
        delete zones[name]; order = order.filter(function (n) { return n !== name; });
        if (active === name) active = order[0] || null;
        touched = true; table(); draw();
      });
      var last = document.createElement("td"); last.appendChild(del); tr.appendChild(last);
      rows.appendChild(tr);
    });
  }

  document.addEventListener("deckhand:camera", function (e) {
    Object.assign(names, e.detail.zone_names || {});
    if (touched) return;
    var server = e.detail.zones || {};
    zones = {}; order = Object.keys(server);
    order.forEach(function (name) { zones[name] = fromServer(server[name]); });
    if (!active || !zones[active]) active = order[0] || null;
    if (!drag) { table(); draw(); }
  });

  if (!form) return;   // not the host: zones are shown, not edited

  function point(e) {
    var box = layer.getBoundingClientRect();
    return [clamp((e.clientX - box.left) / box.width), clamp((e.clientY - box.top) / box.height)];
  }
  layer.style.touchAction = "none";
  layer.style.cursor = "crosshair";
  layer.addEventListener("pointerdown", function (e) {
    if (!active) return;
    e.preventDefault();
    layer.setPointerCapture(e.pointerId);
    drag = point(e);
  });
  layer.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var p = point(e);
    zones[active] = [Math.min(drag[0], p[0]), Math.min(drag[1], p[1]),
                     Math.abs(p[0] - drag[0]), Math.abs(p[1] - drag[1])].map(round3);
    touched = true;
    draw();
  });
  function end() { if (drag) { drag = null; table(); draw(); } }
  layer.addEventListener("pointerup", end);
  layer.addEventListener("pointercancel", end);

  document.getElementById("zone-add").addEventListener("click", function () {
    var input = document.getElementById("zone-new");
    var name = input.value.trim();
    if (!name) return;
    if (!zones[name]) { zones[name] = [0.4, 0.4, 0.2, 0.2]; order.push(name); }
    active = name; touched = true; input.value = "";
    table(); draw();
  });

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var body = {};
    order.forEach(function (name) { body[name] = toServer(zones[name]); });
    window.deckhand.post("/api/camera/zones", body).then(function () { touched = false; })
      .catch(function () {});
  });
})();
