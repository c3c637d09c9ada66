import { cliStreamEvents } from '@svc-org/ai-sdk';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost, createRealProcessHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { STAND_IN } from './support/paths.js';
import { recordingScript } from './support/recordings.js';
import { PERMISSIONS } from './support/run-adapter.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cancellation', () => {
  test('offline, codex retries forever: the signal ends the query with finish cancelled', async () => {
    const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, spawn: () => recordingScript('offline') });
    const controller = new AbortController();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(new CodexAdapter().stream({ prompt: 'Say hello', cwd: '/w' }, test.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'session') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: '01a2078e-733e-7850-b4a2-bf18a36b5e2f' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('the real stand-in that never exits is killed by the signal, and its process is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-codex-cancel-'));
    dirs.push(dir);
    const pidfile = join(dir, 'pids');
    const test = createRealProcessHost({
      permissions: [...PERMISSIONS],
      cli: { command: STAND_IN, version: '0.169.0' },
      env: { CODEX_FAKE_SCENARIO: 'hang', CODEX_FAKE_PIDFILE: pidfile },
    });
    const controller = new AbortController();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(new CodexAdapter().stream({ prompt: 'Say hello', cwd: dir }, test.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'session') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: '01a2078e-733e-7850-b4a2-bf18a36b5e2f' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
    const pid = Number(readFileSync(pidfile, 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  test('a consumer that stops reading kills the child', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-codex-break-'));
    dirs.push(dir);
    const pidfile = join(dir, 'pids');
    const test = createRealProcessHost({
      permissions: [...PERMISSIONS],
      cli: { command: STAND_IN, version: '0.169.0' },
      env: { CODEX_FAKE_SCENARIO: 'offline', CODEX_FAKE_PIDFILE: pidfile },
    });
    for await (const event of cliStreamEvents(new CodexAdapter().stream({ prompt: 'Say hello', cwd: dir }, test.context()))) {
      if (event.type === 'session') break;
    }
    const pid = Number(readFileSync(pidfile, 'utf8').trim());
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    expect(existsSync(pidfile)).toBe(true);
  });
});
