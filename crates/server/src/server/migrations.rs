//! The store's schema for both of its databases, in one place: SQLite's migrations step
//! by step since the first Zebra that had a store, and PostgreSQL's (which came at schema
//! 8: its first step is that whole schema). A new step is added to both lists with the same
//! meaning; `tests/store.rs` checks that the two name the same tables and columns.

/// SQLite's schema, one migration per step; `PRAGMA user_version` = steps applied.
pub(crate) const SQLITE: &[&str] = &[
    r#"
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    -- JSON: program, args, dir, env, options, time odds, limits (as a series' bots).
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected', 'suspended')),
    created_ms INTEGER NOT NULL
);
CREATE TABLE series (
    id INTEGER PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    -- JSON: the options of the series as submitted.
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'cancelled', 'finished')),
    created_ms INTEGER NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    series_id INTEGER NOT NULL REFERENCES series(id),
    number INTEGER NOT NULL,
    -- The u64 seed's bits.
    seed INTEGER NOT NULL,
    white INTEGER NOT NULL REFERENCES bots(id),
    black INTEGER NOT NULL REFERENCES bots(id),
    state TEXT NOT NULL
        CHECK (state IN ('queued', 'leased', 'finished', 'void', 'cancelled')),
    -- Leases taken, and of them voided (the infrastructure's fault, not a result).
    attempts INTEGER NOT NULL DEFAULT 0,
    voided INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until_ms INTEGER,
    result TEXT,
    termination TEXT,
    -- The record file's SHA-256 (hex).
    record TEXT,
    finished_ms INTEGER,
    UNIQUE (series_id, number)
);
CREATE INDEX games_by_state ON games (state, id);
"#,
    // Owners (a token's owner: who may see a bot's logs or cancel a series), a bot's check
    // report, a series' outcome, each game's conduct, and the API's tokens (SHA-256 only).
    r#"
ALTER TABLE bots ADD COLUMN owner TEXT NOT NULL DEFAULT 'admin';
-- JSON: what the check found (check-bot's lines and the smoke game's result).
ALTER TABLE bots ADD COLUMN report TEXT;
ALTER TABLE series ADD COLUMN owner TEXT NOT NULL DEFAULT 'admin';
-- completed, h1-accepted, h0-accepted, inconclusive or cancelled; NULL while running.
ALTER TABLE series ADD COLUMN outcome TEXT;
-- JSON: [White's, Black's] timeouts, suspect timeouts, illegal replies, verdict.
ALTER TABLE games ADD COLUMN conduct TEXT;
CREATE INDEX games_by_series ON games (series_id, state);
CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin')),
    owner TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
"#,
    // Versions: a bot uploaded (or added) again under its name by its owner is a new bot
    // of the same family, numbered; every version keeps its own id, games and rating.
    r#"
ALTER TABLE bots ADD COLUMN family TEXT;
ALTER TABLE bots ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
UPDATE bots SET family = name;
CREATE UNIQUE INDEX bots_by_version ON bots (family, version);
"#,
    // Games: a series plays one game (football-chess, boyer-football), and a bot is
    // entered in one or more, each with its own check. A bot plays a game only once it
    // passed that game's check (or an admin activated it). Every series and bot before
    // this migration was Football Chess's: a series keeps the game, a bot its check.
    r#"
ALTER TABLE series ADD COLUMN game TEXT NOT NULL DEFAULT 'football-chess';
CREATE TABLE bot_games (
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    game TEXT NOT NULL,
    -- pending (not checked yet), active (passed, or admitted by an admin), rejected.
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected')),
    -- JSON: what this game's check found, once checked.
    report TEXT,
    PRIMARY KEY (bot_id, game)
);
INSERT INTO bot_games (bot_id, game, state, report)
SELECT id, 'football-chess',
    CASE
        WHEN state IN ('pending', 'active', 'rejected') THEN state
        -- Suspended: as its check left it (an admin's suspension of an unchecked bot:
        -- pending, checked when it is made active again).
        WHEN report IS NOT NULL AND json_extract(report, '$.verdict') IN ('active', 'rejected')
            THEN json_extract(report, '$.verdict')
        WHEN report IS NOT NULL THEN 'active'
        ELSE 'pending'
    END,
    report
FROM bots;
CREATE INDEX series_by_game ON series (game, state);
"#,
    // Remote workers (`zebra worker`): a token scope of their own (SQLite cannot change a
    // CHECK, so the table is made again), the archive an uploaded bot came in (its
    // SHA-256: what a worker downloads), who played each finished game, and each worker's
    // figures. A worker is named `OWNER/NAME` (its token's owner, its own --name).
    r#"
CREATE TABLE tokens_v5 (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin', 'worker')),
    owner TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
INSERT INTO tokens_v5 (id, hash, scope, owner, created_ms)
    SELECT id, hash, scope, owner, created_ms FROM tokens;
DROP TABLE tokens;
ALTER TABLE tokens_v5 RENAME TO tokens;
ALTER TABLE bots ADD COLUMN archive TEXT;
-- The lease that finished the game (`daemon-…` for the daemon's own workers,
-- `worker:OWNER/NAME#INSTANCE` for a remote one).
ALTER TABLE games ADD COLUMN played_by TEXT;
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    cpu TEXT NOT NULL,
    sandbox TEXT NOT NULL,
    zebra TEXT NOT NULL,
    first_ms INTEGER NOT NULL,
    seen_ms INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    timeouts INTEGER NOT NULL DEFAULT 0,
    forfeits INTEGER NOT NULL DEFAULT 0,
    excluded INTEGER NOT NULL DEFAULT 0
);
"#,
    // Entrants (super::entrants): invite codes (their SHA-256 only, as tokens), each good
    // for a number of sign-ups until it expires; the token a sign-up made names its
    // invite; an uploaded bot's archive size (the quotas count it) and its deletion by its
    // owner (the row stays, suspended: its finished games are its opponents' results too).
    r#"
CREATE TABLE invites (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    uses_left INTEGER NOT NULL,
    expires_ms INTEGER,
    note TEXT NOT NULL DEFAULT '',
    created_ms INTEGER NOT NULL
);
ALTER TABLE tokens ADD COLUMN invite INTEGER REFERENCES invites(id);
ALTER TABLE bots ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bots ADD COLUMN deleted_ms INTEGER;
CREATE INDEX bots_by_owner ON bots (owner, family);
CREATE INDEX series_by_owner ON series (owner, state);
"#,
    // Pages at a competition's size: a bot's games, newest first (its page, its records
    // in bulk, the series it plays in).
    r#"
CREATE INDEX games_by_white ON games (white, id);
CREATE INDEX games_by_black ON games (black, id);
"#,
    // Several daemons (PostgreSQL): each finished game numbered in the order the store
    // counted it (`fin_seq`), so a daemon's cached books fold exactly the games counted
    // since they last looked, and a counter bumped whenever games are taken back (a
    // worker's exclusion), after which cached books are folded afresh.
    r#"
ALTER TABLE games ADD COLUMN fin_seq INTEGER;
UPDATE games SET fin_seq = id WHERE state = 'finished';
CREATE UNIQUE INDEX games_by_fin_seq ON games (fin_seq);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counters (name, value) VALUES ('refolds', 0);
"#,
    // Live feeds shared by daemons: each running game's record so far, as the daemon
    // playing it last wrote it, for the live pages other daemons serve.
    r#"
CREATE TABLE live_games (
    game_id INTEGER PRIMARY KEY,
    series_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    record TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX live_games_by_series ON live_games (series_id, updated_ms);
"#,
    // Records kept in the database: each finished game's record text, named by its SHA-256
    // (`games.record`), written in the same transaction as the game's result. Before, each
    // was a file (`records/ab/<sha256>.pgn`): those stay where they are and still read.
    r#"
CREATE TABLE records (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
"#,
];

/// PostgreSQL's schema: `(version, statements)`, each step bringing the schema to its
/// version (`zebra_schema.version`). The first brings a new database to SQLite's schema of
/// the same version at once; every later step has its SQLite twin above.
pub(crate) const POSTGRES: &[(usize, &str)] = &[
    (
        8,
        r#"
CREATE TABLE bots (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected', 'suspended')),
    created_ms BIGINT NOT NULL,
    owner TEXT NOT NULL DEFAULT 'admin',
    report TEXT,
    family TEXT,
    version BIGINT NOT NULL DEFAULT 1,
    archive TEXT,
    bytes BIGINT NOT NULL DEFAULT 0,
    deleted_ms BIGINT
);
CREATE UNIQUE INDEX bots_by_version ON bots (family, version);
CREATE INDEX bots_by_owner ON bots (owner, family);
CREATE TABLE series (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'cancelled', 'finished')),
    created_ms BIGINT NOT NULL,
    owner TEXT NOT NULL DEFAULT 'admin',
    outcome TEXT,
    game TEXT NOT NULL DEFAULT 'football-chess'
);
CREATE INDEX series_by_game ON series (game, state);
CREATE INDEX series_by_owner ON series (owner, state);
CREATE TABLE games (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    series_id BIGINT NOT NULL REFERENCES series(id),
    number BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    white BIGINT NOT NULL REFERENCES bots(id),
    black BIGINT NOT NULL REFERENCES bots(id),
    state TEXT NOT NULL
        CHECK (state IN ('queued', 'leased', 'finished', 'void', 'cancelled')),
    attempts BIGINT NOT NULL DEFAULT 0,
    voided BIGINT NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until_ms BIGINT,
    result TEXT,
    termination TEXT,
    record TEXT,
    finished_ms BIGINT,
    conduct TEXT,
    played_by TEXT,
    fin_seq BIGINT,
    UNIQUE (series_id, number)
);
CREATE INDEX games_by_state ON games (state, id);
CREATE INDEX games_by_series ON games (series_id, state);
CREATE INDEX games_by_white ON games (white, id);
CREATE INDEX games_by_black ON games (black, id);
CREATE UNIQUE INDEX games_by_fin_seq ON games (fin_seq);
CREATE TABLE bot_games (
    bot_id BIGINT NOT NULL REFERENCES bots(id),
    game TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected')),
    report TEXT,
    PRIMARY KEY (bot_id, game)
);
CREATE TABLE invites (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    uses_left BIGINT NOT NULL,
    expires_ms BIGINT,
    note TEXT NOT NULL DEFAULT '',
    created_ms BIGINT NOT NULL
);
CREATE TABLE tokens (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin', 'worker')),
    owner TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    invite BIGINT REFERENCES invites(id)
);
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    cpu TEXT NOT NULL,
    sandbox TEXT NOT NULL,
    zebra TEXT NOT NULL,
    first_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    games BIGINT NOT NULL DEFAULT 0,
    timeouts BIGINT NOT NULL DEFAULT 0,
    forfeits BIGINT NOT NULL DEFAULT 0,
    excluded BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO counters (name, value) VALUES ('refolds', 0);
"#,
    ),
    (
        9,
        r#"
CREATE TABLE live_games (
    game_id BIGINT PRIMARY KEY,
    series_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    attempt BIGINT NOT NULL,
    record TEXT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX live_games_by_series ON live_games (series_id, updated_ms);
"#,
    ),
    (
        10,
        r#"
CREATE TABLE records (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
"#,
    ),
];
