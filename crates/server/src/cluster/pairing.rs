//! A cluster's seeks and challenges, shared by every node through Postgres: each change loads
//! the waiting ones of its kind under an advisory lock, changes them as a single server changes
//! its own (the same code, on the same types), and stores the difference in one transaction.

use crate::store::{read_error, write_error, StoreError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use sqlx::PgPool;
use std::collections::HashMap;

/// What the pairing table holds: seeks or challenges.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Seek,
    Challenge,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Seek => "seek",
            Kind::Challenge => "challenge",
        }
    }

    /// The advisory lock of this kind (any two distinct numbers the project owns).
    fn lock(self) -> i64 {
        match self {
            Kind::Seek => 0x6266_7365_656b,
            Kind::Challenge => 0x6266_6368_616c,
        }
    }
}

/// The waiting items of `kind`, in the order they were made, each with its place in that order
/// and its stored text.
async fn load<'c, T: DeserializeOwned>(
    executor: impl sqlx::PgExecutor<'c>,
    kind: Kind,
) -> Result<Vec<(Stored<T>, String)>, StoreError> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT id, body FROM pairing WHERE kind = $1")
            .bind(kind.name())
            .fetch_all(executor)
            .await
            .map_err(read_error)?;
    let mut items = Vec::with_capacity(rows.len());
    for (id, body) in rows {
        // What the row holds (holders' keys) stays out of the message.
        let stored: Stored<T> = serde_json::from_str(&body).map_err(|_| {
            StoreError::Unreadable(format!("the stored {} {id} is unreadable", kind.name()))
        })?;
        items.push((stored, body));
    }
    // In the order they were made: the pool's oldest-first rules hold across nodes.
    items.sort_by_key(|(stored, _)| stored.order);
    Ok(items)
}

/// Every waiting item of `kind`, oldest first, as they stand (no lock: the lobby reads them
/// every few seconds).
pub async fn read<T: DeserializeOwned>(pool: &PgPool, kind: Kind) -> Result<Vec<T>, StoreError> {
    let items = load(pool, kind).await?;
    Ok(items.into_iter().map(|(stored, _)| stored.item).collect())
}

/// Runs `change` on every waiting item of `kind`, one node at a time, and stores what it left.
pub async fn change<T, R>(
    pool: &PgPool,
    kind: Kind,
    id_of: fn(&T) -> &str,
    change: impl FnOnce(Vec<T>) -> (Vec<T>, R),
) -> Result<R, StoreError>
where
    T: Serialize + DeserializeOwned,
{
    let mut tx = pool.begin().await.map_err(write_error)?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(kind.lock())
        .execute(&mut *tx)
        .await
        .map_err(write_error)?;
    let items = load::<T>(&mut *tx, kind).await?;
    let next = items.last().map_or(0, |(stored, _)| stored.order + 1);
    let mut orders = HashMap::new();
    let mut before = HashMap::new();
    let mut all = Vec::with_capacity(items.len());
    for (stored, body) in items {
        let id = id_of(&stored.item).to_string();
        orders.insert(id.clone(), stored.order);
        before.insert(id, body);
        all.push(stored.item);
    }
    let (after, answer) = change(all);
    for (i, item) in after.into_iter().enumerate() {
        let id = id_of(&item).to_string();
        let order = orders.get(&id).copied().unwrap_or(next + i as i64);
        let body = serde_json::to_string(&Stored { order, item }).expect("pairing serialises");
        if before.remove(&id).as_ref() != Some(&body) {
            sqlx::query(
                "INSERT INTO pairing (kind, id, body) VALUES ($1, $2, $3)
                 ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body",
            )
            .bind(kind.name())
            .bind(&id)
            .bind(&body)
            .execute(&mut *tx)
            .await
            .map_err(write_error)?;
        }
    }
    let gone: Vec<String> = before.into_keys().collect();
    if !gone.is_empty() {
        sqlx::query("DELETE FROM pairing WHERE kind = $1 AND id = ANY($2)")
            .bind(kind.name())
            .bind(&gone)
            .execute(&mut *tx)
            .await
            .map_err(write_error)?;
    }
    tx.commit().await.map_err(write_error)?;
    Ok(answer)
}

/// An item as stored, with its place in the order they were made.
#[derive(Serialize, serde::Deserialize)]
struct Stored<T> {
    order: i64,
    item: T,
}
