-- Bearer tokens of MCP clients that reach `svc serve` over Streamable HTTP at /mcp. Only the SHA-256
-- of a token is kept: the token itself is printed once, when it is made, and never stored.
CREATE TABLE harness_mcp_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  -- The only profile its client sees.
  profile TEXT NOT NULL CHECK (profile IN ('full', 'assistant', 'task', 'gateway', 'gateway-query')),
  -- A task-scoped token acts as this task and cannot act as another (SVC_TASK_ID of stdio).
  task_id INTEGER REFERENCES tasks (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  last_used_at TEXT
);
