-- What `svc mcp` serves beyond the task domain: project knowledge (facts, notes, assets, repository
-- files and one SQLite FTS5 index over them, answered without a model), product groups, task
-- versions and task defaults.

CREATE TABLE project_facts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, key)
);

CREATE TABLE notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX notes_by_project ON notes (project_id, id);

-- A link, a file in (or outside) the repository, or a named snippet a project keeps at hand.
CREATE TABLE assets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('link', 'file', 'text')),
  uri TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);

-- Records in one full-text index. rowid = ref_id * 8 + kind code (1 project, 2 task, 3 note,
-- 4 fact, 5 asset), so the triggers below update or delete one row by key, without a scan.
CREATE VIRTUAL TABLE knowledge_fts USING fts5(
  title, body, kind UNINDEXED, project_id UNINDEXED, ref_id UNINDEXED,
  tokenize = 'porter unicode61'
);

CREATE TRIGGER projects_fts_insert AFTER INSERT ON projects BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 1, new.name, new.description, 'project', new.id, new.id);
END;
CREATE TRIGGER projects_fts_update AFTER UPDATE ON projects BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 1;
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 1, new.name, new.description, 'project', new.id, new.id);
END;
CREATE TRIGGER projects_fts_delete AFTER DELETE ON projects BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 1;
END;

CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 2, new.title, new.description, 'task', new.project_id, new.id);
END;
CREATE TRIGGER tasks_fts_update AFTER UPDATE OF title, description, project_id ON tasks BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 2;
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 2, new.title, new.description, 'task', new.project_id, new.id);
END;
CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 2;
END;

CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 3, new.title, new.body, 'note', new.project_id, new.id);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 3;
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 3, new.title, new.body, 'note', new.project_id, new.id);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 3;
END;

CREATE TRIGGER facts_fts_insert AFTER INSERT ON project_facts BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 4, new.key, new.value, 'fact', new.project_id, new.id);
END;
CREATE TRIGGER facts_fts_update AFTER UPDATE ON project_facts BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 4;
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 4, new.key, new.value, 'fact', new.project_id, new.id);
END;
CREATE TRIGGER facts_fts_delete AFTER DELETE ON project_facts BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 4;
END;

CREATE TRIGGER assets_fts_insert AFTER INSERT ON assets BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 5, new.name, new.description || ' ' || new.uri, 'asset', new.project_id, new.id);
END;
CREATE TRIGGER assets_fts_update AFTER UPDATE ON assets BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 5;
  INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) VALUES (new.id * 8 + 5, new.name, new.description || ' ' || new.uri, 'asset', new.project_id, new.id);
END;
CREATE TRIGGER assets_fts_delete AFTER DELETE ON assets BEGIN
  DELETE FROM knowledge_fts WHERE rowid = old.id * 8 + 5;
END;

INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) SELECT id * 8 + 1, name, description, 'project', id, id FROM projects;
INSERT INTO knowledge_fts (rowid, title, body, kind, project_id, ref_id) SELECT id * 8 + 2, title, description, 'task', project_id, id FROM tasks;

-- The text files of each project's repository, refreshed incrementally (size + mtime) on use.
CREATE TABLE repo_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  UNIQUE (project_id, path)
);
CREATE VIRTUAL TABLE repo_file_fts USING fts5(path, body, tokenize = 'porter unicode61');
CREATE TRIGGER repo_files_fts_delete AFTER DELETE ON repo_files BEGIN
  DELETE FROM repo_file_fts WHERE rowid = old.id;
END;

-- Product groups: projects of one workspace that make one product (a web app, its API, its docs).
-- A project is in at most one group.
CREATE TABLE product_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE TABLE product_group_projects (
  group_id INTEGER NOT NULL REFERENCES product_groups(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL UNIQUE REFERENCES projects(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, project_id)
);

-- Task versions: every change of a task's title, description or status is kept, written by the
-- database itself so that every writer (service, CLI, svc mcp) records it.
CREATE TABLE task_versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  UNIQUE (task_id, version)
);
CREATE TRIGGER tasks_version_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO task_versions (task_id, version, title, description, status, recorded_at) VALUES (new.id, 1, new.title, new.description, new.status, new.updated_at);
END;
CREATE TRIGGER tasks_version_update AFTER UPDATE OF title, description, status ON tasks
WHEN old.title IS NOT new.title OR old.description IS NOT new.description OR old.status IS NOT new.status BEGIN
  INSERT INTO task_versions (task_id, version, title, description, status, recorded_at)
  VALUES (new.id, (SELECT COALESCE(MAX(version), 0) + 1 FROM task_versions WHERE task_id = new.id), new.title, new.description, new.status, new.updated_at);
END;
INSERT INTO task_versions (task_id, version, title, description, status, recorded_at) SELECT id, 1, title, description, status, updated_at FROM tasks;

-- Task defaults per project: the connection (and model) a task's execution starts with when the
-- caller names none.
CREATE TABLE task_defaults (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  connection TEXT,
  model TEXT,
  updated_at TEXT NOT NULL
);
