// A game's terms as forms ask for them and lists show them: the variant's rules options, the
// clock, the colour, rated or casual; and players as pairing shows them (name, BOT mark, rating).
import { esc } from './variants.js';

// The clocks the forms offer: `initial+increment` in seconds.
export const CLOCKS = [['60+1', '1+1'], ['180+2', '3+2'], ['300+3', '5+3'], ['600+5', '10+5'], ['1800+20', '30+20']];

// A clock's value (`180+2`) as the API takes it, or null for none.
export const clockOf = (value) => (value ? { initial_s: +value.split('+')[0], increment_s: +value.split('+')[1] } : null);

// The inputs of a variant's rules options, each marked with the attribute `attr`.
export function optionsHtml(v, attr) {
  if (!v.options.length) return '<p class="muted">This variant has no options.</p>';
  return v.options.map((o) => (o.kind === 'bool'
    ? `<div class="opt"><label><input type="checkbox" ${attr}="${esc(o.name)}" ${o.default === 'true' ? 'checked' : ''}> ${esc(o.name)}</label><small>${esc(o.description)}</small></div>`
    : `<div class="opt"><label>${esc(o.name)} <select ${attr}="${esc(o.name)}">${o.values.map((x) => `<option value="${esc(x)}" ${x === o.default ? 'selected' : ''}>${esc(x)}</option>`).join('')}</select></label><small>${esc(o.description)}</small></div>`)).join('');
}

// The options chosen in `root`'s inputs marked with `attr`; with `variant`, only those that
// differ from its defaults (so that equal terms are written alike and pair).
export function readOptions(root, attr, variant) {
  const options = {};
  const key = attr.replace(/^data-/, '').replace(/-(.)/g, (_, c) => c.toUpperCase());
  for (const input of root.querySelectorAll(`[${attr}]`)) {
    const name = input.dataset[key];
    const value = input.type === 'checkbox' ? String(input.checked) : input.value;
    if (variant && variant.options.find((o) => o.name === name)?.default === value) continue;
    options[name] = value;
  }
  return options;
}

// The fields of a terms form over the variants `list`: variant, options, clock, colour, and
// (when asked) rated and a rating range.
export function termsFields(list, { rated = false, range = false, clock = '300+3' } = {}) {
  return `<label>Variant <select name="variant">${list.map((v) => `<option value="${esc(v.id)}">${esc(v.name)}</option>`).join('')}</select></label>
    <fieldset><legend>Options</legend><div class="term-options"></div></fieldset>
    <label>Clock <select name="clock"><option value="">No clock</option>${CLOCKS.map(([value, label]) => `<option value="${value}" ${value === clock ? 'selected' : ''}>${label}</option>`).join('')}</select></label>
    <label>Your colour <select name="color"><option value="random">Random</option><option value="white">White</option><option value="black">Black</option></select></label>
    ${rated ? '<label><input type="checkbox" name="rated" checked> Rated</label>' : ''}
    ${range ? '<label>Opponent\'s rating <input type="number" name="low" min="0" max="4000" step="50" placeholder="any" aria-label="lowest rating"> to <input type="number" name="high" min="0" max="4000" step="50" placeholder="any" aria-label="highest rating"></label>' : ''}`;
}

// Shows the options of the variant picked in `form`, now and whenever it changes.
export function bindTerms(form, list) {
  const select = form.querySelector('select[name=variant]');
  const show = () => {
    form.querySelector('.term-options').innerHTML = optionsHtml(list.find((v) => v.id === select.value), 'data-term');
  };
  select.addEventListener('change', show);
  show();
}

// The terms a form holds, as `POST /api/seek` and `POST /api/challenge/{name}` take them.
export function readTerms(form, list) {
  const field = (name) => form.querySelector(`[name=${name}]`);
  const variant = field('variant').value;
  const terms = {
    variant,
    options: readOptions(form, 'data-term', list.find((v) => v.id === variant)),
    clock: clockOf(field('clock').value),
    color: field('color').value,
  };
  if (field('rated')) terms.rated = field('rated').checked;
  if (field('low') && (field('low').value || field('high').value)) {
    terms.ratingRange = `${field('low').value || 0}-${field('high').value || 4000}`;
  }
  return terms;
}

// A rating as players read it: rounded, `?` when provisional.
export const ratingText = (rating, provisional) => `${Math.round(rating)}${provisional ? '?' : ''}`;

// A player's name linked to its page, with the BOT mark; what is not an account's name (a
// guest, an open seat, `bot:NAME`) is not linked.
export function playerLink(name, bot = false) {
  if (!name || name === 'guest' || name === 'open' || !/^[\w-]{2,20}$/.test(name)) return esc(name || 'guest');
  return `<a href="/@/${encodeURIComponent(name)}" class="player-link">${esc(name)}</a>${bot ? ' <span class="bot-mark">BOT</span>' : ''}`;
}

// A pairing's player (a seek's seeker, a challenge's sides): name, BOT mark and rating.
export const playerRef = (p) => `${playerLink(p.name, p.title === 'BOT')} <span class="rating">${ratingText(p.rating, p.provisional)}</span>`;

// A seek's or a challenge's terms in words: `Chess 3+2, rated`.
export function termsText(t, nameOf) {
  const options = Object.entries(t.options || {}).map(([k, v]) => (v === 'true' ? k : `${k} ${v}`));
  return `${nameOf(t.variant.key)} ${t.timeControl.show}${options.length ? ` (${options.join(', ')})` : ''}, ${t.rated ? 'rated' : 'casual'}`;
}

// A rating change: `+12` or `−12`, with a class that colours it.
export function diffHtml(diff) {
  const cls = diff > 0 ? 'up' : diff < 0 ? 'down' : 'even';
  const text = diff > 0 ? `+${diff}` : diff < 0 ? `\u2212${-diff}` : '±0';
  return `<span class="rating-diff ${cls}">${text}</span>`;
}
