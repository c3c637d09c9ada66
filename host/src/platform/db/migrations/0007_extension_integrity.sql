-- The digest of each installed tree (preflight checks it before every load: a changed tree is not
-- run), and the version a rollback left, so a second rollback refuses instead of going forward again.
ALTER TABLE extension_versions ADD COLUMN tree_sha256 TEXT;
ALTER TABLE extensions ADD COLUMN rolled_back_from TEXT;
