-- Accounts, their sessions and API tokens; a game's seats tied to the account (or the guest
-- session) that holds them. Secrets are stored hashed: passwords with Argon2id (a PHC string),
-- session ids and tokens with SHA-256 (hex).
CREATE TABLE IF NOT EXISTS accounts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username TEXT NOT NULL,
    -- The name folded to lower case: names are unique without regard to case.
    folded TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    bot BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,
    -- NULL for a guest's session.
    account BIGINT REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    agent TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account);

CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    account BIGINT NOT NULL REFERENCES accounts (id),
    scopes TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    used_ms BIGINT
);

CREATE INDEX IF NOT EXISTS tokens_account ON tokens (account);

ALTER TABLE games ADD COLUMN white_account BIGINT;
ALTER TABLE games ADD COLUMN black_account BIGINT;
ALTER TABLE games ADD COLUMN white_guest TEXT;
ALTER TABLE games ADD COLUMN black_guest TEXT;

CREATE INDEX IF NOT EXISTS games_white_account ON games (white_account);
CREATE INDEX IF NOT EXISTS games_black_account ON games (black_account);
CREATE INDEX IF NOT EXISTS games_white_guest ON games (white_guest);
CREATE INDEX IF NOT EXISTS games_black_guest ON games (black_guest);
