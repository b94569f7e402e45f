// The server API and the seat tokens this browser keeps (localStorage): one place for both.

import { unpackView } from "./packed.js";

const STORE_KEY = "warroom.seats.v1";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Warroom-Token"] = token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, "offline", "The server cannot be reached. Is `warroom serve` still running?");
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "http_" + response.status, message: (data && data.detail ? JSON.stringify(data.detail) : response.statusText) };
    throw new ApiError(response.status, error.code, error.message);
  }
  if (data) { unpackView(data); unpackView(data.game); } // a view, or a new game's first view: its actions packed
  return data;
}

export const api = {
  catalog: () => call("GET", "/api/catalog"),
  board: (game) => call("GET", `/api/boards/${encodeURIComponent(game)}`),
  create: (options) => call("POST", "/api/games", options),
  upload: (record, mode) => call("POST", "/api/games/upload", { record, mode }),
  lobby: (tokens) => call("POST", "/api/lobby", { tokens }),
  claim: (id, invite) => call("POST", `/api/games/${id}/claim`, { invite }),
  game: (id, token) => call("GET", `/api/games/${id}`, undefined, token),
  act: (id, token, action, move) => call("POST", `/api/games/${id}/actions`, { action, move }, token),
  undo: (id, token, move) => call("POST", `/api/games/${id}/undo`, { move }, token),
  log: (id, token) => call("GET", `/api/games/${id}/log`, undefined, token),
  odds: (id, token) => call("GET", `/api/games/${id}/odds`, undefined, token),
  hint: (id, token) => call("GET", `/api/games/${id}/hint?budget_ms=800&agent=mcts`, undefined, token),
  replay: (id, token) => call("GET", `/api/games/${id}/replay`, undefined, token),
  review: (id, token) => call("GET", `/api/games/${id}/review`, undefined, token),
  recordUrl: (id, token) => `/api/games/${id}/record?token=${encodeURIComponent(token)}`,
};

// Open the game's push channel; calls onMessage with each update and reconnects after a drop.
export function connect(id, token, onMessage, onState) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws?token=${encodeURIComponent(token)}`);
    socket.onopen = () => { delay = 500; onState && onState("live"); };
    socket.onmessage = (event) => {
      const message = unpackView(JSON.parse(event.data));
      onMessage(message);
    };
    socket.onclose = (event) => {
      onState && onState("offline");
      if (closed || (event.code >= 4400 && event.code < 4500)) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return { close() { closed = true; if (socket) socket.close(); } };
}

// Seats: {gameId: {side: token}}. The lobby lists the games these tokens open.
export const seats = {
  all() {
    try { return JSON.parse(localStorage.getItem(STORE_KEY) || "{}"); } catch (err) { return {}; }
  },
  save(all) { localStorage.setItem(STORE_KEY, JSON.stringify(all)); },
  add(gameId, side, token) {
    const all = this.all();
    all[gameId] = all[gameId] || {};
    all[gameId][side] = token;
    this.save(all);
  },
  forget(gameId) {
    const all = this.all();
    delete all[gameId];
    this.save(all);
  },
  of(gameId) { return this.all()[gameId] || {}; },
  tokens() {
    return Object.values(this.all()).flatMap((bySide) => Object.values(bySide));
  },
};
