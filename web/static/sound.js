// Short sound cues on the table screen, made with the Web Audio API (no sound files):
// whose turn it is, a slap settled, a bust, a Flip 7, the match over. The server names
// the sounds a change calls for (web/cues.py); the turn and the end of the match are told
// by comparing with the last change. The button #sound-toggle turns them off and on for
// this screen (kept in localStorage). window.deckhandSound.played lists what was played.
(function () {
  "use strict";
  var KEY = "deckhand.sound";
  var toggle = document.getElementById("sound-toggle");
  var state = { played: [], on: localStorage.getItem(KEY) !== "off" };
  window.deckhandSound = state;
  var ctx = null, lastTurn, lastFinished;

  var TUNES = {
    turn: [[660, 0, 0.09], [880, 0.11, 0.12]],
    slap: [[140, 0, 0.16, "square"]],
    bust: [[420, 0, 0.14, "sawtooth"], [300, 0.15, 0.14, "sawtooth"], [200, 0.3, 0.25, "sawtooth"]],
    flip7: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1047, 0.3, 0.3]],
    match_over: [[392, 0, 0.18], [523, 0.2, 0.18], [659, 0.4, 0.18], [784, 0.6, 0.45]]
  };

  function play(name) {
    if (!state.on || !TUNES[name]) return;
    state.played.push(name);
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      ctx = ctx || new Ctx();
      if (ctx.state === "suspended") ctx.resume();
      var t0 = ctx.currentTime + 0.02;
      TUNES[name].forEach(function (n) {
        var osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = n[3] || "sine";
        osc.frequency.value = n[0];
        gain.gain.setValueAtTime(0.0001, t0 + n[1]);
        gain.gain.exponentialRampToValueAtTime(0.3, t0 + n[1] + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + n[1] + n[2]);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0 + n[1]);
        osc.stop(t0 + n[1] + n[2] + 0.02);
      });
    } catch (e) { /* no audio device: the cue is still counted */ }
  }

  function show() {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", state.on ? "true" : "false");
    toggle.textContent = state.on ? toggle.dataset.on : toggle.dataset.off;
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      state.on = !state.on;
      localStorage.setItem(KEY, state.on ? "on" : "off");
      show();
    });
    show();
  }

  document.addEventListener("deckhand:update", function (e) {
    var cue = e.detail && e.detail.cue;
    if (!cue) return;
    var wanted = (cue.sounds || []).slice();
    if (cue.finished && lastFinished === false) wanted.push("match_over");
    else if (!cue.finished && cue.turn !== null && lastTurn !== undefined && cue.turn !== lastTurn)
      wanted.push("turn");
    if (e.detail.kind !== "snapshot") wanted.forEach(play);
    lastTurn = cue.turn;
    lastFinished = cue.finished;
  });
})();
