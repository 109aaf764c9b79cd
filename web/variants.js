// Each variant's board model and actions, from the seat's view and its legal list only.
import { pieceIcon } from './pieces.js';

// Actions and events are read from their structure, never parsed from their text: each legal
// action comes with its kind and squares (the message's legal_actions: docs/arbiter.md, "Legal
// actions and their structure"), each event with its fact.
export const LETTER = { pawn: 'P', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K', spy: 'S' };
const c1 = (color) => (color === 'white' ? 'w' : 'b');
export const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function fenPieces(fen) {
  const pieces = {};
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += +ch;
      else {
        pieces['abcdefgh'[f] + (8 - i)] = { color: ch === ch.toUpperCase() ? 'w' : 'b', type: ch.toUpperCase() };
        f += 1;
      }
    }
  });
  return pieces;
}

// A UCI move's squares (the summary's last_move, e2e4 or e7e8q).
const uci = (m) => (m && m.length >= 4 ? [m.slice(0, 2), m.slice(2, 4)] : null);

// The facts of a piece going from one square to another: a move, an image's or a bluff's, a
// declared move (BS), a step or a Reality Check (Reality Check).
const FROM_TO = new Set(['move', 'image', 'bluff', 'declared', 'step', 'reality-check']);

// The last move the seat saw, from its events' facts: a move's two squares, or a drop's square.
function lastFromEvents(view) {
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i];
    if ((e.kind !== 'action' && e.kind !== 'sealed') || !e.fact) continue;
    if (FROM_TO.has(e.fact.what)) return [e.fact.from, e.fact.to];
    if (e.fact.what === 'drop') return [e.fact.to];
  }
  return null;
}

// The facts of a piece taken (with a move's `capture`): for the capture sound.
const TAKEN = new Set(['captured', 'bluff-captured', 'real-captured']);
export const isCapture = (e) => Boolean(e.fact && (TAKEN.has(e.fact.what) || e.fact.capture));

function kingOf(pieces, color) {
  return Object.keys(pieces).find((sq) => pieces[sq].type === 'K' && pieces[sq].color === c1(color));
}

const LABELS = {
  stay: 'Stay: the ego stays in the moved piece',
  pass: 'Pass',
  call: 'Call BS!',
  accept: 'Accept',
  'setup standard': 'Standard setup',
  'setup random': 'Random setup',
};

// An event in words, for the event panel and screen readers; it keeps the event's own text, so
// it says nothing the event does not.
const SAID = {
  call: 'called BS', accept: 'accepted the move', pass: 'passed', stay: 'kept the ego in the moved piece',
  decision: 'sealed a decision (hidden)', setup: 'set up the pieces (hidden)', 'death move': 'made a death move',
  offer_draw: 'offered a draw', accept_draw: 'accepted the draw', claim_draw: 'claimed a draw', resign: 'resigned',
  decline_draw: 'declined the draw', timeout: 'ran out of time', abandon: 'left the game: the win was claimed',
};
const promoLetter = (role) => (role ? LETTER[role].toLowerCase() : '');
// An action's event in words, by its fact.
const SAID_OF = {
  transfer: (f) => `moved the ego to ${f.to}`,
  flip: (f) => `flipped the piece on ${f.square}`,
  drop: (f) => `dropped ${f.up}${f.down || ''} on ${f.to}`,
  'reality-check': (f) => `declared a Reality Check: ${f.from}${f.to}`,
  remove: (f) => `removed the piece on ${f.square}`,
  'remove-true': (f) => `removed the piece on ${f.square || f.kind}`,
  bluff: (f) => `bluff-moved ${f.from}${f.to}${promoLetter(f.promotion)}`,
  // The actor's own setup: its text is the setup.
  setup: (f, t) => `set up: ${t.slice('setup '.length)}`,
  die: (f) => `rolled a ${f.number}`,
  memory: (f) => `flipped ${f.first} and ${f.second} for a Memory`,
  name: (f) => `named the square ${f.square}`,
};
export function sentence(e, variant) {
  const who = e.actor.charAt(0).toUpperCase() + e.actor.slice(1);
  const t = e.text;
  if (e.kind === 'end') return `${t.charAt(0).toUpperCase()}${t.slice(1)}.`;
  if (e.kind === 'reveal') return `${who}'s hidden choice is revealed: ${t}.`;
  if (SAID[t]) return `${who} ${SAID[t]}.`;
  if (e.kind !== 'action' && e.kind !== 'sealed') return `${who}: ${t}.`;
  const say = e.fact && SAID_OF[e.fact.what];
  if (say) return `${who} ${say(e.fact, t)}.`;
  // Ambiguous: a move is the opponent's pick of the named square's piece.
  return variant === 'ambiguous' ? `${who} picked ${t}.` : `${who} played ${t}.`;
}

// A legal action's label, from its structure ({text, kind, from, to, ...}).
const moveLabel = (a) => `${a.from}-${a.to}${a.promotion ? ' promoting to ' + a.promotion : ''}`;
const LABEL_OF = {
  move: moveLabel,
  bluff: (a) => 'Bluff ' + moveLabel(a),
  'reality-check': (a) => `Reality Check ${a.from}x${a.to}`,
  drop: (a) => `Drop on ${a.to}, ${a.up} face up (${a.down} below)`,
  transfer: (a) => `Transfer the ego to ${a.to}`,
  flip: (a) => `Flip ${a.square}`,
  remove: (a) => `Remove ${a.square || a.piece}`,
  name: (a) => `Name ${a.square}`,
};
export function labelOf(action) {
  if (LABELS[action.text]) return LABELS[action.text];
  const label = LABEL_OF[action.kind];
  return label ? label(action) : action.text;
}

// The square a square action (a click on the board) is about: a flip, a removal from the board,
// a transfer of the ego, a named square.
const targetOf = (a) => (a.kind === 'transfer' ? a.to : ['flip', 'remove', 'name'].includes(a.kind) ? a.square : null);

// Sorts the legal actions (the message's legal_actions) into board gestures and buttons.
export function interactionOf(legal) {
  const moves = { normal: new Map(), bluff: new Map() };
  const targets = new Map();
  const buttons = [];
  const add = (map, from, to, a) => {
    if (!map.has(from)) map.set(from, new Map());
    const m = map.get(from);
    if (!m.has(to)) m.set(to, []);
    m.get(to).push(a);
  };
  for (const action of legal) {
    const a = { text: action.text, label: labelOf(action), action };
    const sq = targetOf(action);
    if (action.kind === 'move' || action.kind === 'reality-check') add(moves.normal, action.from, action.to, a);
    else if (action.kind === 'bluff') add(moves.bluff, action.from, action.to, a);
    else if (action.kind === 'drop') add(moves.normal, 'hand:' + [action.up, action.down].sort().join(''), action.to, a);
    else if (action.kind === 'memory') { add(moves.normal, action.first, action.second, a); add(moves.normal, action.second, action.first, a); }
    else if (sq) {
      if (!targets.has(sq)) targets.set(sq, []);
      targets.get(sq).push(a);
    } else buttons.push(a);
  }
  return { moves, targets, buttons };
}

function eventPieces(view) {
  return view.position.fen ? fenPieces(view.position.fen) : {};
}

// variant id -> {shape, model(view, seat), info(view, seat)}
const chessLike = {
  shape: '8x8',
  model(view) {
    const p = view.position;
    const pieces = eventPieces(view);
    return { pieces, last: uci(p.last_move), check: p.check ? kingOf(pieces, p.turn) : null, marks: {} };
  },
  info() { return ''; },
};

const alterEgo = {
  shape: '8x8',
  model(view, seat) {
    const m = chessLike.model(view);
    const p = view.position;
    for (const color of ['white', 'black']) {
      const ego = p[color + '_ego'];
      if (!ego || !ego.square || !m.pieces[ego.square]) continue;
      const piece = m.pieces[ego.square];
      piece.badge = ego.sealed ? '?' : 'E';
      piece.badgeClass = 'ego';
      piece.desc = ego.sealed ? 'held the alter ego before a hidden decision' : (color === seat || seat === 'spectator' || !ego.sealed ? 'holds the alter ego' : '');
    }
    if (p.bound) m.marks[p.bound] = 'm-bound';
    return m;
  },
  info(view, seat) {
    const p = view.position;
    const say = (color) => {
      const ego = p[color + '_ego'];
      if (!ego || !ego.square) return `${color}: no alter ego yet`;
      return ego.sealed ? `${color}: on ${ego.square} before a hidden decision (marked ?)` : `${color}: on ${ego.square}`;
    };
    let s = `<p>Alter egos (E): ${say('white')}; ${say('black')}.</p>`;
    if (p.deciding) s += `<p class="banner" id="ego-hint">${view.to_act === seat ? 'Your move was a death move: the opponent can take the piece that holds your alter ego. Keep the ego there (Stay), or click one of your pieces outlined with dashes to move the ego into it, hidden from your opponent.' : 'A death move: the mover is deciding, in secret, whether the alter ego stays.'}</p>`;
    if (p.bound) s += `<p>The piece on ${p.bound} holds the ego and must move.</p>`;
    return s;
  },
};

const ambiguous = {
  shape: '8x8',
  model(view) {
    const m = chessLike.model(view);
    const p = view.position;
    if (p.named) m.marks[p.named] = 'm-pending';
    for (const c of p.candidates || []) m.marks[c.slice(0, 2)] = 'm-bound';
    return m;
  },
  info(view, seat) {
    const p = view.position;
    if (p.step === 'pick') {
      const mine = p.turn !== seat && seat !== 'spectator';
      return `<p class="banner" id="pick-hint">${esc(p.turn)} named ${esc(p.named)}. ${mine ? `You choose which ${esc(p.turn)} piece goes there: click one of the marked pieces (or a button below).` : p.turn === seat ? 'Your opponent chooses which of your marked pieces goes there.' : 'The opponent picks the piece.'}</p>`;
    }
    return p.turn === seat ? '<p class="banner" id="name-hint">Name a square: click it, or drag one of your pieces there. Only the square counts: your opponent then chooses which of your pieces that can reach it moves there.</p>' : '';
  },
};

const bluffMove = {
  shape: '8x8',
  model(view, seat) {
    const p = view.position;
    const pieces = fenPieces(p.fen);
    const links = [];
    for (const b of p.bluffs || []) {
      if (pieces[b.square]) {
        pieces[b.square].badge = 'b';
        pieces[b.square].badgeClass = 'bluff';
        pieces[b.square].desc = `bluff of the real piece on ${b.real}`;
      }
      links.push([b.real, b.square]);
    }
    const real = new Set(p.real || []);
    for (const [sq, piece] of Object.entries(pieces)) {
      const own = seat !== 'spectator' && piece.color === c1(seat);
      if (!own && real.has(sq) && view.outcome == null) {
        piece.badge = '!';
        piece.badgeClass = 'real';
        piece.desc = 'known to be real';
      }
    }
    return { pieces, last: lastFromEvents(view), links, marks: {} };
  },
  info() {
    return '<p class="muted">b: a bluff (dashed line to its real piece); !: an enemy piece known to be real. A right-button drag, a long press (touch) or the Bluff toggle makes a bluff move.</p>';
  },
};

const bs = {
  shape: '8x8',
  model(view) {
    const p = view.position;
    const pieces = {};
    for (const x of p.pieces) {
      pieces[x.square] = { color: c1(x.color), type: x.identity ? LETTER[x.identity] || '?' : '?' };
      if (x.promoted) { pieces[x.square].badge = '+'; pieces[x.square].desc = 'promoted'; }
    }
    const marks = {};
    if (p.pending) {
      // The declared move, drawn where it went and marked pending until it is called or
      // accepted; a piece it would take stays underneath until then.
      const { from, to } = p.pending;
      const mover = pieces[from];
      if (mover) {
        const under = pieces[to];
        pieces[to] = { ...mover, badge: '?', badgeClass: 'pending', desc: `moved from ${from}, awaiting call or accept${under ? ', would take the piece here' : ''}` };
        delete pieces[from];
      }
      marks[from] = 'm-pending-from';
      marks[to] = 'm-pending';
    }
    return { pieces, last: p.pending ? [p.pending.from, p.pending.to] : lastFromEvents(view), marks, animate: true };
  },
  info(view, seat) {
    const p = view.position;
    let s = `<p>Lost pieces: white ${p.lost[0]}, black ${p.lost[1]}.</p>`;
    if (p.own_pool) s += `<p>Your pool: ${p.own_pool.length ? p.own_pool.map(esc).join(', ') : 'empty'}.</p>`;
    if (p.step === 'answer') s += `<p class="banner">${p.turn === seat ? 'Waiting for the answer: call or accept.' : seat === 'spectator' ? 'An answer is due.' : 'Call BS or accept the move ' + esc(p.pending.from + '-' + p.pending.to) + (p.pending.promotion ? ' (a declared promotion)' : '') + '.'}</p>`;
    if (p.step === 'remove') s += '<p class="banner">The call found a lawful move: the caller removes one of its own pieces.</p>';
    return s;
  },
};

const FACES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook' };
const realityCheck = {
  shape: 'rc',
  shapeFor(options) { return options.board === 'advanced' ? 'rc-advanced' : 'rc'; },
  model(view, seat) {
    const p = view.position;
    const pieces = {};
    for (const x of p.board) {
      pieces[x.square] = { color: c1(x.color), type: x.up, down: x.down || null };
      // both faces known and equal: a true piece
      if (x.down && x.down === x.up) Object.assign(pieces[x.square], { badge: 'T', badgeClass: 'true', desc: 'a true piece (both faces the same)' });
    }
    const marks = {};
    for (const sq of p.exempt || []) marks[sq] = 'm-exempt';
    if (seat !== 'spectator' && view.to_act === seat) for (const sq of p[seat].drop_squares || []) if (!pieces[sq]) marks[sq] = 'm-drop';
    return { pieces, last: lastFromEvents(view), marks };
  },
  info(view, seat) {
    const p = view.position;
    const side = (color) => {
      const s = p[color];
      const hand = s.hand.map((h) => `<span title="${esc(h)}">${pieceIcon(c1(color), h[0] === '?' ? '?' : h[0], color + ' ' + h)}<small>${esc(h)}</small></span>`).join(' ');
      return `<p><strong>${color}</strong>: hand ${s.hand_count}/${s.hand_limit} ${hand}; true pieces in the game ${s.true_in_game}${s.gone.length ? '; gone ' + s.gone.map(esc).join(' ') : ''}</p>`;
    };
    let s = side('white') + side('black');
    if (p.die) s += `<p>Die: ${p.die}</p>`;
    if (p.step === 'flip' && view.to_act === seat) s += '<p class="banner">Flip a piece: click one of the marked squares.</p>';
    if (p.must_drop && view.to_act === seat) s += '<p class="banner">Your hand is over its limit: drop a piece.</p>';
    s += '<p class="muted">The small circle shows the face underneath, when you know it; T marks a piece known to be true (both faces the same). Grey squares may not be flipped this turn.</p>';
    return s;
  },
  hand(view, seat) {
    return seat === 'spectator' ? [] : view.position[seat].hand;
  },
};

// Each variant's adapter, by the id the server gives it; the list of variants itself comes from
// GET /api/variants. A variant the server lists without an adapter here is an error, never a
// board drawn as chess (the browser test checks every listed variant has one).
export const ADAPTERS = {
  chess: chessLike,
  'alter-ego': alterEgo,
  ambiguous,
  'bluff-move': bluffMove,
  bs,
  'reality-check': realityCheck,
};

export function adapterOf(variant) {
  const ad = ADAPTERS[variant];
  if (!ad) throw new Error(`no adapter for variant ${variant}: add one to ADAPTERS in web/variants.js`);
  return ad;
}

// The ids of a list of variants (GET /api/variants) that have no adapter.
export const missingAdapters = (variants) => variants.map((v) => v.id).filter((id) => !ADAPTERS[id]);

// The board a game is drawn on: its variant's, or the one its options pick (Reality Check's
// board=advanced).
export function shapeOf(view) {
  const ad = adapterOf(view.variant);
  return ad.shapeFor ? ad.shapeFor(view.options || {}) : ad.shape;
}

// ---- setup editors ----

const BS_STANDARD = 'RNBQKBNR/PPPPPPPP';

// A local editor state for BS: 16 letters; swap two squares by clicking them.
export function bsEditor(seat, spy) {
  const back = seat === 'white' ? 1 : 8;
  const second = seat === 'white' ? 2 : 7;
  const files = 'abcdefgh';
  const letters = BS_STANDARD.replace('/', '').split('');
  const sqOf = (i) => files[i % 8] + (i < 8 ? back : second);
  return {
    letters,
    spy,
    text() { return 'setup ' + letters.slice(0, 8).join('') + '/' + letters.slice(8).join(''); },
    pieces() {
      const pieces = {};
      letters.forEach((l, i) => { pieces[sqOf(i)] = { color: c1(seat), type: l }; });
      return pieces;
    },
    swap(a, b) {
      const i = letters.findIndex((_, k) => sqOf(k) === a);
      const j = letters.findIndex((_, k) => sqOf(k) === b);
      [letters[i], letters[j]] = [letters[j], letters[i]];
    },
    toggleSpy(sq) {
      const i = letters.findIndex((_, k) => sqOf(k) === sq);
      if (letters[i] === 'S') letters[i] = 'P';
      else if (letters[i] === 'P') { const s = letters.indexOf('S'); if (s >= 0) letters[s] = 'P'; letters[i] = 'S'; }
    },
    squares() { return letters.map((_, i) => sqOf(i)); },
  };
}

const RC_WHITE = 'd1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN';
const mirror = (sq) => sq[0] + (10 - +sq[1]);
// The Advanced board: White's ten corner squares and a start on nine of them; Black's are the
// half turn.
const RC_ADVANCED_WHITE = 'd1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR hand=NN';
const RC_REGION = ['d1', 'e1', 'f1', 'g1', 'e2', 'f2', 'g2', 'f3', 'g3', 'g4'];
const halfTurn = (sq) => 'abcdefg'[6 - 'abcdefg'.indexOf(sq[0])] + (8 - +sq[1]);

// A local editor state for Reality Check: swap pieces (or with the hand), flip one. With a free
// setup (flexible, or the Advanced board) a piece also moves to an empty square of the own half
// or corner, and any face may be up.
export function rcEditor(seat, { flexible = false, advanced = false } = {}) {
  const cells = {};
  let hand = 'NN';
  const own = (sq) => (seat === 'white' ? sq : advanced ? halfTurn(sq) : mirror(sq));
  for (const part of (advanced ? RC_ADVANCED_WHITE : RC_WHITE).split(' ')) {
    const [sq, faces] = part.split('=');
    if (sq === 'hand') hand = faces;
    else cells[own(sq)] = faces;
  }
  const free = flexible || advanced;
  const need = Object.fromEntries(Object.entries(cells).map(([sq, f]) => [sq, f[0]]));
  const region = new Set(RC_REGION.map(own));
  const half = (sq) => (advanced ? region.has(sq) : seat === 'white' ? +sq[1] <= 4 : +sq[1] >= 6);
  return {
    free,
    advanced,
    get hand() { return hand; },
    cells,
    text() { return 'setup ' + Object.entries(cells).map(([sq, f]) => `${sq}=${f}`).join(' ') + ` hand=${[...hand].sort((a, b) => 'PNBR'.indexOf(a) - 'PNBR'.indexOf(b)).join('')}`; },
    pieces() {
      const pieces = {};
      for (const [sq, f] of Object.entries(cells)) pieces[sq] = { color: c1(seat), type: f[0], down: f[1] };
      return pieces;
    },
    orient(sq, f) {
      if (free || !need[sq] || f[0] === need[sq]) return f;
      return f[1] === need[sq] ? f[1] + f[0] : f;
    },
    swap(a, b) {
      if (a === 'hand') [a, b] = [b, a];
      if (b === 'hand') {
        if (!cells[a]) return;
        const old = cells[a];
        cells[a] = this.orient(a, hand);
        hand = old;
        return;
      }
      if (cells[b] === undefined) {
        if (!free || !half(b)) return;
        cells[b] = cells[a];
        delete cells[a];
        return;
      }
      const fa = cells[a];
      cells[a] = this.orient(a, cells[b]);
      cells[b] = this.orient(b, fa);
    },
    flip(sq) { if (cells[sq]) cells[sq] = cells[sq][1] + cells[sq][0]; },
    targets(from) {
      const all = new Set(Object.keys(cells));
      if (advanced) for (const sq of region) all.add(sq);
      else if (flexible) for (const sq of allSquaresRc()) if (half(sq)) all.add(sq);
      all.delete(from);
      return [...all];
    },
  };
}

function allSquaresRc() {
  const out = [];
  const rows = [[3, 3], [2, 4], [1, 5], [0, 6], [0, 6], [0, 6], [1, 5], [2, 4], [3, 3]];
  rows.forEach(([a, b], r) => { for (let f = a; f <= b; f++) out.push('abcdefg'[f] + (r + 1)); });
  return out;
}
