// kill -9 of a real process between an execution's end and the handling of its event loses nothing.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { EventWorker, type DomainEvent } from '../../src/platform/events/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
// Inside the repository so the child resolves libsql from its node_modules.
const CHILD = join(ROOT, 'node_modules/.cache/svc-test/event-kill-child.mjs');
let dir: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, 'node_modules/.cache/svc-test'), { recursive: true });
  // Built from the sources now, so the child never runs stale code.
  await build({
    entryPoints: [join(import.meta.dirname, 'event-kill-child.ts')],
    outfile: CHILD,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['libsql'],
    loader: { '.sql': 'text' },
    logLevel: 'silent',
  });
  dir = mkdtempSync(join(tmpdir(), 'svc-event-kill-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runChildUntil(file: string, executionId: number, mode: 'end' | 'handle', line: RegExp): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CHILD, file, String(executionId), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (line.test(out)) child.kill('SIGKILL');
    });
    child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolvePromise() : reject(new Error(`child exited without being killed: ${out}${err}`))));
  });
}

test.each([
  ['after the end, before any handling', 'end', /ended\n/],
  ['while a worker was handling the event', 'handle', /handling execution_ended \d+\n/],
] as const)('kill -9 %s: the event is handled once the next worker runs', async (_label, mode, line) => {
  const file = join(dir, `${mode}.db`);
  const db: Db = openDatabase(file);
  try {
    const domain = new Domain(db);
    const workspace = domain.workspaces.create({ name: 'main' });
    const project = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: dir });
    const task = domain.tasks.create({ projectId: project.id, title: 'work' });
    const execution = domain.executions.create({ taskId: task.id, connectionId: null, connectionName: 'c', providerId: 'p', mode: 'fresh', sessionId: null });

    await runChildUntil(file, execution.id, mode, line);
    expect(domain.executions.get(execution.id).status).toBe('COMPLETED');

    const handled: DomainEvent[] = [];
    const worker = new EventWorker({ store: domain.events, owner: 'after-restart', pollMs: 20, leaseMs: 5_000, handle: async (event) => void handled.push(event) });
    worker.start();
    const deadline = Date.now() + 10_000;
    while (handled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    await worker.stop();

    expect(handled.map((e) => [e.type, e.payload.executionId])).toEqual([['execution_ended', execution.id]]);
    const [event] = domain.events.list({ type: 'execution_ended' });
    expect(event).toMatchObject({ status: 'done', attempts: mode === 'handle' ? 2 : 1 });
  } finally {
    db.close();
  }
});
