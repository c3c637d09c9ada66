-- Extensions known to this host: developer registrations, catalog installs and the built-in providers.
CREATE TABLE extensions (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('dev', 'catalog', 'builtin')),
  state TEXT NOT NULL CHECK (state IN ('disabled', 'enabled', 'needs-confirmation', 'broken')),
  path TEXT NOT NULL,
  version TEXT NOT NULL,
  display_name TEXT NOT NULL,
  granted_permissions TEXT NOT NULL DEFAULT '[]',
  error_code TEXT,
  error_message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Plugin-scoped key/value storage offered through the Host Context.
CREATE TABLE plugin_storage (
  plugin_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (plugin_id, key)
);

-- Version probes of CLI executables, keyed by the file's identity so a changed binary is probed again.
CREATE TABLE cli_probes (
  path TEXT PRIMARY KEY,
  mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  version_args TEXT NOT NULL,
  version TEXT NOT NULL,
  probed_at TEXT NOT NULL
);

CREATE TABLE system_config (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- A connection is one configured use of a provider. Sensitive values live in connection_secrets.
CREATE TABLE connections (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  provider_id TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  command_override TEXT,
  base_args TEXT NOT NULL DEFAULT '[]',
  env TEXT NOT NULL DEFAULT '{}',
  config TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE connection_secrets (
  connection_id INTEGER NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (connection_id, key)
);
