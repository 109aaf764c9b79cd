// The lobby's pairing: the quick-pairing grid (each variant by three clocks: rated when signed
// in, casual for a guest), the open seeks (taken with one click; one's own cancelled), and a
// form for a seek of one's own terms. A waiting seek shows until the event stream's gameStart
// opens its game; leaving the lobby or the page cancels it.
import { call, whoAmI } from './account.js';
import { onEvent, startEvents, restartEvents } from './events.js';
import { esc } from './variants.js';
import { termsFields, bindTerms, readTerms, clockOf, playerRef, termsText } from './terms.js';

// The quick-pairing grid's clocks: `initial+increment` in seconds, and their labels.
const QUICK = [['60+0', '1+0'], ['180+2', '3+2'], ['600+0', '10+0']];

// This page's waiting seeks, by id: {variant, rated, text, quick: the grid cell's key or null}.
const mine = new Map();
let lobby = null;

// Cancels waiting seeks (all, or all but `except`), without waiting for the answers.
function cancelSeeks(except) {
  for (const id of mine.keys()) {
    if (id === except) continue;
    fetch(`/api/seek/${encodeURIComponent(id)}`, { method: 'DELETE', keepalive: true }).catch(() => {});
  }
  mine.clear();
}

window.addEventListener('pagehide', () => cancelSeeks());

// A game of ours has started: one of our seeks was taken when it has its variant and ratedness.
onEvent((e) => {
  if (e.type !== 'gameStart' || !e.fresh || !lobby) return;
  const g = e.game;
  const taken = [...mine.values()].some((s) => s.variant === g.variant.key && s.rated === g.rated);
  if (!taken) return;
  cancelSeeks();
  lobby.go(`/game/${encodeURIComponent(g.gameId)}`);
});

// Draws the pairing section at the top of the lobby `page`; returns what the lobby drives:
// `seeks(list)` with each refresh's open seeks, and `leave()` when the lobby goes.
export function pairingLobby(page, { list, nameOf, go }) {
  const section = document.createElement('div');
  section.className = 'pairing';
  section.innerHTML = `<section class="card" aria-labelledby="quick-h"><h2 id="quick-h">Quick pairing</h2>
      <p class="muted" id="quick-mode"></p>
      <table class="quick" id="quick"><thead><tr><th scope="col">Variant</th>${QUICK.map(([, label]) => `<th scope="col">${label}</th>`).join('')}</tr></thead>
      <tbody>${list.map((v) => `<tr><th scope="row">${esc(v.name)}</th>${QUICK.map(([value, label]) => `<td><button type="button" data-quick="${esc(v.id)}/${value}" aria-label="${esc(v.name)} ${label}" aria-pressed="false">${label}</button></td>`).join('')}</tr>`).join('')}</tbody></table>
      <div id="pairing-status" role="status"></div></section>
    <section class="card" aria-labelledby="seeks-h"><h2 id="seeks-h">Open seeks</h2><ul class="games" id="seeks"><li class="muted">Loading…</li></ul>
      <details id="custom-seek"><summary>Create a seek</summary>
        <form id="seek-form">${termsFields(list, { rated: true, range: true })}
        <p><button class="primary" type="submit" id="seek-btn">Seek an opponent</button></p><p class="error" role="alert"></p></form></details></section>`;
  page.prepend(section);
  const $ = (sel) => section.querySelector(sel);
  let me = null;
  let listed = [];
  const misses = new Map();
  lobby = { go };

  whoAmI().then((account) => {
    me = account;
    $('#quick-mode').innerHTML = me
      ? 'Rated games against the player nearest your rating. Pick a variant and a clock:'
      : 'Casual games (as a guest): <a href="/signup">sign up</a> or <a href="/login">sign in</a> to play rated. Pick a variant and a clock:';
    if (!me) Object.assign($('#seek-form [name=rated]'), { checked: false, disabled: true });
    showSeeks();
  });
  bindTerms($('#seek-form'), list);

  const status = (html) => { $('#pairing-status').innerHTML = html; };
  const showWaiting = () => {
    for (const b of section.querySelectorAll('[data-quick]')) {
      const waiting = [...mine.values()].some((s) => s.quick === b.dataset.quick);
      b.setAttribute('aria-pressed', String(waiting));
      b.classList.toggle('waiting', waiting);
    }
    const quick = [...mine.entries()].find(([, s]) => s.quick);
    status(quick ? `<p class="waiting-line"><span class="spinner" aria-hidden="true"></span> Waiting for an opponent: ${esc(quick[1].text)}. <button type="button" data-cancel-seek="${esc(quick[0])}" id="cancel-quick">Cancel</button></p>` : '');
  };

  // Posts a seek; opens its game when it paired at once, else it waits.
  const seek = async (terms, quick) => {
    const answer = await call('POST', '/api/seek', terms);
    if (answer.game) {
      cancelSeeks();
      go(`/game/${encodeURIComponent(answer.game)}`);
      return;
    }
    const text = `${nameOf(terms.variant)} ${terms.clock ? `${terms.clock.initial_s / 60}+${terms.clock.increment_s}` : '∞'}, ${terms.rated ? 'rated' : 'casual'}`;
    mine.set(answer.id, { variant: terms.variant, rated: !!terms.rated, text, quick });
    // a guest's first seek made its session: its stream can open now
    startEvents();
    showWaiting();
    showSeeks();
  };

  const cancel = async (id) => {
    mine.delete(id);
    await call('DELETE', `/api/seek/${encodeURIComponent(id)}`).catch(() => {});
    listed = listed.filter((s) => s.id !== id);
    showWaiting();
    showSeeks();
  };

  section.addEventListener('click', async (e) => {
    const button = e.target.closest('button');
    if (!button) return;
    const { quick: key, take, cancelSeek } = button.dataset;
    try {
      if (key) {
        const waiting = [...mine.entries()].find(([, s]) => s.quick === key);
        if (waiting) { await cancel(waiting[0]); return; }
        // one quick seek at a time: another cell replaces it
        for (const [id, s] of [...mine.entries()]) if (s.quick) await cancel(id);
        const [variant, clock] = key.split('/');
        const account = await whoAmI();
        status('<p>Looking for an opponent…</p>');
        await seek({ variant, clock: clockOf(clock), color: 'random', rated: !!account && !account.bot }, key);
      } else if (take) {
        button.disabled = true;
        const paired = await call('POST', `/api/seek/${encodeURIComponent(take)}/accept`);
        localStorage.setItem('bc-tok-' + paired.game, paired.token);
        cancelSeeks();
        go(paired.url);
      } else if (cancelSeek) {
        await cancel(cancelSeek);
      }
    } catch (err) {
      button.disabled = false;
      status(`<p class="error">${esc(err.message)}</p>`);
      showSeeks();
    }
  });

  const form = $('#seek-form');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const error = form.querySelector('.error');
    error.textContent = '';
    try {
      await seek(readTerms(form, list), null);
    } catch (err) {
      error.textContent = err.message;
    }
  });

  function showSeeks() {
    const own = (s) => mine.has(s.id) || (me && s.seeker.name === me.username);
    $('#seeks').innerHTML = listed.map((s) => `<li data-seek="${esc(s.id)}"${own(s) ? ' class="own"' : ''}><span>${playerRef(s.seeker)}
      <small class="muted">${esc(termsText(s, nameOf))}${s.color !== 'random' ? `, plays ${esc(s.color)}` : ''}${s.ratingRange ? `, for ${s.ratingRange[0]}–${s.ratingRange[1]}` : ''}</small></span>
      ${own(s) ? `<button type="button" data-cancel-seek="${esc(s.id)}">Cancel</button>` : `<button type="button" class="primary" data-take="${esc(s.id)}">Play</button>`}</li>`).join('')
      || '<li class="muted">No open seeks: click a cell of the grid, and your seek shows here.</li>';
  }

  return {
    // The lobby's open seeks, from its refresh. A seek of ours missing was taken (or expired):
    // the stream opens anew, and its opening lists the game if there is one (a guest's first
    // seek is announced to its address, before its session); missing twice, it is gone.
    seeks(seeks) {
      listed = seeks;
      for (const id of [...mine.keys()]) {
        const missing = seeks.some((s) => s.id === id) ? 0 : (misses.get(id) || 0) + 1;
        misses.set(id, missing);
        if (missing === 1) restartEvents();
        if (missing >= 2) {
          mine.delete(id);
          showWaiting();
          status('<p>Your seek is no longer open (it expired or was cancelled).</p>');
        }
      }
      showSeeks();
    },
    leave() {
      cancelSeeks();
      lobby = null;
    },
  };
}
