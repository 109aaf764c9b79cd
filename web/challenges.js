// Challenges: a small panel on every page, fed by the event stream, with the challenges an
// account received (Accept; Decline with one of lichess's reasons) and sent (Cancel), and a
// word when one is declined, cancelled or expires; and the form that challenges a player.
import { call, whoAmI } from './account.js';
import { onEvent } from './events.js';
import { esc } from './variants.js';
import { termsFields, bindTerms, readTerms, playerRef, playerLink, termsText } from './terms.js';

// lichess's decline reasons: the key the API takes, and a short label (the server words the
// reason the challenger reads).
const REASONS = [
  ['generic', 'Not now'], ['later', 'Later, please'], ['tooFast', 'Too fast'], ['tooSlow', 'Too slow'],
  ['timeControl', 'Not this time control'], ['rated', 'Rated, please'], ['casual', 'Casual, please'],
  ['variant', 'Not this variant'], ['noBot', 'No bots'], ['onlyBot', 'Only bots'],
];

const open = new Map(); // waiting challenges by id
const notes = []; // {id, html}: what became of challenges
let panel = null;
let me = null;
let go = () => {};
let nameOf = (id) => id;

const incoming = (c) => me && c.destUser.name.toLowerCase() === me.username.toLowerCase();

function note(c, html) {
  if (!notes.some((n) => n.id === c.id)) notes.push({ id: c.id, html });
}

function render() {
  if (!panel) return;
  const items = [...open.values()].map((c) => {
    const terms = esc(termsText(c, nameOf));
    if (incoming(c)) {
      const color = { white: 'black', black: 'white' }[c.color] || 'a random colour';
      return `<li data-challenge="${esc(c.id)}" class="incoming"><p>${playerRef(c.challenger)} challenges you: ${terms}; you play ${esc(color)}.</p>
        <div class="row"><button type="button" class="primary" data-accept="${esc(c.id)}">Accept</button>
        <select data-reason-for="${esc(c.id)}" aria-label="Why you decline">${REASONS.map(([key, label]) => `<option value="${key}">${esc(label)}</option>`).join('')}</select>
        <button type="button" data-decline="${esc(c.id)}">Decline</button></div></li>`;
    }
    return `<li data-challenge="${esc(c.id)}" class="outgoing"><p>Your challenge to ${playerRef(c.destUser)}: ${terms}. Waiting for an answer…</p>
      <div class="row"><button type="button" data-cancel="${esc(c.id)}">Cancel</button></div></li>`;
  });
  const said = notes.map((n) => `<li data-note="${esc(n.id)}" class="note"><p>${n.html}</p><div class="row"><button type="button" data-dismiss="${esc(n.id)}">Dismiss</button></div></li>`);
  panel.querySelector('ul').innerHTML = items.concat(said).join('');
  panel.hidden = !items.length && !said.length;
}

async function onClick(e) {
  const b = e.target.closest('button');
  if (!b) return;
  const { accept, decline, cancel, dismiss } = b.dataset;
  const failed = (err) => {
    const c = open.get(accept || decline || cancel);
    if (c) open.delete(c.id);
    notes.push({ id: `${c?.id || ''}-error`, html: esc(err.message) });
    render();
  };
  if (dismiss) {
    notes.splice(notes.findIndex((n) => n.id === dismiss), 1);
    render();
    return;
  }
  b.disabled = true;
  try {
    if (accept) {
      const paired = await call('POST', `/api/challenge/${encodeURIComponent(accept)}/accept`);
      localStorage.setItem('bc-tok-' + paired.game, paired.token);
      open.delete(accept);
      render();
      go(paired.url);
    } else if (decline) {
      const reason = panel.querySelector(`[data-reason-for="${CSS.escape(decline)}"]`).value;
      await call('POST', `/api/challenge/${encodeURIComponent(decline)}/decline`, { reason });
      open.delete(decline);
      render();
    } else if (cancel) {
      await call('POST', `/api/challenge/${encodeURIComponent(cancel)}/cancel`);
      open.delete(cancel);
      render();
    }
  } catch (err) { failed(err); }
}

function heard(e) {
  const c = e.challenge;
  if (e.type === 'connected') {
    // the stream opens with the challenges waiting: start from the server's list
    if (me) call('GET', '/api/challenge').then((list) => {
      open.clear();
      for (const x of list.in.concat(list.out)) open.set(x.id, x);
      render();
    }).catch(() => {});
  } else if (e.type === 'challenge' && c.status === 'created') {
    open.set(c.id, c);
    render();
  } else if (e.type === 'challengeDeclined') {
    open.delete(c.id);
    if (!incoming(c)) note(c, `${playerLink(c.destUser.name, c.destUser.title === 'BOT')} declined your challenge (${esc(termsText(c, nameOf))}): <q class="reason">${esc(c.declineReason || 'declined')}</q>`);
    render();
  } else if (e.type === 'challengeCanceled') {
    const was = open.delete(c.id);
    if (c.status === 'expired') note(c, `The challenge ${incoming(c) ? `from ${playerLink(c.challenger.name)}` : `to ${playerLink(c.destUser.name)}`} (${esc(termsText(c, nameOf))}) expired.`);
    else if (was && incoming(c)) note(c, `${playerLink(c.challenger.name)} cancelled the challenge (${esc(termsText(c, nameOf))}).`);
    render();
  } else if (e.type === 'gameStart' && e.fresh) {
    // our challenge accepted: its game opens here too
    const g = e.game;
    const accepted = [...open.values()].find((x) => !incoming(x) && x.destUser.name === g.opponent && x.variant.key === g.variant.key);
    if (accepted) {
      open.delete(accepted.id);
      render();
      go(`/game/${encodeURIComponent(g.gameId)}`);
    }
  }
}

// Puts the panel on the page; `navigate` opens a game, `names` names a variant by its id.
export function challengePanel(navigate, names) {
  go = navigate;
  nameOf = names;
  panel = document.createElement('aside');
  panel.className = 'challenges';
  panel.id = 'challenges';
  panel.setAttribute('aria-label', 'Challenges');
  panel.setAttribute('aria-live', 'polite');
  panel.hidden = true;
  panel.innerHTML = '<h2>Challenges</h2><ul></ul>';
  panel.addEventListener('click', onClick);
  document.body.append(panel);
  onEvent(heard);
}

// Who is signed in changed: the panel is the new account's.
export function challengesOf(account) {
  me = account;
  open.clear();
  notes.length = 0;
  render();
}

// The "Challenge" button and its terms form for the player `name`, in `host`.
export async function challengeForm(host, name, list) {
  const account = await whoAmI();
  if (!account || account.username.toLowerCase() === name.toLowerCase()) return;
  host.innerHTML = `<details class="challenge-form" id="challenge"><summary class="button">Challenge</summary>
    <form id="challenge-form">${termsFields(list, { rated: true })}
    <p><button class="primary" type="submit" id="challenge-btn">Challenge ${esc(name)}</button></p>
    <p class="error" role="alert"></p><p class="sent" id="challenge-sent" role="status"></p></form></details>`;
  const form = host.querySelector('form');
  bindTerms(form, list);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    form.querySelector('.error').textContent = '';
    try {
      const c = await call('POST', `/api/challenge/${encodeURIComponent(name)}`, readTerms(form, list));
      if (c.gameId) { go(`/game/${encodeURIComponent(c.gameId)}`); return; }
      open.set(c.id, c);
      render();
      form.querySelector('.sent').textContent = `Challenge sent: waiting for ${name}'s answer (in the Challenges panel).`;
    } catch (err) {
      form.querySelector('.error').textContent = err.message;
    }
  });
}
