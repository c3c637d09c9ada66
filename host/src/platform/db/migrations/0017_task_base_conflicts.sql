-- The files a task's branch would conflict in with its base branch's tip, recomputed when the base
-- moves (a merge) and by the background check: a JSON list, NULL while not yet checked, with the
-- base commit it was computed against.
ALTER TABLE task_worktrees ADD COLUMN base_conflicts TEXT;
ALTER TABLE task_worktrees ADD COLUMN base_conflicts_tip TEXT;
