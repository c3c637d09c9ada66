// Whether nobody watches a task's terminal, from the service's signal file only (no database, no
// network): shared by the ladder hook and the approval hook. Plain Node, CommonJS, no dependencies.
'use strict';
const { accessSync, constants, lstatSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The signal file present and readable means unattended; anything else (absent, unreadable, no env)
 * is watched. Only what the service itself writes counts: a regular file with one link, owner-only,
 * owned by this user, in a folder of this user that nobody else may write. A socket, a FIFO, a
 * symlink or a hard link another program made there is not the service's signal.
 */
function isUnattended(env) {
  const dir = env.SVC_SIGNAL_DIR;
  const taskId = env.SVC_TASK_ID;
  if (!dir || !taskId || !/^\d+$/.test(taskId)) return false;
  try {
    const uid = process.getuid?.();
    const folder = lstatSync(dir);
    if (!folder.isDirectory() || (uid !== undefined && folder.uid !== uid) || (folder.mode & 0o022) !== 0) return false;
    const file = join(dir, `unattended-${taskId}`);
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.nlink !== 1 || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return false;
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

module.exports = { isUnattended };
