-- Stop hooks reach the Workbench through the host's durable domain events; the earlier timer's
-- cursor is no longer read or written.
DROP TABLE IF EXISTS harness_stop_cursor;
