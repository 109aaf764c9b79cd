// The bluffchess browser client: a small router over the lobby, game, rules, replay, player and
// leaderboard pages.
import { Board } from './board.js';
import { GameSocket, api } from './net.js';
import { sound } from './sound.js';
import { markdown } from './md.js';
import { pieceIcon, NAMES } from './pieces.js';
import { adapterOf, shapeOf, interactionOf, esc, labelOf, bsEditor, rcEditor, sentence, isCapture, LETTER } from './variants.js';
import { accountBar, accountPage, loginPage, signupPage } from './account.js';
import { restartEvents } from './events.js';
import { pairingLobby } from './pairing.js';
import { challengePanel, challengesOf } from './challenges.js';
import { playerPage, leaderboardPage, nameTag } from './players.js';
import { optionsHtml, readOptions, ratingText } from './terms.js';

const main = document.getElementById('main');
const announcer = document.getElementById('announce');
let cleanup = () => {};
let variantsCache = null;

const h = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content.firstElementChild; };
const say = (text) => { announcer.textContent = text; };

// The server's bots by level (GET /api/bots), asked once.
let botsCache = null;
async function botLevels() {
  if (!botsCache) botsCache = api('/api/bots').then((r) => r.bots).catch(() => { botsCache = null; return []; });
  return botsCache;
}
// A bot's name for people: its level when it is one of the server's levels.
const botName = (levels, player) => {
  const level = levels.find((l) => l.opponent === player);
  return level ? `${level.name} bot` : `Bot (${player.slice(4)})`;
};

// The Learn pages live in their own module, fetched only when one is opened.
async function learn(variant) {
  const list = await variants().catch(() => []);
  const { learnPage } = await import('./learn.js');
  cleanup = learnPage(main, variant, list, { go, h }) || (() => {});
}

async function variants() {
  if (!variantsCache) variantsCache = (await api('/api/variants')).variants;
  return variantsCache;
}
const nameOf = (id) => (variantsCache || []).find((v) => v.id === id)?.name || id;

// ---- router ----
function route() {
  cleanup();
  cleanup = () => {};
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/game\/([^/]+)$/))) gamePage(decodeURIComponent(m[1]), location.hash.slice(1));
  else if ((m = path.match(/^\/replay\/([^/]+)$/))) replayPage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/rules\/([^/]+)$/))) rulesPage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/learn\/([^/]+)$/))) learn(decodeURIComponent(m[1]));
  else if (path === '/login') loginPage(main, go);
  else if (path === '/signup') signupPage(main, go);
  else if (path === '/account') variants().catch(() => []).finally(() => accountPage(main, go, nameOf));
  else if ((m = path.match(/^\/@\/([^/]+)$/))) variants().catch(() => []).then((list) => playerPage(main, decodeURIComponent(m[1]), { list, nameOf }));
  else if (path === '/player') variants().catch(() => []).then((list) => leaderboardPage(main, { list, nameOf }));
  else lobbyPage();
}

export function go(url) {
  history.pushState(null, '', url);
  route();
  main.focus({ preventScroll: true });
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !/^\/(game|replay|rules|learn|@)\/|^\/(login|signup|account|player)?$/.test(url.pathname)) return;
  e.preventDefault();
  go(url.pathname + url.hash);
});
window.addEventListener('popstate', route);
challengePanel(go, nameOf);
document.addEventListener('bc-account', (e) => { challengesOf(e.detail); restartEvents(); });
accountBar(go);

document.getElementById('theme').addEventListener('click', () => {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  document.documentElement.dataset.theme = next;
  localStorage.setItem('bc-theme', next);
});
const muteButton = document.getElementById('mute');
const showMute = () => {
  muteButton.textContent = sound.muted ? 'Sound off' : 'Sound on';
  muteButton.setAttribute('aria-pressed', String(sound.muted));
};
muteButton.addEventListener('click', () => { sound.setMuted(!sound.muted); showMute(); });
showMute();

const fmtClock = (ms) => {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const base = `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${base}.${Math.floor((ms % 1000) / 100)}` : base;
};

// ---- lobby ----
async function lobbyPage() {
  document.title = 'bluffchess';
  main.innerHTML = '<p>Loading…</p>';
  let list;
  try { list = await variants(); } catch (e) { main.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  const page = h(`<div class="lobby">
    <section class="card" aria-labelledby="new-h">
      <h2 id="new-h">New game</h2>
      <form id="create">
        <label>Variant <select name="variant" id="variant">${list.map((v) => `<option value="${v.id}">${esc(v.name)}</option>`).join('')}</select></label>
        <p class="muted" id="summary"></p>
        <fieldset><legend>Options</legend><div id="options"></div></fieldset>
        <label>Clock <select name="clock" id="clock">
          <option value="">No clock</option><option value="60+1">1+1</option><option value="180+2">3+2</option>
          <option value="300+3" selected>5+3</option><option value="600+5">10+5</option><option value="1800+20">30+20</option></select></label>
        <label>Your colour <select name="color" id="color"><option value="random">Random</option><option value="white">White</option><option value="black">Black</option></select></label>
        <fieldset><legend>Opponent</legend>
          <label><input type="radio" name="opponent" value="friend" checked> A friend, by link</label>
          <label><input type="radio" name="opponent" value="open"> Anyone in the open lobby</label>
          <label><input type="radio" name="opponent" value="bot"> A server bot: <select id="bot" aria-label="bot level"><option value="default">Level 4</option></select></label>
          <label class="bot-rated"><input type="checkbox" id="bot-rated"> Rated (signed in: the bot's rating and yours change)</label>
          <p class="muted" id="bot-about"></p>
        </fieldset>
        <p><button class="primary" type="submit" id="create-btn">Create game</button></p>
        <p id="create-error" class="error" role="alert"></p>
      </form>
    </section>
    <section>
      <div class="card"><h2>Open games</h2><ul class="games" id="open"></ul></div>
      <div class="card"><h2>Live games</h2><ul class="games" id="live"></ul></div>
      <div class="card"><h2>Variants</h2><ul class="variants-list">${list.map((v) => `<li><a href="/rules/${v.id}">${esc(v.name)}</a> (<a href="/learn/${v.id}">learn</a>): ${esc(v.summary)}</li>`).join('')}</ul></div>
    </section></div>`);
  main.replaceChildren(page);
  const pairing = pairingLobby(page, { list, nameOf, go });
  const select = page.querySelector('#variant');
  const showOptions = () => {
    const v = list.find((x) => x.id === select.value);
    page.querySelector('#summary').textContent = v.summary;
    page.querySelector('#options').innerHTML = optionsHtml(v, 'data-opt');
  };
  select.addEventListener('change', showOptions);
  // The last game's variant, opponent and bot, remembered.
  const last = JSON.parse(localStorage.getItem('bc-last') || '{}');
  if (list.some((v) => v.id === last.variant)) select.value = last.variant;
  const radio = page.querySelector(`input[name=opponent][value="${last.opponent}"]`);
  if (radio) radio.checked = true;
  showOptions();
  const botSelect = page.querySelector('#bot');
  const showBot = (levels) => {
    const level = levels.find((l) => l.opponent === 'bot:' + botSelect.value);
    page.querySelector('#bot-about').textContent = level ? `${level.name}: ${level.about}.` : '';
  };
  // Each level with its rating in the chosen variant.
  const levelText = (l) => {
    const r = l.ratings?.[select.value];
    return `${l.name}${r ? ` (${ratingText(r.rating, r.provisional)})` : ''}: ${l.about}`;
  };
  botLevels().then((levels) => {
    if (!levels.length) return;
    botSelect.innerHTML = levels.map((l) => `<option value="${esc(l.opponent.slice(4))}">${esc(levelText(l))}</option>`).join('');
    botSelect.value = levels.some((l) => l.opponent === 'bot:' + last.bot) ? last.bot : 'default';
    showBot(levels);
    botSelect.addEventListener('change', () => showBot(levels));
    select.addEventListener('change', () => {
      for (const option of botSelect.options) option.textContent = levelText(levels.find((l) => l.opponent === 'bot:' + option.value));
    });
  });
  page.querySelector('#create').addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = readOptions(page, 'data-opt');
    const clock = page.querySelector('#clock').value;
    const kind = page.querySelector('input[name=opponent]:checked').value;
    const body = {
      variant: select.value,
      options,
      clock: clock ? { initial_s: +clock.split('+')[0], increment_s: +clock.split('+')[1] } : null,
      color: page.querySelector('#color').value,
      opponent: kind === 'bot' ? 'bot:' + page.querySelector('#bot').value : 'open',
      private: kind === 'friend',
      rated: kind === 'bot' && page.querySelector('#bot-rated').checked,
    };
    localStorage.setItem('bc-last', JSON.stringify({ variant: body.variant, opponent: kind, bot: page.querySelector('#bot').value }));
    // One game per click: the button waits for the answer.
    const button = page.querySelector('#create-btn');
    if (button.disabled) return;
    button.disabled = true;
    try {
      const game = await api('/api/games', body);
      localStorage.setItem('bc-tok-' + game.id, game.token);
      if (game.invite) localStorage.setItem('bc-inv-' + game.id, game.invite);
      go(game.url);
    } catch (err) {
      page.querySelector('#create-error').textContent = err.message;
      button.disabled = false;
    }
  });
  const refresh = async () => {
    try {
      const lobby = await api('/api/games');
      const item = (g, open) => {
        const clock = g.clock ? ` ${g.clock.initial_ms / 60000}+${g.clock.increment_ms / 1000}` : '';
        const shown = (c) => g.names?.[c] || g.players[c];
        const who = open ? `${shown(g.players.white === 'open' ? 'black' : 'white')} waiting` : `${shown('white')} vs ${shown('black')}`;
        const mine = localStorage.getItem('bc-tok-' + g.id);
        const btn = open && !mine ? `<button data-join="${g.id}">Join</button>` : `<a href="/game/${g.id}${mine ? '#' + mine : ''}">${mine ? 'Open' : 'Watch'}</a>`;
        return `<li data-game="${g.id}"><span>${esc(nameOf(g.variant))}${esc(clock)} <small class="muted">${esc(who)}</small></span>${btn}</li>`;
      };
      page.querySelector('#open').innerHTML = lobby.open.map((g) => item(g, true)).join('') || '<li class="muted">No open games.</li>';
      page.querySelector('#live').innerHTML = lobby.live.map((g) => item(g, false)).join('') || '<li class="muted">No live games.</li>';
      pairing.seeks(lobby.seeks || []);
    } catch { /* retried */ }
  };
  page.addEventListener('click', async (e) => {
    const id = e.target.dataset?.join;
    if (!id) return;
    try {
      const seat = await api(`/api/games/${id}/join`, {});
      localStorage.setItem('bc-tok-' + seat.id, seat.token);
      go(seat.url);
    } catch (err) { alertBox(err.message); }
  });
  refresh();
  const timer = setInterval(refresh, 3000);
  cleanup = () => { clearInterval(timer); pairing.leave(); };
}

function alertBox(text) {
  const box = document.querySelector('#game-error') || document.querySelector('#create-error');
  if (box) box.textContent = text;
  say(text);
}

// ---- rules ----
async function rulesPage(variant) {
  const list = await variants().catch(() => []);
  document.title = `${nameOf(variant)} rules · bluffchess`;
  main.innerHTML = `<div class="rules"><p>${list.map((v) => `<a href="/rules/${v.id}">${esc(v.name)}</a>`).join(' · ')}</p><p class="banner">New to ${esc(nameOf(variant))}? <a href="/learn/${esc(variant)}" id="learn-link">Learn it on live boards first</a>.</p><article id="rules-text">Loading…</article></div>`;
  const r = await fetch(`/docs/rules/${encodeURIComponent(variant)}.md`);
  main.querySelector('#rules-text').innerHTML = r.ok ? markdown(await r.text()) : '<p class="error">No such variant.</p>';
}

// ---- game ----
function mergeMessage(state, m) {
  if (m.type === 'view' || m.type === 'end' || !state.msg) {
    state.msg = { ...m, view: m.view };
  } else {
    const view = { ...state.msg.view, ...m.view, events: state.msg.view.events.concat(m.events || []) };
    state.msg = { ...state.msg, ...m, view };
  }
  state.receivedAt = performance.now();
}

// The variants where a move may be made before the opponent's (a premove): the next own action
// is a move whose legality the page can judge once the opponent's action arrives.
const PREMOVE = new Set(['chess', 'alter-ego', 'bluff-move', 'bs']);
const FILES8 = 'abcdefgh';

// The squares a piece of `type` on `sq` could go to on an empty board (premoves are judged
// against the legal list when the turn comes); BS pieces may make any piece's move.
function premoveDests(type, sq, white, any) {
  const f = FILES8.indexOf(sq[0]);
  const r = +sq[1] - 1;
  const out = new Set();
  const add = (df, dr) => {
    const F = f + df;
    const R = r + dr;
    if (F < 0 || F > 7 || R < 0 || R > 7) return false;
    out.add(FILES8[F] + (R + 1));
    return true;
  };
  const ray = (df, dr) => { for (let k = 1; add(df * k, dr * k); k++); };
  const dir = white ? 1 : -1;
  const pawn = () => { add(0, dir); add(1, dir); add(-1, dir); if (r === (white ? 1 : 6)) add(0, 2 * dir); };
  const knight = () => [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]].forEach(([a, b]) => add(a, b));
  const bishop = () => [[1, 1], [1, -1], [-1, 1], [-1, -1]].forEach(([a, b]) => ray(a, b));
  const rook = () => [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(([a, b]) => ray(a, b));
  const king = () => {
    for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) if (a || b) add(a, b);
    if (sq === (white ? 'e1' : 'e8')) { add(2, 0); add(-2, 0); }
  };
  if (any) { pawn(); knight(); bishop(); rook(); return out; }
  ({ P: pawn, S: pawn, N: knight, B: bishop, R: rook, Q: () => { bishop(); rook(); }, K: king }[type] || (() => {}))();
  return out;
}

// The move list: one entry per turn of a side (its move, drop, name or pass), with what answered
// it (a decision, a call, a flip, a pick, a roll) and what the seat learnt of it; hidden
// decisions filled in once revealed. Full moves are numbered as in chess.
// What answers a turn, by its event's fact: a decision (seen sealed, or its own stay or
// transfer), a call or an accept, a removal, a flip, a die, a Memory.
const FOLLOW_UP = new Set(['stay', 'transfer', 'call', 'accept', 'remove', 'remove-true', 'flip', 'die', 'memory']);
const followsUp = (f) => Boolean(f && (FOLLOW_UP.has(f.what) || (f.what === 'sealed' && f.kind === 'decision')));
// What an info event says of a bluff: one taken or destroyed, or a real piece taken with its bluff.
const aboutBluff = (f) => f.what === 'bluff-captured' || f.what === 'bluff-destroyed' || (f.what === 'real-captured' && Boolean(f.bluff));
function moveEntries(view, me) {
  const revealed = new Map();
  for (const e of view.events) if (e.kind === 'reveal') revealed.set(e.reveals, e.text);
  const chosen = new Map();
  const notes = new Map();
  for (const e of view.events) {
    if (e.kind === 'info') {
      if (!notes.has(e.action)) notes.set(e.action, []);
      notes.get(e.action).push(e);
      continue;
    }
    if (e.kind !== 'action' && e.kind !== 'sealed') continue;
    if (!['white', 'black', 'chance'].includes(e.actor)) continue;
    const prev = chosen.get(e.action);
    // a seat's own text of its action wins over the public one
    if (!prev || (e.seats === me && e.seats !== 'all')) chosen.set(e.action, e);
  }
  const entries = [];
  const setups = [];
  let cur = null;
  for (const [index, e] of [...chosen.entries()].sort((a, b) => a[0] - b[0])) {
    let text = e.notation || e.text;
    if (e.kind === 'sealed' && revealed.has(index)) text = revealed.get(index);
    if (e.kind === 'sealed' && !revealed.has(index) && e.text === 'decision') text = '(sealed)';
    if (e.fact?.what === 'setup' || e.fact?.kind === 'setup') {
      setups.push({ color: e.actor, text: e.kind === 'sealed' && !revealed.has(index) ? 'hidden setup' : text, last: index });
      continue;
    }
    const ambiguousPick = view.variant === 'ambiguous' && cur && cur.color !== e.actor && cur.named && !cur.picked;
    const follow = e.actor === 'chance' || followsUp(e.fact) || ambiguousPick;
    if (follow && cur) {
      if (ambiguousPick) { cur.parts = [`${cur.named}: ${text}`]; cur.picked = true; } else cur.parts.push(text);
      cur.last = index;
    } else {
      cur = { color: e.actor, parts: [text], first: index, last: index };
      if (view.variant === 'ambiguous' && e.fact?.what === 'name') cur.named = e.fact.square;
      entries.push(cur);
    }
    for (const n of notes.get(index) || []) {
      const f = n.fact || {};
      if (f.what === 'death-move') cur.parts[0] += '†';
      else if (n.notation) { cur.parts = [`${cur.named || ''}${cur.named ? ': ' : ''}${n.notation}`]; cur.picked = true; }
      else if (f.what === 'shown') cur.parts.push(`= ${f.identity}${f.lawful ? '' : ', unlawful'}`);
      else if (aboutBluff(f)) cur.parts.push(`(${n.text.split(':')[0]})`);
    }
  }
  return { entries, setups };
}

function gamePage(id, fragment) {
  // The fragment holds a seat's token, or a private game's invitation (`invite=CODE`).
  const invite = fragment.startsWith('invite=') ? fragment.slice(7) : null;
  const tokenFromHash = invite ? null : fragment || null;
  const stored = localStorage.getItem('bc-tok-' + id);
  const token = tokenFromHash || stored || null;
  const state = {
    id, token, msg: null, orientation: null, bluff: false, editor: null, handSel: null, error: '',
    busy: false, premove: null, viewing: null, positions: null, presence: null, lowWarned: false, levels: [],
  };
  variants().then(() => { if (state.msg) render(); }).catch(() => {});
  botLevels().then((levels) => { state.levels = levels; if (state.msg) render(); });
  main.innerHTML = '';
  const page = h(`<div class="game" data-game="${esc(id)}">
    <div>
      <div class="player" id="top"><span class="name"></span><span class="clock" role="timer"></span></div>
      <div class="boardwrap"><div class="board-host" id="board-host"></div></div>
      <div class="player" id="bottom"><span class="name"></span><span class="clock" role="timer"></span></div>
      <div class="hand" id="hand" aria-label="your hand"></div>
    </div>
    <div class="side">
      <div id="result-box"></div>
      <div class="row"><span class="status" id="status" aria-live="polite">Connecting…</span><span class="conn" id="conn"></span></div>
      <div id="offer"></div>
      <div id="info"></div>
      <div class="actions" id="buttons" aria-label="actions"></div>
      <div class="setup-ed" id="setup-ed" hidden></div>
      <form class="typed" id="typed"><label class="sr-only" for="typed-input">Type an action</label>
        <input id="typed-input" type="text" list="legal-list" placeholder="type an action (e2e4, stay, call…)" autocomplete="off" spellcheck="false">
        <datalist id="legal-list"></datalist><button type="submit">Play</button></form>
      <p id="game-error" class="error" role="alert"></p>
      <p id="premove-note" class="muted" aria-live="polite"></p>
      <div class="actions" id="meta"></div>
      <div class="panel"><h3>Moves <small class="muted" id="viewing"></small></h3><div class="moves" id="moves"></div></div>
      <div class="panel"><h3>Events</h3><ol class="events" id="events"></ol></div>
      <div id="after"></div>
    </div></div>`);
  main.append(page);
  const $ = (sel) => page.querySelector(sel);
  const board = new Board($('#board-host'), {
    onChoose: (actions, sq) => choose(actions, sq),
    // a click that picks nothing cancels a premove
    onNone: () => { if (state.premove) { setPremove(null); render(); } },
    label: 'game board',
  });

  const seat = () => state.msg?.view?.seat || 'spectator';
  const showError = (text) => { $('#game-error').textContent = text || ''; if (text) say(text); };
  const authHeaders = () => (token ? { Authorization: 'Bearer ' + token } : {});

  // Every request that changes the game disables the page's buttons until it is answered.
  const send = async (obj) => {
    showError('');
    if (state.busy) return null;
    state.busy = true;
    render();
    try {
      return await socket.send(obj);
    } catch (e) {
      showError(e.error || String(e));
      return null;
    } finally {
      state.busy = false;
      render();
    }
  };
  const act = (text) => send({ action: text });

  function setPremove(p) {
    state.premove = p;
    page.dataset.premove = p ? p.from + p.to : '';
    $('#premove-note').textContent = p ? `Premove ${p.from}-${p.to}: played as soon as it is your turn, if it is legal then (click elsewhere to cancel).` : '';
  }

  function choose(actions, sq) {
    if (actions.length === 1) return run(actions[0]);
    const wrap = $('.boardwrap');
    const box = h(`<div class="chooser" role="dialog" aria-label="Choose the action on ${esc(sq)}"><div class="box"></div></div>`);
    for (const a of actions) {
      const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(a.label)}</button>`);
      const promo = a.action && ['move', 'bluff'].includes(a.action.kind) && a.action.promotion;
      if (['queen', 'rook', 'bishop', 'knight'].includes(promo)) b.insertAdjacentHTML('afterbegin', pieceIcon(seat() === 'black' ? 'b' : 'w', LETTER[promo], ''));
      b.addEventListener('click', () => { box.remove(); run(a); });
      box.firstChild.append(b);
    }
    const cancel = h('<button type="button">Cancel</button>');
    cancel.addEventListener('click', () => box.remove());
    box.firstChild.append(cancel);
    box.addEventListener('keydown', (e) => { if (e.key === 'Escape') box.remove(); });
    wrap.append(box);
    box.querySelector('button').focus();
  }

  function run(a) {
    if (a.local) { a.local(); render(); return; }
    state.handSel = null;
    state.bluff = false;
    act(a.text);
  }

  // The premove, when the turn has come: played if legal, dropped if the turn's moves do not
  // hold it, kept while the turn asks something else first (BS: an answer before the move).
  function playPremove() {
    const p = state.premove;
    const m = state.msg;
    if (!p || !m || m.status !== 'live' || !(m.legal || []).length) return;
    const moves = (m.legal_actions || []).filter((a) => a.kind === 'move');
    // the move itself, else its promotion to a queen
    const found = [undefined, 'queen'].map((promo) => moves.find((a) => a.from === p.from && a.to === p.to && a.promotion === promo)).find(Boolean);
    if (found) { setPremove(null); act(found.text); return; }
    if (moves.length) {
      setPremove(null);
      $('#premove-note').textContent = `The premove ${p.from}-${p.to} is not legal now: cancelled.`;
    }
  }

  const socket = new GameSocket(id, token, {
    onMessage: (m) => {
      // A link's token is kept only once the server has taken it for a seat.
      if (tokenFromHash && tokenFromHash !== stored && m.view && m.view.seat !== 'spectator') {
        localStorage.setItem('bc-tok-' + id, tokenFromHash);
      }
      const before = state.msg;
      mergeMessage(state, m);
      state.positions = null;
      if (m.type === 'update' || (m.type === 'end' && before)) feedback(before, m);
      render();
      playPremove();
    },
    onState: (s, detail) => {
      const text = { connecting: 'connecting…', open: '', reconnecting: 'reconnecting…', lost: 'connection lost: reconnecting…', closed: '', error: detail || 'error' }[s] ?? s;
      $('#conn').textContent = text;
      $('#conn').className = 'conn' + (s === 'lost' || s === 'reconnecting' ? ' lost' : '');
      $('#conn').dataset.state = s;
      if (s === 'error') {
        showError(detail);
        if (tokenFromHash) badLink();
      }
    },
  });

  // A link whose token the server refused: say so, and keep whatever seat this browser has.
  function badLink() {
    const note = h(`<p id="bad-link">This link is not valid for this game: its seat's key is wrong or out of date. <a href="/game/${esc(id)}">Open the game</a>${stored ? ' with the seat this browser already has' : ' as a spectator'}.</p>`);
    $('#status').replaceChildren(note);
  }

  function feedback(before, m) {
    const events = m.type === 'update' ? m.events || [] : m.view.events.slice(before.view.events.length);
    if (!events.length) return;
    const last = events[events.length - 1];
    say(events.map((e) => sentence(e, state.msg.view.variant)).join(' '));
    if (m.type === 'end') sound.play('end');
    else if (events.some(isCapture)) sound.play('capture');
    else if (last.kind === 'action' || last.kind === 'sealed') sound.play('move');
  }

  // Click-to-view: the positions as this seat saw them, fetched when first asked for.
  async function viewPosition(after) {
    if (after === null) { state.viewing = null; render(); return; }
    if (!state.positions) {
      try {
        const r = await fetch(`/api/games/${encodeURIComponent(id)}/positions`, { headers: authHeaders() });
        if (!r.ok) throw new Error((await r.json()).error);
        state.positions = (await r.json()).positions;
      } catch (e) { showError(String(e.message || e)); return; }
    }
    state.viewing = after;
    render();
  }

  function render() {
    const m = state.msg;
    if (!m) return;
    const view = m.view;
    const me = seat();
    const ad = adapterOf(view.variant);
    const orientation = state.orientation || (me === 'black' ? 'black' : 'white');
    board.setup(shapeOf(view), orientation);
    page.dataset.seat = me;
    page.dataset.status = m.status;
    page.dataset.variant = view.variant;
    page.dataset.seq = m.seq;
    page.dataset.busy = state.busy ? '1' : '';
    const legal = m.legal || [];
    // The same actions with their structure, which the board and the buttons read.
    const actions = m.legal_actions || [];
    const myTurn = legal.length > 0;
    page.dataset.toAct = myTurn ? 'me' : 'other';
    const { entries, setups } = moveEntries(view, me);
    const latest = entries.length ? entries[entries.length - 1].last + 1 : null;
    const viewing = state.viewing !== null && state.viewing !== latest && state.positions ? state.viewing : null;
    page.dataset.viewing = viewing === null ? '' : String(viewing);
    // setup editor
    const editing = m.setup && myTurn && (view.variant === 'bs' || view.variant === 'reality-check');
    if (editing && !state.editor) {
      state.editor = view.variant === 'bs' ? bsEditor(me, view.options.spy === 'true') : rcEditor(me, { flexible: view.options['flexible-setup'] === 'true', advanced: view.options.board === 'advanced' });
      state.editor.kind = view.variant;
    }
    if (!editing) state.editor = null;
    let model;
    let inter;
    if (viewing !== null) {
      // an earlier position, as this seat saw it: nothing to do on it
      const seen = state.positions.find((p) => p.after === viewing);
      model = ad.model({ ...view, position: seen.position, events: view.events.filter((e) => e.action < viewing) }, me);
      inter = interactionOf([]);
    } else if (state.editor) {
      ({ model, inter } = editorModel(state));
      inter.buttons = interactionOf(actions).buttons;
    } else {
      model = ad.model(view, me);
      inter = interactionOf(actions);
      if (state.bluff) inter.moves.normal = new Map();
      if (view.variant === 'ambiguous' && view.position.step === 'name') {
        // Ambiguous: a drag onto a square names it.
        for (const [sq, p] of Object.entries(model.pieces)) {
          if (p.color !== (me === 'white' ? 'w' : 'b')) continue;
          const dests = new Map();
          for (const [t, acts] of inter.targets) if (t !== sq) dests.set(t, acts);
          if (dests.size) inter.moves.normal.set(sq, dests);
        }
      }
      if (view.variant === 'ambiguous' && view.position.step === 'pick' && myTurn) {
        // Ambiguous: a click on a candidate piece picks it (its promotions open the chooser).
        for (const a of actions) {
          if (!inter.targets.has(a.from)) inter.targets.set(a.from, []);
          inter.targets.get(a.from).push({ text: a.text, label: pickLabel(model.pieces, a), action: a });
        }
        inter.moves.normal = new Map();
      }
      const premoving = !myTurn && m.status === 'live' && me !== 'spectator' && PREMOVE.has(view.variant) && !m.setup && !view.outcome;
      if (premoving) {
        const mine = me === 'white' ? 'w' : 'b';
        inter = interactionOf([]);
        for (const [sq, p] of Object.entries(model.pieces)) {
          if (p.color !== mine || !p.type || p.type === '?') continue;
          const dests = new Map();
          for (const to of premoveDests(p.type, sq, me === 'white', view.variant === 'bs')) {
            if (model.pieces[to]?.color === mine && view.variant !== 'bluff-move') continue;
            dests.set(to, [{ text: `premove ${sq}${to}`, label: 'premove', local: () => setPremove({ from: sq, to }) }]);
          }
          if (dests.size) inter.moves.normal.set(sq, dests);
        }
      }
      if (state.premove) {
        model.marks = { ...model.marks, [state.premove.from]: 'm-premove', [state.premove.to]: 'm-premove' };
      }
    }
    board.bluffMode = state.bluff;
    board.render(model, inter);
    // players and clocks
    const other = orientation === 'white' ? 'black' : 'white';
    for (const [slot, color] of [['#top', other], ['#bottom', orientation]]) {
      const el = $(slot);
      el.dataset.color = color;
      const name = m.names?.[color];
      const player = m.players?.[color] || state.players?.[color];
      // a server bot without an account's name is named by its level
      if (!name && player?.startsWith('bot:')) el.querySelector('.name').textContent = `${botName(state.levels, player)} (${color})${me === color ? ' (you)' : ''}`;
      else el.querySelector('.name').replaceChildren(nameTag(name, color, me === color, m.ratings?.[color]));
      el.classList.toggle('to-act', view.to_act === color && m.status === 'live');
    }
    if (m.players) state.players = m.players;
    tickClocks();
    // the result, large enough to notice
    const result = $('#result-box');
    if (m.status === 'over' && m.outcome) {
      const w = m.outcome.winner;
      const score = w === 'white' ? '1-0' : w === 'black' ? '0-1' : '½-½';
      if (result.dataset.score !== score) {
        result.dataset.score = score;
        result.innerHTML = `<div class="result" id="result" role="status"><strong>${score}</strong><span>${esc(m.outcome.text.charAt(0).toUpperCase() + m.outcome.text.slice(1))}</span></div>`;
      }
    } else if (m.status === 'aborted') {
      result.innerHTML = '<div class="result" id="result" role="status"><strong>–</strong><span>The game was aborted.</span></div>';
    } else { result.innerHTML = ''; delete result.dataset.score; }
    // status
    let status;
    if (m.status === 'open') status = token ? 'Waiting for an opponent. Invite a friend with this link: ' : `This game has an open seat${openSeat(m) ? ` (${openSeat(m)})` : ''}.`;
    else if (m.status === 'aborted') status = 'The game was aborted.';
    else if (m.outcome) status = m.outcome.text;
    else if (myTurn) status = m.setup ? 'Your setup' : 'Your turn';
    else status = view.to_act ? `${view.to_act} to act` : '';
    if (!$('#bad-link')) $('#status').textContent = status;
    if (m.status === 'open' && token) {
      const code = localStorage.getItem('bc-inv-' + id);
      const link = `/game/${esc(id)}${code ? '#invite=' + esc(code) : ''}`;
      const copy = h('<button type="button" id="copy-invite">Copy link</button>');
      copy.addEventListener('click', async () => {
        const text = location.origin + link;
        try { await navigator.clipboard.writeText(text); copy.textContent = 'Copied'; } catch {
          const range = document.createRange();
          range.selectNodeContents($('#invite'));
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          copy.textContent = 'Selected: press Ctrl+C';
        }
        page.dataset.copied = text;
      });
      $('#status').append(h(`<a href="${link}" id="invite">${esc(location.origin)}${link}</a>`), ' ', copy);
    }
    document.title = `${myTurn ? '• ' : ''}${nameOf(view.variant)} · bluffchess`;
    $('#info').innerHTML = ad.info(view, me) + `<p><a href="/rules/${esc(view.variant)}">${esc(nameOf(view.variant))}: the rules</a> · <a href="/learn/${esc(view.variant)}">learn it</a></p>`;
    document.getElementById('rules-link').href = `/rules/${view.variant}`;
    // a standing draw offer
    const offered = m.status === 'live' ? lastMeta(view, 'offer_draw') : null;
    const offerBox = $('#offer');
    offerBox.replaceChildren();
    if (offered && me !== 'spectator') {
      offerBox.append(h(`<p class="banner" id="draw-offer">${offered.actor === me ? 'You offered a draw: it stands until your opponent answers or acts.' : 'Your opponent offers a draw.'}</p>`));
    }
    // buttons from the legal list
    const buttons = document.createElement('div');
    const editorActions = state.editor ? editorButtons(state) : [];
    const shown = viewing !== null ? [] : inter.buttons.length <= 14 ? inter.buttons : [];
    for (const a of [...editorActions, ...shown]) {
      const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(a.label)}</button>`);
      b.addEventListener('click', () => run(a));
      buttons.append(b);
    }
    if (!state.editor && view.variant === 'ambiguous' && view.position.step === 'pick' && myTurn && viewing === null) {
      for (const a of actions) {
        const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(pickLabel(model.pieces, a))}</button>`);
        b.addEventListener('click', () => act(a.text));
        buttons.append(b);
      }
    }
    if (!state.editor && viewing === null && actions.some((a) => a.kind === 'bluff')) {
      const b = h(`<button type="button" id="bluff-toggle" aria-pressed="${state.bluff}">Bluff</button>`);
      b.title = 'Make your next move a bluff (or drag with the right button)';
      b.addEventListener('click', () => { state.bluff = !state.bluff; render(); });
      buttons.append(b);
    }
    if (m.status !== 'open' && !m.outcome && m.status !== 'aborted') {
      const flip = h('<button type="button" id="flip-board">Flip board</button>');
      flip.addEventListener('click', () => { state.orientation = orientation === 'white' ? 'black' : 'white'; render(); });
      buttons.append(flip);
    }
    keep($('#buttons'), buttons);
    renderHand(view, me, inter);
    $('#setup-ed').hidden = !state.editor;
    if (state.editor) $('#setup-ed').innerHTML = `<p>Arrange your pieces: click one, then another to swap them${state.editor.kind === 'reality-check' ? (state.editor.free ? ` (or the hand piece), or move one to an empty square of your ${state.editor.advanced ? 'corner (nine of its ten squares)' : 'half'}; Flip selected turns it over` : ' (or the hand piece); each piece turns to the face its square shows') : ''}${state.editor.spy ? '; select a pawn and make it the spy' : ''}. Then Submit.</p><p><code id="setup-text">${esc(state.editor.text())}</code></p>`;
    $('#legal-list').innerHTML = legal.slice(0, 400).map((t) => `<option value="${esc(t)}">`).join('');
    $('#typed').hidden = !myTurn;
    renderMeta(m, me, offered);
    renderMoves(entries, setups, viewing, latest);
    renderEvents(view, me);
    renderAfter(m, me);
    // nothing that changes the game can be pressed twice while its request is out
    for (const b of page.querySelectorAll('#buttons button:not(#flip-board):not(#bluff-toggle), #meta button, .chooser button')) {
      if (state.busy) b.disabled = true;
    }
    // the typed form's button stays, so it is enabled again once the request is answered
    $('#typed button').disabled = state.busy;
  }

  const openSeat = (m) => (m.players ? ['white', 'black'].find((c) => m.players[c] === 'open') : null);

  // Ambiguous's pick (a legal action's structure), in words: which piece goes to the named
  // square.
  function pickLabel(pieces, a) {
    const p = pieces[a.from];
    const promo = a.promotion ? `, becoming a ${NAMES[LETTER[a.promotion]]}` : '';
    return p ? `The ${NAMES[p.type] || 'piece'} on ${a.from}${promo}` : labelOf(a);
  }

  function editorModel(st) {
    const ed = st.editor;
    const pieces = ed.pieces();
    const normal = new Map();
    const targets = new Map();
    const own = ed.kind === 'bs' ? ed.squares() : Object.keys(ed.cells);
    const marks = {};
    for (const sq of own) {
      const dests = new Map();
      const to = ed.kind === 'bs' ? own.filter((x) => x !== sq) : ed.targets(sq);
      for (const t of to) dests.set(t, [{ text: `swap ${sq} ${t}`, label: 'swap', local: () => { ed.swap(sq, t); } }]);
      normal.set(sq, dests);
      marks[sq] = 'm-setup';
    }
    if (ed.kind === 'reality-check') {
      const dests = new Map();
      for (const t of Object.keys(ed.cells)) dests.set(t, [{ text: `swap hand ${t}`, label: 'swap', local: () => ed.swap('hand', t) }]);
      normal.set('hand:editor', dests);
    }
    return { model: { pieces, marks }, inter: { moves: { normal, bluff: new Map() }, targets, buttons: [] } };
  }

  function editorButtons(st) {
    const ed = st.editor;
    const out = [{ text: ed.text(), label: 'Submit arrangement' }];
    if (ed.kind === 'reality-check' && ed.free) {
      out.push({ text: 'flip-selected', label: 'Flip selected', local: () => { if (board.selected) ed.flip(board.selected); } });
    }
    if (ed.kind === 'bs' && ed.spy) {
      out.push({ text: 'spy-selected', label: 'Selected pawn is the spy', local: () => { if (board.selected) ed.toggleSpy(board.selected); } });
    }
    return out;
  }

  // The hand's buttons are kept while they stay the same (see `keep`); the hand's one listener
  // answers their clicks with what the hand shows now.
  let handNow = null;
  $('#hand').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-key]');
    if (!b || b.disabled) return;
    board.press(b.dataset.key, 'normal');
    renderHand(handNow.view, handNow.me, handNow.inter);
  });
  function renderHand(view, me, inter) {
    handNow = { view, me, inter };
    const fresh = document.createElement('div');
    buildHand(fresh, view, me, inter);
    keep($('#hand'), fresh);
  }

  function buildHand(hand, view, me, inter) {
    if (view.variant !== 'reality-check' || me === 'spectator') return;
    const color = me === 'white' ? 'w' : 'b';
    if (state.editor) {
      const f = state.editor.hand;
      const b = h(`<button type="button" data-hand="editor" data-key="hand:editor" aria-label="hand piece ${f}">${pieceIcon(color, f[0], '')}<small>${f}</small></button>`);
      if (board.selected === 'hand:editor') b.classList.add('sel');
      hand.append(h('<span>Hand:</span>'), b);
      return;
    }
    hand.append(h('<span>Your hand:</span>'));
    for (const f of view.position[me].hand) {
      const key = 'hand:' + [...f].sort().join('');
      const can = inter.moves.normal.has(key);
      const b = h(`<button type="button" data-hand="${esc(f)}" data-key="${esc(key)}" aria-label="hand piece ${esc(f)}${can ? ', can be dropped' : ''}">${pieceIcon(color, f[0], '')}<small>${esc(f)}</small></button>`);
      b.disabled = !can;
      if (board.selected === key) b.classList.add('sel');
      hand.append(b);
    }
  }

  let resignArmed = null;
  let resignLock = 0;
  // Replaces a container's buttons only when they changed, so that a click never lands on a
  // button a re-render has just replaced.
  function keep(container, fresh) {
    if (container.innerHTML !== fresh.innerHTML) container.replaceChildren(...fresh.childNodes);
  }

  function renderMeta(m, me, offered) {
    const meta = document.createElement('div');
    buildMeta(meta, m, me, offered);
    keep($('#meta'), meta);
  }

  function buildMeta(meta, m, me, offered) {
    if (me === 'spectator') {
      if (m.status === 'open') {
        const color = openSeat(m);
        const b = h(`<button class="primary" type="button" id="join">Take the open seat${color ? ` (play ${color})` : ''}</button>`);
        b.addEventListener('click', async () => {
          b.disabled = true;
          try {
            const s = await api(`/api/games/${id}/join`, invite ? { invite } : {});
            localStorage.setItem('bc-tok-' + s.id, s.token);
            socket.close();
            go(s.url);
          } catch (e) { showError(e.message); b.disabled = false; }
        });
        meta.append(b);
      }
      return;
    }
    const add = (label, command, cls = '') => {
      const b = h(`<button type="button" class="${cls}" data-command="${command}">${label}</button>`);
      b.addEventListener('click', () => send({ command }));
      meta.append(b);
      return b;
    };
    if (m.status === 'live') {
      const r = h(`<button type="button" class="danger" data-command="resign">${resignArmed ? 'Confirm resign' : 'Resign'}</button>`);
      // the confirmation is a second, deliberate click: a double-click does not resign
      if (resignArmed && performance.now() < resignLock) {
        r.disabled = true;
        setTimeout(render, resignLock - performance.now() + 10);
      }
      r.addEventListener('click', () => {
        if (resignArmed) {
          if (performance.now() < resignLock) return;
          clearTimeout(resignArmed); resignArmed = null; send({ command: 'resign' }); render(); return;
        }
        resignArmed = setTimeout(() => { resignArmed = null; render(); }, 4000);
        resignLock = performance.now() + 600;
        render();
      });
      meta.append(r);
      if (offered && offered.actor !== me) {
        add('Accept draw', 'accept_draw', 'primary');
        add('Decline draw', 'decline_draw');
      } else if (!offered) add('Offer draw', 'offer_draw');
      if (m.view.position?.claimable_draw) add('Claim draw', 'claim_draw');
      // the server allows an abort until both sides have acted
      const acted = new Set(m.view.events.filter((e) => e.kind === 'action' || e.kind === 'sealed').map((e) => e.actor));
      if (!(acted.has('white') && acted.has('black'))) add('Abort', 'abort');
      // only once the opponent has really gone (never a server bot): the server says so
      const opp = me === 'white' ? 'black' : 'white';
      const away = state.presence?.[opp];
      if (away && !away.connected) meta.append(h(`<span class="muted" id="opponent-away">Your opponent has left the game${away.claimable ? '' : ': a win can be claimed if they stay away'}.</span>`));
      if (away?.claimable) add('Claim victory (opponent away)', 'claim_victory', 'primary');
    } else if (m.status === 'open') {
      add('Abort', 'abort');
    }
  }

  function lastMeta(view, kind) {
    for (let i = view.events.length - 1; i >= 0; i--) {
      const e = view.events[i];
      if (e.kind === 'meta') return e.text === kind ? e : null;
      if (e.kind === 'action' || e.kind === 'sealed') return null;
    }
    return null;
  }

  function renderMoves(entries, setups, viewing, latest) {
    const cells = [];
    if (setups.length) cells.push(`<span class="n">0.</span><span class="setup" title="setups">${setups.map((s) => esc(`${s.color}: ${s.text}`)).join('; ')}</span>`);
    let n = 0;
    let half = null;
    const cell = (e) => {
      const after = e.last + 1;
      const cls = (viewing === null ? after === latest : viewing === after) ? ' cur' : '';
      return `<button type="button" class="mv${cls}" data-after="${after}" data-color="${e.color}">${esc(e.parts.join(' '))}</button>`;
    };
    for (const e of entries) {
      if (e.color === 'white' || half !== 'white') {
        n += 1;
        cells.push(`<span class="n">${n}.</span>`);
        if (e.color === 'black') cells.push('<span class="mv">…</span>');
        cells.push(cell(e));
        half = e.color;
        if (e.color === 'black') half = null;
      } else {
        cells.push(cell(e));
        half = null;
      }
    }
    if (half === 'white') cells.push('<span></span>');
    const box = $('#moves');
    box.innerHTML = cells.join('');
    $('#viewing').textContent = viewing !== null ? '(an earlier position: ← → to step, Esc to come back)' : '';
    if (viewing === null) box.scrollTop = box.scrollHeight;
    state.afters = entries.map((e) => e.last + 1);
  }

  $('#moves').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-after]');
    if (b) viewPosition(+b.dataset.after);
  });

  function stepView(delta) {
    const afters = state.afters || [];
    if (!afters.length) return;
    const latest = afters[afters.length - 1];
    const at = state.viewing === null ? afters.length - 1 : afters.indexOf(state.viewing);
    const next = Math.max(0, Math.min(afters.length - 1, (at < 0 ? afters.length - 1 : at) + delta));
    viewPosition(afters[next] === latest ? null : afters[next]);
  }

  function renderEvents(view, me) {
    // a seat's own hidden action is listed once, in its own words
    const own = new Set(view.events.filter((e) => e.seats === me && e.seats !== 'all' && e.kind === 'action').map((e) => e.action));
    const shown = view.events.filter((e) => !(e.kind === 'sealed' && own.has(e.action) && e.actor === me));
    const list = $('#events');
    list.innerHTML = shown.map((e) => `<li class="${e.seats !== 'all' ? 'private' : ''} ${e.kind}" data-kind="${e.kind}">${esc(sentence(e, view.variant))}${e.seats !== 'all' ? ' <small>(only you)</small>' : ''}</li>`).join('');
    list.scrollTop = list.scrollHeight;
  }

  let rematchTimer = null;
  function renderAfter(m, me) {
    const after = $('#after');
    if (m.status !== 'over' && m.status !== 'aborted') { after.innerHTML = ''; return; }
    if (after.dataset.done === String(m.seq)) return;
    after.dataset.done = String(m.seq);
    const parts = [];
    if (m.status === 'over') {
      parts.push('<p class="banner" id="revealed">The game is over: everything is revealed on the board and in the events.</p>');
      parts.push(`<p class="row"><a href="/replay/${esc(id)}" id="replay-link">Replay</a> <a id="download" download="bluffchess-${esc(id)}.json" href="#">Download the record</a></p>`);
      if (me !== 'spectator') parts.push('<p class="row"><button type="button" id="rematch">Rematch</button> <span id="rematch-state" class="muted"></span></p>');
    }
    after.innerHTML = parts.join('');
    const dl = after.querySelector('#download');
    if (dl && m.record) dl.href = URL.createObjectURL(new Blob([JSON.stringify(m.record, null, 2)], { type: 'application/json' }));
    const rb = after.querySelector('#rematch');
    if (rb) {
      rb.addEventListener('click', async () => {
        let r = null;
        rb.disabled = true;
        try {
          const res = await fetch(`/api/games/${id}/rematch`, { method: 'POST', headers: authHeaders() });
          r = await res.json();
          if (!res.ok) { showError(r.error); r = null; }
        } catch (e) { showError(String(e)); }
        rb.disabled = false;
        if (r && r.rematch) go(`/game/${r.rematch}#${token}`);
        else if (r) after.querySelector('#rematch-state').textContent = 'Asked: waiting for the opponent.';
      });
      const poll = async () => {
        try {
          const res = await fetch(`/api/games/${id}/view`, { headers: authHeaders() });
          const v = await res.json();
          const rm = v.rematch;
          const st = after.querySelector('#rematch-state');
          if (rm && rm.id && st) {
            st.innerHTML = `<a href="/game/${esc(rm.id)}#${esc(token)}" id="rematch-link">Go to the rematch</a>`;
            if (rm.asked[me]) { go(`/game/${rm.id}#${token}`); return; }
          } else if (rm && st && rm.asked[me === 'white' ? 'black' : 'white']) st.textContent = 'Your opponent asks for a rematch.';
        } catch { /* retried */ }
        rematchTimer = setTimeout(poll, 2000);
      };
      clearTimeout(rematchTimer);
      poll();
    }
  }

  // Whether the opponent is still at the board (the view answer's presence), asked now and then
  // during a live game against a person.
  let presenceTimer = null;
  const pollPresence = async () => {
    const m = state.msg;
    const me = seat();
    if (m && m.status === 'live' && me !== 'spectator' && !(m.players?.[me === 'white' ? 'black' : 'white'] || '').startsWith('bot:')) {
      try {
        const r = await fetch(`/api/games/${encodeURIComponent(id)}/view`, { headers: authHeaders() });
        if (r.ok) {
          const before = JSON.stringify(state.presence);
          state.presence = (await r.json()).presence || null;
          if (JSON.stringify(state.presence) !== before) render();
        }
      } catch { /* retried */ }
    }
    presenceTimer = setTimeout(pollPresence, 5000);
  };
  presenceTimer = setTimeout(pollPresence, 3000);

  // The clocks count down from each message's reading, from its receipt here, less the time it
  // took to arrive (half the socket's round trip).
  function tickClocks() {
    const m = state.msg;
    if (!m) return;
    const me = seat();
    for (const slot of ['#top', '#bottom']) {
      const el = $(slot);
      const c = el.querySelector('.clock');
      if (!m.clock) { c.textContent = ''; continue; }
      const color = el.dataset.color;
      let ms = m.clock[color + '_ms'];
      if (m.clock.running === color && m.status === 'live') ms -= performance.now() - state.receivedAt + socket.lag();
      ms = Math.max(0, ms);
      c.textContent = fmtClock(ms);
      c.dataset.ms = Math.round(ms);
      c.classList.toggle('low', ms < 20000);
      c.setAttribute('aria-label', `${color} clock ${fmtClock(ms)}`);
      // a warning sound once, when the player's own time runs low
      if (color === me && m.clock.running === me && m.status === 'live') {
        const low = ms < Math.min(60000, Math.max(10000, m.clock.initial_ms / 8));
        if (low && !state.lowWarned) { state.lowWarned = true; page.dataset.lowTime = '1'; sound.play('low'); }
        if (!low) state.lowWarned = false;
      }
    }
  }

  $('#typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('#typed-input');
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    act(text);
  });
  fetch(`/api/games/${encodeURIComponent(id)}/view`).then(async (r) => {
    if (r.status === 404) {
      socket.close();
      clearTimeout(presenceTimer);
      document.title = 'No such game · bluffchess';
      main.replaceChildren(h(`<div class="card narrow" id="no-game"><h2>No such game</h2>
        <p>There is no game <code>${esc(id)}</code> on this server: the link may be mistyped or cut short.</p>
        <p><a href="/" id="back-to-lobby">Back to the lobby</a>, to start a game or watch one.</p></div>`));
    }
  }).catch(() => {});
  const keys = (e) => {
    if (e.target.matches('input, select, textarea')) return;
    if (e.key === 'f') { state.orientation = (state.orientation || (seat() === 'black' ? 'black' : 'white')) === 'white' ? 'black' : 'white'; render(); }
    if (e.target.closest && e.target.closest('.board')) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); stepView(-1); }
    if (e.key === 'ArrowRight') { e.preventDefault(); stepView(1); }
    if (e.key === 'Escape') { if (state.premove) { setPremove(null); render(); } if (state.viewing !== null) viewPosition(null); }
  };
  document.addEventListener('keydown', keys);
  const timer = setInterval(tickClocks, 200);
  cleanup = () => {
    clearInterval(timer);
    clearTimeout(rematchTimer);
    clearTimeout(presenceTimer);
    document.removeEventListener('keydown', keys);
    socket.close();
  };
}

// ---- replay ----
async function replayPage(id) {
  main.innerHTML = '<p>Loading the replay…</p>';
  let data;
  try { data = await api(`/api/games/${encodeURIComponent(id)}/replay`); } catch (e) { main.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  await variants().catch(() => []);
  const { record, positions } = data;
  const ad = adapterOf(record.variant);
  document.title = `Replay · ${nameOf(record.variant)} · bluffchess`;
  const page = h(`<div class="game replay" data-game="${esc(id)}">
    <div><div class="boardwrap"><div class="board-host" id="board-host"></div></div>
      <div class="replay-controls" aria-label="replay controls">
        <button type="button" id="first" aria-label="first">«</button><button type="button" id="prev" aria-label="previous">‹</button>
        <button type="button" id="next" aria-label="next">›</button><button type="button" id="last" aria-label="last">»</button>
        <input type="range" id="step" min="0" max="${positions.length - 1}" value="0" aria-label="step">
        <button type="button" id="flip">Flip</button>
        <label>Show <select id="as"><option value="truth">as it really was</option><option value="white">as White saw it</option><option value="black">as Black saw it</option></select></label>
        <span id="where" aria-live="polite"></span></div></div>
    <div class="side"><p><strong>${esc(nameOf(record.variant))}</strong>: ${esc(record.outcome ? (record.outcome.winner ? `${record.outcome.winner} wins` : 'draw') + ` (${record.outcome.reason})` : '')}</p>
      <p><a href="/api/games/${esc(id)}/record" download="bluffchess-${esc(id)}.json">Download the record</a> · <a href="/game/${esc(id)}">The game</a></p>
      <div class="panel"><h3>Actions (full truth)</h3><ol class="events replay-list" id="actions">${record.actions.map((a, i) => `<li data-i="${i + 1}"><button type="button" data-i="${i + 1}">${esc(a.actor)}: ${esc(a.text)}${a.public !== a.text ? ` <small class="muted">(seen as ${esc(a.public)})</small>` : ''}</button></li>`).join('')}</ol></div>
    </div></div>`);
  main.replaceChildren(page);
  const board = new Board(page.querySelector('#board-host'), { onChoose: () => {}, label: 'replay board' });
  let orientation = 'white';
  let i = 0;
  const show = () => {
    board.setup(shapeOf({ variant: record.variant, options: record.options }), orientation);
    // a seat's replay shows the other side's hidden actions by their public texts
    const as = page.querySelector('#as').value;
    const seat = as === 'truth' ? 'spectator' : as;
    const events = record.actions.slice(0, i).map((a) => ({ kind: 'action', text: as === 'truth' || a.actor === as ? a.text : a.public, actor: a.actor, seats: 'all' }));
    const position = as === 'truth' ? positions[i] : data.seen[as][i];
    const view = { variant: record.variant, options: record.options, position, events, outcome: i === positions.length - 1 ? record.outcome : null, to_act: null };
    board.render(ad.model(view, seat), interactionOf([]));
    page.dataset.as = as;
    page.querySelector('#step').value = i;
    page.querySelector('#where').textContent = i === 0 ? 'start' : `${i}/${positions.length - 1}: ${record.actions[i - 1].actor} ${record.actions[i - 1].text}`;
    page.dataset.step = i;
    for (const li of page.querySelectorAll('#actions li')) li.classList.toggle('private', +li.dataset.i === i);
  };
  const to = (n) => { i = Math.max(0, Math.min(positions.length - 1, n)); show(); };
  page.querySelector('#first').onclick = () => to(0);
  page.querySelector('#prev').onclick = () => to(i - 1);
  page.querySelector('#next').onclick = () => to(i + 1);
  page.querySelector('#last').onclick = () => to(positions.length - 1);
  page.querySelector('#flip').onclick = () => { orientation = orientation === 'white' ? 'black' : 'white'; show(); };
  page.querySelector('#step').oninput = (e) => to(+e.target.value);
  page.querySelector('#as').onchange = () => { orientation = page.querySelector('#as').value === 'black' ? 'black' : 'white'; show(); };
  page.querySelector('#actions').addEventListener('click', (e) => { if (e.target.closest('button')) to(+e.target.closest('button').dataset.i); });
  const keys = (e) => {
    if (e.target.matches('input, select')) return;
    if (e.key === 'ArrowRight') to(i + 1);
    if (e.key === 'ArrowLeft') to(i - 1);
  };
  document.addEventListener('keydown', keys);
  cleanup = () => document.removeEventListener('keydown', keys);
  to(positions.length - 1);
}

route();
