-- The credential a task terminal's `svc mcp` proves its task with: minted per execution, stored as
-- a SHA-256 hash only, and gone when the execution ends (the trigger revokes it in the same write
-- as the end, whichever process records it).
CREATE TABLE execution_credentials (
  execution_id INTEGER PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
  credential_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TRIGGER execution_credentials_revoked_at_end
AFTER UPDATE OF status ON executions
WHEN NEW.status NOT IN ('RUNNING', 'PAUSED')
BEGIN
  DELETE FROM execution_credentials WHERE execution_id = NEW.id;
END;
