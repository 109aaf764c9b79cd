// The game's WebSocket: authenticates with its first message, resumes with since=N.
export class GameSocket {
  constructor(id, token, { onMessage, onState }) {
    this.id = id;
    this.token = token || null;
    this.onMessage = onMessage;
    this.onState = onState;
    this.seq = 0;
    this.pending = [];
    this.ended = false;
    this.closed = false;
    this.retry = 0;
    // Round trips of pings ({"ping": N} -> {"type": "pong"}), the last few, to correct the
    // clocks for the time a message took to arrive.
    this.pings = new Map();
    this.rtts = [];
    this.pingTimer = setInterval(() => this.ping(), 5000);
    // A page left for another may be kept in the browser's back/forward cache: its socket closes
    // (the seat is away, as it is) and opens again if the page is shown again.
    this.onHide = () => {
      this.hidden = true;
      clearTimeout(this.timer);
      if (this.ws) this.ws.close();
    };
    this.onShow = (e) => {
      if (!e.persisted || !this.hidden) return;
      this.hidden = false;
      if (!this.ended && !this.closed) this.connect();
    };
    window.addEventListener('pagehide', this.onHide);
    window.addEventListener('pageshow', this.onShow);
    this.connect();
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const n = (this.pingN = (this.pingN || 0) + 1);
    this.pings.set(n, performance.now());
    this.ws.send(JSON.stringify({ ping: n }));
  }

  // Half the median round trip: how long ago a message was made when it arrives.
  lag() {
    if (!this.rtts.length) return 0;
    const sorted = [...this.rtts].sort((a, b) => a - b);
    return sorted[sorted.length >> 1] / 2;
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    this.onState(this.retry ? 'reconnecting' : 'connecting');
    ws.onopen = () => {
      const hello = { token: this.token };
      if (this.seq) hello.since = this.seq;
      ws.send(JSON.stringify(hello));
      this.retry = 0;
      this.onState('open');
      this.ping();
    };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'pong') {
        const sent = this.pings.get(m.ping);
        this.pings.delete(m.ping);
        if (sent !== undefined) this.rtts = this.rtts.concat(performance.now() - sent).slice(-5);
        return;
      }
      if (m.type === 'ack' || m.type === 'error') {
        const p = this.pending.shift();
        if (p) (m.type === 'ack' ? p.resolve(m.result) : p.reject(m));
        else if (m.type === 'error') { this.closed = true; this.onState('error', m.error); }
        return;
      }
      if (typeof m.seq === 'number') this.seq = m.seq;
      if (m.type === 'end') this.ended = true;
      this.onMessage(m);
    };
    ws.onclose = () => {
      for (const p of this.pending.splice(0)) p.reject({ error: 'the connection was lost' });
      if (this.ended || this.closed) { this.onState('closed'); return; }
      if (this.hidden) return;
      this.retry += 1;
      this.onState('lost');
      const wait = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  send(obj) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { reject({ error: 'not connected: wait for the connection to come back' }); return; }
      this.pending.push({ resolve, reject });
      this.ws.send(JSON.stringify(obj));
    });
  }

  close() {
    this.closed = true;
    window.removeEventListener('pagehide', this.onHide);
    window.removeEventListener('pageshow', this.onShow);
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}

export async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || `${r.status}`);
  return data;
}
