-- A cluster's seeks and challenges, so that every node pairs with every other node's players: one
-- row each, its JSON as the server keeps it in memory without a cluster. Changed only under a
-- transaction-scoped advisory lock of its kind (cluster/pairing.rs): one pairing at a time.
CREATE TABLE IF NOT EXISTS pairing (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
