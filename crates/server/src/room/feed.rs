//! The seats' feeds: each seat's numbered messages, made from its view of the arbiter and
//! nothing else, and read by its streams and sockets.
//!
//! After each entry of the log, a seat is sent a message when something it may see changed: new
//! events in its view, its legal actions, whose turn it is, the game's status or outcome. The
//! message is an `update` holding the new events when the seat's earlier events stand as they
//! were; a `view`, the whole view, when an opening (a reveal) gave earlier events their salts;
//! and `end` once the game is over.
//!
//! A message is stored without its clocks and time: each is stamped with the clocks as they
//! stand when it is sent (a stream opened long after the last move, a resumed socket), so that a
//! page never counts down from an old reading.

use super::clock::now_ms;
use super::seat::SEATS;
use crate::wire::{BySeat, ClockState, Message, MessageKind, RatingDiff, SeedCommitment, Status};
use bluffchess_rules::any::{AnyGame, AnyView};
use bluffchess_rules::event::EventKind;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::LegalAction;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// One seat's numbered messages. Message `seq` N is `messages[N - 1]`; `snapshot` is the whole
/// view as of the last message, numbered like it. Each is kept unstamped (see [`Unstamped`]).
struct FeedState {
    messages: Vec<Unstamped>,
    snapshot: Unstamped,
    ended: bool,
    /// The room stopped here (its game went to another node, or this node drains): readers end
    /// so that their clients reconnect.
    closed: bool,
    /// The clocks at `at` (server time), to stamp messages with as they are sent.
    clock: Option<ClockState>,
    at: i64,
}

/// A message's JSON without its first two fields, `clock` and `server_time` (the rest of the
/// object after them, from its next field to its closing brace).
#[derive(Clone)]
pub struct Unstamped(Arc<str>);

/// How every message's JSON starts when made unstamped.
const UNSTAMPED: &str = r#"{"clock":null,"server_time":0,"#;

impl Unstamped {
    /// Keeps `message` without its clocks and time.
    fn of(message: &mut Message) -> Unstamped {
        let clock = message.clock.take();
        let time = std::mem::take(&mut message.server_time);
        let text = line(message);
        message.clock = clock;
        message.server_time = time;
        let rest = text
            .strip_prefix(UNSTAMPED)
            .expect("a message starts with its clock and time");
        Unstamped(Arc::from(rest))
    }

    /// The message with the clocks as of `now`, given them as of `at`.
    fn stamp(&self, clock: &Option<ClockState>, at: i64, now: i64) -> Arc<str> {
        let clock = clock.as_ref().map(|c| c.at(at, now));
        let clock = serde_json::to_string(&clock).expect("clocks serialise");
        Arc::from(format!(
            r#"{{"clock":{clock},"server_time":{now},{}"#,
            self.0
        ))
    }
}

/// A seat's feed, read by its streams and sockets.
pub struct Feed {
    state: Mutex<FeedState>,
    /// Bumped at every new message.
    notify: watch::Sender<usize>,
}

impl Default for Feed {
    fn default() -> Feed {
        Feed {
            state: Mutex::new(FeedState {
                messages: Vec::new(),
                snapshot: Unstamped(Arc::from("}")),
                ended: false,
                closed: false,
                clock: None,
                at: 0,
            }),
            notify: watch::channel(0).0,
        }
    }
}

impl Feed {
    fn push(&self, message: Unstamped, snapshot: Unstamped, ended: bool) {
        let mut state = self.state.lock().expect("feed lock");
        state.messages.push(message);
        state.snapshot = snapshot;
        state.ended = ended;
        self.notify.send_replace(state.messages.len());
    }

    /// The clocks as they stand at server time `at`.
    fn set_clock(&self, clock: &Option<ClockState>, at: i64) {
        let mut state = self.state.lock().expect("feed lock");
        state.clock.clone_from(clock);
        state.at = at;
    }

    /// Reads the feed: after message `since` (when the feed has it), else the whole view first.
    pub fn reader(self: &Arc<Self>, since: Option<usize>) -> FeedReader {
        let rx = self.notify.subscribe();
        let state = self.state.lock().expect("feed lock");
        let len = state.messages.len();
        let pending: VecDeque<Unstamped> = match since {
            Some(n) if n <= len => state.messages[n..].iter().cloned().collect(),
            _ => [state.snapshot.clone()].into(),
        };
        FeedReader {
            feed: self.clone(),
            pos: len,
            rx,
            pending,
            ended: state.ended,
        }
    }
}

/// A whole feed as a cluster's relay node copies it from the game's owner: unstamped messages.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FeedCopy {
    pub messages: Vec<String>,
    pub snapshot: String,
    pub ended: bool,
    pub clock: Option<ClockState>,
    pub at: i64,
}

/// What changed in a feed, as its owner publishes it: message `seq` (when one was added) and the
/// snapshot, end and clocks with it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FeedNews {
    pub seq: usize,
    pub message: Option<String>,
    pub snapshot: String,
    pub ended: bool,
    pub clock: Option<ClockState>,
    pub at: i64,
}

impl Feed {
    /// Wakes at every message.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.notify.subscribe()
    }

    /// When the clocks were last read (server time): they change with every entry of the log,
    /// whether this feed got a message or not.
    pub fn clock_at(&self) -> i64 {
        self.state.lock().expect("feed lock").at
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.state.lock().expect("feed lock").messages.len()
    }

    /// Whether the feed has no message yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The feed from message `from` on, as many messages as fit in `max_bytes` (one at least);
    /// and how many it holds.
    pub fn copy_from(&self, from: usize, max_bytes: usize) -> (FeedCopy, usize) {
        let state = self.state.lock().expect("feed lock");
        let mut bytes = 0;
        let messages = state
            .messages
            .iter()
            .skip(from)
            .take_while(|m| {
                let first = bytes == 0;
                bytes += m.0.len();
                first || bytes <= max_bytes
            })
            .map(|m| m.0.to_string())
            .collect();
        let copy = FeedCopy {
            messages,
            snapshot: state.snapshot.0.to_string(),
            ended: state.ended,
            clock: state.clock.clone(),
            at: state.at,
        };
        (copy, state.messages.len())
    }

    /// The news after message `from`: each message after it, or (none) the clocks alone.
    pub fn news_after(&self, from: usize) -> Vec<FeedNews> {
        let state = self.state.lock().expect("feed lock");
        let news = |seq: usize, message: Option<String>| FeedNews {
            seq,
            message,
            snapshot: state.snapshot.0.to_string(),
            ended: state.ended,
            clock: state.clock.clone(),
            at: state.at,
        };
        let len = state.messages.len();
        if from >= len {
            return vec![news(len, None)];
        }
        (from..len)
            .map(|i| news(i + 1, Some(state.messages[i].0.to_string())))
            .collect()
    }

    /// Takes a copy made by the game's owner (a relay's first sync, or after a gap).
    pub fn replace(&self, copy: FeedCopy) {
        let mut state = self.state.lock().expect("feed lock");
        if copy.messages.len() < state.messages.len() {
            return;
        }
        state.messages = copy
            .messages
            .into_iter()
            .map(|m| Unstamped(Arc::from(m)))
            .collect();
        state.snapshot = Unstamped(Arc::from(copy.snapshot));
        state.ended = copy.ended;
        state.clock = copy.clock;
        state.at = copy.at;
        self.notify.send_replace(state.messages.len());
    }

    /// Takes the owner's news; `false` when a message is missing before it (copy the feed again).
    pub fn take_news(&self, news: FeedNews) -> bool {
        let mut state = self.state.lock().expect("feed lock");
        let len = state.messages.len();
        match news.message {
            Some(_) if news.seq <= len => return true,
            Some(message) if news.seq == len + 1 => {
                state.messages.push(Unstamped(Arc::from(message)));
            }
            Some(_) => return false,
            None if news.seq > len => return false,
            None => {}
        }
        if news.seq == state.messages.len() {
            state.snapshot = Unstamped(Arc::from(news.snapshot));
            state.ended = news.ended;
        }
        state.clock = news.clock;
        state.at = news.at;
        self.notify.send_replace(state.messages.len());
        true
    }

    /// Ends every reader: the room stopped on this node, and the clients reconnect.
    pub fn close(&self) {
        self.state.lock().expect("feed lock").closed = true;
        self.notify.send_modify(|_| {});
    }
}

/// Reads a seat's feed, message by message.
pub struct FeedReader {
    feed: Arc<Feed>,
    pos: usize,
    rx: watch::Receiver<usize>,
    pending: VecDeque<Unstamped>,
    ended: bool,
}

impl FeedReader {
    /// The next message, or `None` after the last; stamped with the clocks as they stand now.
    pub async fn next(&mut self) -> Option<Arc<str>> {
        loop {
            if let Some(message) = self.pending.pop_front() {
                let state = self.feed.state.lock().expect("feed lock");
                return Some(message.stamp(&state.clock, state.at, now_ms()));
            }
            if self.ended || self.feed.state.lock().expect("feed lock").closed {
                return None;
            }
            self.rx.changed().await.ok()?;
            let state = self.feed.state.lock().expect("feed lock");
            self.pending
                .extend(state.messages[self.pos..].iter().cloned());
            self.pos = state.messages.len();
            self.ended = state.ended;
        }
    }
}

/// What a seat may do now (as its messages give it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LegalActions {
    /// The legal actions in canonical text (when `setup` is set, the setup shortcuts).
    pub actions: Vec<String>,
    /// A setup is due: any valid `setup ...` text is accepted besides the shortcuts.
    pub setup: bool,
    /// Each of `actions` with its structure beside its text, in the same order.
    pub described: Vec<LegalAction>,
}

/// The room at one moment: what every seat's message is made of.
pub struct Moment<'a> {
    /// The game id.
    pub id: &'a str,
    /// The arbiter.
    pub game: &'a AnyGame,
    /// Where the game is.
    pub status: Status,
    /// How it ended, if it has.
    pub outcome: Option<Outcome>,
    /// The clocks now.
    pub clock: Option<ClockState>,
    /// The names of the accounts that hold the seats.
    pub names: &'a [Option<String>; 2],
    /// Who holds each seat: `player`, `open` or `bot:NAME`.
    pub players: &'a [String; 2],
    /// A rated game's end: each player's rating change.
    pub ratings: &'a Option<BySeat<RatingDiff>>,
    /// The server's time now.
    pub t: i64,
}

impl Moment<'_> {
    /// What `seat` may do now: nothing unless the game is live and it is to act.
    pub fn legal(&self, seat: Seat) -> Option<LegalActions> {
        if self.status != Status::Live {
            return None;
        }
        let color = seat.color()?;
        // The waiting seat's list is never made: it is the hot path of every action.
        if self.game.to_act() != Some(Actor::from(color)) {
            return None;
        }
        let legal = self.game.legal_described()?;
        Some(LegalActions {
            actions: legal.actions,
            setup: legal.setup,
            described: legal.legal_actions.unwrap_or_default(),
        })
    }

    /// A message of `kind` for `seat` numbered `seq`, without its view.
    fn message(&self, kind: MessageKind, seq: u64, legal: &Option<LegalActions>) -> Message {
        Message {
            clock: self.clock.clone(),
            events: None,
            game: self.id.to_string(),
            legal: legal.as_ref().map_or_else(Vec::new, |l| l.actions.clone()),
            legal_actions: legal
                .as_ref()
                .map_or_else(Vec::new, |l| l.described.clone()),
            names: None,
            outcome: self.outcome,
            players: None,
            presence: None,
            ratings: None,
            record: None,
            rematch: None,
            seed: None,
            seq,
            server_time: self.t,
            setup: legal.as_ref().is_some_and(|l| l.setup),
            status: self.status,
            kind,
            view: serde_json::Value::Null,
        }
    }

    /// The seat's whole view as a message numbered `seq`: `view`, or `end` once the game is
    /// over (with the record, `null` for an aborted game).
    pub fn whole(&self, seat: Seat, seq: u64) -> Message {
        let legal = self.legal(seat);
        self.whole_of(&self.game.typed_view(seat), seq, &legal)
    }

    fn whole_of(&self, view: &AnyView, seq: u64, legal: &Option<LegalActions>) -> Message {
        let ended = self.status.ended();
        let kind = if ended {
            MessageKind::End
        } else {
            MessageKind::View
        };
        let mut message = self.message(kind, seq, legal);
        message.view = serde_json::to_value(view).expect("views serialise");
        message.names = Some(BySeat {
            black: self.names[1].clone(),
            white: self.names[0].clone(),
        });
        message.players = Some(BySeat {
            black: self.players[1].clone(),
            white: self.players[0].clone(),
        });
        // Chance and random setups are fixed before they are used: the record opens this.
        message.seed = Some(SeedCommitment {
            commitment: self.game.seed_commitment(),
        });
        if ended {
            message.record = Some((self.status == Status::Over).then(|| self.game.record()));
            message.ratings = self.ratings.clone();
        }
        message
    }
}

/// What a seat has been sent: to send it only what is new.
#[derive(Default)]
pub struct Sent {
    seq: u64,
    /// How many events of its view it has.
    events: usize,
    /// A hash of its legal actions (a copy would cost every game a list per seat).
    legal: u64,
    to_act: Option<Actor>,
    status: Option<Status>,
    outcome: Option<Outcome>,
}

impl Sent {
    /// The number of the last message sent.
    pub fn seq(&self) -> u64 {
        self.seq
    }
}

/// Sends each seat what changed in its view since its last message, if anything did.
pub fn emit(moment: &Moment, sent: &mut [Sent; 3], feeds: &[Arc<Feed>; 3]) {
    let ended = moment.status.ended();
    for feed in feeds {
        feed.set_clock(&moment.clock, moment.t);
    }
    for (i, seat) in SEATS.into_iter().enumerate() {
        let view = moment.game.typed_view(seat);
        let legal = moment.legal(seat);
        let legal_hash = hash_of(&legal);
        let events = view.events();
        let last = &sent[i];
        let new = events.get(last.events..).unwrap_or(&[]);
        let first = last.status.is_none();
        let changed = first
            || !new.is_empty()
            || events.len() < last.events
            || legal_hash != last.legal
            || view.to_act() != last.to_act
            || Some(moment.status) != last.status
            || moment.outcome != last.outcome;
        if !changed {
            continue;
        }
        // An opening gives the earlier sealed events their salts: the whole view again.
        let reopened = new
            .iter()
            .any(|e| matches!(e.kind, EventKind::Reveal { .. }));
        let seq = last.seq + 1;
        let mut whole = moment.whole_of(&view, seq, &legal);
        let snapshot = Unstamped::of(&mut whole);
        let message = if first || ended || reopened || events.len() < last.events {
            snapshot.clone()
        } else {
            let mut update = moment.message(MessageKind::Update, seq, &legal);
            update.events = Some(new.to_vec());
            let mut rest = whole.view;
            if let Some(fields) = rest.as_object_mut() {
                fields.remove("events");
            }
            update.view = rest;
            Unstamped::of(&mut update)
        };
        feeds[i].push(message, snapshot, ended);
        sent[i] = Sent {
            seq,
            events: events.len(),
            legal: legal_hash,
            to_act: view.to_act(),
            status: Some(moment.status),
            outcome: moment.outcome,
        };
    }
}

/// A hash of a seat's legal actions, to tell whether they changed.
fn hash_of(legal: &Option<LegalActions>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    legal.hash(&mut hasher);
    hasher.finish()
}

/// A message as one JSON line.
pub fn line(message: &Message) -> String {
    serde_json::to_string(message).expect("messages serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::board::Color;
    use bluffchess_rules::commitment::SaltSource;
    use bluffchess_rules::record::MetaKind;
    use bluffchess_rules::registry::VARIANTS;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use serde_json::{json, Value};

    /// The server's former way, by JSON: a message when the JSON of the view, the legal
    /// actions, the status or the outcome changed; an update when the events sent before are a
    /// prefix of the view's.
    #[derive(Default)]
    struct Former {
        signature: String,
        events: Vec<Value>,
    }

    impl Former {
        /// The message's type and contents (events for an update, else the view), if any.
        fn next(&mut self, moment: &Moment, seat: Seat) -> Option<(MessageKind, Value)> {
            let view = moment.game.view(seat);
            let legal = moment.legal(seat).map(|l| (l.actions, l.setup));
            let signature = json!([view, legal, moment.status, moment.outcome]).to_string();
            if signature == self.signature {
                return None;
            }
            let first = self.signature.is_empty();
            self.signature = signature;
            let events = view["events"].as_array().cloned().unwrap_or_default();
            let extends = !first && events.starts_with(&self.events);
            let old = std::mem::replace(&mut self.events, events.clone());
            if moment.status.ended() {
                return Some((MessageKind::End, view));
            }
            if !extends {
                return Some((MessageKind::View, view));
            }
            Some((
                MessageKind::Update,
                Value::Array(events[old.len()..].to_vec()),
            ))
        }
    }

    /// Each message of a feed as its type and contents, as [`Former::next`] gives them.
    fn read(feed: &Feed, from: usize) -> Vec<(MessageKind, Value)> {
        let state = feed.state.lock().unwrap();
        state.messages[from..]
            .iter()
            .map(|unstamped| {
                let line = unstamped.stamp(&None, 0, 0);
                let m: Message = serde_json::from_str(&line).unwrap();
                match m.kind {
                    MessageKind::Update => {
                        (m.kind, serde_json::to_value(m.events.unwrap()).unwrap())
                    }
                    _ => (m.kind, m.view),
                }
            })
            .collect()
    }

    /// A feed of `n` messages of about 100 bytes each.
    fn feed_of(n: usize) -> Feed {
        let feed = Feed::default();
        for i in 1..=n {
            let message = Unstamped(Arc::from(format!(
                r#""seq":{i},"pad":"{}"}}"#,
                "x".repeat(90)
            )));
            feed.push(message.clone(), message, i == n);
        }
        feed
    }

    #[test]
    fn a_relay_copies_a_feed_in_parts_and_finds_gaps_by_number() {
        let owner = feed_of(10);
        let mut messages = Vec::new();
        let mut parts = 0;
        loop {
            let (part, total) = owner.copy_from(messages.len(), 250);
            assert!(!part.messages.is_empty() && part.messages.len() <= 3);
            messages.extend(part.messages.clone());
            parts += 1;
            if messages.len() >= total {
                let relay = Feed::default();
                relay.replace(FeedCopy { messages, ..part });
                let copied: Vec<String> = relay
                    .news_after(0)
                    .into_iter()
                    .filter_map(|n| n.message)
                    .collect();
                let original: Vec<String> = owner
                    .news_after(0)
                    .into_iter()
                    .filter_map(|n| n.message)
                    .collect();
                assert_eq!(copied, original);
                break;
            }
        }
        assert!(parts >= 4, "{parts} parts");

        // News in order is taken, again is ignored, past a gap is refused (copy again).
        let relay = Feed::default();
        let news = feed_of(3).news_after(0);
        assert!(relay.take_news(news[0].clone()));
        assert!(relay.take_news(news[0].clone()));
        assert_eq!(relay.len(), 1);
        assert!(!relay.take_news(news[2].clone()), "message 2 is missing");
        assert!(relay.take_news(news[1].clone()));
        assert!(relay.take_news(news[2].clone()));
        assert_eq!(relay.len(), 3);
    }

    #[tokio::test]
    async fn a_message_read_later_carries_the_clocks_of_its_reading() {
        let game = AnyGame::new("chess", &Default::default(), 1, SaltSource::Seeded(1)).unwrap();
        let players = ["player".to_string(), "player".to_string()];
        let clock = ClockState {
            black_ms: 60_000,
            increment_ms: 0,
            initial_ms: 60_000,
            running: Some("white".into()),
            white_ms: 10_000,
        };
        // the message was made 2 s ago; it is read (a page reloaded) now
        let made = now_ms() - 2000;
        let moment = Moment {
            id: "g",
            game: &game,
            status: Status::Live,
            outcome: None,
            clock: Some(clock),
            names: &[None, None],
            players: &players,
            ratings: &None,
            t: made,
        };
        let feeds: [Arc<Feed>; 3] = Default::default();
        let mut sent: [Sent; 3] = Default::default();
        emit(&moment, &mut sent, &feeds);
        for since in [None, Some(0)] {
            let line = feeds[0].reader(since).next().await.unwrap();
            let m: Message = serde_json::from_str(&line).unwrap();
            let clock = m.clock.unwrap();
            assert!(m.server_time >= made + 2000, "{}", m.server_time);
            let left = 10_000 - (m.server_time - made);
            assert_eq!(clock.white_ms, left, "the running clock as of the reading");
            assert_eq!(clock.black_ms, 60_000);
            assert_eq!(m.players.unwrap().white, "player");
        }
    }

    #[test]
    fn seats_are_sent_what_the_former_view_diffing_sent() {
        compare_with_the_former_way(0..2, 150);
    }

    #[test]
    #[ignore = "heavy: run in release with --ignored"]
    fn seats_are_sent_what_the_former_view_diffing_sent_in_many_games() {
        compare_with_the_former_way(0..8, 400);
    }

    fn compare_with_the_former_way(seeds: std::ops::Range<u64>, steps: i64) {
        let mut rng = StdRng::seed_from_u64(11);
        for spec in VARIANTS {
            for seed in seeds.clone() {
                let mut game =
                    AnyGame::new(spec.id, &Default::default(), seed, SaltSource::Seeded(seed))
                        .unwrap();
                let feeds: [Arc<Feed>; 3] = Default::default();
                let mut sent: [Sent; 3] = Default::default();
                let mut former: [Former; 3] = Default::default();
                let players = ["player".to_string(), "player".to_string()];
                for step in 0..steps {
                    let status = match game.outcome() {
                        Some(_) => Status::Over,
                        None => Status::Live,
                    };
                    let moment = Moment {
                        id: "g",
                        game: &game,
                        status,
                        outcome: game.outcome(),
                        clock: None,
                        names: &[None, None],
                        players: &players,
                        ratings: &None,
                        t: step,
                    };
                    let before = feeds
                        .each_ref()
                        .map(|f| f.state.lock().unwrap().messages.len());
                    emit(&moment, &mut sent, &feeds);
                    for (i, seat) in SEATS.into_iter().enumerate() {
                        let expected: Vec<_> = former[i].next(&moment, seat).into_iter().collect();
                        assert_eq!(
                            read(&feeds[i], before[i]),
                            expected,
                            "{} seed {seed} step {step} {seat}",
                            spec.id
                        );
                    }
                    if status.ended() {
                        break;
                    }
                    // Mostly actions; now and then a draw offer, an acceptance or a claim.
                    let color = [Color::White, Color::Black][rng.random_range(0..2)];
                    let meta = [
                        MetaKind::OfferDraw,
                        MetaKind::AcceptDraw,
                        MetaKind::ClaimDraw,
                    ];
                    if rng.random_range(0..10) == 0 {
                        let _ = game.meta(color, meta[rng.random_range(0..3)]);
                    } else if let Some(action) = game.random_action() {
                        game.play(&action).unwrap();
                    } else {
                        game.roll().unwrap();
                    }
                }
            }
        }
    }
}
