// The chupai table view: renders table snapshots (chupai.protocol._adapter.ProtocolGame.snapshot),
// live from the /watch websocket, or played back from /replay.json with ?replay=1[&frame=N].
// Every string of a snapshot comes from peers (client names, the reason a table ended):
// it is rendered as text (textContent), never parsed as HTML.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
const tables = new Map();
// the centre of a table outside the card play (chupai.guandan.protocol._adapter's stages)
const STAGE_TEXT = { beginning: "dealing", tribute: "tribute", back: "tribute back",
  episodeOver: "deal over", gameOver: "game over" };

function textEl(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

function cardEl(card, level) {
  const el = document.createElement("span");
  el.className = "card";
  if (card === "SB" || card === "HR") {
    el.textContent = card === "SB" ? "BJ" : "RJ";
    if (card === "HR") el.classList.add("red");
  } else {
    el.textContent = (card[1] === "T" ? "10" : card[1]) + SUITS[card[0]];
    if (card[0] === "H" || card[0] === "D") el.classList.add("red");
    if (card[0] === "H" && card[1] === level) el.classList.add("wild");
  }
  return el;
}

function actionEl(action, level) {
  const box = document.createElement("div");
  box.className = "cards";
  if (!action) return box;
  if (action[0] === "PASS") {
    box.appendChild(textEl("span", "pass", "pass"));
    return box;
  }
  const label = document.createElement("span");
  label.textContent = action[0] + " ";
  box.appendChild(label);
  for (const c of action[2]) box.appendChild(cardEl(c, level));
  return box;
}

function seatEl(snap, s) {
  const seat = snap.seats[s];
  const el = document.createElement("div");
  el.className = `seat s${s} team${seat.team}` + (snap.current === s ? " current" : "");
  el.dataset.seat = String(s);
  const name = document.createElement("div");
  name.className = "name";
  name.textContent = `${s} · ${seat.name}`;
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = `team ${seat.team} · ${seat.rest} cards` + (seat.out ? ` · out ${seat.out}` : "") +
    (seat.away ? " · away (its connection was lost)" : "");
  // the seat to act: its play of an earlier round of this trick (a pass) is not its answer
  const toAct = snap.current === s && snap.stage === "play";
  const now = toAct ? textEl("div", "cards to-act", "to act") : actionEl(seat.playArea, snap.curRank);
  now.classList.add("trick-action");
  const last = actionEl(seat.lastAction, snap.curRank);
  last.classList.add("last-play");
  last.prepend(Object.assign(document.createElement("span"), { className: "label", textContent: "last play:" }));
  el.append(name, meta, now, last);
  if (seat.hand) {
    const hand = document.createElement("div");
    hand.className = "cards hand";
    for (const c of seat.hand) hand.appendChild(cardEl(c, snap.curRank));
    el.appendChild(hand);
  }
  return el;
}

function render(snap) {
  let el = tables.get(snap.table);
  if (!el) {
    el = document.createElement("section");
    document.getElementById("tables").appendChild(el);
    tables.set(snap.table, el);
  }
  el.className = "table" + (snap.done ? " done" : "");
  el.id = `table-${snap.table}`;
  el.replaceChildren();
  const info = document.createElement("div");
  info.className = "info";
  const state = snap.aborted ? `ended: ${snap.aborted}` : snap.done ? "done" :
    snap.winner !== null ? `won by team ${snap.winner}` : snap.stage;
  // games count from 1, deals from 0 (as in the record and chupai replay)
  info.append(textEl("span", "", `table ${snap.table} · game ${snap.game}/${snap.games} · deal ${snap.deal}`),
    textEl("span", "levels",
      `levels: seats 0+2 at ${snap.levels[0]}, seats 1+3 at ${snap.levels[1]} · playing ${snap.curRank}`),
    textEl("span", "state", state));
  el.appendChild(info);
  for (const s of [2, 3, 1, 0]) el.appendChild(seatEl(snap, s));
  const trick = document.createElement("div");
  trick.className = "trick";
  trick.textContent = snap.stage !== "play" ? (STAGE_TEXT[snap.stage] ?? snap.stage) :
    snap.greaterPos >= 0 ? `to beat (seat ${snap.greaterPos}):` : "lead";
  trick.appendChild(actionEl(snap.greaterAction, snap.curRank));
  el.appendChild(trick);
}

function setStatus(text) { document.getElementById("status").textContent = text; }

// the server's shared token (if it has one), passed on from the page's own address
const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => token === null ? path : `${path}?token=${encodeURIComponent(token)}`;

function live() {
  const ws = new WebSocket(`ws://${location.host}${withToken("/watch")}`);
  ws.onopen = () => setStatus("live");
  let updates = 0;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    for (const snap of msg.tables) render(snap);
    document.body.dataset.updates = String(++updates);
    if (msg.over) setStatus("all tables done");
  };
  ws.onclose = () => setStatus(document.getElementById("status").textContent === "all tables done"
    ? "all tables done" : "disconnected");
}

async function replay(params) {
  const frames = await (await fetch(withToken("/replay.json"))).json();
  const controls = document.getElementById("controls");
  const seek = document.getElementById("seek");
  const play = document.getElementById("play");
  controls.hidden = false;
  seek.max = String(Math.max(0, frames.length - 1));
  let at = 0;
  let timer = null;
  const show = (i) => {
    at = Math.max(0, Math.min(frames.length - 1, i));
    seek.value = String(at);
    document.getElementById("frame").textContent = `${at + 1}/${frames.length}`;
    if (frames.length) render(frames[at]);
  };
  const stop = () => { clearInterval(timer); timer = null; play.textContent = "play"; };
  const start = () => {
    play.textContent = "pause";
    timer = setInterval(() => { if (at >= frames.length - 1) stop(); else show(at + 1); },
      Number(params.get("interval") || 300));
  };
  play.onclick = () => (timer ? stop() : start());
  document.getElementById("step").onclick = () => { stop(); show(at + 1); };
  seek.oninput = () => { stop(); show(Number(seek.value)); };
  setStatus(`replay · ${frames.length} frames`);
  const frame = params.get("frame");
  if (frame !== null) show(frame === "last" ? frames.length - 1 : Number(frame));
  else { show(0); start(); }
}

const params = new URLSearchParams(location.search);
if (params.get("replay")) replay(params); else live();
