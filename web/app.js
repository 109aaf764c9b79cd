// The bluffchess browser client: a small router over the lobby, game, rules, replay, player and
// leaderboard pages.
import { Board } from './board.js';
import { GameSocket, api } from './net.js';
import { sound } from './sound.js';
import { markdown } from './md.js';
import { pieceIcon } from './pieces.js';
import { adapterOf, shapeOf, interactionOf, esc, labelOf, bsEditor, rcEditor, sentence } from './variants.js';
import { accountBar, accountPage, loginPage, signupPage } from './account.js';
import { restartEvents } from './events.js';
import { pairingLobby } from './pairing.js';
import { challengePanel, challengesOf } from './challenges.js';
import { playerPage, leaderboardPage, nameTag } from './players.js';
import { optionsHtml, readOptions } from './terms.js';

const main = document.getElementById('main');
const announcer = document.getElementById('announce');
let cleanup = () => {};
let variantsCache = null;

const h = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content.firstElementChild; };
const say = (text) => { announcer.textContent = text; };

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
  if (url.origin !== location.origin || !/^\/(game|replay|rules|@)\/|^\/(login|signup|account|player)?$/.test(url.pathname)) return;
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
          <label><input type="radio" name="opponent" value="bot"> A server bot, by name: <input type="text" id="bot" value="default" list="bots" size="16" aria-label="bot name"></label>
          <datalist id="bots"><option value="default">the search bot, 0.2 s a move</option><option value="default:ms=1000">stronger: 1 s a move</option><option value="default:ms=50">quicker: 0.05 s a move</option><option value="greedy">easy: one move ahead</option><option value="random">random moves</option></datalist>
        </fieldset>
        <p><button class="primary" type="submit" id="create-btn">Create game</button></p>
        <p id="create-error" class="error" role="alert"></p>
      </form>
    </section>
    <section>
      <div class="card"><h2>Open games</h2><ul class="games" id="open"></ul></div>
      <div class="card"><h2>Live games</h2><ul class="games" id="live"></ul></div>
      <div class="card"><h2>Variants</h2><ul class="variants-list">${list.map((v) => `<li><a href="/rules/${v.id}">${esc(v.name)}</a>: ${esc(v.summary)}</li>`).join('')}</ul></div>
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
  showOptions();
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
      opponent: kind === 'bot' ? 'bot:' + page.querySelector('#bot').value.trim().replace(/^bot:/, '') : 'open',
      private: kind === 'friend',
    };
    try {
      const game = await api('/api/games', body);
      localStorage.setItem('bc-tok-' + game.id, game.token);
      if (game.invite) localStorage.setItem('bc-inv-' + game.id, game.invite);
      go(game.url);
    } catch (err) {
      page.querySelector('#create-error').textContent = err.message;
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
  main.innerHTML = `<div class="rules"><p>${list.map((v) => `<a href="/rules/${v.id}">${esc(v.name)}</a>`).join(' · ')}</p><article id="rules-text">Loading…</article></div>`;
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

function gamePage(id, fragment) {
  // The fragment holds a seat's token, or a private game's invitation (`invite=CODE`).
  const invite = fragment.startsWith('invite=') ? fragment.slice(7) : null;
  const tokenFromHash = invite ? null : fragment || null;
  const stored = localStorage.getItem('bc-tok-' + id);
  const token = tokenFromHash || stored || null;
  const state = { id, token, msg: null, orientation: null, bluff: false, editor: null, handSel: null, error: '' };
  variants().then(() => { if (state.msg) render(); }).catch(() => {});
  main.innerHTML = '';
  const page = h(`<div class="game" data-game="${esc(id)}">
    <div>
      <div class="player" id="top"><span class="name"></span><span class="clock" role="timer"></span></div>
      <div class="boardwrap"><div class="board-host" id="board-host"></div></div>
      <div class="player" id="bottom"><span class="name"></span><span class="clock" role="timer"></span></div>
      <div class="hand" id="hand" aria-label="your hand"></div>
    </div>
    <div class="side">
      <div class="row"><span class="status" id="status" aria-live="polite">Connecting…</span><span class="conn" id="conn"></span></div>
      <div id="info"></div>
      <div class="actions" id="buttons" aria-label="actions"></div>
      <div class="setup-ed" id="setup-ed" hidden></div>
      <form class="typed" id="typed"><label class="sr-only" for="typed-input">Type an action</label>
        <input id="typed-input" type="text" list="legal-list" placeholder="type an action (e2e4, stay, call…)" autocomplete="off" spellcheck="false">
        <datalist id="legal-list"></datalist><button type="submit">Play</button></form>
      <p id="game-error" class="error" role="alert"></p>
      <div class="actions" id="meta"></div>
      <div class="panel"><h3>Moves</h3><div class="moves" id="moves"></div></div>
      <div class="panel"><h3>Events</h3><ol class="events" id="events"></ol></div>
      <div id="after"></div>
    </div></div>`);
  main.append(page);
  const $ = (sel) => page.querySelector(sel);
  const board = new Board($('#board-host'), { onChoose: (actions, sq) => choose(actions, sq), label: 'game board' });

  const seat = () => state.msg?.view?.seat || 'spectator';
  const showError = (text) => { $('#game-error').textContent = text || ''; if (text) say(text); };

  const send = async (obj) => {
    showError('');
    try {
      const r = await socket.send(obj);
      return r;
    } catch (e) {
      showError(e.error || String(e));
      return null;
    }
  };
  const act = (text) => send({ action: text });

  function choose(actions, sq) {
    if (actions.length === 1) return run(actions[0]);
    const wrap = $('.boardwrap');
    const box = h(`<div class="chooser" role="dialog" aria-label="Choose the action on ${esc(sq)}"><div class="box"></div></div>`);
    for (const a of actions) {
      const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(a.label)}</button>`);
      const promo = a.text.match(/^(?:bluff )?[a-i][1-9][a-i][1-9]([qrbn])$/);
      if (promo) b.insertAdjacentHTML('afterbegin', pieceIcon(seat() === 'black' ? 'b' : 'w', promo[1].toUpperCase(), ''));
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

  const socket = new GameSocket(id, token, {
    onMessage: (m) => {
      // A link's token is kept only once the server has taken it for a seat.
      if (tokenFromHash && tokenFromHash !== stored && m.view && m.view.seat !== 'spectator') {
        localStorage.setItem('bc-tok-' + id, tokenFromHash);
      }
      const before = state.msg;
      mergeMessage(state, m);
      if (m.type === 'update' || (m.type === 'end' && before)) feedback(before, m);
      render();
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
    const note = h(`<p id="bad-link">This link is not valid for this game. <a href="/game/${esc(id)}">Open the game</a>${stored ? ' with the seat this browser already has' : ' as a spectator'}.</p>`);
    $('#status').replaceChildren(note);
  }

  function feedback(before, m) {
    const events = m.type === 'update' ? m.events || [] : m.view.events.slice(before.view.events.length);
    if (!events.length) return;
    const last = events[events.length - 1];
    say(events.map((e) => sentence(e, state.msg.view.variant)).join(' '));
    if (m.type === 'end') sound.play('end');
    else if (events.some((e) => /captur|removed|takes/.test(e.text) || e.fact?.capture)) sound.play('capture');
    else if (last.kind === 'action' || last.kind === 'sealed') sound.play('move');
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
    const legal = m.legal || [];
    const myTurn = legal.length > 0;
    page.dataset.toAct = myTurn ? 'me' : 'other';
    // setup editor
    const editing = m.setup && myTurn && (view.variant === 'bs' || view.variant === 'reality-check');
    if (editing && !state.editor) {
      state.editor = view.variant === 'bs' ? bsEditor(me, view.options.spy === 'true') : rcEditor(me, { flexible: view.options['flexible-setup'] === 'true', advanced: view.options.board === 'advanced' });
      state.editor.kind = view.variant;
    }
    if (!editing) state.editor = null;
    let model;
    let inter;
    if (state.editor) {
      ({ model, inter } = editorModel(state));
      inter.buttons = interactionOf(legal).buttons;
    } else {
      model = ad.model(view, me);
      inter = interactionOf(legal);
      if (state.bluff) inter.moves.normal = new Map();
      // Ambiguous: a drag onto a square names it.
      if (view.variant === 'ambiguous' && view.position.step === 'name') {
        for (const [sq, p] of Object.entries(model.pieces)) {
          if (p.color !== (me === 'white' ? 'w' : 'b')) continue;
          const dests = new Map();
          for (const [t, acts] of inter.targets) if (t !== sq) dests.set(t, acts);
          if (dests.size) inter.moves.normal.set(sq, dests);
        }
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
      el.querySelector('.name').replaceChildren(nameTag(name, color, me === color, m.ratings?.[color]));
      el.classList.toggle('to-act', view.to_act === color && m.status === 'live');
    }
    tickClocks();
    // status
    let status;
    if (m.status === 'open') status = token ? 'Waiting for an opponent. Invite a friend with this link: ' : 'This game has an open seat.';
    else if (m.status === 'aborted') status = 'The game was aborted.';
    else if (m.outcome) status = m.outcome.text;
    else if (myTurn) status = m.setup ? 'Your setup' : 'Your turn';
    else status = view.to_act ? `${view.to_act} to act` : '';
    $('#status').textContent = status;
    if (m.status === 'open' && token) {
      const code = localStorage.getItem('bc-inv-' + id);
      const link = `/game/${esc(id)}${code ? '#invite=' + esc(code) : ''}`;
      $('#status').append(h(`<a href="${link}" id="invite">${esc(location.origin)}${link}</a>`));
    }
    document.title = `${myTurn ? '• ' : ''}${nameOf(view.variant)} · bluffchess`;
    $('#info').innerHTML = ad.info(view, me) + `<p><a href="/rules/${esc(view.variant)}">${esc(nameOf(view.variant))}: the rules</a></p>`;
    document.getElementById('rules-link').href = `/rules/${view.variant}`;
    // buttons from the legal list
    const buttons = $('#buttons');
    buttons.replaceChildren();
    const editorActions = state.editor ? editorButtons(state) : [];
    const shown = inter.buttons.length <= 14 ? inter.buttons : [];
    for (const a of [...editorActions, ...shown]) {
      const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(a.label)}</button>`);
      b.addEventListener('click', () => run(a));
      buttons.append(b);
    }
    if (!state.editor && view.variant === 'ambiguous' && view.position.step === 'pick' && myTurn) {
      for (const t of legal) {
        const b = h(`<button type="button" data-action="${esc(t)}">${esc(labelOf(t))}</button>`);
        b.addEventListener('click', () => act(t));
        buttons.append(b);
      }
    }
    if (!state.editor && legal.some((t) => t.startsWith('bluff '))) {
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
    renderHand(view, me, inter);
    $('#setup-ed').hidden = !state.editor;
    if (state.editor) $('#setup-ed').innerHTML = `<p>Arrange your pieces: click one, then another to swap them${state.editor.kind === 'reality-check' ? (state.editor.free ? ` (or the hand piece), or move one to an empty square of your ${state.editor.advanced ? 'corner (nine of its ten squares)' : 'half'}; Flip selected turns it over` : ' (or the hand piece below the board); each piece turns to the face its square shows') : ''}${state.editor.spy ? '; select a pawn and make it the spy' : ''}. Then Submit.</p><p><code id="setup-text">${esc(state.editor.text())}</code></p>`;
    $('#legal-list').innerHTML = legal.slice(0, 400).map((t) => `<option value="${esc(t)}">`).join('');
    $('#typed').hidden = !myTurn;
    renderMeta(m, me);
    renderMoves(view, me);
    renderEvents(view);
    renderAfter(m, me);
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

  function renderHand(view, me, inter) {
    const hand = $('#hand');
    hand.replaceChildren();
    if (view.variant !== 'reality-check' || me === 'spectator') return;
    const color = me === 'white' ? 'w' : 'b';
    if (state.editor) {
      const f = state.editor.hand;
      const b = h(`<button type="button" data-hand="editor" aria-label="hand piece ${f}">${pieceIcon(color, f[0], '')}<small>${f}</small></button>`);
      if (board.selected === 'hand:editor') b.classList.add('sel');
      b.addEventListener('click', () => { board.press('hand:editor', 'normal'); renderHand(view, me, inter); });
      hand.append(h('<span>Hand:</span>'), b);
      return;
    }
    hand.append(h('<span>Your hand:</span>'));
    for (const f of view.position[me].hand) {
      const key = 'hand:' + [...f].sort().join('');
      const can = inter.moves.normal.has(key);
      const b = h(`<button type="button" data-hand="${esc(f)}" aria-label="hand piece ${esc(f)}${can ? ', can be dropped' : ''}">${pieceIcon(color, f[0], '')}<small>${esc(f)}</small></button>`);
      b.disabled = !can;
      if (board.selected === key) b.classList.add('sel');
      b.addEventListener('click', () => { board.press(key, 'normal'); renderHand(view, me, inter); });
      hand.append(b);
    }
  }

  let resignArmed = null;
  function renderMeta(m, me) {
    const meta = $('#meta');
    meta.replaceChildren();
    if (me === 'spectator') {
      if (m.status === 'open') {
        const b = h('<button class="primary" type="button" id="join">Take the open seat</button>');
        b.addEventListener('click', async () => {
          try {
            const s = await api(`/api/games/${id}/join`, invite ? { invite } : {});
            localStorage.setItem('bc-tok-' + s.id, s.token);
            socket.close();
            go(s.url);
          } catch (e) { showError(e.message); }
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
      r.addEventListener('click', () => {
        if (resignArmed) { clearTimeout(resignArmed); resignArmed = null; send({ command: 'resign' }); render(); return; }
        resignArmed = setTimeout(() => { resignArmed = null; render(); }, 4000);
        render();
      });
      meta.append(r);
      const offered = lastMeta(m.view, 'offer_draw');
      if (offered && offered.actor !== me) add('Accept draw', 'accept_draw', 'primary');
      add('Offer draw', 'offer_draw');
      if (m.view.position?.claimable_draw) add('Claim draw', 'claim_draw');
      // the server allows an abort until both sides have acted
      const acted = new Set(m.view.events.filter((e) => e.kind === 'action' || e.kind === 'sealed').map((e) => e.actor));
      if (!(acted.has('white') && acted.has('black'))) add('Abort', 'abort');
      add('Claim victory (opponent away)', 'claim_victory');
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

  function renderMoves(view, me) {
    const byIndex = new Map();
    for (const e of view.events) {
      if (e.kind !== 'action' && e.kind !== 'sealed') continue;
      if (e.actor !== 'white' && e.actor !== 'black' && e.actor !== 'chance') continue;
      const prev = byIndex.get(e.action);
      if (!prev || e.seats === me) byIndex.set(e.action, e);
    }
    const rows = [...byIndex.values()].map((e, i) => `<span class="n">${i + 1}.</span><span>${esc(e.actor)}</span><span>${esc(e.text)}</span>`);
    const box = $('#moves');
    box.innerHTML = rows.join('');
    box.scrollTop = box.scrollHeight;
  }

  function renderEvents(view) {
    const list = $('#events');
    list.innerHTML = view.events.map((e) => `<li class="${e.seats !== 'all' ? 'private' : ''} ${e.kind}" data-kind="${e.kind}">${esc(sentence(e, view.variant))}${e.seats !== 'all' ? ' <small>(only you)</small>' : ''}</li>`).join('');
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
        try {
          const res = await fetch(`/api/games/${id}/rematch`, { method: 'POST', headers: { Authorization: 'Bearer ' + token } });
          r = await res.json();
          if (!res.ok) { showError(r.error); r = null; }
        } catch (e) { showError(String(e)); }
        if (r && r.rematch) go(`/game/${r.rematch}#${token}`);
        else if (r) after.querySelector('#rematch-state').textContent = 'Asked: waiting for the opponent.';
      });
      const poll = async () => {
        try {
          const res = await fetch(`/api/games/${id}/view`, { headers: { Authorization: 'Bearer ' + token } });
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

  function tickClocks() {
    const m = state.msg;
    if (!m) return;
    for (const slot of ['#top', '#bottom']) {
      const el = $(slot);
      const c = el.querySelector('.clock');
      if (!m.clock) { c.textContent = ''; continue; }
      const color = el.dataset.color;
      let ms = m.clock[color + '_ms'];
      if (m.clock.running === color && m.status === 'live') ms -= performance.now() - state.receivedAt;
      c.textContent = fmtClock(ms);
      c.classList.toggle('low', ms < 20000);
      c.setAttribute('aria-label', `${color} clock ${fmtClock(ms)}`);
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
      $('#status').textContent = 'No such game.';
      showError((await r.json()).error);
    }
  }).catch(() => {});
  const keys = (e) => {
    if (e.target.matches('input, select, textarea')) return;
    if (e.key === 'f') { state.orientation = (state.orientation || (seat() === 'black' ? 'black' : 'white')) === 'white' ? 'black' : 'white'; render(); }
  };
  document.addEventListener('keydown', keys);
  const timer = setInterval(tickClocks, 200);
  cleanup = () => {
    clearInterval(timer);
    clearTimeout(rematchTimer);
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
