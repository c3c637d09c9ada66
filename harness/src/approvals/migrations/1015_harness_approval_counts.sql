-- The harness keeps the host's count of each task's open approval requests (task_open_approvals, the
-- host's port for a task's attention): counted once from the requests already open, then kept by
-- triggers on every change of a request's status, whichever process makes it.
INSERT INTO task_open_approvals (task_id, open_count)
  SELECT task_id, COUNT(*) FROM harness_approvals WHERE status = 'OPEN' AND task_id IN (SELECT id FROM tasks) GROUP BY task_id;

CREATE TRIGGER harness_approvals_count_opened AFTER INSERT ON harness_approvals WHEN NEW.status = 'OPEN'
BEGIN
  INSERT INTO task_open_approvals (task_id, open_count) VALUES (NEW.task_id, 1)
    ON CONFLICT (task_id) DO UPDATE SET open_count = open_count + 1;
END;

CREATE TRIGGER harness_approvals_count_reopened AFTER UPDATE OF status ON harness_approvals WHEN OLD.status <> 'OPEN' AND NEW.status = 'OPEN'
BEGIN
  INSERT INTO task_open_approvals (task_id, open_count) VALUES (NEW.task_id, 1)
    ON CONFLICT (task_id) DO UPDATE SET open_count = open_count + 1;
END;

CREATE TRIGGER harness_approvals_count_closed AFTER UPDATE OF status ON harness_approvals WHEN OLD.status = 'OPEN' AND NEW.status <> 'OPEN'
BEGIN
  UPDATE task_open_approvals SET open_count = open_count - 1 WHERE task_id = OLD.task_id;
  DELETE FROM task_open_approvals WHERE task_id = OLD.task_id AND open_count <= 0;
END;

CREATE TRIGGER harness_approvals_count_removed AFTER DELETE ON harness_approvals WHEN OLD.status = 'OPEN'
BEGIN
  UPDATE task_open_approvals SET open_count = open_count - 1 WHERE task_id = OLD.task_id;
  DELETE FROM task_open_approvals WHERE task_id = OLD.task_id AND open_count <= 0;
END;
