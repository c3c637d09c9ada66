-- Task terminals wired for unattended work.
-- Which attachments (MCP server, hooks, directive) the provider could not apply to an execution,
-- as a JSON list of {kind, reason}; shown with the execution so a person sees what is missing.
ALTER TABLE executions ADD COLUMN unsupported_attachments TEXT NOT NULL DEFAULT '[]';

-- Stop notifications carry the CLI's turn id; Codex reports a turn twice (its Stop hook and its
-- `notify` agent-turn-complete callback) and the database keeps one row per task and turn.
ALTER TABLE stop_notifications ADD COLUMN turn_id TEXT;
ALTER TABLE stop_notifications ADD COLUMN source TEXT NOT NULL DEFAULT 'hook' CHECK (source IN ('hook', 'codex-notify'));
CREATE UNIQUE INDEX stop_notifications_one_per_turn ON stop_notifications (task_id, turn_id) WHERE turn_id IS NOT NULL;
