-- A cluster's ownership of games: one lease a game, held by one node at a time. Each take bumps
-- the epoch (a row is never deleted, so an epoch never comes back), and every append to a
-- game's log checks the appender's epoch in its own transaction (store/writer.rs), so a node that
-- lost its lease can never append after another took the game over. Times are the database's.
CREATE TABLE IF NOT EXISTS leases (
    game TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX IF NOT EXISTS leases_expiry ON leases (expires_at);
CREATE INDEX IF NOT EXISTS leases_node ON leases (node);
