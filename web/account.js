// Accounts in the browser: who is signed in (shown in the header, the name linked to the
// player's page), the sign-up and log-in pages, and the account's page (its games, API tokens,
// password and sessions). The session is an HttpOnly cookie the page never sees; requests carry
// it by themselves.
import { esc } from './variants.js';

const h = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content.firstElementChild; };

// One request: JSON in and out; a refusal throws its message.
export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { const e = new Error(data.error || `${r.status}`); e.status = r.status; throw e; }
  return data;
}

let current;

// The signed-in account, or null for a guest (asked once per page load, and after sign-in).
export async function whoAmI(fresh = false) {
  if (current === undefined || fresh) {
    current = await call('GET', '/api/account').catch(() => null);
  }
  return current;
}

// The header's account links: the name and "Log out", or "Sign in".
export async function accountBar(go) {
  const bar = document.getElementById('account');
  const me = await whoAmI();
  if (me) {
    bar.innerHTML = `<a href="/@/${encodeURIComponent(me.username)}" id="me">${esc(me.username)}${me.bot ? ' <span class="bot-mark">BOT</span>' : ''}</a> <a href="/account" id="settings">Account</a> <button type="button" id="logout">Log out</button>`;
    bar.querySelector('#logout').addEventListener('click', async () => {
      await call('POST', '/api/account/logout').catch(() => {});
      current = null;
      await accountBar(go);
      go('/');
    });
  } else {
    bar.innerHTML = '<a href="/login" id="sign-in">Sign in</a>';
  }
  // who is signed in, for the parts of the site that follow the account (its event stream)
  document.dispatchEvent(new CustomEvent('bc-account', { detail: me }));
}

function form(main, { title, id, fields, submit, extra = '' }) {
  main.innerHTML = `<section class="card narrow" aria-labelledby="${id}-h"><h2 id="${id}-h">${title}</h2>
    <form id="${id}">${fields.map((f) => `<label>${f.label} <input name="${f.name}" type="${f.type}" autocomplete="${f.auto}" required ${f.min ? `minlength="${f.min}"` : ''} maxlength="${f.max || 256}"></label>`).join('')}
    <p><button class="primary" type="submit" id="${id}-btn">${submit}</button></p>
    <p class="error" role="alert" id="${id}-error"></p></form>${extra}</section>`;
  return main.querySelector('form');
}

// Runs a form's request with its button off while it is in flight; shows a refusal.
function onSubmit(formEl, run) {
  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = formEl.querySelector('button[type=submit]');
    const error = formEl.querySelector('.error');
    button.disabled = true;
    error.textContent = '';
    try {
      await run(Object.fromEntries(new FormData(formEl)));
    } catch (err) {
      error.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  });
}

const credentials = [
  { label: 'Username', name: 'username', type: 'text', auto: 'username', min: 2, max: 20 },
];

export function loginPage(main, go) {
  document.title = 'Sign in · bluffchess';
  const f = form(main, {
    title: 'Sign in', id: 'login', submit: 'Sign in',
    fields: [...credentials, { label: 'Password', name: 'password', type: 'password', auto: 'current-password' }],
    extra: '<p>No account yet? <a href="/signup">Sign up</a>. Games played here as a guest become your account\'s.</p>',
  });
  onSubmit(f, async (data) => {
    await call('POST', '/api/account/login', data);
    await whoAmI(true);
    await accountBar(go);
    go('/account');
  });
}

export function signupPage(main, go) {
  document.title = 'Sign up · bluffchess';
  const f = form(main, {
    title: 'Sign up', id: 'signup', submit: 'Sign up',
    fields: [...credentials, { label: 'Password (8 characters or more)', name: 'password', type: 'password', auto: 'new-password', min: 8 }],
    extra: '<p>2 to 20 letters, digits, _ and -. The games you played here as a guest become your account\'s. Already have an account? <a href="/login">Sign in</a>.</p>',
  });
  onSubmit(f, async (data) => {
    await call('POST', '/api/account/signup', data);
    await whoAmI(true);
    await accountBar(go);
    go('/account');
  });
}

const when = (ms) => (ms ? new Date(ms).toLocaleString() : 'never');

export async function accountPage(main, go, nameOf) {
  const me = await whoAmI();
  if (!me) { go('/login'); return; }
  document.title = `${me.username} · bluffchess`;
  main.innerHTML = `<div class="account">
    <section class="card" aria-labelledby="games-h"><h2 id="games-h">Your games</h2><ul class="games" id="my-games"><li class="muted">Loading…</li></ul></section>
    <section class="card" aria-labelledby="tokens-h"><h2 id="tokens-h">API tokens</h2>
      <p class="muted">For bots and scripts: send <code>Authorization: Bearer TOKEN</code>. A token is shown once; only its hash is kept.</p>
      <form id="new-token"><label><input type="checkbox" name="bot"> bot scope (the bot API; a bot account acts by token only)</label>
      <p><button type="submit" id="new-token-btn">New token</button></p><p class="error" role="alert"></p></form>
      <p id="token-shown" class="token" hidden></p>
      <ul class="tokens" id="tokens"></ul></section>
    <section class="card" aria-labelledby="password-h"><h2 id="password-h">Password</h2>
      <form id="password"><label>Current password <input name="current" type="password" autocomplete="current-password" required></label>
      <label>New password <input name="new" type="password" autocomplete="new-password" minlength="8" required></label>
      <p><button type="submit" id="password-btn">Change password</button></p><p class="error" role="alert"></p>
      <p class="muted">Changing it signs out every other session.</p></form></section>
    <section class="card" aria-labelledby="sessions-h"><h2 id="sessions-h">Sessions</h2><ul class="sessions" id="sessions"></ul></section>
  </div>`;
  const games = await call('GET', '/api/account/games').catch(() => []);
  main.querySelector('#my-games').innerHTML = games.map((g) => `<li data-game="${esc(g.id)}"><span>${esc(nameOf(g.variant))} <small class="muted">as ${esc(g.color)} against ${esc(g.opponent)}, ${esc(g.status)}, ${esc(when(g.created_ms))}</small></span>
    <a href="/${g.status === 'over' ? 'replay' : 'game'}/${esc(g.id)}">${g.status === 'over' ? 'Replay' : 'Open'}</a></li>`).join('') || '<li class="muted">No games yet.</li>';
  const showTokens = async () => {
    const tokens = await call('GET', '/api/account/tokens').catch(() => []);
    const list = main.querySelector('#tokens');
    list.innerHTML = tokens.map((t) => `<li><span><code>${esc(t.id)}</code> <small class="muted">${esc(t.scopes.join(', '))}; made ${esc(when(t.created_ms))}; last used ${esc(when(t.used_ms))}</small></span>
      <button type="button" data-revoke="${esc(t.id)}">Revoke</button></li>`).join('') || '<li class="muted">No tokens.</li>';
  };
  main.querySelector('#tokens').addEventListener('click', async (e) => {
    const id = e.target.dataset?.revoke;
    if (!id) return;
    e.target.disabled = true;
    await call('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`).catch(() => {});
    showTokens();
  });
  onSubmit(main.querySelector('#new-token'), async (data) => {
    const made = await call('POST', '/api/account/tokens', { scopes: data.bot ? ['play', 'bot'] : ['play'] });
    const shown = main.querySelector('#token-shown');
    shown.hidden = false;
    shown.innerHTML = `Your new token (copy it now: it is not shown again): <code id="token-value">${esc(made.token)}</code>`;
    showTokens();
  });
  onSubmit(main.querySelector('#password'), async (data) => {
    await call('POST', '/api/account/password', data);
    main.querySelector('#password').reset();
    main.querySelector('#password .error').textContent = 'Changed.';
    showSessions();
  });
  const showSessions = async () => {
    const sessions = await call('GET', '/api/account/sessions').catch(() => []);
    const list = main.querySelector('#sessions');
    list.innerHTML = sessions.map((s) => `<li><span>${esc(s.agent || 'a browser')} <small class="muted">since ${esc(when(s.created_ms))}, last seen ${esc(when(s.seen_ms))}</small></span>
      ${s.current ? '<small>this one</small>' : `<button type="button" data-end="${esc(s.id)}">Sign out</button>`}</li>`).join('');
  };
  main.querySelector('#sessions').addEventListener('click', async (e) => {
    const id = e.target.dataset?.end;
    if (!id) return;
    e.target.disabled = true;
    await call('DELETE', `/api/account/sessions/${encodeURIComponent(id)}`).catch(() => {});
    showSessions();
  });
  showTokens();
  showSessions();
}
