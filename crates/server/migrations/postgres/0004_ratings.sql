-- Rated play: a game may be rated; each account has a Glicko-2 rating per variant, and every
-- rated game's change to each player's rating is kept (its history, and the proof that a game
-- was rated once: the key is the game and the account).
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
-- How a finished game ended, for players' pages: 1-0, 0-1, 1/2-1/2 (none when aborted).
ALTER TABLE games ADD COLUMN result TEXT;

CREATE TABLE IF NOT EXISTS ratings (
    account BIGINT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    -- When its last rated game ended.
    last_ms BIGINT NOT NULL,
    PRIMARY KEY (account, variant)
);

CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, rating);

CREATE TABLE IF NOT EXISTS rating_changes (
    game TEXT NOT NULL,
    account BIGINT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    before DOUBLE PRECISION NOT NULL,
    after DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    -- The player's rated games of the variant with this one: the order the changes were
    -- applied in, which a recomputation follows (two games may end in the same millisecond).
    number BIGINT NOT NULL,
    PRIMARY KEY (game, account)
);

CREATE INDEX IF NOT EXISTS rating_changes_account ON rating_changes (account, variant, number);
