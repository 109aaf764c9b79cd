-- Private games: never listed in the lobby; an open seat is taken only with the invitation
-- (its SHA-256, hex, in `invite`).
ALTER TABLE games ADD COLUMN private BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN invite TEXT;
