-- The CLI probe (command, aliases, known paths, version arguments) the person confirmed with the
-- permissions; NULL for a grant confirmed before it was kept (recorded at its next load).
ALTER TABLE extensions ADD COLUMN confirmed_probe TEXT;
