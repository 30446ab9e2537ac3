"""SQL schema of the store's own tables (the checkpointer creates its own two).

Versioned with ``PRAGMA user_version``. The FTS tables are external-content tables kept in sync by
triggers, so deleting a transcript row or a session also removes its words from the search index.
"""

from __future__ import annotations

SCHEMA_VERSION = 2

# Must run before the first table exists: afterwards SQLite ignores it until a full VACUUM.
FILE_PRAGMAS = ("PRAGMA auto_vacuum = INCREMENTAL", "PRAGMA journal_mode = WAL")

CONNECTION_PRAGMAS = (
    "PRAGMA busy_timeout = {busy_ms}",
    # Deleted conversation text is overwritten with zeros instead of lingering in free pages.
    "PRAGMA secure_delete = ON",
    # Safe with WAL (no corruption on power loss, only the last commits may be lost) and it
    # spares an fsync per checkpoint write.
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    # Truncate the WAL file back to this size after a checkpoint instead of keeping its peak size.
    "PRAGMA journal_size_limit = 4194304",
)

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS copilot_sessions (
    -- An explicit integer key: the title FTS index refers to it, and an implicit rowid could be
    -- renumbered by VACUUM.
    id INTEGER PRIMARY KEY,
    thread_id TEXT NOT NULL UNIQUE,
    title TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    mode TEXT NOT NULL DEFAULT 'assistant',
    pending_approval TEXT
);
CREATE INDEX IF NOT EXISTS copilot_sessions_order
    ON copilot_sessions (pinned DESC, updated_at DESC);

CREATE TABLE IF NOT EXISTS copilot_transcript (
    id INTEGER PRIMARY KEY,
    thread_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    name TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    metadata TEXT,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS copilot_transcript_thread_seq
    ON copilot_transcript (thread_id, seq);

CREATE VIRTUAL TABLE IF NOT EXISTS copilot_transcript_fts USING fts5(
    content, content='copilot_transcript', content_rowid='id'
);
CREATE TRIGGER IF NOT EXISTS copilot_transcript_ai AFTER INSERT ON copilot_transcript BEGIN
    INSERT INTO copilot_transcript_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER IF NOT EXISTS copilot_transcript_ad AFTER DELETE ON copilot_transcript BEGIN
    INSERT INTO copilot_transcript_fts (copilot_transcript_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER IF NOT EXISTS copilot_transcript_au AFTER UPDATE OF content ON copilot_transcript
BEGIN
    INSERT INTO copilot_transcript_fts (copilot_transcript_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
    INSERT INTO copilot_transcript_fts (rowid, content) VALUES (new.id, new.content);
END;

CREATE VIRTUAL TABLE IF NOT EXISTS copilot_title_fts USING fts5(
    title, content='copilot_sessions', content_rowid='id'
);
CREATE TRIGGER IF NOT EXISTS copilot_sessions_ai AFTER INSERT ON copilot_sessions BEGIN
    INSERT INTO copilot_title_fts (rowid, title) VALUES (new.id, coalesce(new.title, ''));
END;
CREATE TRIGGER IF NOT EXISTS copilot_sessions_ad AFTER DELETE ON copilot_sessions BEGIN
    INSERT INTO copilot_title_fts (copilot_title_fts, rowid, title)
        VALUES ('delete', old.id, coalesce(old.title, ''));
END;
CREATE TRIGGER IF NOT EXISTS copilot_sessions_au AFTER UPDATE OF title ON copilot_sessions BEGIN
    INSERT INTO copilot_title_fts (copilot_title_fts, rowid, title)
        VALUES ('delete', old.id, coalesce(old.title, ''));
    INSERT INTO copilot_title_fts (rowid, title) VALUES (new.id, coalesce(new.title, ''));
END;
"""

# Version 2: which process runs a turn in a session (two app instances on one project). IF NOT
# EXISTS: databases of the version before kept the table without a version of their own.
SCHEMA_V2 = """
CREATE TABLE IF NOT EXISTS copilot_turn_leases (
    thread_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires REAL NOT NULL
);
"""

# Index of the migration scripts: MIGRATIONS[n] brings a database from version n to n + 1.
MIGRATIONS: dict[int, str] = {0: SCHEMA_V1, 1: SCHEMA_V2}
