-- 002: a table may share the game it is playing (the host allows it): such a row is not
-- final; it counts in no standing, rating or history until its final result replaces it.
ALTER TABLE games ADD COLUMN final boolean NOT NULL DEFAULT true;
CREATE INDEX games_live ON games (received_at DESC) WHERE NOT final;
