// The README as a newcomer meets it: its first block is the two set-up commands, and its tour runs as
// written from a scratch repository, through to the merge, on a machine with no AI CLI — the PATH holds
// only node and git — with the demo agent shipped with svc. Where the tour says to answer and review on
// the web page or from the terminal, the test takes the terminal's commands the README names.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runInTerminal, runShell, shellExamples, SVC_SHELL_ENV } from '../support/doc-examples.js';
import { SVC_BIN, waitFor } from '../support/svc-process.js';
import { until } from '../support/until.js';

const TOUR = 'A first run, with no AI account';

let scratch: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let serve: ChildProcess | undefined;
let serveConsole = '';

/** The folder of an executable found on this machine's PATH. */
function which(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    try {
      readFileSync(join(dir, name));
      return join(dir, name);
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not on PATH`);
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-tour-'));
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(which('git'), join(bin, 'git'));
  mkdirSync(join(scratch, 'home'));
  // The person's own git identity, as anyone who commits has one.
  writeFileSync(join(scratch, 'gitconfig'), '[user]\n\tname = Tour Person\n\temail = person@example.test\n');
  cwd = join(scratch, 'work');
  mkdirSync(cwd);
  env = {
    PATH: bin,
    HOME: join(scratch, 'home'),
    GIT_CONFIG_GLOBAL: join(scratch, 'gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    SVC_HOME: join(scratch, 'svc-home'),
    SVC_PORT: '0',
    ...SVC_SHELL_ENV,
  };
});

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve!.once('exit', resolve));
  }
  rmSync(scratch, { recursive: true, force: true });
});

async function ok(line: string): Promise<string> {
  const result = await runShell(line, { cwd, env });
  expect({ line, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ line, code: 0, stderr: '' });
  return result.stdout;
}

async function startService(): Promise<void> {
  serve = spawn(process.execPath, [SVC_BIN, 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  serve.stdout!.on('data', (d) => (out += d));
  serve.stderr!.on('data', (d) => (serveConsole += d));
  await waitFor(() => /serving on http:\/\/127\.0\.0\.1:\d+/.test(out) && /web UI: open http:\/\/127\.0\.0\.1:\d+\/login\?code=/.test(out), 30_000, 'svc serve');
}

/** What the tour says between starting the tasks and merging: answer each question, then review. */
async function answerAndReview(): Promise<void> {
  const open = await until(async () => {
    const rows = (await ok('svc harness list --status OPEN')).split('\n').slice(1).filter(Boolean);
    return rows.length === 2 ? rows : undefined;
  }, 60_000, 'both demo agents to ask their question');
  const ids = open.map((row) => row.split(/\s+/)[0]!).sort();
  await ok(`svc harness reply ${ids[0]} Hello from the tour`);
  await ok(`svc harness reply ${ids[1]} First release`);
  for (const task of [1, 2]) {
    await until(async () => {
      const [execution] = JSON.parse(await ok(`svc task show ${task} --json`)).executions;
      return execution.status === 'COMPLETED' ? execution : undefined;
    }, 60_000, `task ${task}'s agent to commit and end`);
  }
  const diff = await ok('svc task diff 1');
  expect(diff).toContain('+// Say hello in app.js (task 1)\n+console.log("Hello from the tour");\n');
}

test('the README starts with the two set-up commands, exactly', () => {
  expect(shellExamples(['README.md']).slice(0, 2).map((example) => example.line)).toEqual([
    'npm install -g pnpm@10 && pnpm install && pnpm start',
    'pnpm test',
  ]);
  expect(readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
});

test("the README's tour runs as written with no AI CLI on the machine, through to the merge", { timeout: 600_000 }, async () => {
  const tour = shellExamples(['README.md']).filter((example) => example.section === TOUR).map((example) => example.line);
  expect(tour.filter((line) => line.startsWith('svc ')).length).toBeLessThanOrEqual(10);
  expect(tour).toContain('svc task merge 1');
  let reviewed = false;
  for (const line of tour) {
    if (line === 'svc serve') {
      await startService();
      continue;
    }
    if (/^svc ext enable \S+$/.test(line)) {
      // Without --yes it lists what the provider may run and asks y/N on the terminal.
      expect(await runInTerminal(line, '[y/N]', 'y\r', { cwd, env }), line).toBe(0);
      continue;
    }
    if (line.startsWith('svc task merge') && !reviewed) {
      await answerAndReview();
      reviewed = true;
    }
    await ok(line);
    // A line that changes into a folder leaves the next ones there, as in the person's shell.
    const into = /(?:^|&&)\s*cd (\S+)\s*(?:&&|$)/.exec(line);
    if (into) cwd = join(cwd, into[1]!);
  }
  expect(reviewed).toBe(true);
  // "and `svc task merge 2` the same way"
  await ok('svc task merge 2');
  expect(readFileSync(join(cwd, 'app.js'), 'utf8')).toBe('console.log("hello");\n// Say hello in app.js (task 1)\nconsole.log("Hello from the tour");\n');
  expect(readFileSync(join(cwd, 'write-a-changelog.md'), 'utf8')).toBe('# Write a changelog\n\nFirst release\n');
  // The service's console said nothing through the tour but its start notes.
  expect(serveConsole.split('\n').filter((line) => /^\[\w+\]/.test(line))).toEqual([]);
  expect((await ok('git log --first-parent --format=%s')).split('\n').filter(Boolean)).toEqual([
    'Merge task 2: Write a changelog (svc/2-write-a-changelog)',
    'Merge task 1: Say hello in app.js (svc/1-say-hello-in-app-js)',
    'start',
  ]);
});
