// Players in public: a player's page (/@/NAME: ratings, each variant's rating history as an SVG
// graph, the games played a page at a time, the export, a challenge), the leaderboards
// (/player), and the players' names by a game's board with a rated game's changes.
import { call } from './account.js';
import { challengeForm } from './challenges.js';
import { esc } from './variants.js';
import { ratingText, playerLink, diffHtml } from './terms.js';

const when = (ms) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

// A name by the board: linked to its page, the seat's colour, and once a rated game is over,
// the rating change (`change`: the end message's `ratings[colour]`).
export function nameTag(name, color, you, change) {
  const t = document.createElement('template');
  t.innerHTML = `${name ? `${playerLink(name)} (${esc(color)})` : esc(color)}${you ? ' (you)' : ''}${change ? ` ${diffHtml(change.diff)} <small class="muted rating-after">${ratingText(change.after, change.provisional)}</small>` : ''}`;
  return t.content;
}

// A step between grid lines that is a round number: 10, 20, 25, 50, 100...
function niceStep(span) {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

// One variant's rating history as an SVG line graph: the rating from the start (1500) through
// each rated game, with a grid and a point (and its tooltip) for each game.
export function ratingGraph(points, title) {
  const values = [1500, ...points.map((p) => p.rating)];
  const [w, h, left, right, top, bottom] = [600, 200, 48, 12, 12, 26];
  let lo = Math.min(...values) - 10;
  let hi = Math.max(...values) + 10;
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (i) => left + (i * (w - left - right)) / (values.length - 1);
  const y = (v) => top + ((hi - v) * (h - top - bottom)) / (hi - lo);
  const grid = [];
  for (let v = lo; v <= hi; v += step) {
    grid.push(`<line class="grid" x1="${left}" x2="${w - right}" y1="${y(v)}" y2="${y(v)}"/><text class="axis" x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`);
  }
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const dots = points.map((p, i) => `<circle class="point" cx="${x(i + 1).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="4"><title>${ratingText(p.rating, p.rd > 110)} after game ${i + 1}, ${esc(when(p.at_ms))}</title></circle>`);
  const last = points[points.length - 1];
  const label = `${title}: from 1500 to ${ratingText(last.rating, last.rd > 110)} over ${points.length} rated game${points.length === 1 ? '' : 's'}`;
  return `<svg class="rating-graph" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">
    ${grid.join('')}
    <text class="axis" x="${left}" y="${h - 6}">start</text><text class="axis" x="${w - right}" y="${h - 6}" text-anchor="end">game ${points.length}</text>
    <polyline class="line" points="${line}"/>${dots.join('')}</svg>`;
}

// A game's result from the player's side: a class and words.
function resultOf(g) {
  if (g.status === 'aborted') return ['aborted', 'Aborted'];
  if (g.status === 'live') return ['live', 'Playing now'];
  if (g.status === 'open') return ['open', 'Waiting'];
  if (g.result === '1/2-1/2') return ['draw', 'Draw'];
  if (!g.result) return ['over', 'Over'];
  return (g.result === '1-0') === (g.color === 'white') ? ['win', 'Won'] : ['loss', 'Lost'];
}

const opponentOf = (name) => (name.startsWith('bot:') ? `the ${esc(name.slice(4))} bot` : playerLink(name));

function playedItem(g, nameOf) {
  const [cls, text] = resultOf(g);
  const link = g.status === 'over'
    ? `<a href="/replay/${esc(g.id)}" class="replay">Replay</a>`
    : `<a href="/game/${esc(g.id)}" class="live">${g.status === 'aborted' ? 'Game' : 'Watch'}</a>`;
  const rated = g.rated ? `rated${g.rating_diff !== null && g.rating_diff !== undefined ? ` ${diffHtml(g.rating_diff)}` : ''}` : 'casual';
  return `<li data-game="${esc(g.id)}"><span><span class="result ${cls}">${text}</span> ${esc(nameOf(g.variant))}, as ${esc(g.color)} against ${opponentOf(g.opponent)}
    <small class="muted">${rated}, ${esc(when(g.created_ms))}</small></span>${link}</li>`;
}

// The page of the player `name`.
export async function playerPage(main, name, { list, nameOf }) {
  document.title = `${name} · bluffchess`;
  main.innerHTML = '<p>Loading…</p>';
  let user;
  try {
    user = await call('GET', `/api/user/${encodeURIComponent(name)}`);
  } catch (e) {
    main.innerHTML = `<p class="error" id="no-player">${esc(e.message)}</p>`;
    return;
  }
  const rated = Object.entries(user.ratings);
  const path = encodeURIComponent(user.username);
  main.innerHTML = `<div class="player-page" data-player="${esc(user.username)}">
    <section class="card" aria-labelledby="player-h"><h1 id="player-h">${esc(user.username)}${user.bot ? ' <span class="bot-mark">BOT</span>' : ''}</h1>
      <table class="ratings" id="ratings"><thead><tr><th scope="col">Variant</th><th scope="col">Rating</th><th scope="col">Rated games</th></tr></thead>
      <tbody>${rated.map(([v, r]) => `<tr data-variant="${esc(v)}"><th scope="row">${esc(nameOf(v))}</th><td class="rating">${ratingText(r.rating, r.provisional)}</td><td>${r.games}</td></tr>`).join('')
        || '<tr><td colspan="3" class="muted">No rated games yet.</td></tr>'}</tbody></table>
      <p class="row"><a id="export" href="/api/user/${path}/games" download="${esc(user.username)}-games.ndjson">Download the games (NDJSON records)</a></p>
      <div id="challenge-host"></div></section>
    <section class="card" aria-labelledby="history-h"><h2 id="history-h">Rating history</h2><div id="graphs"><p class="muted">Loading…</p></div></section>
    <section class="card games-card" aria-labelledby="played-h"><h2 id="played-h">Games</h2>
      <label>Variant <select id="played-variant"><option value="">All variants</option>${list.map((v) => `<option value="${esc(v.id)}">${esc(v.name)}</option>`).join('')}</select></label>
      <ul class="games played" id="played"></ul>
      <p class="row pager"><button type="button" id="newer">Newer</button><span id="page-no"></span><button type="button" id="older">Older</button></p></section></div>`;
  const $ = (sel) => main.querySelector(sel);
  challengeForm($('#challenge-host'), user.username, list);
  call('GET', `/api/user/${path}/rating-history`).then((history) => {
    const drawn = Object.entries(history).filter(([, points]) => points.length);
    $('#graphs').innerHTML = drawn.map(([v, points]) => `<figure data-variant="${esc(v)}"><figcaption>${esc(nameOf(v))}</figcaption>${ratingGraph(points, nameOf(v))}</figure>`).join('')
      || '<p class="muted">No rated games yet.</p>';
  }).catch((e) => { $('#graphs').innerHTML = `<p class="error">${esc(e.message)}</p>`; });
  let page = 1;
  const show = async () => {
    const variant = $('#played-variant').value;
    const query = `page=${page}${variant ? `&variant=${encodeURIComponent(variant)}` : ''}`;
    try {
      const played = await call('GET', `/api/user/${path}/played?${query}`);
      $('#played').innerHTML = played.games.map((g) => playedItem(g, nameOf)).join('') || '<li class="muted">No games.</li>';
      $('#older').disabled = !played.next;
    } catch (e) {
      $('#played').innerHTML = `<li class="error">${esc(e.message)}</li>`;
    }
    $('#newer').disabled = page === 1;
    $('#page-no').textContent = `page ${page}`;
  };
  $('#played-variant').addEventListener('change', () => { page = 1; show(); });
  $('#newer').addEventListener('click', () => { page = Math.max(1, page - 1); show(); });
  $('#older').addEventListener('click', () => { page += 1; show(); });
  await show();
}

// The leaderboards: each variant's 50 best established ratings.
export async function leaderboardPage(main, { list, nameOf }) {
  document.title = 'Leaderboards · bluffchess';
  main.innerHTML = `<div class="leaderboards"><h1>Leaderboards</h1>
    <p class="muted">Each variant's 50 best ratings that are not provisional, among the players who played a rated game in the last 30 days.</p>
    <div class="boards">${list.map((v) => `<section class="card" aria-labelledby="top-${esc(v.id)}-h"><h2 id="top-${esc(v.id)}-h">${esc(v.name)}</h2><ol class="leaders" id="top-${esc(v.id)}" data-variant="${esc(v.id)}"><li class="muted">Loading…</li></ol></section>`).join('')}</div></div>`;
  await Promise.all(list.map(async (v) => {
    const ol = main.querySelector(`#top-${CSS.escape(v.id)}`);
    try {
      const top = await call('GET', `/api/player/top/50/${encodeURIComponent(v.id)}`);
      ol.innerHTML = top.map((p) => `<li>${playerLink(p.username, p.bot)} <span class="rating">${Math.round(p.rating)}</span></li>`).join('')
        || '<li class="muted empty">No established ratings yet.</li>';
    } catch (e) {
      ol.innerHTML = `<li class="error">${esc(e.message)}</li>`;
    }
  }));
}
