// The minimal lobby: list rooms, create one, join or watch, and play by clicking legal actions.
// Everything from the server is shown with textContent (never parsed as markup). Seat tokens are kept in
// this browser's localStorage, one per room, so a reload or a server restart picks the seat up again.
"use strict";

const $ = (id) => document.getElementById(id);
const BOTS = ["easy", "normal", "hard", "random", "heuristic"];
let catalog = null;
let socket = null;
let current = { room: null, invite: null, seat: null, info: null, version: 0, events: 0, log: [], retry: 0, closed: false };

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function notice(text) { $("notice").textContent = text || ""; }

function tokenKey(room) { return "cardtable.token." + room; }
function tokenOf(room) { return localStorage.getItem(tokenKey(room)); }

async function api(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || { message: JSON.stringify(data.detail || data) };
    throw new Error(error.message || response.statusText);
  }
  return data;
}

function params() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [k, v] = part.split("=");
    if (k) out[decodeURIComponent(k)] = decodeURIComponent(v || "");
  }
  return out;
}

// -- lobby -----------------------------------------------------------------------------------------
async function loadCatalog() {
  catalog = await api("GET", "/api/games");
  const select = $("game");
  select.replaceChildren(...catalog.games.map((g) => el("option", g.title + " (" + g.name + ")", { value: g.name })));
  select.addEventListener("change", gameChanged);
  $("players").addEventListener("change", drawSeats);
  gameChanged();
}

function selectedGame() { return catalog.games.find((g) => g.name === $("game").value); }

function gameChanged() {
  const game = selectedGame();
  const players = $("players");
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = Math.min(Math.max(Number(players.value) || 2, game.min_players), game.max_players);
  players.disabled = game.min_players === game.max_players;
  drawSeats();
}

function drawSeats() {
  const box = $("seats");
  box.replaceChildren();
  for (let i = 0; i < Number($("players").value); i++) {
    const select = el("select", null, { "data-seat": String(i) });
    select.append(el("option", "open (a person)", { value: "open" }));
    for (const spec of BOTS) select.append(el("option", "bot: " + spec, { value: spec }));
    if (i > 0) select.value = "normal";
    const label = el("label", "P" + (i + 1) + " ");
    label.append(select);
    box.append(label);
  }
}

async function createRoom(event) {
  event.preventDefault();
  const game = selectedGame();
  const setup = { ...(game.setup_example || {}) };
  if (game.min_players !== game.max_players) setup.players = Number($("players").value);
  const seats = [...$("seats").querySelectorAll("select")].map((s) =>
    s.value === "open" ? { kind: "open" } : { kind: "bot", spec: s.value });
  try {
    const made = await api("POST", "/api/rooms", {
      game: game.name, setup, seats, private: $("private").checked, on_leave: $("onleave").value,
      title: $("title").value,
    });
    location.hash = "room=" + made.room.id + (made.invite ? "&invite=" + made.invite : "");
  } catch (e) { notice(e.message); }
}

function seatSummary(room) {
  return room.seats.map((s) => s.label + (s.status === "open" ? " [open]" : "")).join(", ");
}

async function listRooms() {
  try {
    const data = await api("GET", "/api/rooms?open=true");
    const body = $("rooms").querySelector("tbody");
    body.replaceChildren(...data.rooms.map((room) => {
      const row = el("tr");
      row.append(el("td", room.title || room.id), el("td", room.game), el("td", seatSummary(room)), el("td", room.status));
      const cell = el("td");
      const watch = el("button", "Open", { type: "button" });
      watch.addEventListener("click", () => { location.hash = "room=" + room.id; });
      cell.append(watch);
      row.append(cell);
      return row;
    }));
    if (!data.rooms.length) {
      const row = el("tr");
      row.append(el("td", "No open room: make one below.", { colspan: "5" }));
      body.append(row);
    }
  } catch (e) { notice(e.message); }
}

// -- a room ----------------------------------------------------------------------------------------
async function join(seat) {
  const name = $("name").value.trim();
  if (!name) { notice("Write your name first (top right)."); $("name").focus(); return; }
  localStorage.setItem("cardtable.name", name);
  try {
    const joined = await api("POST", "/api/rooms/" + current.room + "/join", { name, seat, invite: current.invite });
    localStorage.setItem(tokenKey(current.room), joined.token);
    connect();
  } catch (e) { notice(e.message); }
}

async function leave() {
  const token = tokenOf(current.room);
  if (!token) return;
  try { await api("POST", "/api/rooms/" + current.room + "/leave", undefined, token); } catch (e) { notice(e.message); }
  localStorage.removeItem(tokenKey(current.room));
  connect();
}

async function rematch() {
  try { await api("POST", "/api/rooms/" + current.room + "/rematch", undefined, tokenOf(current.room)); }
  catch (e) { notice(e.message); }
}

function roomLine(room) {
  return "Status: " + room.status + " · game " + room.game_no + " · " + room.version + " actions";
}

function drawRoom(room) {
  current.info = room;
  $("room-title").textContent = (room.title || "Room " + room.id) + " — " + room.game;
  $("room-meta").textContent = roomLine(room);
  const body = $("room-seats").querySelector("tbody");
  body.replaceChildren(...room.seats.map((s) => {
    const row = el("tr", null, s.seat === current.seat ? { class: "mine" } : {});
    row.append(el("td", "P" + (s.seat + 1)), el("td", s.label), el("td", s.status));
    const cell = el("td");
    if (s.status === "open" && current.seat === null && room.status !== "finished") {
      const button = el("button", "Join", { type: "button" });
      button.addEventListener("click", () => join(s.seat));
      cell.append(button);
    }
    row.append(cell);
    return row;
  }));
  $("leave").hidden = current.seat === null;
  $("rematch").hidden = current.seat === null || room.status !== "finished";
  loadHistory();
}

async function loadHistory() {
  const query = current.invite ? "?invite=" + encodeURIComponent(current.invite) : "";
  try {
    const data = await api("GET", "/api/rooms/" + current.room + "/history" + query, undefined, tokenOf(current.room));
    $("history").replaceChildren(...data.games.map((g) => {
      const item = el("li", "Game " + g.game_no + ": " + g.status + ", " + g.version + " actions ");
      if (g.outcome) item.append(el("span", "— " + (g.outcome.winner_names || []).join(", ") + " " + g.outcome.reason + " "));
      if (g.record_url) item.append(el("a", "record (JSON)", { href: g.record_url + query, download: "" }));
      return item;
    }));
  } catch (e) { /* the room view still works without its history */ }
}

function drawState(state) {
  current.version = state.version;
  if (current.info) {  // keep the room's line, buttons and history in step with the game
    const status = state.outcome ? "finished" : state.started ? "playing" : "waiting";
    const changed = status !== current.info.status || state.game_no !== current.info.game_no;
    current.info = { ...current.info, status, version: state.version, game_no: state.game_no, to_move: state.to_move };
    if (changed) drawRoom(current.info); else $("room-meta").textContent = roomLine(current.info);
  }
  if (state.events_from === 0) current.log = [];
  current.log.push(...state.log);
  current.events = state.events_from + state.events.length;
  const who = state.to_move === null ? "nobody" : state.names[state.to_move];
  $("turn").textContent = !state.started ? "Waiting for every seat to be filled." :
    state.outcome ? "The game is over." : "To move: " + who + (state.to_move === state.seat ? " — you" : "");
  $("outcome").textContent = state.outcome ?
    "Winner: " + ((state.outcome.winner_names || []).join(", ") || "nobody (draw)") + " — " + state.outcome.reason : "";
  $("legal").replaceChildren(...state.legal.map((action) => {
    const button = el("button", action, { type: "button" });
    button.addEventListener("click", () => send({ type: "action", action, version: current.version, ref: action }));
    return button;
  }));
  $("log").replaceChildren(...current.log.map((line) => el("li", line)));
  $("view").textContent = JSON.stringify(state.view, null, 2);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  if (socket) { current.closed = true; socket.close(); }
  current.closed = false;
  current.events = 0;
  current.log = [];
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/rooms/" + current.room + "/ws";
  const ws = new WebSocket(url);
  socket = ws;
  ws.addEventListener("open", () => {
    current.retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: tokenOf(current.room), invite: current.invite, since: current.events }));
  });
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") { current.seat = message.seat; drawRoom(message.room); notice(""); }
    else if (message.type === "room") drawRoom(message.room);
    else if (message.type === "state") drawState(message);
    else if (message.type === "error") {
      notice(message.message + (message.rule ? " [" + message.rule + "]" : ""));
      if (message.code === "bad_token" || message.code === "revoked") localStorage.removeItem(tokenKey(current.room));
    }
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws || current.closed) return;
    if (event.code === 4401 || event.code === 4409) { current.seat = null; setTimeout(connect, 200); return; }
    if (event.code === 4403 || event.code === 4404) return;
    current.retry = Math.min(current.retry + 1, 6);
    setTimeout(() => { if (socket === ws) connect(); }, 500 * 2 ** current.retry);
  });
}

function route() {
  const p = params();
  if (p.room) {
    current = { ...current, room: p.room, invite: p.invite || null, seat: null, info: null };
    $("lobby").hidden = true;
    $("room").hidden = false;
    $("invite-line").hidden = !p.invite;
    $("invite-link").textContent = location.href;
    connect();
  } else {
    if (socket) { current.closed = true; socket.close(); socket = null; }
    $("lobby").hidden = false;
    $("room").hidden = true;
    listRooms();
  }
}

window.addEventListener("DOMContentLoaded", () => {
  $("name").value = localStorage.getItem("cardtable.name") || "";
  $("name").addEventListener("change", () => localStorage.setItem("cardtable.name", $("name").value.trim()));
  $("create").addEventListener("submit", createRoom);
  $("refresh").addEventListener("click", listRooms);
  $("leave").addEventListener("click", leave);
  $("rematch").addEventListener("click", rematch);
  window.addEventListener("hashchange", route);
  loadCatalog().catch((e) => notice(e.message));
  route();
});
