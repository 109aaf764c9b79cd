// The Learn pages (/learn/{variant}): what is hidden, how to win and how to act, then small live
// boards that play short scripted lessons. Every lesson is a real game on the server: the page
// holds both seats (the opponent's by a private invitation), plays the opponent's scripted
// actions and waits for the learner's; the rules answer through the server, and the board shows
// the learner's view only, as in a game.
import { Board } from './board.js';
import { adapterOf, shapeOf, interactionOf, esc, sentence } from './variants.js';
import { pieceIcon } from './pieces.js';

const RC_WHITE = 'setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN';
const RC_BLACK = 'setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN';

// Each variant's page: its sections (HTML) and its lessons. A lesson's step is the learner's
// (`you`) or the opponent's (`them`): an action text the real rules must accept, and what to say.
const PAGES = {
  chess: {
    hidden: 'Nothing: both players see the whole board. Orthodox chess is the reference every variant here is built on.',
    win: 'Checkmate the enemy king: attack it so that no move saves it. A position with no legal move and no check is stalemate, a draw.',
    how: [
      'Move a piece by dragging it, or click it and then click where it goes (the dots show where it may go).',
      'A pawn reaching the last rank asks which piece it becomes.',
      'Castle by moving the king two squares towards the rook.',
      'Before your turn you may premove: make your move while the opponent thinks; it is played the moment their move arrives, if it is legal then. A click elsewhere cancels it.',
    ],
    lessons: [{
      title: 'A quick checkmate',
      you: 'white',
      steps: [
        { by: 'you', action: 'e2e4', say: 'Drag the pawn on e2 to e4 (or click it, then click e4).' },
        { by: 'them', action: 'e7e5', say: 'Black answers e5.' },
        { by: 'you', action: 'd1h5', say: 'Bring the queen out: d1 to h5.' },
        { by: 'them', action: 'b8c6', say: 'Black develops a knight.' },
        { by: 'you', action: 'f1c4', say: 'The bishop to c4 aims at f7 too.' },
        { by: 'them', action: 'g8f6', say: 'Black attacks your queen, and misses the threat.' },
        { by: 'you', action: 'h5f7', say: 'Take on f7: queen and bishop together mate the king.' },
      ],
      end: 'Checkmate: the king is attacked and nothing saves it.',
    }],
  },
  'alter-ego': {
    hidden: 'Your alter ego: it lives in the piece you moved last (marked E). After a death move (a move whose piece the opponent can take next turn) you may secretly move the ego into any other of your pieces: that decision is hidden until the opponent has made their next move.',
    win: 'Capture the piece that holds the enemy alter ego, or checkmate. All orthodox rules apply.',
    how: [
      'Move as in chess. The piece you move carries your ego (E).',
      'After a death move the page asks for your decision: Stay keeps the ego in the moved piece; a click on one of your pieces outlined with dashes moves the ego there, hidden.',
      'After a transfer, your next turn must move the piece that holds the ego (it is marked).',
      'A ? on an enemy piece: it held the ego before a hidden decision you have not seen yet.',
    ],
    lessons: [{
      title: 'The death move and the transfer',
      you: 'white',
      steps: [
        { by: 'you', action: 'e2e4', say: 'Play e2-e4. Your alter ego goes into that pawn (E).' },
        { by: 'them', action: 'd7d5', say: 'Black plays d5: your pawn could take it, so it is a death move. Black decides in secret.' },
        { by: 'them', action: 'transfer d8', say: 'Black has decided (you cannot see what).' },
        { by: 'you', action: 'e4d5', say: 'Take on d5. If the ego stayed there you win at once; after your move Black\'s decision is revealed.' },
        { by: 'you', action: 'transfer g1', say: 'The ego had gone to d8. Now your move is a death move (the queen can take d5): click the dashed knight on g1 to move your ego into it, hidden.' },
        { by: 'them', action: 'd8d5', say: 'Black had to move its ego\'s piece, the queen: it takes d5, and finds no ego there. Your transfer is revealed.' },
        { by: 'you', action: 'g1f3', say: 'After your transfer you must move the piece that holds the ego: the knight, g1 to f3.' },
      ],
      end: 'You kept your alter ego safe with a hidden transfer. Capture the enemy ego, or checkmate, to win.',
    }],
  },
  ambiguous: {
    hidden: 'Nothing is hidden, but you do not choose your own piece: you name a square, and your opponent chooses which of your pieces that can reach it goes there (the promotion piece too).',
    win: 'Capture the enemy king. A player who cannot name any square loses. Moves may leave your own king attacked.',
    how: [
      'Name a square by clicking it (the marked squares), or drag one of your pieces there: only the square counts.',
      'When only one piece can go there, it goes at once.',
      'When your opponent named a square, the candidate pieces are marked: click the one you choose for them (or use the buttons).',
    ],
    lessons: [{
      title: 'Naming and picking',
      you: 'white',
      steps: [
        { by: 'you', action: 'a3', say: 'Name a3 by clicking it. Both your a2 pawn and your b1 knight can reach it.' },
        { by: 'them', action: 'b1a3', say: 'Black chose for you: the knight goes to a3, to the edge.' },
        { by: 'them', action: 'a6', say: 'Black names a6: its a7 pawn and its b8 knight can both go there.' },
        { by: 'you', action: 'a7a6', say: 'Your pick: click the marked pawn on a7 (better for you than a knight on the rim... for Black it is the other way round).' },
        { by: 'you', action: 'e4', say: 'Name e4: only the e2 pawn reaches it, so it moves at once.' },
      ],
      end: 'You named squares and picked for your opponent. Capture the king to win.',
    }],
  },
  'bluff-move': {
    hidden: 'Which enemy pieces are bluffs. Each of your real pieces may have one bluff (a copy, marked b on your board). Your opponent sees one image of each of your pieces and does not know whether it is the real piece or its bluff.',
    win: 'Capture the enemy real king. There is no check: the king may stand attacked.',
    how: [
      'A plain drag moves a real piece (or one of your bluffs).',
      'A bluff move: drag with the right mouse button, or long-press on a touch screen, or press Bluff and then move. A bluff of that piece appears on the new square; the real piece stays.',
      'A real piece captures every enemy bluff it meets and stops at the first real piece; a bluff that meets a real piece is destroyed and shows where its real piece stands.',
      '! marks an enemy piece known to be real.',
    ],
    lessons: [{
      title: 'A bluff, and its capture',
      you: 'white',
      steps: [
        { by: 'you', action: 'bluff e2e4', say: 'Make a bluff: right-drag the e2 pawn to e4 (or press Bluff, then move it). Black sees a pawn on e4, not that it is a bluff.' },
        { by: 'them', action: 'd7d5', say: 'Black plays d5.' },
        { by: 'you', action: 'g1f3', say: 'Move the knight g1 to f3, an ordinary move.' },
        { by: 'them', action: 'd5e4', say: 'Black takes on e4 with a real pawn: it captures your bluff, and your real pawn on e2 is shown to Black.' },
      ],
      end: 'Your bluff was captured, and Black now knows your real pawn is on e2. Bluffs cost nothing but can be found out.',
    }],
  },
  bs: {
    hidden: 'What every piece really is. All your pieces look alike to your opponent; you arrange them in secret at the start, anywhere on your first two ranks.',
    win: 'Capture the enemy king (once any call is settled). There is no check and no checkmate.',
    how: [
      'Arrange your pieces by clicking two to swap them, then Submit (or take the standard setup).',
      'Move any piece as any chess piece could move: a move that does not fit the piece is a lie.',
      'After each move the opponent answers: Accept, or Call BS!. A called lie removes the moving piece; a called honest move makes the caller remove one of their own pieces (click it).',
      'A move waiting for its answer is drawn where it went, marked ?.',
    ],
    lessons: [{
      title: 'A lie called, an honest move called',
      you: 'white',
      steps: [
        { by: 'you', action: 'setup standard', say: 'Take the standard arrangement (the button).' },
        { by: 'them', action: 'setup standard', say: 'Black arranges its pieces in secret.' },
        { by: 'you', action: 'e2d4', say: 'Lie: move the pawn on e2 to d4 as if it were a knight (click e2, then d4).' },
        { by: 'them', action: 'call', say: 'Black calls BS! A pawn cannot move like that: your piece is removed.' },
        { by: 'them', action: 'd7d5', say: 'Black moves d7 to d5. Is it really a pawn?' },
        { by: 'you', action: 'call', say: 'Call BS! (the button).' },
        { by: 'you', action: 'remove h2', say: 'It was a pawn, so the move was lawful: you must remove one of your own pieces. Click the pawn on h2.' },
        { by: 'you', action: 'g1f3', say: 'Now you move: the knight g1 to f3, honestly.' },
        { by: 'them', action: 'accept', say: 'Black accepts your move.' },
      ],
      end: 'Lies are fine until they are called; calling an honest move costs you a piece.',
    }],
  },
  'reality-check': {
    hidden: 'The other face of each two-faced piece, and the piece in your hand. Each piece has two faces (pawn, knight, bishop, rook); it moves as the face that is up. The four pieces with two equal faces are true pieces.',
    win: 'Make all four enemy true pieces leave the game (by Reality Checks), or leave the opponent with no legal turn or an impossible forced drop.',
    how: [
      'Arrange your setup by swapping pieces (and the hand piece), then Submit.',
      'A turn: a move and then a flip of any piece (click a marked square); or a drop from your hand (click it, then a green square); or a capture.',
      'A capture as a Reality Check (the chooser asks): both pieces are flipped; if both are true, the captured piece leaves the game.',
      'The small circle shows a face you know underneath; T marks a piece known to be true.',
    ],
    lessons: [{
      title: 'A Reality Check removes a true piece',
      you: 'white',
      steps: [
        { by: 'you', action: RC_WHITE, say: 'Take this arrangement: the pawn on b3 is true (P on both faces). Press Submit arrangement.' },
        { by: 'them', action: RC_BLACK, say: 'Black arranges its pieces in secret.' },
        { by: 'you', action: 'b3b4', say: 'Move the true pawn b3 to b4 (a pawn face steps one square in any straight direction).' },
        { by: 'you', action: 'flip d2', say: 'After a move you must flip a piece: click d2.' },
        { by: 'them', action: 'b7b6', say: 'Black moves its b-pawn…' },
        { by: 'them', action: 'flip d8', say: '…and flips d8.' },
        { by: 'you', action: 'b4b5', say: 'Move b4 to b5.' },
        { by: 'you', action: 'flip d1', say: 'Flip d1 (d8 was just flipped by Black, so it may not be flipped now).' },
        { by: 'them', action: 'b6c6', say: 'Black steps sideways to c6.' },
        { by: 'them', action: 'flip d9', say: 'Black flips d9.' },
        { by: 'you', action: 'rc b5c6', say: 'A pawn face captures one step diagonally: take c6 as a Reality Check, which flips both pieces (click b5, then c6).' },
      ],
      end: 'Both pieces were true, so Black\'s pawn left the game. Three more true pieces to go.',
    }],
  },
};

const json = (r) => r.json().catch(() => ({}));

// A request for one of the lesson's seats: never with this browser's cookies, so the lesson's
// seats belong to no account and no guest session.
async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  const r = await fetch(path, { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await json(r);
  if (!r.ok) throw new Error(data.error || `${r.status}`);
  return data;
}

export function learnPage(main, variant, list, { h }) {
  const info = PAGES[variant];
  const name = list.find((v) => v.id === variant)?.name || variant;
  document.title = `Learn ${name} · bluffchess`;
  if (!info) {
    main.innerHTML = `<div class="card narrow" id="no-variant"><h2>No such variant</h2><p>Learn one of these: ${list.map((v) => `<a href="/learn/${esc(v.id)}">${esc(v.name)}</a>`).join(', ')}.</p></div>`;
    return () => {};
  }
  const page = h(`<div class="learn" data-variant="${esc(variant)}">
    <p>${list.map((v) => `<a href="/learn/${esc(v.id)}">${esc(v.name)}</a>`).join(' · ')}</p>
    <h1>Learn ${esc(name)}</h1>
    <div class="learn-grid">
      <section class="card"><h2>What is hidden</h2><p>${esc(info.hidden)}</p>
        <h2>How to win</h2><p>${esc(info.win)}</p>
        <h2>How to play it here</h2><ul>${info.how.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>
        <p>Then the full rules, with every ruling: <a href="/rules/${esc(variant)}">${esc(name)}: the rules</a>. Ready? <a href="/">Play a game</a>.</p></section>
      <div id="lessons"></div>
    </div></div>`);
  main.replaceChildren(page);
  const stops = [];
  info.lessons.forEach((lesson, i) => stops.push(lessonCard(page.querySelector('#lessons'), variant, lesson, i, h)));
  return () => stops.forEach((stop) => stop());
}

function lessonCard(host, variant, lesson, n, h) {
  const card = h(`<section class="card lesson" data-lesson="${n}" data-step="0">
    <h2>Lesson ${n + 1}: ${esc(lesson.title)}</h2>
    <div class="lesson-board"></div>
    <p class="lesson-say" aria-live="polite">A live board: you play ${esc(lesson.you)}, the page plays the other side, and the real rules answer.</p>
    <div class="actions lesson-buttons"></div>
    <p class="error lesson-error" role="alert"></p>
    <ol class="events lesson-events"></ol>
    <p><button type="button" class="primary lesson-start">Start the lesson</button></p></section>`);
  host.append(card);
  const $ = (s) => card.querySelector(s);
  const board = new Board($('.lesson-board'), { onChoose: (actions) => chosen(actions), label: `lesson ${n + 1} board` });
  const seat = lesson.you;
  let game = null;
  let step = 0;
  let stopped = false;
  let waiting = null;
  let bluff = false;

  const say = (text) => { $('.lesson-say').textContent = text; };
  const fail = (e) => { $('.lesson-error').textContent = `The lesson stopped: ${e.message || e}`; card.dataset.failed = '1'; };

  async function refresh() {
    const m = await call('GET', `/api/games/${game.id}/view`, undefined, game.you);
    game.msg = m;
    draw();
    return m;
  }

  function draw() {
    const m = game.msg;
    const view = m.view;
    const ad = adapterOf(variant);
    board.setup(shapeOf(view), seat);
    // The expected action's structure, from the legal actions (a setup beyond the shortcuts is
    // accepted when one is due).
    const expected = waiting
      ? (m.legal_actions || []).find((a) => a.text === waiting) || (m.setup ? { text: waiting, kind: 'setup' } : null)
      : null;
    const inter = interactionOf(expected ? [expected] : []);
    if (bluff) inter.moves.normal = new Map();
    if (variant === 'ambiguous' && expected?.kind === 'move') {
      // a pick: a click on the piece
      inter.targets.set(expected.from, [{ text: waiting, label: 'pick', action: expected }]);
      inter.moves.normal = new Map();
    }
    board.bluffMode = bluff;
    board.render(ad.model(view, seat), inter);
    const buttons = $('.lesson-buttons');
    buttons.replaceChildren();
    for (const a of inter.buttons) {
      const b = h(`<button type="button" data-action="${esc(a.text)}">${esc(a.action.kind === 'setup' && a.text !== 'setup standard' ? 'Submit arrangement' : a.label)}</button>`);
      b.addEventListener('click', () => chosen([a]));
      buttons.append(b);
    }
    if (expected?.kind === 'bluff') {
      const b = h(`<button type="button" class="lesson-bluff" aria-pressed="${bluff}">Bluff</button>`);
      b.addEventListener('click', () => { bluff = !bluff; draw(); });
      buttons.append(b);
    }
    if (variant === 'reality-check') {
      const hand = view.position[seat]?.hand || [];
      if (hand.length) buttons.append(h(`<span class="muted">Your hand: ${hand.map((f) => pieceIcon(seat === 'white' ? 'w' : 'b', f[0], f)).join(' ')}</span>`));
    }
    $('.lesson-events').innerHTML = view.events.filter((e) => e.kind !== 'meta').map((e) => `<li>${esc(sentence(e, variant))}</li>`).join('');
    $('.lesson-events').scrollTop = 1e6;
  }

  let resolveChoice = null;
  function chosen(actions) {
    const a = actions.find((x) => x.text === waiting) || actions[0];
    if (a.text !== waiting || !resolveChoice) return;
    bluff = false;
    const r = resolveChoice;
    resolveChoice = null;
    r(a.text);
  }

  async function start() {
    $('.lesson-start').disabled = true;
    $('.lesson-error').textContent = '';
    card.dataset.failed = '';
    try {
      const created = await call('POST', '/api/games', { variant, clock: null, color: seat, opponent: 'open', private: true });
      const joined = await call('POST', `/api/games/${created.id}/join`, { invite: created.invite });
      game = { id: created.id, you: created.token, them: joined.token };
      card.dataset.game = created.id;
      step = 0;
      await refresh();
      for (; step < lesson.steps.length && !stopped; step++) {
        card.dataset.step = String(step);
        const s = lesson.steps[step];
        say(s.say);
        if (s.by === 'them') {
          waiting = null;
          draw();
          await new Promise((r) => setTimeout(r, 700));
          await call('POST', `/api/games/${game.id}/action`, { action: s.action }, game.them);
        } else {
          waiting = s.action;
          card.dataset.waiting = s.action;
          draw();
          const text = await new Promise((r) => { resolveChoice = r; });
          waiting = null;
          card.dataset.waiting = '';
          await call('POST', `/api/games/${game.id}/action`, { action: text }, game.you);
        }
        await refresh();
      }
      if (stopped) return;
      card.dataset.step = String(lesson.steps.length);
      // the lesson's game ends: the page's side resigns unless the rules ended it already
      if (game.msg.status === 'live') {
        await call('POST', `/api/games/${game.id}/resign`, undefined, game.them);
        await refresh();
      }
      say(`Done. ${lesson.end}`);
      card.dataset.done = '1';
      $('.lesson-start').textContent = 'Play it again';
      $('.lesson-start').disabled = false;
    } catch (e) {
      fail(e);
      $('.lesson-start').disabled = false;
    }
  }
  $('.lesson-start').addEventListener('click', start);
  return () => { stopped = true; if (resolveChoice) resolveChoice = null; };
}
