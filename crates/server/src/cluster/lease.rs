//! Ownership of games with fencing: one lease a game in Postgres (owner node, epoch, expiry),
//! taken in a transaction, renewed about every second, released by a draining node. A take
//! bumps the epoch; the writer refuses an append whose epoch is not the lease's (see
//! `Write::Fence`), so a node that was paused or cut off past its lease appends nothing after
//! another node took the game over. Every time here is the database's clock, never a node's.

use crate::store::{read_error, write_error, StoreError};
use sqlx::PgPool;
use std::time::Duration;

/// A lease held: the game and the epoch its appends are fenced with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub game: String,
    pub epoch: i64,
}

/// One node's view of the leases table.
#[derive(Clone)]
pub struct Leases {
    pool: PgPool,
    node: String,
    ttl: Duration,
}

/// Takes a lease that is free, expired or already this node's: a new epoch either way.
const TAKE: &str = "INSERT INTO leases (game, node, epoch, expires_at)
     VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
     ON CONFLICT (game) DO UPDATE
       SET node = EXCLUDED.node, epoch = leases.epoch + 1, expires_at = EXCLUDED.expires_at
       WHERE leases.expires_at < now() OR leases.node = EXCLUDED.node
     RETURNING epoch";

/// Extends the leases still held at their epochs; answers those.
const RENEW: &str = "UPDATE leases l SET expires_at = now() + $3 * interval '1 millisecond'
     FROM UNNEST($1::text[], $2::bigint[]) AS o(game, epoch)
     WHERE l.game = o.game AND l.epoch = o.epoch AND l.node = $4
     RETURNING l.game";

/// Lets leases go at once (`$4`: as of now, or long ago for a game no longer wanted in
/// memory); the epoch stays, so the next take bumps it.
const RELEASE: &str = "UPDATE leases l
     SET expires_at = CASE WHEN $4 THEN now() - interval '1 millisecond' ELSE 'epoch' END
     FROM UNNEST($1::text[], $2::bigint[]) AS o(game, epoch)
     WHERE l.game = o.game AND l.epoch = o.epoch AND l.node = $3";

/// Games no node holds that a node should: the unfinished (never leased, expired or released),
/// and those that ended lately on a node that died or drained since (their players ask for
/// the end, the record, a rematch).
const ORPHANS: &str = "SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id
     WHERE (g.status IN ('open', 'live') AND (l.game IS NULL OR l.expires_at < now()))
        OR (l.expires_at < now() AND l.expires_at > now() - interval '60 seconds')
     ORDER BY g.created_ms, g.id LIMIT $1";

impl Leases {
    /// The leases of `node`, each lasting `ttl` past its last renewal.
    pub fn new(pool: PgPool, node: &str, ttl: Duration) -> Leases {
        Leases {
            pool,
            node: node.to_string(),
            ttl,
        }
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    fn ttl_ms(&self) -> i64 {
        self.ttl.as_millis() as i64
    }

    /// Takes `game`'s lease unless another node holds it; answers the new epoch.
    pub async fn take(&self, game: &str) -> Result<Option<Held>, StoreError> {
        let epoch: Option<i64> = sqlx::query_scalar(TAKE)
            .bind(game)
            .bind(&self.node)
            .bind(self.ttl_ms())
            .fetch_optional(&self.pool)
            .await
            .map_err(write_error)?;
        Ok(epoch.map(|epoch| Held {
            game: game.to_string(),
            epoch,
        }))
    }

    /// Renews `held`; answers the games whose lease this node still holds.
    pub async fn renew(&self, held: &[Held]) -> Result<Vec<String>, StoreError> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        sqlx::query_scalar(RENEW)
            .bind(held.iter().map(|h| h.game.as_str()).collect::<Vec<_>>())
            .bind(held.iter().map(|h| h.epoch).collect::<Vec<_>>())
            .bind(self.ttl_ms())
            .bind(&self.node)
            .fetch_all(&self.pool)
            .await
            .map_err(write_error)
    }

    /// Releases `held` at once: any node may take them now, and the sweeps do.
    pub async fn release(&self, held: &[Held]) -> Result<(), StoreError> {
        self.let_go(held, true).await
    }

    /// Releases `held`, games no longer wanted in memory (finished and idle): taken again only
    /// when asked for.
    pub async fn retire(&self, held: &[Held]) -> Result<(), StoreError> {
        self.let_go(held, false).await
    }

    async fn let_go(&self, held: &[Held], now: bool) -> Result<(), StoreError> {
        if held.is_empty() {
            return Ok(());
        }
        sqlx::query(RELEASE)
            .bind(held.iter().map(|h| h.game.as_str()).collect::<Vec<_>>())
            .bind(held.iter().map(|h| h.epoch).collect::<Vec<_>>())
            .bind(&self.node)
            .bind(now)
            .execute(&self.pool)
            .await
            .map_err(write_error)?;
        Ok(())
    }

    /// The node holding `game`'s lease now, if one does (an expired lease holds nothing).
    pub async fn owner(&self, game: &str) -> Result<Option<String>, StoreError> {
        let owner: Option<String> =
            sqlx::query_scalar("SELECT node FROM leases WHERE game = $1 AND expires_at >= now()")
                .bind(game)
                .fetch_optional(&self.pool)
                .await
                .map_err(read_error)?;
        Ok(owner)
    }

    /// Up to `limit` unfinished games no node holds, oldest first.
    pub async fn orphans(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar(ORPHANS)
            .bind(limit)
            .fetch_all(&self.pool)
            .await
            .map_err(read_error)
    }
}
