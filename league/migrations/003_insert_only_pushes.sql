-- 003: a push only inserts its game and results; the rater alone folds them into the
-- standings (player_stats), the ratings and the rating history, so pushes never wait on
-- one another's (or the rater's) row locks on those shared lines.
ALTER TABLE games ADD COLUMN counted boolean NOT NULL DEFAULT false;
UPDATE games SET counted = true WHERE final;   -- the stats lines already hold them
CREATE INDEX games_uncounted ON games (id) WHERE final AND NOT counted;

-- a replaced final result or a merge asks for every line to be computed again: a row
-- inserted here (insert only: no push waits on the rater's lock of the rater row)
CREATE TABLE rerate_requests (
    id  bigserial PRIMARY KEY,
    at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO rerate_requests (at) SELECT now() FROM rater WHERE dirty;

-- each player's rating after each game they played (the rating-over-time chart), with
-- when the game ended, so a player's chart is one index scan, newest first
CREATE TABLE rating_history (
    player_id    bigint NOT NULL REFERENCES players(id),
    scope        text NOT NULL,             -- the game, or 'all'
    game_ref     bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    finished_at  double precision NOT NULL,
    mu           double precision NOT NULL,
    sigma        double precision NOT NULL,
    PRIMARY KEY (player_id, scope, game_ref)
);
CREATE INDEX rating_history_by_time ON rating_history (player_id, scope, finished_at DESC,
                                                       game_ref DESC);
CREATE INDEX rating_history_by_game ON rating_history (game_ref);

-- a table the admin revoked: its token stops working, its games stay
ALTER TABLE league_tables ADD COLUMN revoked_at timestamptz;
