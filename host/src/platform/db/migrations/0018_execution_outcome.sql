-- How an execution ended, in the words a person reads (`end_reason` keeps the finer cause):
-- completed (the CLI exited cleanly), failed (a real failure: a non-zero exit, a start that failed),
-- stopped (a person pressed Stop, or nobody was attached for the keepalive period), interrupted (the
-- service shut down or died under it; resuming the task continues its session). Only a failure is
-- FAILED; the other three end COMPLETED.
ALTER TABLE executions ADD COLUMN outcome TEXT CHECK (outcome IN ('completed', 'failed', 'stopped', 'interrupted'));
-- When the CLI finished a turn and waits at its own prompt (its Stop hook said so); cleared when a
-- message is submitted to it.
ALTER TABLE executions ADD COLUMN waiting_since TEXT;
-- Whether the task's worktree held changes against its base when the execution ended (1 or 0);
-- NULL when not known (no worktree of its own).
ALTER TABLE executions ADD COLUMN left_changes INTEGER;
UPDATE executions SET outcome = CASE
    WHEN end_reason IN ('stopped', 'keepalive') THEN 'stopped'
    WHEN end_reason IN ('service_shutdown', 'service_restart') THEN 'interrupted'
    WHEN status = 'COMPLETED' THEN 'completed'
    ELSE 'failed'
  END
  WHERE status IN ('COMPLETED', 'FAILED');
UPDATE executions SET status = 'COMPLETED' WHERE outcome IN ('stopped', 'interrupted');
