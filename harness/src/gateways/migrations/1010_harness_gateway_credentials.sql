-- The credential a gateway plugin's `svc mcp` proves itself with: the only caller that may say which
-- platform user sent a message. Stored as a SHA-256 hash; issuing a new one replaces the old.
CREATE TABLE harness_gateway_credentials (
  gateway_id INTEGER PRIMARY KEY REFERENCES harness_gateways (id) ON DELETE CASCADE,
  credential_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
