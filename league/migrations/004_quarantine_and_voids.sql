-- 004: a game the rater cannot rate is quarantined (kept, counted nowhere) with a reason;
-- the admin voids and restores games (who, when and why kept in game_changes); a push
-- carries the table's clock, so a table whose clock is off is corrected and flagged;
-- players the admin adds before their first game.
ALTER TABLE games ADD COLUMN quarantine text;             -- why the rater left it out
ALTER TABLE games ADD COLUMN voided_at timestamptz;       -- the admin left it out
ALTER TABLE games ADD COLUMN clock_offset double precision NOT NULL DEFAULT 0;
                                                          -- seconds added to the table's times

CREATE TABLE game_changes (
    id        bigserial PRIMARY KEY,
    game_ref  bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    action    text NOT NULL CHECK (action IN ('void', 'restore', 'seat')),
    by_whom   text NOT NULL,
    why       text NOT NULL,
    at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_changes_by_game ON game_changes (game_ref, at);

-- where a re-rate starts (the order key of the earliest game it touches); NULL: from
-- the first game
ALTER TABLE rerate_requests ADD COLUMN from_at double precision;
ALTER TABLE rerate_requests ADD COLUMN from_table text COLLATE "C";
ALTER TABLE rerate_requests ADD COLUMN from_game text COLLATE "C";

ALTER TABLE players ADD COLUMN added_by_admin boolean NOT NULL DEFAULT false;
