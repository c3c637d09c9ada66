import * as pty from 'node-pty';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;

beforeAll(async () => {
  svc = createSvcSandbox();
  expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider('echo')])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', 'svc-test.echo', '--yes'])).code).toBe(0);
});
afterAll(() => svc.cleanup());

/** The user's terminal: `svc session` runs inside a real PTY, as when typed at a shell. */
function openUserTerminal(args: string[]) {
  const term = pty.spawn(process.execPath, [SVC_BIN, ...args], {
    cols: 100,
    rows: 30,
    cwd: process.cwd(),
    env: svc.env as Record<string, string>,
  });
  let screen = '';
  term.onData((data) => (screen += data));
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => term.onExit(resolve));
  return { term, exited, screen: () => screen };
}

test('an interactive session runs through the host PTY with input, resize and Ctrl-C passed through', async () => {
  const user = openUserTerminal(['session', '--provider', 'svc-test.echo']);
  await waitFor(() => user.screen().includes('echo-cli interactive'), 15_000, 'the session banner');
  user.term.write('hello there\r');
  await waitFor(() => user.screen().includes('echo: hello there'), 5_000, 'the echoed line');

  user.term.write('size\r');
  await waitFor(() => user.screen().includes('size 100x30'), 5_000, 'the initial size');
  user.term.resize(120, 40);
  await new Promise((r) => setTimeout(r, 200));
  user.term.write('size\r');
  await waitFor(() => user.screen().includes('size 120x40'), 5_000, 'the resized terminal');

  // Ctrl-C goes to the CLI (which dies of SIGINT), not to svc: svc reports the CLI's status.
  user.term.write('\x03');
  const exit = await user.exited;
  expect(exit.exitCode).toBe(130);
});

test('resume passes the session id to the adapter', async () => {
  const user = openUserTerminal(['session', '--provider', 'svc-test.echo', '--resume', 'abc-123']);
  await waitFor(() => user.screen().includes('echo-cli interactive session=abc-123'), 15_000, 'the resumed session banner');
  user.term.write('/quit\r');
  const exit = await user.exited;
  expect(exit.exitCode).toBe(0);
});

test('without a terminal on stdin, svc session refuses at once with terminal_required', async () => {
  // Before: piped or /dev/null stdin started the CLI's interactive UI with nobody to answer it.
  const started = Date.now();
  const result = await svc.run(['session', '--provider', 'svc-test.echo'], { input: 'piped line\n' });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('error terminal_required');
  expect(result.stdout).not.toContain('echo-cli interactive');
  expect(Date.now() - started).toBeLessThan(10_000);
});

test('SIGTERM to svc ends the session and its process tree', async () => {
  const user = openUserTerminal(['session', '--provider', 'svc-test.echo']);
  await waitFor(() => user.screen().includes('echo-cli interactive'), 15_000, 'the banner');
  process.kill(user.term.pid, 'SIGTERM');
  const exit = await user.exited;
  expect(exit.exitCode !== 0 || exit.signal !== undefined).toBe(true);
});
