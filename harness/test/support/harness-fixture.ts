// A real host over a temp SVC_HOME (real libsql file) with one workspace, project and task, and an
// operation context for calling harness operations the way an adapter does.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import type { AnyOperation, OperationContext } from '@svc-org/host/operation-framework';
import { harnessPlugin } from '../../src/feature.js';
import { routingStores } from '../../src/routing/index.js';
import { runOperation } from './run-operation.js';

export interface HarnessFixture {
  home: string;
  services: HostServices;
  projectId: number;
  workspaceId: number;
  newTask(title?: string): number;
  /** A RUNNING execution row for the task (no PTY), as a running terminal has. */
  running(taskId: number): number;
  call<T = any>(operation: AnyOperation, input: unknown, caller?: Partial<OperationContext['caller']>): Promise<T>;
  close(): Promise<void>;
}

export async function openHarnessFixture(): Promise<HarnessFixture> {
  const home = mkdtempSync(join(tmpdir(), 'svc-harness-'));
  const services = await openHostServices({ env: { ...process.env, SVC_HOME: home, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  const repo = join(home, 'repo');
  mkdirSync(repo);
  const workspace = services.domain.workspaces.create({ name: 'main' });
  const project = services.domain.projects.create({ workspaceId: workspace.id, name: 'demo', repoPath: repo });
  let n = 0;
  return {
    home,
    services,
    projectId: project.id,
    workspaceId: workspace.id,
    newTask: (title) => services.domain.tasks.create({ projectId: project.id, title: title ?? `task ${++n}` }).id,
    running: (taskId) =>
      services.domain.executions.create({ taskId, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null }).id,
    call: (operation, input, caller = {}) =>
      runOperation(operation, input, { services, caller: { via: 'internal', ...caller }, signal: new AbortController().signal, served: ALL_OPERATIONS }) as Promise<any>,
    async close() {
      await services.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A Hermes gateway and its Telegram channel with `owner` as home and owner, scoped to the fixture's workspace. */
export function addTelegramChannel(fx: HarnessFixture, owner: string): void {
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: owner, ownerId: owner, trustedGroups: [], projectId: null, workspaceId: fx.workspaceId } as never);
}
