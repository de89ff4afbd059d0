"""The project database schema, as an ordered list of migrations.

``PRAGMA user_version`` records how many migrations a database has had.
Opening a project applies the missing ones in one transaction each; a database
from a newer Labeler (higher version than we know) is refused rather than
half-understood. Never edit a released migration: append a new one.
"""

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    -- Private provenance: never exported publicly.
    CREATE TABLE sources (
        id         INTEGER PRIMARY KEY,
        path       TEXT NOT NULL,
        sha256     TEXT NOT NULL UNIQUE,
        kind       TEXT NOT NULL CHECK (kind IN ('pdf', 'svg', 'image')),
        page_count INTEGER NOT NULL CHECK (page_count >= 0),
        title      TEXT NOT NULL DEFAULT '',
        added_at   TEXT NOT NULL
    );

    CREATE TABLE items (
        id                 TEXT PRIMARY KEY,
        source_id          INTEGER REFERENCES sources(id) ON DELETE RESTRICT,
        page               INTEGER CHECK (page IS NULL OR page >= 1),
        clip_x0            REAL,
        clip_y0            REAL,
        clip_x1            REAL,
        clip_y1            REAL,
        subject            TEXT NOT NULL DEFAULT '',
        tier               TEXT NOT NULL DEFAULT 'extended' CHECK (tier IN ('core', 'extended')),
        pattern            TEXT NOT NULL DEFAULT 'B' CHECK (pattern IN ('A', 'B', 'C')),
        status             TEXT NOT NULL DEFAULT 'draft'
                           CHECK (status IN ('draft', 'ready', 'excluded')),
        notes              TEXT NOT NULL DEFAULT '',
        dpi                INTEGER NOT NULL DEFAULT 200,
        question_asset     TEXT,
        answer_asset       TEXT,
        question_pdf_asset TEXT,
        erase_method       TEXT NOT NULL DEFAULT '',
        erase_edits        TEXT NOT NULL DEFAULT '{}',
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL
    );
    CREATE INDEX items_source ON items(source_id, page);

    CREATE TABLE key_entries (
        id        INTEGER PRIMARY KEY,
        item_id   TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        position  INTEGER NOT NULL,
        name      TEXT NOT NULL,
        x0        REAL,
        y0        REAL,
        x1        REAL,
        y1        REAL,
        anchor_x  REAL,
        anchor_y  REAL,
        marker    TEXT,
        origin    TEXT NOT NULL DEFAULT 'manual',
        UNIQUE (item_id, position)
    );

    -- Global rows have item_id NULL; per-item additions name their item.
    CREATE TABLE lexicon (
        id         INTEGER PRIMARY KEY,
        canonical  TEXT NOT NULL,
        synonym    TEXT NOT NULL,
        relation   TEXT NOT NULL DEFAULT 'same' CHECK (relation IN ('same', 'distinct')),
        item_id    TEXT REFERENCES items(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX lexicon_unique
        ON lexicon(canonical, synonym, relation, COALESCE(item_id, ''));

    CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        config_json TEXT NOT NULL DEFAULT '{}'
    );

    CREATE TABLE responses (
        id               INTEGER PRIMARY KEY,
        item_id          TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        model            TEXT NOT NULL,
        condition        TEXT NOT NULL
                         CHECK (condition IN ('blind', 'told', 'desc', 'no-image')),
        request_hash     TEXT NOT NULL,
        status           TEXT NOT NULL CHECK (status IN
                         ('ok', 'truncated', 'empty', 'refused', 'api_error', 'parse_error')),
        finish_reason    TEXT,
        raw_text         TEXT,
        diagram_is       TEXT,
        labels_json      TEXT NOT NULL DEFAULT '[]',
        parse_ok         INTEGER NOT NULL DEFAULT 0,
        input_tokens     INTEGER,
        output_tokens    INTEGER,
        reasoning_tokens INTEGER,
        latency_ms       REAL,
        attempts         INTEGER NOT NULL DEFAULT 1,
        cost_usd         REAL,
        settings_json    TEXT NOT NULL DEFAULT '{}',
        image_width      INTEGER,
        image_height     INTEGER,
        image_bytes      INTEGER,
        error            TEXT,
        run_id           INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        origin           TEXT NOT NULL DEFAULT 'run' CHECK (origin IN ('run', 'import')),
        created_at       TEXT NOT NULL
    );
    CREATE INDEX responses_cell ON responses(item_id, model, condition, id);
    CREATE INDEX responses_hash ON responses(request_hash, status);

    -- Public numbering (PREFIX-N) is stable across exports; the salt lives in meta.
    CREATE TABLE public_ids (
        item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        number  INTEGER NOT NULL UNIQUE
    );
    """,
    # 2: what each answer was asked about, so an answer given for an older subject or
    # question image is known to be stale (NULL: recorded before this migration)
    """
    ALTER TABLE responses ADD COLUMN asked_subject TEXT;
    ALTER TABLE responses ADD COLUMN asked_image TEXT;
    """,
    # 3: a key entry's alternatives (other names printed with it, JSON list) and note
    # (printed text that is not a name), split from labels like "Aorta (cut)"
    """
    ALTER TABLE key_entries ADD COLUMN alternatives TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE key_entries ADD COLUMN note TEXT NOT NULL DEFAULT '';
    """,
    # 4: how the parser read an answer (repairs made, drafts skipped); NULL: read as sent
    """
    ALTER TABLE responses ADD COLUMN parse_notes TEXT;
    """,
    # 5: the residual-label check of each item's question (key names still readable after
    # erasure) and the curator's recorded override
    """
    CREATE TABLE residual_checks (
        item_id       TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        readable_json TEXT NOT NULL DEFAULT '[]',
        read_text     TEXT NOT NULL DEFAULT '',
        method        TEXT NOT NULL,
        checked_at    TEXT NOT NULL,
        question      TEXT,
        override_by   TEXT,
        override_why  TEXT,
        override_at   TEXT
    );
    """,
    # 6: the project's own content-addressed copy of each source document (NULL: none kept)
    """
    ALTER TABLE sources ADD COLUMN copy_asset TEXT;
    """,
    # 7: damage MuPDF survived silently, shown to the curator (labeler/pdf/damage.py):
    # a source MuPDF had to repair, an item whose page lost its text or renders blank
    """
    ALTER TABLE sources ADD COLUMN warning TEXT NOT NULL DEFAULT '';
    ALTER TABLE items ADD COLUMN warning TEXT NOT NULL DEFAULT '';
    """,
    # 8: each source's licence (labeler.store.records.LICENCES) and the attribution line
    # that licence asks for; an export with images carries only redistributable sources
    """
    ALTER TABLE sources ADD COLUMN licence TEXT NOT NULL DEFAULT 'not-redistributable';
    ALTER TABLE sources ADD COLUMN attribution TEXT NOT NULL DEFAULT '';
    """,
    # 9: slots15: numbered-slot questions (decision 0022). The responses table is rebuilt
    # without its CHECK on condition (the store checks conditions in code, so the two slot
    # conditions, or later ones, need no second rebuild) and gains the sha256 of the prompt
    # text each answer was asked with (NULL: stored before this migration); each item may
    # keep the curator's slot order (key-entry positions in order, and those dropped) for
    # the key geometry it was made for (key_digest). No table may reference responses(id)
    # when this runs: under foreign keys the DROP would cascade into it.
    """
    CREATE TABLE responses_new (
        id               INTEGER PRIMARY KEY,
        item_id          TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        model            TEXT NOT NULL,
        condition        TEXT NOT NULL,
        request_hash     TEXT NOT NULL,
        status           TEXT NOT NULL CHECK (status IN
                         ('ok', 'truncated', 'empty', 'refused', 'api_error', 'parse_error')),
        finish_reason    TEXT,
        raw_text         TEXT,
        diagram_is       TEXT,
        labels_json      TEXT NOT NULL DEFAULT '[]',
        parse_ok         INTEGER NOT NULL DEFAULT 0,
        input_tokens     INTEGER,
        output_tokens    INTEGER,
        reasoning_tokens INTEGER,
        latency_ms       REAL,
        attempts         INTEGER NOT NULL DEFAULT 1,
        cost_usd         REAL,
        settings_json    TEXT NOT NULL DEFAULT '{}',
        image_width      INTEGER,
        image_height     INTEGER,
        image_bytes      INTEGER,
        error            TEXT,
        run_id           INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        origin           TEXT NOT NULL DEFAULT 'run' CHECK (origin IN ('run', 'import')),
        created_at       TEXT NOT NULL,
        asked_subject    TEXT,
        asked_image      TEXT,
        parse_notes      TEXT,
        prompt_sha256    TEXT
    );
    INSERT INTO responses_new (
        id, item_id, model, condition, request_hash, status, finish_reason, raw_text,
        diagram_is, labels_json, parse_ok, input_tokens, output_tokens, reasoning_tokens,
        latency_ms, attempts, cost_usd, settings_json, image_width, image_height, image_bytes,
        error, run_id, origin, created_at, asked_subject, asked_image, parse_notes
    )
    SELECT
        id, item_id, model, condition, request_hash, status, finish_reason, raw_text,
        diagram_is, labels_json, parse_ok, input_tokens, output_tokens, reasoning_tokens,
        latency_ms, attempts, cost_usd, settings_json, image_width, image_height, image_bytes,
        error, run_id, origin, created_at, asked_subject, asked_image, parse_notes
    FROM responses;
    DROP TABLE responses;
    ALTER TABLE responses_new RENAME TO responses;
    CREATE INDEX responses_cell ON responses(item_id, model, condition, id);
    CREATE INDEX responses_hash ON responses(request_hash, status);

    CREATE TABLE slot_orders (
        item_id      TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        order_json   TEXT NOT NULL,
        dropped_json TEXT NOT NULL DEFAULT '[]',
        key_digest   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
    );
    """,
    # 10: review14: reviewer decisions (approvals, key confirmations, score overrides,
    # comments) as an append-only audit trail, where an undo is a new row naming the one it
    # reverses; and the keys other curators gave an item independently (curator agreement)
    """
    CREATE TABLE review_events (
        id          INTEGER PRIMARY KEY,
        item_id     TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL
                    CHECK (kind IN ('approve', 'confirm-key', 'override', 'comment', 'undo')),
        model       TEXT,
        condition   TEXT,
        response_id INTEGER REFERENCES responses(id) ON DELETE CASCADE,
        value       REAL CHECK (value IS NULL OR (value >= 0 AND value <= 1)),
        text        TEXT NOT NULL DEFAULT '',
        detail      TEXT NOT NULL DEFAULT '',
        undoes      INTEGER REFERENCES review_events(id),
        reviewer    TEXT NOT NULL,
        created_at  TEXT NOT NULL
    );
    CREATE INDEX review_events_item ON review_events(item_id, id);
    CREATE UNIQUE INDEX review_events_undone ON review_events(undoes);

    CREATE TABLE curator_keys (
        item_id    TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        curator    TEXT NOT NULL,
        names_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (item_id, curator)
    );
    """,
    # 11: batch12: batch jobs submitted to a provider's batch API (labeler/runs/batch.py) and
    # the calls in each, so a call is never submitted twice and a finished job never lost
    """
    CREATE TABLE batches (
        id            INTEGER PRIMARY KEY,
        provider      TEXT NOT NULL,
        provider_id   TEXT NOT NULL,
        model         TEXT NOT NULL,
        model_json    TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        state         TEXT NOT NULL,
        provider_state TEXT NOT NULL DEFAULT '',
        answered      INTEGER,
        requests      INTEGER NOT NULL,
        run_id        INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        submitted_at  TEXT NOT NULL,
        checked_at    TEXT,
        collected_at  TEXT,
        UNIQUE (provider, provider_id)
    );
    CREATE TABLE batch_requests (
        batch_id      INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        custom_id     TEXT NOT NULL,
        item_id       TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        condition     TEXT NOT NULL,
        request_hash  TEXT NOT NULL,
        image_width   INTEGER,
        image_height  INTEGER,
        image_bytes   INTEGER,
        response_id   INTEGER REFERENCES responses(id) ON DELETE SET NULL,
        collected     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (batch_id, custom_id)
    );
    CREATE INDEX batch_requests_open ON batch_requests(collected, request_hash);
    """,
    # 12: pg16: a team on one project. Each item's version (+1 on every write; an edit made
    # from an older version is refused, never silently overwritten), and the calls runs on
    # several machines claim (PostgreSQL only: FOR UPDATE SKIP LOCKED, with a lease so a
    # killed runner's claims are taken over; basis = the cell's latest response id when
    # planned, 0 for none, so a later re-run of the same cell is a new claim)
    """
    ALTER TABLE items ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE claims (
        item_id      TEXT NOT NULL,
        model        TEXT NOT NULL,
        condition    TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        basis        INTEGER NOT NULL,
        holder       TEXT,
        expires_at   REAL,
        done         INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (item_id, model, condition, request_hash, basis)
    );
    """,
    # 13: cache17: each answer's scored result (labeler/store/score_cache.py), with the
    # fingerprints it was computed from (rules version, key, the lexicon rows it used) and
    # the digest of the whole lexicon it was last checked against (a shortcut, decision 0019)
    """
    CREATE TABLE score_cache (
        response_id     INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        rules           TEXT NOT NULL,
        key_fp          TEXT NOT NULL,
        lexicon_fp      TEXT NOT NULL,
        lexicon_state   TEXT NOT NULL,
        f1              REAL NOT NULL,
        marker_accuracy REAL,
        result_json     TEXT NOT NULL,
        PRIMARY KEY (response_id, rules)
    );
    """,
    # 14: read17: the numbers a matrix and a leaderboard show, as columns of the score
    # cache (name-set precision and recall, the marker score's letters as compact JSON), so
    # views read them without parsing each result (labeler.results.cell_summaries; a row
    # from before has NULLs and is completed by its next read)
    """
    ALTER TABLE score_cache ADD COLUMN name_precision REAL;
    ALTER TABLE score_cache ADD COLUMN name_recall REAL;
    ALTER TABLE score_cache ADD COLUMN markers_json TEXT;
    """,
    # 15: results17: each cell's latest answer as stored state (labeler/store/latest.py):
    # its id and the columns a matrix reads, kept where answers are written, so a read
    # need not group every answer; backfilled from the responses stored before
    """
    CREATE TABLE latest_answers (
        response_id   INTEGER NOT NULL PRIMARY KEY REFERENCES responses(id) ON DELETE CASCADE,
        item_id       TEXT NOT NULL,
        model         TEXT NOT NULL,
        condition     TEXT NOT NULL,
        status        TEXT NOT NULL,
        parse_ok      INTEGER NOT NULL,
        asked_subject TEXT,
        asked_image   TEXT,
        UNIQUE (item_id, model, condition)
    );
    INSERT INTO latest_answers (
        response_id, item_id, model, condition, status, parse_ok, asked_subject, asked_image
    )
    SELECT id, item_id, model, condition, status, parse_ok, asked_subject, asked_image
    FROM responses
    WHERE id IN (SELECT MAX(id) FROM responses GROUP BY item_id, model, condition);
    """,
    # 16: audits17: each item's share of the report's audits (labeler/store/audit_cache.py):
    # its shuffled-key scores and consensus names, with the digests of the inputs they read,
    # the lexicon components those reach and the whole lexicon last checked (decision 0026)
    """
    CREATE TABLE audit_cache (
        item_id       TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        kind          TEXT NOT NULL,
        rules         TEXT NOT NULL,
        inputs_fp     TEXT NOT NULL,
        lexicon_fp    TEXT NOT NULL,
        lexicon_state TEXT NOT NULL,
        value_json    TEXT NOT NULL,
        PRIMARY KEY (item_id, kind, rules)
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
