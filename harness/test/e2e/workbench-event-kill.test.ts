// A kill -9 of `svc serve` after a child's durable domain events are written but before they are
// handled (claimed, or handled but not yet marked done): after the restart each one still becomes
// exactly one WorkbenchEvent for the parent. SVC_TEST_CRASH_AT makes the service SIGKILL itself at
// that point of its event worker, exactly like `kill -9` from outside.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { transaction } from '@svc-org/host/platform/db';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../../../test/support/svc-process.js';
import { startServe, type ServeProcess } from '../../../test/support/svc-serve.js';
import { harnessPlugin } from '../../src/feature.js';

let svc: SvcSandbox;
const serves: ServeProcess[] = [];

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const newTask = async (title: string, parent?: number) =>
  Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo', ...(parent ? ['--parent', String(parent)] : [])]))![1]);

// The stand-in CLI draws no prompt a Workbench batch could wait for: a short terminals.promptWaitMs
// types it once the output is quiet, as an operator of such a CLI would.
async function serve(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_EVENT_POLL_MS: '100', SVC_WORKBENCH_POLL_MS: '200', SVC_TERMINAL_PROMPT_WAIT_MS: '500', ...env });
  serves.push(started);
  return started;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  mkdirSync(join(svc.home, 'repo'));
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', join(svc.home, 'repo')]);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

test.each([
  ['claimed them, before handling any', 'event:claimed', []],
  ['handled the first, before marking it done', 'event:handled', ['CHILD_TURN_ENDED']],
] as const)('kill -9 after the service %s: each event still becomes exactly one WorkbenchEvent', async (_label, point, beforeRestart) => {
  const parent = await newTask('Lead');
  const child = await newTask('Child', parent);
  const local: HostServices = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  try {
    const first = await serve({ SVC_TEST_CRASH_AT: point });
    // Another process writes the child's turn end and its FAILED execution end, in one transaction
    // (each with its domain event), while the service runs.
    const { notificationId, executionId } = transaction(local.db, () => {
      const execution = local.domain.executions.create({ taskId: child, connectionId: null, connectionName: 'c', providerId: 'p', mode: 'fresh', sessionId: null });
      const { notification } = local.domain.stopNotifications.add({ taskId: child, executionId: execution.id, sessionId: null, payload: { turn_id: 't1', last_assistant_message: 'blocked: which port?' } });
      local.domain.executions.finish(execution.id, { status: 'FAILED', endReason: 'exited', exitCode: 1, error: { code: 'cli_exited', message: 'exit 1' } });
      return { notificationId: notification.id, executionId: execution.id };
    });
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const domainEvents = () =>
      [`stop_hook_arrived:${notificationId}`, `execution_ended:${executionId}`].map((key) => local.domain.events.list().find((e) => e.dedupKey === key)!);
    const workbenchEvents = () =>
      (local.db.prepare('SELECT kind, priority FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent) as { kind: string; priority: string }[]).map((r) => r.kind);
    // The kill came where it was asked to: both events claimed, neither marked done.
    expect(domainEvents().map((e) => e.status)).toEqual(['processing', 'processing']);
    expect(workbenchEvents()).toEqual(beforeRestart);

    const second = await serve();
    await waitFor(() => domainEvents().every((e) => e.status === 'done'), 20_000, 'the restarted service to handle both events');
    expect(workbenchEvents()).toEqual(['CHILD_TURN_ENDED', 'EXECUTION_FAILED']);
    // Each was claimed again after the restart (its first attempt died with the service).
    expect(domainEvents().map((e) => e.attempts)).toEqual([2, 2]);
    await new Promise((r) => setTimeout(r, 500));
    expect(workbenchEvents()).toEqual(['CHILD_TURN_ENDED', 'EXECUTION_FAILED']);
    second.child.kill('SIGTERM');
    await second.exited;
  } finally {
    await local.close();
  }
}, 120_000);
