-- Games and their append-only logs. Seeds are u64 stored as their i64 bit pattern (BIGINT),
-- like SQLite's INTEGER.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    salt_seed BIGINT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    status TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    created_ms BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS games_status ON games (status);

CREATE TABLE IF NOT EXISTS log (
    game TEXT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT,
    input TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game, seq)
);
