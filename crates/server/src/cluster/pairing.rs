//! A cluster's seeks and challenges, shared by every node through Postgres: each change loads
//! the waiting ones of its kind under an advisory lock, changes them as a single server changes
//! its own (the same code, on the same types), and stores the difference in one transaction.

use crate::store::StoreError;
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

fn read(e: sqlx::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

fn write(e: sqlx::Error) -> StoreError {
    StoreError::Write(e.to_string())
}

fn unreadable(e: serde_json::Error) -> StoreError {
    StoreError::Unreadable(format!("a stored seek or challenge is unreadable: {e}"))
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
    let mut tx = pool.begin().await.map_err(write)?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(kind.lock())
        .execute(&mut *tx)
        .await
        .map_err(write)?;
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT id, body FROM pairing WHERE kind = $1 ORDER BY id")
            .bind(kind.name())
            .fetch_all(&mut *tx)
            .await
            .map_err(read)?;
    let mut items: Vec<(i64, T)> = Vec::with_capacity(rows.len());
    let mut before: HashMap<String, String> = HashMap::new();
    for (id, body) in rows {
        let stored: Stored<T> = serde_json::from_str(&body).map_err(unreadable)?;
        items.push((stored.order, stored.item));
        before.insert(id, body);
    }
    // In the order they were made: the pool's oldest-first rules hold across nodes.
    items.sort_by_key(|(order, _)| *order);
    let next = items.last().map_or(0, |(order, _)| order + 1);
    let orders: HashMap<String, i64> = items
        .iter()
        .map(|(order, item)| (id_of(item).to_string(), *order))
        .collect();
    let (after, answer) = change(items.into_iter().map(|(_, item)| item).collect());
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
            .map_err(write)?;
        }
    }
    let gone: Vec<String> = before.into_keys().collect();
    if !gone.is_empty() {
        sqlx::query("DELETE FROM pairing WHERE kind = $1 AND id = ANY($2)")
            .bind(kind.name())
            .bind(&gone)
            .execute(&mut *tx)
            .await
            .map_err(write)?;
    }
    tx.commit().await.map_err(write)?;
    Ok(answer)
}

/// An item as stored, with its place in the order they were made.
#[derive(Serialize, serde::Deserialize)]
struct Stored<T> {
    order: i64,
    item: T,
}
