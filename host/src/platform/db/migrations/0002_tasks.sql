-- The task domain: workspaces hold projects, projects hold tasks and labels, tasks run executions.
CREATE TABLE workspaces (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE projects (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE RESTRICT,
  name TEXT NOT NULL,
  repo_path TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);

CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE RESTRICT,
  parent_task_id INTEGER REFERENCES tasks(id) ON DELETE RESTRICT,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'TODO' CHECK (status IN ('TODO', 'IN_PROGRESS', 'IN_REVIEW', 'DONE', 'CANCELLED')),
  -- Rollback shadow of the signal file `unattended-<task_id>`, which is authoritative.
  unattended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX tasks_by_project ON tasks (project_id, status);
CREATE INDEX tasks_by_parent ON tasks (parent_task_id);

CREATE TABLE labels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE task_labels (
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, label_id)
);

-- One run of a task's CLI in a PTY. `pid` + `pid_start_time` identify the process across a restart
-- of the service, so a leftover is killed only when it is provably the one we started.
CREATE TABLE executions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  connection_id INTEGER REFERENCES connections(id) ON DELETE SET NULL,
  connection_name TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('fresh', 'resume')),
  status TEXT NOT NULL CHECK (status IN ('RUNNING', 'PAUSED', 'COMPLETED', 'FAILED')),
  session_id TEXT,
  pid INTEGER,
  pid_start_time TEXT,
  exit_code INTEGER,
  exit_signal INTEGER,
  end_reason TEXT,
  error_code TEXT,
  error_message TEXT,
  started_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE INDEX executions_by_task ON executions (task_id, id);
-- At most one live (RUNNING or PAUSED) execution per task, enforced by the database itself.
CREATE UNIQUE INDEX executions_one_live_per_task ON executions (task_id) WHERE status IN ('RUNNING', 'PAUSED');

-- Stop-hook notifications, persisted as they arrive; the harness fans them out later.
CREATE TABLE stop_notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  execution_id INTEGER REFERENCES executions(id) ON DELETE SET NULL,
  session_id TEXT,
  payload TEXT NOT NULL,
  received_at TEXT NOT NULL,
  fanned_out_at TEXT
);
CREATE INDEX stop_notifications_pending ON stop_notifications (fanned_out_at, id);
