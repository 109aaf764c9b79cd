// The account's event stream (GET /api/stream/event), one for the whole site: NDJSON lines of
// challenges and of the account's games starting and finishing. A guest session has one too (for
// its seeks); a browser without any session is refused, and the stream starts once a seek gives
// it one. A dropped stream comes back after a pause; each connection opens with the games going
// on and the challenges waiting. Listeners also get `{type: "connected"}` when it (re)opens, and
// a `gameStart` carries `fresh: true` the first time this page hears of its game.
const listeners = new Set();
const seenGames = new Set();
let current = null;
let retry = 0;
let timer = null;

// Calls `fn` with every event; returns the function that stops it.
export function onEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function emit(event) {
  if (event.type === 'gameStart') {
    event.fresh = !seenGames.has(event.game.gameId);
    seenGames.add(event.game.gameId);
  }
  for (const fn of listeners) {
    try { fn(event); } catch (e) { console.error(e); }
  }
}

// Opens the stream unless it is open.
export function startEvents() {
  if (!current) connect();
}

// Opens it anew: after signing in or out, the stream is another account's.
export function restartEvents() {
  if (current) current.abort();
  current = null;
  clearTimeout(timer);
  retry = 0;
  connect();
}

// A page left for another may be kept in the browser's back/forward cache, its open stream with
// it: a browser has six connections to a server, and pages kept so would soon hold them all.
// The stream stops when the page is hidden and opens again if the page is shown again.
window.addEventListener('pagehide', () => {
  if (current) current.abort();
  current = null;
  clearTimeout(timer);
});
window.addEventListener('pageshow', (e) => {
  if (e.persisted) restartEvents();
});

async function connect() {
  clearTimeout(timer);
  const ctl = new AbortController();
  current = ctl;
  try {
    const r = await fetch('/api/stream/event', { signal: ctl.signal });
    if (r.status === 401) {
      // no session yet: startEvents() again once there is one
      if (current === ctl) current = null;
      return;
    }
    if (!r.ok) throw new Error(String(r.status));
    retry = 0;
    emit({ type: 'connected' });
    await readLines(r.body.getReader(), emit);
  } catch { /* dropped: reconnect below */ }
  if (current !== ctl) return; // replaced or restarted meanwhile
  current = null;
  retry += 1;
  timer = setTimeout(startEvents, Math.min(10000, 500 * 2 ** Math.min(retry, 5)));
}

// Reads NDJSON lines to their end, skipping the keepalives (empty lines).
async function readLines(reader, each) {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      let event;
      try { event = JSON.parse(line); } catch { continue; }
      each(event);
    }
  }
}
