-- How many permission requests of each task wait for a person (a task's attention: needs you). The
-- host only reads it; a plugin that asks a person on a task's behalf (the harness's approvals) keeps
-- it, in its own migrations. A task with none has no row.
CREATE TABLE task_open_approvals (
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  open_count INTEGER NOT NULL
);
