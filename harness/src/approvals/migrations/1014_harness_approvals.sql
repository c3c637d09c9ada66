-- A CLI's permission request in a task terminal, bound to the exact call: the tool, a canonical hash
-- of its arguments and working folder, and the text shown to the person. Written before anyone is
-- asked. status: OPEN (waiting), ALLOWED, DENIED. answer: allow_once, deny, allow_for_task (also a
-- rule below), rule (met an allow-for-task rule, nobody was asked), timeout_* (the policy decided).
-- parked: the hook stopped waiting and the CLI's turn ended; the outcome is typed into the terminal
-- (delivery: delivering, then delivered or failed). used_at: an allow_once answer let its call through.
CREATE TABLE harness_approvals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id INTEGER,
  cli TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  call_hash TEXT NOT NULL,
  cwd TEXT,
  shown TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('OPEN', 'ALLOWED', 'DENIED')),
  answer TEXT,
  reason TEXT,
  answered_by TEXT,
  answered_via TEXT,
  answered_at TEXT,
  parked INTEGER NOT NULL DEFAULT 0,
  delivery TEXT,
  used_at TEXT,
  message_id INTEGER REFERENCES harness_messages(id) ON DELETE SET NULL,
  escalated_at TEXT,
  created_at TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX harness_approvals_by_task ON harness_approvals (task_id, id);
CREATE INDEX harness_approvals_open ON harness_approvals (status, created_ms);
-- One waiting request per call and task: a retried call waits on the same record.
CREATE UNIQUE INDEX harness_approvals_one_open_per_call ON harness_approvals (task_id, call_hash) WHERE status = 'OPEN';

-- "Allow this for this task": the next identical call (same hash) of the task is let through unasked.
CREATE TABLE harness_approval_rules (
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  call_hash TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  approval_id INTEGER NOT NULL REFERENCES harness_approvals(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (task_id, call_hash)
);

-- What happens to a request nobody answers, per task or per project (the task's wins). action:
-- deny, allow_listed (allowed when its tool is in allowed_tools, denied otherwise), escalate (to the
-- parent task), stop (the task). stop_after_ms: after this long any request stops its task.
CREATE TABLE harness_approval_policies (
  scope TEXT NOT NULL CHECK (scope IN ('task', 'project')),
  scope_id INTEGER NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('deny', 'allow_listed', 'escalate', 'stop')),
  after_ms INTEGER NOT NULL,
  stop_after_ms INTEGER NOT NULL,
  allowed_tools TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL,
  PRIMARY KEY (scope, scope_id)
);
