-- A git worktree per task: the project's isolation setting, each task's branch and worktree, and the
-- overlaps the background check found between two open tasks' branches.

-- NULL isolation means the default: `worktree` when the project folder is a git repository.
CREATE TABLE project_isolation (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  isolation TEXT CHECK (isolation IN ('worktree', 'none')),
  base_branch TEXT,
  setup_command TEXT,
  updated_at TEXT NOT NULL
);

-- state: CREATING (written before git runs, so a kill leaves a row the next start finishes),
-- ACTIVE (the worktree exists), REMOVED (discarded or collected; the branch may remain).
CREATE TABLE task_worktrees (
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  branch TEXT NOT NULL,
  base_branch TEXT NOT NULL,
  base_commit TEXT,
  worktree_path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('CREATING', 'ACTIVE', 'REMOVED')),
  merged_commit TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  removed_at TEXT
);
CREATE INDEX task_worktrees_by_project ON task_worktrees (project_id, state);

-- The latest overlap between two tasks (task_a < task_b); `signature` changes with the files.
CREATE TABLE task_overlaps (
  task_a INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  task_b INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  files TEXT NOT NULL,
  conflicts TEXT NOT NULL,
  signature TEXT NOT NULL,
  detected_at TEXT NOT NULL,
  PRIMARY KEY (task_a, task_b),
  CHECK (task_a < task_b)
);
