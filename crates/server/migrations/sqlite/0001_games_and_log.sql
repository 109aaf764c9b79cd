-- Games and their append-only logs. `IF NOT EXISTS`: databases made before migrations existed
-- already hold these tables and adopt this version as they are.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    salt_seed INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    status TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    created_ms INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS games_status ON games (status);

CREATE TABLE IF NOT EXISTS log (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT,
    input TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
