"""SQL schema of both stores: the tables they share written once, plus each dialect's own (SQLite here).

Every statement is `CREATE ... IF NOT EXISTS`, so opening (and `kgrag init`) twice is harmless.
"""

SCHEMA_VERSION = 1

# Tables with the same columns in every backend; the words that differ are placeholders:
# {real} a float column, {big} a 64-bit integer, {auto_id} an auto-numbered key, {norowid} SQLite's clustered-key suffix.
SHARED_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS documents (
  doc_id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, title TEXT NOT NULL, content_hash TEXT NOT NULL,
  product TEXT NOT NULL DEFAULT '', category TEXT NOT NULL DEFAULT '', version TEXT NOT NULL DEFAULT '',
  meta TEXT NOT NULL DEFAULT '{{}}', added_at {real} NOT NULL
);

CREATE TABLE IF NOT EXISTS entities (
  entity_id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '', aliases TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE IF NOT EXISTS relations (
  relation_id TEXT PRIMARY KEY, source_id TEXT NOT NULL, target_id TEXT NOT NULL, type TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '', weight {real} NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS relations_source ON relations(source_id);
CREATE INDEX IF NOT EXISTS relations_target ON relations(target_id);

CREATE TABLE IF NOT EXISTS relation_support (
  relation_id TEXT NOT NULL, chunk_id TEXT NOT NULL, PRIMARY KEY (relation_id, chunk_id)
){norowid};
CREATE INDEX IF NOT EXISTS relation_support_chunk ON relation_support(chunk_id);

CREATE TABLE IF NOT EXISTS mentions (
  chunk_id TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (chunk_id, entity_id)
){norowid};
CREATE INDEX IF NOT EXISTS mentions_entity ON mentions(entity_id);

CREATE TABLE IF NOT EXISTS merge_log (
  merge_id {auto_id}, created_at {real} NOT NULL, kept_id TEXT NOT NULL, merged_ids TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '', snapshot TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS subchunks (
  subchunk_id TEXT PRIMARY KEY, chunk_id TEXT NOT NULL, ord INTEGER NOT NULL, text TEXT NOT NULL,
  tokens INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS subchunks_chunk ON subchunks(chunk_id);

CREATE TABLE IF NOT EXISTS keywords (
  keyword_id TEXT PRIMARY KEY, term TEXT NOT NULL UNIQUE, description TEXT NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS edges (
  kind TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, weight {real} NOT NULL DEFAULT 1,
  PRIMARY KEY (kind, src, dst)
){norowid};

CREATE TABLE IF NOT EXISTS communities (
  community_id TEXT PRIMARY KEY, level INTEGER NOT NULL, parent_id TEXT, title TEXT NOT NULL DEFAULT '',
  summary TEXT NOT NULL DEFAULT '', full_content TEXT NOT NULL DEFAULT '{{}}', key_terms TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS community_members (
  community_id TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (community_id, entity_id)
){norowid};
CREATE INDEX IF NOT EXISTS community_members_entity ON community_members(entity_id);

CREATE TABLE IF NOT EXISTS progress (
  stage TEXT NOT NULL, item_key TEXT NOT NULL, status TEXT NOT NULL, info TEXT NOT NULL DEFAULT '',
  updated_at {real} NOT NULL, PRIMARY KEY (stage, item_key)
){norowid};

CREATE TABLE IF NOT EXISTS llm_usage (
  stage TEXT NOT NULL, model TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0,
  prompt_tokens {big} NOT NULL DEFAULT 0, completion_tokens {big} NOT NULL DEFAULT 0,
  seconds {real} NOT NULL DEFAULT 0, usd {real} NOT NULL DEFAULT 0, PRIMARY KEY (stage, model)
){norowid};
"""

# Store tables (both backends): the names `count()` accepts.
TABLE_NAMES = (
    "meta", "documents", "chunks", "vectors", "entities", "relations", "relation_support", "mentions", "merge_log",
    "subchunks", "keywords", "edges", "communities", "community_members", "progress", "llm_usage",
)  # fmt: skip

# SQLite's own: chunks with an FTS5 index kept in sync by triggers, blob vectors, case-insensitive names.
SQLITE_TABLES = """
CREATE TABLE IF NOT EXISTS chunks (
  rowid INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, doc_id TEXT NOT NULL, ord INTEGER NOT NULL,
  text TEXT NOT NULL, section TEXT NOT NULL DEFAULT '', page_start INTEGER, page_end INTEGER,
  product TEXT NOT NULL DEFAULT '', category TEXT NOT NULL DEFAULT '', tokens INTEGER NOT NULL DEFAULT 0,
  meta TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, ord);

CREATE VIRTUAL TABLE IF NOT EXISTS chunk_fts USING fts5(
  text, section, content='chunks', content_rowid='rowid', tokenize="unicode61 remove_diacritics 2"
);
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunk_fts(rowid, text, section) VALUES (new.rowid, new.text, new.section);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunk_fts(chunk_fts, rowid, text, section) VALUES ('delete', old.rowid, old.text, old.section);
END;

CREATE TABLE IF NOT EXISTS vectors (
  kind TEXT NOT NULL, item_id TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (kind, item_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS entities_name ON entities(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(kind, dst);
"""

SCHEMA = (
    SHARED_TABLES.format(real="REAL", big="INTEGER", auto_id="INTEGER PRIMARY KEY AUTOINCREMENT", norowid=" WITHOUT ROWID")
    + SQLITE_TABLES
)
