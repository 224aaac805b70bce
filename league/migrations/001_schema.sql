-- 001: tables, players, games, results, and the standings kept up to date on every push.
CREATE TABLE league_tables (
    id          bigserial PRIMARY KEY,
    key         text NOT NULL UNIQUE,          -- the table's public id (t1, t2, ...)
    name        text NOT NULL,
    token_hash  text NOT NULL UNIQUE,          -- sha256 of the table token (never the token)
    joined_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE join_codes (
    code_hash   text PRIMARY KEY,
    table_name  text NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_by     bigint REFERENCES league_tables(id)
);

CREATE TABLE players (
    id           bigserial PRIMARY KEY,
    name         text NOT NULL,
    key          text NOT NULL,                -- the name trimmed and case folded
    card         text NOT NULL UNIQUE,         -- the code on the player's printed card
    merged_into  bigint REFERENCES players(id),
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX players_by_key ON players (key) WHERE merged_into IS NULL;

CREATE TABLE games (
    id           bigserial PRIMARY KEY,
    table_id     bigint NOT NULL REFERENCES league_tables(id),
    table_key    text COLLATE "C" NOT NULL,
    game_id      text COLLATE "C" NOT NULL,
    seq          integer NOT NULL,
    game         text NOT NULL,
    finished_at  double precision NOT NULL,
    lower_wins   boolean NOT NULL DEFAULT false,
    unit         text NOT NULL DEFAULT '',
    received_at  timestamptz NOT NULL DEFAULT now(),
    rated        boolean NOT NULL DEFAULT false,   -- folded into ratings by league.rater
    UNIQUE (table_id, game_id)
);
CREATE INDEX games_unrated ON games (finished_at, table_key, game_id) WHERE NOT rated;
-- the order ratings are computed in (companion.stats.order_key)
CREATE INDEX games_rating_order ON games (finished_at, table_key, game_id);

CREATE TABLE results (
    game_ref   bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat       smallint NOT NULL,
    player_id  bigint NOT NULL REFERENCES players(id),
    place      smallint NOT NULL,
    score      double precision,
    PRIMARY KEY (game_ref, seat)
);
CREATE INDEX results_by_player ON results (player_id, game_ref);

-- one line per (game or 'all', player): updated in the push's own transaction
CREATE TABLE player_stats (
    game       text NOT NULL,
    player_id  bigint NOT NULL REFERENCES players(id),
    played     integer NOT NULL DEFAULT 0,
    wins       integer NOT NULL DEFAULT 0,
    place_sum  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (game, player_id)
);

-- openskill mu/sigma per (game or 'all', player): kept by league.rater in game order
CREATE TABLE ratings (
    game       text NOT NULL,
    player_id  bigint NOT NULL REFERENCES players(id),
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL,
    rating     double precision GENERATED ALWAYS AS (mu - 3 * sigma) STORED,
    PRIMARY KEY (game, player_id)
);
CREATE INDEX ratings_ranked ON ratings (game, rating DESC);

-- how far the rater got (the order key of the last game it rated); dirty: a result was
-- replaced or two players merged, so every rating is computed again
CREATE TABLE rater (
    id           integer PRIMARY KEY CHECK (id = 1),
    finished_at  double precision,
    table_key    text COLLATE "C",
    game_id      text COLLATE "C",
    dirty        boolean NOT NULL DEFAULT false
);
INSERT INTO rater (id) VALUES (1);
