// The run's guard against processes a test leaves running, and the catalog fixture's waiting call,
// which ends once the process that started it is gone.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, onTestFinished, test } from 'vitest';
import { WAIT_FOR_FILE_SCRIPT } from './catalog-fixture.js';
import { endProcesses, leftoverProcesses, RUN_MARK } from './leftover-processes.js';
import { isRunning, processesWithEnv, processTreeBelow, type ProcessIdentity } from './process-tree.js';
import { waitFor } from './svc-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-leftovers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const IDLE = 'setInterval(() => {}, 1000)';

/** Starts `node -e <script> …args` in the background of a shell that exits at once: an orphan, as a killed parent leaves one. */
function startOrphan(env: NodeJS.ProcessEnv, script: string, ...args: string[]): number {
  const shell = spawnSync('sh', ['-c', 'node -e "$0" "$@" >/dev/null 2>&1 & echo $!', script, ...args], { env, encoding: 'utf8' });
  return Number(shell.stdout.trim());
}

/** The process with this pid, as /proc shows it now. */
function found(pid: number, mark: string): ProcessIdentity {
  const row = processesWithEnv(RUN_MARK, mark).find((candidate) => candidate.pid === pid);
  expect(row, `process ${pid}`).toBeDefined();
  return row!;
}

test.runIf(process.platform === 'linux')('a process a test left running is listed by the run mark and ended; the runner\'s own children are not listed', async () => {
  const mark = randomUUID();
  const env = { ...process.env, [RUN_MARK]: mark };
  const orphan = startOrphan(env, IDLE);
  const direct = spawn(process.execPath, ['-e', IDLE], { env, stdio: 'ignore' });
  onTestFinished(() => {
    direct.kill('SIGKILL');
    try {
      process.kill(orphan, 'SIGKILL');
    } catch {
      // Ended by the test.
    }
  });
  await waitFor(() => processesWithEnv(RUN_MARK, mark).length === 2, 10_000, 'both processes to start');
  const left = found(orphan, mark);
  expect(leftoverProcesses(mark).map((row) => row.pid)).toEqual([orphan]);
  expect(leftoverProcesses(randomUUID())).toEqual([]);

  expect((await endProcesses([left])).map((row) => row.pid)).toEqual([orphan]);
  expect(isRunning(left)).toBe(false);
  expect(isRunning(found(direct.pid!, mark))).toBe(true);
});

test.runIf(process.platform === 'linux')('the catalog fixture\'s waiting call ends once the process that started it is gone, without its file', async () => {
  const file = join(scratch, 'never');
  const mark = randomUUID();
  const shell = spawn('sh', ['-c', 'node -e "$0" "$@"; echo ended', WAIT_FOR_FILE_SCRIPT, file, '1.0.0'], { env: { ...process.env, [RUN_MARK]: mark }, stdio: 'ignore' });
  onTestFinished(() => endProcesses(processesWithEnv(RUN_MARK, mark)).then(() => undefined));
  await waitFor(() => existsSync(`${file}.started`), 10_000, 'the call to start waiting');
  const [waiting] = processTreeBelow(shell.pid!);
  expect(waiting?.argv.slice(0, 2)).toEqual(['node', '-e']);
  shell.kill('SIGKILL');
  await waitFor(() => !isRunning(waiting!), 10_000, 'the orphaned call to end');
  expect(existsSync(file)).toBe(false);
});
