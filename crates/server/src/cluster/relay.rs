//! A game owned by another node, as this node serves it: a room's shared part whose mailbox
//! forwards every request to the owner (NATS request-reply, bounded in time) and whose feeds
//! are copies of the owner's, kept by each audience's news. The relay splits nothing: each
//! audience's messages arrive on that audience's subject, made by the owner from its view.

use super::bus::{
    command_subject, feeds_subject, moving_subject, seats_subject, Answered, Reply, Request,
    SeatForm, Seats, AUDIENCES, MOVED,
};
use crate::error::ApiError;
use crate::room::{index, Command, FeedCopy, FeedNews, Presence, Shared, SEATS};
use async_nats::{Client, Subscriber};
use bluffchess_rules::board::Color;
use bytes::Bytes;
use futures_util::StreamExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// How long one forwarded request waits for the owner's answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a request keeps trying while the game has no owner (a failover: the lease expires,
/// another node takes the game and replays its log).
const FAILOVER_WAIT: Duration = Duration::from_secs(8);
/// A relay nobody reads nor asks for this long stops.
const IDLE: Duration = Duration::from_secs(30);
/// How long requests are held, at most, while the owner hands the game over.
const HOLD: Duration = Duration::from_secs(2);

/// Opens the relay of `id`, owned by another node: copies its feeds and seats, then relays.
pub async fn open(
    nats: Client,
    id: &str,
    shutdown: watch::Receiver<bool>,
) -> Result<Arc<Shared>, ApiError> {
    // Subscribed before the copy, so that no news falls between the two.
    let news = subscribe(&nats, feeds_subject(id)).await?;
    let seats_news = subscribe(&nats, seats_subject(id)).await?;
    let moving = subscribe(&nats, moving_subject(id)).await?;
    let sync = sync(&nats, id).await?;
    let (tx, rx) = mpsc::channel(64);
    let shared = Arc::new(Shared {
        id: id.to_string(),
        tx,
        tokens: RwLock::new([None, None]),
        feeds: Default::default(),
        presence: Default::default(),
        public: Mutex::new(None),
        private: sync.seats.private,
        accounts: RwLock::new([None, None]),
        guests: RwLock::new([None, None]),
        relayed: true,
    });
    set_seats(&shared, sync.seats);
    for (feed, copy) in shared.feeds.iter().zip(sync.feeds) {
        feed.replace(copy);
    }
    let relay = Relay {
        nats,
        shared: shared.clone(),
        connections: [0, 0],
        last_asked: Arc::new(Mutex::new(Instant::now())),
        ownerless: Arc::new(AtomicBool::new(false)),
        hold: watch::channel(None).0,
    };
    tokio::spawn(relay.run(rx, [news, seats_news, moving], shutdown));
    Ok(shared)
}

struct Relay {
    nats: Client,
    shared: Arc<Shared>,
    /// Each seat's streams and sockets here, as last told to the owner.
    connections: [usize; 2],
    last_asked: Arc<Mutex<Instant>>,
    /// A request found no owner past a failover's wait: the game's node is gone and no node
    /// took it (a game that ended as its node died, say). The relay stops, so that the next
    /// request loads the game here.
    ownerless: Arc<AtomicBool>,
    /// Until when requests wait: the owner said it hands the game over, and the next owner has
    /// not spoken yet.
    hold: watch::Sender<Option<Instant>>,
}

/// Waits out a relay's hold (see `Relay::hold`).
#[derive(Clone)]
struct Hold(watch::Receiver<Option<Instant>>);

impl Hold {
    async fn wait(&mut self) {
        loop {
            let Some(until) = *self.0.borrow_and_update() else {
                return;
            };
            tokio::select! {
                changed = self.0.changed() => if changed.is_err() { return },
                () = tokio::time::sleep_until(until.into()) => return,
            }
        }
    }
}

impl Relay {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        [mut news, mut seats_news, mut moving]: [Subscriber; 3],
        mut shutdown: watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { break };
                    *self.last_asked.lock().expect("relay lock") = Instant::now();
                    // Each request in a task of its own: a slow owner holds up no other.
                    let (nats, id) = (self.nats.clone(), self.shared.id.clone());
                    let ownerless = self.ownerless.clone();
                    let hold = Hold(self.hold.subscribe());
                    tokio::spawn(async move {
                        if forward(nats, id, command, hold).await {
                            ownerless.store(true, Ordering::Relaxed);
                        }
                    });
                }
                message = news.next() => {
                    let Some(message) = message else { break };
                    self.owner_spoke();
                    self.take_news(&message.subject, &message.payload).await;
                }
                message = seats_news.next() => {
                    let Some(message) = message else { break };
                    self.owner_spoke();
                    if let Ok(seats) = serde_json::from_slice::<Seats>(&message.payload) {
                        set_seats(&self.shared, seats);
                    }
                }
                message = moving.next() => {
                    let Some(_) = message else { break };
                    self.hold.send_replace(Some(Instant::now() + HOLD));
                }
                _ = tick.tick() => {
                    self.tell_presence().await;
                    if self.idle() || self.ownerless.load(Ordering::Relaxed) {
                        break;
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
        // The hub finds the mailbox closed and opens the game again when asked.
        rx.close();
        for mut subscriber in [news, seats_news, moving] {
            let _ = subscriber.unsubscribe().await;
        }
    }

    /// After a handover's notice, news comes from the next owner: the held requests go.
    fn owner_spoke(&self) {
        self.hold.send_if_modified(|until| until.take().is_some());
    }

    /// One audience's news; a gap (news lost while NATS reconnected, a new owner) copies the
    /// feeds again.
    async fn take_news(&self, subject: &str, payload: &[u8]) {
        let Some(audience) = subject
            .rsplit('.')
            .next()
            .and_then(|a| AUDIENCES.iter().position(|x| *x == a))
        else {
            return;
        };
        let Ok(news) = serde_json::from_slice::<FeedNews>(payload) else {
            return;
        };
        if self.shared.feeds[audience].take_news(news) {
            return;
        }
        match sync(&self.nats, &self.shared.id).await {
            Ok(sync) => {
                set_seats(&self.shared, sync.seats);
                for (feed, copy) in self.shared.feeds.iter().zip(sync.feeds) {
                    feed.replace(copy);
                }
            }
            Err(e) => tracing::warn!(game = %self.shared.id, "relay cannot catch up: {e}"),
        }
    }

    /// Tells the owner how many of each seat's streams and sockets are open here (a seat
    /// connected anywhere is connected: no win is claimed against it).
    async fn tell_presence(&mut self) {
        for color in [Color::White, Color::Black] {
            let i = index(color);
            let now = connections(&self.shared.presence[i]);
            if now == self.connections[i] {
                continue;
            }
            let delta = now as i64 - self.connections[i] as i64;
            let request = Request::Presence { seat: color, delta };
            let hold = Hold(self.hold.subscribe());
            if ask(&self.nats, &self.shared.id, &request, hold)
                .await
                .is_ok()
            {
                self.connections[i] = now;
            }
        }
    }

    /// Nobody reads this relay's feeds, holds its seats open or asked it anything lately.
    fn idle(&self) -> bool {
        let unread = self.shared.feeds.iter().all(|f| Arc::strong_count(f) == 1);
        let unconnected =
            self.connections == [0, 0] && self.shared.presence.iter().all(|p| connections(p) == 0);
        let quiet = self.last_asked.lock().expect("relay lock").elapsed() > IDLE;
        unread && unconnected && quiet
    }
}

fn connections(presence: &Presence) -> usize {
    presence.connections.load(Ordering::Relaxed)
}

async fn subscribe(nats: &Client, subject: String) -> Result<Subscriber, ApiError> {
    nats.subscribe(subject).await.map_err(|_| bus_down())
}

/// The owner's copy of every feed and the seats, each feed in parts. Each part is asked once:
/// a relay is opened by a request that waits for it, and a game without an owner is soon taken
/// by some node.
async fn sync(nats: &Client, id: &str) -> Result<super::bus::Sync, ApiError> {
    let seats = match ask_within(nats, id, &Request::Seats, Duration::ZERO, None).await? {
        Reply::Seats(seats) => *seats,
        _ => return Err(unexpected()),
    };
    let mut feeds: [FeedCopy; 3] = Default::default();
    for (audience, feed) in feeds.iter_mut().enumerate() {
        let mut messages = Vec::new();
        loop {
            let from = messages.len();
            let request = Request::Feed { audience, from };
            let part = match ask_within(nats, id, &request, Duration::ZERO, None).await? {
                Reply::Feed(part) => *part,
                _ => return Err(unexpected()),
            };
            let got = part.copy.messages.len();
            messages.extend(part.copy.messages);
            *feed = FeedCopy {
                messages: Vec::new(),
                ..part.copy
            };
            // Messages are only ever added: the parts join up, and the last one is current.
            if got == 0 || messages.len() >= part.total {
                break;
            }
        }
        feed.messages = messages;
    }
    Ok(super::bus::Sync { feeds, seats })
}

/// The seats as the owner holds them.
fn set_seats(shared: &Shared, seats: Seats) {
    let tokens = seats.tokens.map(|t| {
        t.and_then(|h| {
            let mut hash = [0; 32];
            hex::decode_to_slice(h, &mut hash).ok().map(|()| hash)
        })
    });
    *shared.tokens.write().expect("token lock") = tokens;
    *shared.accounts.write().expect("seat lock") = seats.accounts;
    *shared.guests.write().expect("seat lock") = seats.guests;
    *shared.public.lock().expect("public lock") = seats.public;
}

/// Forwards one request of the room's mailbox and answers it as the room would have; `true`
/// when the game has no owner.
async fn forward(nats: Client, id: String, command: Command, hold: Hold) -> bool {
    let mut ownerless = false;
    let mut ask = async |request: &Request| {
        let answer = self::ask(&nats, &id, request, hold.clone()).await;
        ownerless |= matches!(&answer, Err(e) if *e == no_owner());
        answer
    };
    match command {
        Command::Seat {
            seat,
            command,
            reply,
        } => {
            let request = Request::Seat {
                seat,
                command: SeatForm::of(&command),
            };
            let _ = reply.send(ask(&request).await.and_then(|r| match r {
                Reply::Answer(answer) => Ok(answer),
                _ => Err(unexpected()),
            }));
        }
        Command::Join {
            holder,
            invite,
            reply,
        } => {
            let request = Request::join(holder, invite);
            let _ = reply.send(ask(&request).await.and_then(|r| match r {
                Reply::Joined { seat, token } => Ok((seat, token)),
                _ => Err(unexpected()),
            }));
        }
        Command::Claimed { account, name } => {
            let _ = ask(&Request::Claimed { account, name }).await;
        }
        Command::View { seat, reply } => {
            let audience = SEATS.iter().position(|s| *s == seat).unwrap_or(2);
            let _ = reply.send(
                ask(&Request::View { audience })
                    .await
                    .and_then(|r| match r {
                        Reply::View(view) => Ok(*view),
                        _ => Err(unexpected()),
                    }),
            );
        }
        Command::Positions { seat, reply } => {
            let audience = SEATS.iter().position(|s| *s == seat).unwrap_or(2);
            let _ = reply.send(
                ask(&Request::Positions { audience })
                    .await
                    .and_then(|r| match r {
                        Reply::Positions(p) => Ok(p),
                        _ => Err(unexpected()),
                    }),
            );
        }
        Command::Record { reply } => {
            let _ = reply.send(ask(&Request::Record).await.and_then(|r| match r {
                Reply::Record(record) => Ok(*record),
                _ => Err(unexpected()),
            }));
        }
    }
    ownerless
}

/// Asks the game's owner; while the game has none (a failover), asks again for a bounded time.
/// Only a request nobody received is asked again: one that timed out may have been done.
async fn ask(nats: &Client, id: &str, request: &Request, hold: Hold) -> Result<Reply, ApiError> {
    ask_within(nats, id, request, FAILOVER_WAIT, Some(hold)).await
}

/// `ask`, for `wait` at most, each try after `hold`.
async fn ask_within(
    nats: &Client,
    id: &str,
    request: &Request,
    wait: Duration,
    mut hold: Option<Hold>,
) -> Result<Reply, ApiError> {
    let body = Bytes::from(serde_json::to_vec(request).expect("requests serialise"));
    let deadline = Instant::now() + wait;
    loop {
        if let Some(hold) = &mut hold {
            hold.wait().await;
        }
        if nats.connection_state() != async_nats::connection::State::Connected {
            return Err(bus_down());
        }
        let asked =
            tokio::time::timeout(ASK_TIMEOUT, nats.request(command_subject(id), body.clone()))
                .await;
        let no_owner = match asked {
            Ok(Ok(message)) => {
                let answered: Answered = serde_json::from_slice(&message.payload)
                    .map_err(|e| ApiError::Internal(format!("unreadable answer: {e}")))?;
                match answered {
                    // Not done by the node that let the game go: asked of the next owner.
                    Err(refusal) if refusal.kind == MOVED => true,
                    answered => return answered.map_err(|r| r.error()),
                }
            }
            Ok(Err(e)) => matches!(e.kind(), async_nats::RequestErrorKind::NoResponders),
            Err(_) => false,
        };
        if !no_owner || Instant::now() >= deadline {
            return Err(match no_owner {
                true => self::no_owner(),
                false => ApiError::unavailable(
                    "the node that plays this game did not answer in time: try again",
                ),
            });
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

fn no_owner() -> ApiError {
    ApiError::unavailable(
        "the game's node is gone and no other node has taken it over yet: try again",
    )
}

fn bus_down() -> ApiError {
    ApiError::unavailable(
        "the cluster's message bus (NATS) is unreachable: this game is played on another node \
         and cannot be reached from this one now; try again shortly",
    )
}

fn unexpected() -> ApiError {
    ApiError::Internal("the game's node answered another request".into())
}
