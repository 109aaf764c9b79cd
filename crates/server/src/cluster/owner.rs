//! A game's owner on the cluster: it answers the requests other nodes forward to the game
//! (NATS request-reply on the game's command subject) and publishes each audience's news, split
//! here and only here, on that audience's subject; and who holds the seats when it changes.

use super::bus::{
    command_subject, feed_subject, moving_subject, seats_subject, Answered, FeedPart, Refusal,
    Reply, Request, Seats, PART_BYTES,
};
use crate::error::ApiError;
use crate::room::{index, Command, Holder, Shared};
use async_nats::Client;
use async_nats::Subscriber;
use bytes::Bytes;
use futures_util::StreamExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How long a game handed over still answers "moved" before it unsubscribes: longer than a
/// request takes to reach it from a relay that had not yet heard it was moving.
const HANDOVER: Duration = Duration::from_millis(250);

/// Serves `shared`'s game to the cluster until `stop` is set or the room stops; hands it over
/// when it stops while `handing_over` (its node drains).
pub async fn serve(
    nats: Client,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
    handing_over: Arc<AtomicBool>,
) {
    let id = shared.id.clone();
    let mut requests = match nats.subscribe(command_subject(&id)).await {
        Ok(requests) => requests,
        Err(e) => {
            tracing::error!(game = %id, "cannot take the game's requests from the cluster: {e}");
            return;
        }
    };
    let [mut white, mut black, mut spectator] = shared.feeds.each_ref().map(|f| f.subscribe());
    // What each audience was last sent: a relay that missed the last messages (of this owner's
    // predecessor) catches up at the first news, which repeats the last message.
    let mut sent = shared.feeds.each_ref().map(|f| f.len().saturating_sub(1));
    let mut seats = seats_of(&shared);
    let mut clocks = [i64::MIN; 3];
    publish_all(&nats, &shared, &mut sent, &mut clocks).await;
    loop {
        let woken = tokio::select! {
            request = requests.next() => {
                let Some(request) = request else { break };
                let answered = answer(&shared, &request.payload).await;
                if let Some(reply) = request.reply {
                    let body = serde_json::to_vec(&answered).expect("answers serialise");
                    if let Err(e) = nats.publish(reply, Bytes::from(body)).await {
                        tracing::warn!(game = %id, "an answer to another node was lost: {e}");
                    }
                }
                false
            }
            r = white.changed() => r.is_ok(),
            r = black.changed() => r.is_ok(),
            r = spectator.changed() => r.is_ok(),
            () = stopped(&mut stop) => break,
        };
        if woken {
            publish_all(&nats, &shared, &mut sent, &mut clocks).await;
        }
        let now = seats_of(&shared);
        if now != seats {
            seats = now;
            let body = serde_json::to_vec(&seats).expect("seats serialise");
            let _ = nats.publish(seats_subject(&id), Bytes::from(body)).await;
        }
        if shared.tx.is_closed() {
            break;
        }
    }
    if handing_over.load(Ordering::Relaxed) {
        hand_over(&nats, &id, &mut requests).await;
    }
    let _ = requests.drain().await;
    // Drained, not unsubscribed: the requests NATS sent before it read the drain still come
    // (bounded, should the bus be down).
    let _ = tokio::time::timeout(Duration::from_secs(1), answer_moved(&nats, &mut requests)).await;
    let _ = nats.flush().await;
}

/// This node lets the game go: relays are told to hold their requests, and those already on
/// their way are told "moved" (not done: asked again of the next owner). The NATS client forgets
/// a drained subscription before its server has confirmed it, so a request that reached this
/// node just then would be lost (its sender waiting for a timeout): nothing may be on its way
/// when the subscription goes.
async fn hand_over(nats: &Client, id: &str, requests: &mut Subscriber) {
    let _ = nats.publish(moving_subject(id), Bytes::new()).await;
    let _ = nats.flush().await;
    let _ = tokio::time::timeout(HANDOVER, answer_moved(nats, requests)).await;
}

/// Answers every request "moved" until the subscription ends.
async fn answer_moved(nats: &Client, requests: &mut Subscriber) {
    while let Some(request) = requests.next().await {
        if let Some(reply) = request.reply {
            let moved: Answered = Err(Refusal::moved());
            let body = serde_json::to_vec(&moved).expect("answers serialise");
            let _ = nats.publish(reply, Bytes::from(body)).await;
        }
    }
}

/// Until `stop` is set or its sender gone (the lease lost).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Publishes each audience's news: its messages after `sent`, else its clocks alone when they
/// were read again since `clocks` (an entry that changed nothing this audience sees).
async fn publish_all(nats: &Client, shared: &Shared, sent: &mut [usize; 3], clocks: &mut [i64; 3]) {
    for audience in 0..3 {
        let feed = &shared.feeds[audience];
        let at = feed.clock_at();
        if feed.len() > sent[audience] || at != clocks[audience] {
            clocks[audience] = at;
            publish(nats, shared, audience, &mut sent[audience]).await;
        }
    }
}

/// Publishes one audience's news since message `sent`.
async fn publish(nats: &Client, shared: &Shared, audience: usize, sent: &mut usize) {
    let feed = &shared.feeds[audience];
    for news in feed.news_after(*sent) {
        *sent = news.seq;
        let body = serde_json::to_vec(&news).expect("news serialise");
        let subject = feed_subject(&shared.id, audience);
        if let Err(e) = nats.publish(subject, Bytes::from(body)).await {
            // A relay finds the gap at the next news and copies the feed again.
            tracing::warn!(game = %shared.id, "news not published: {e}");
        }
    }
}

/// Who holds the seats now.
pub fn seats_of(shared: &Shared) -> Seats {
    let tokens = *shared.tokens.read().expect("token lock");
    Seats {
        tokens: tokens.map(|t| t.map(hex::encode)),
        accounts: *shared.accounts.read().expect("seat lock"),
        guests: shared.guests.read().expect("seat lock").clone(),
        public: shared.public.lock().expect("public lock").clone(),
        private: shared.private,
    }
}

/// Runs a forwarded request on the room, as a request on this node would.
async fn answer(shared: &Shared, payload: &[u8]) -> Answered {
    let request: Request = serde_json::from_slice(payload)
        .map_err(|e| Refusal::of(&ApiError::Internal(format!("unreadable forward: {e}"))))?;
    run(shared, request).await.map_err(|e| Refusal::of(&e))
}

async fn run(shared: &Shared, request: Request) -> Result<Reply, ApiError> {
    let seat_of = |audience: usize| crate::room::SEATS.get(audience).copied();
    let no_audience = || ApiError::bad("no such audience");
    Ok(match request {
        Request::Seat { seat, command } => {
            shared.presence[index(seat)].seen();
            Reply::Answer(shared.command(seat, command.command()?).await?)
        }
        Request::Join {
            key,
            account,
            guest,
            invite,
        } => {
            let holder = Holder {
                key,
                account,
                guest,
            };
            let (seat, token) = shared
                .ask(|reply| Command::Join {
                    holder,
                    invite,
                    reply,
                })
                .await??;
            Reply::Joined { seat, token }
        }
        Request::Claimed { account, name } => {
            let _ = shared.tx.send(Command::Claimed { account, name }).await;
            Reply::Done
        }
        Request::View { audience } => {
            let seat = seat_of(audience).ok_or_else(no_audience)?;
            Reply::View(Box::new(
                shared.ask(|reply| Command::View { seat, reply }).await??,
            ))
        }
        Request::Positions { audience } => {
            let seat = seat_of(audience).ok_or_else(no_audience)?;
            Reply::Positions(
                shared
                    .ask(|reply| Command::Positions { seat, reply })
                    .await??,
            )
        }
        Request::Record => Reply::Record(Box::new(
            shared.ask(|reply| Command::Record { reply }).await??,
        )),
        Request::Seats => Reply::Seats(Box::new(seats_of(shared))),
        Request::Feed { audience, from } => {
            let feed = shared.feeds.get(audience).ok_or_else(no_audience)?;
            let (copy, total) = feed.copy_from(from, PART_BYTES);
            Reply::Feed(Box::new(FeedPart { copy, from, total }))
        }
        Request::Presence { seat, delta } => {
            let presence = &shared.presence[index(seat)];
            if delta >= 0 {
                presence
                    .connections
                    .fetch_add(delta as usize, Ordering::Relaxed);
            } else {
                let _ =
                    presence
                        .connections
                        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                            Some(c.saturating_sub(delta.unsigned_abs() as usize))
                        });
            }
            presence.seen();
            Reply::Done
        }
    })
}
