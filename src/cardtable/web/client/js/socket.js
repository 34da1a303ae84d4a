// One room's websocket: hello with the seat token (or none to watch), the seat's log kept whole across
// reconnects (hello/sync "since"), actions with the version they were chosen at, and reconnection by
// itself after a network drop or a server restart. An action not yet acknowledged when the line drops
// is sent again once the room is back at the same version, so no click is lost.

const RETRY = [300, 800, 1500, 3000, 5000];
const PING_MS = 20000;

export const STOP_CODES = { 4403: "no_access", 4404: "no_such_room" };
export const SEAT_LOST_CODES = { 4401: "bad_token", 4409: "revoked" };

export class RoomSocket {
  constructor(roomId, { token, invite, onState, onRoom, onWelcome, onError, onAccepted, onStatus, onSeatLost, onStop, onBot, onChat, onOther }) {
    this.roomId = roomId;
    this.token = token || null;
    this.invite = invite || null;
    this.handlers = { onState, onRoom, onWelcome, onError, onAccepted, onStatus, onSeatLost, onStop, onBot, onChat, onOther };
    this.chatRefs = new Set();
    this.events = [];
    this.lines = [];
    this.gameNo = null;
    this.version = null;
    this.state = null;
    this.pending = new Map();
    this.ref = 0;
    this.tries = 0;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.ping = null;
    this.resumed = false;
    this.status = "connecting";
    window.addEventListener("online", () => this.soon(0));
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.soon(0); });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/api/rooms/${encodeURIComponent(this.roomId)}/ws`;
  }

  setStatus(status) {
    this.status = status;
    if (this.handlers.onStatus) this.handlers.onStatus(status);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    this.setStatus(this.tries ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.soon();
      return;
    }
    this.ws = ws;
    this.resumed = false;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token || undefined, invite: this.invite || undefined,
        since: this.events.length }));
    };
    ws.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      this.receive(data);
    };
    ws.onclose = (event) => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code in STOP_CODES) {
        this.stopped = true;
        this.setStatus("stopped");
        if (this.handlers.onStop) this.handlers.onStop(STOP_CODES[event.code]);
        return;
      }
      if (event.code in SEAT_LOST_CODES && this.token) {
        this.token = null;
        this.pending.clear();
        if (this.handlers.onSeatLost) this.handlers.onSeatLost(SEAT_LOST_CODES[event.code]);
        this.tries = 0;
        this.soon(0);
        return;
      }
      this.soon();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  soon(delay) {
    if (this.stopped) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    if (this.timer) {
      if (delay !== 0) return;
      clearTimeout(this.timer);
    }
    this.setStatus("reconnecting");
    const wait = delay === undefined ? RETRY[Math.min(this.tries, RETRY.length - 1)] : delay;
    this.tries += 1;
    this.timer = setTimeout(() => { this.timer = null; this.connect(); }, wait);
  }

  receive(data) {
    const h = this.handlers;
    if (data.type === "welcome") {
      this.tries = 0;
      this.setStatus("open");
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: "ping" }), PING_MS);
      if (h.onWelcome) h.onWelcome(data);
    } else if (data.type === "state") {
      this.takeState(data);
    } else if (data.type === "accepted") {
      if (data.ref !== null && data.ref !== undefined) this.pending.delete(data.ref);
      if (h.onAccepted) h.onAccepted(data);
    } else if (data.type === "error") {
      if (data.ref !== null && data.ref !== undefined) this.pending.delete(data.ref);
      if (h.onError) h.onError(data);
    } else if (data.type === "room") {
      if (h.onRoom) h.onRoom(data.room);
    } else if (data.type === "bot") {
      if (h.onBot) h.onBot(data);
    } else if (data.type === "chat" || data.type === "chat_log") {
      if (h.onChat) h.onChat(data);
    } else if (h.onOther) {
      h.onOther(data);  // offers and whatever else the room's page reads itself
    }
  }

  takeState(msg) {
    if (this.gameNo !== null && msg.game_no !== this.gameNo) {
      this.events = [];
      this.lines = [];
      this.pending.clear();
      if (msg.events_from !== 0) {
        this.gameNo = msg.game_no;
        this.send({ type: "sync", since: 0 });
        return;
      }
    }
    this.gameNo = msg.game_no;
    if (msg.events_from > this.events.length) {
      this.send({ type: "sync", since: this.events.length });
      return;
    }
    this.events.length = msg.events_from;
    this.lines.length = msg.events_from;
    this.events.push(...msg.events);
    this.lines.push(...msg.log);
    this.version = msg.version;
    this.state = msg;
    if (!this.resumed) {
      this.resumed = true;
      for (const [ref, item] of [...this.pending]) {
        if (item.version === msg.version && msg.legal.includes(item.action)) this.raw(ref, item);
        else this.pending.delete(ref);
      }
    }
    if (this.handlers.onState) this.handlers.onState(msg, this.events, this.lines);
  }

  send(data) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(data));
      return true;
    }
    return false;
  }

  raw(ref, item) {
    return this.send({ type: "action", action: item.action, version: item.version, ref });
  }

  /** Play an action chosen at the current version (sent again after a reconnect if need be). */
  act(action) {
    const ref = ++this.ref;
    const item = { action, version: this.version ?? 0 };
    this.pending.set(ref, item);
    if (!this.raw(ref, item)) this.soon(0);
    return ref;
  }

  /** Send a chat message (plain text); its ref is kept so that a refusal is known as the chat's. */
  chat(text) {
    const ref = "c" + (++this.ref);
    this.chatRefs.add(ref);
    this.send({ type: "chat", text, ref });
    return ref;
  }

  /** Give up the current game (every other seat wins). */
  resign(gameNo) {
    const ref = "r" + (++this.ref);
    this.send({ type: "resign", game_no: gameNo, ref });
    return ref;
  }

  /** True while an action of this socket waits for its answer. */
  get busy() { return this.pending.size > 0; }

  reseat(token) {
    this.token = token || null;
    this.pending.clear();
    // another seat's log is another log: start it afresh (a seat's private lines never carry over)
    this.events = [];
    this.lines = [];
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
    this.tries = 0;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.ws) this.ws.close();
  }
}
