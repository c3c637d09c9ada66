// A channel-scoped caller's read scope is a property of each read's declaration, and the invoker runs
// it for every face alike: an HTTP or CLI invoker whose caller carries channel scopes is held to them
// as `svc mcp` is, on the parsed input (a project's name resolved to its record).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { OperationInvoker, type OperationCaller } from '../../src/operation-framework/index.js';

let home: string;
let services: HostServices;
let alpha: number;
let bravo: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-read-scope-'));
  services = await openHostServices({ env: { ...process.env, SVC_HOME: home }, builtins: false });
  for (const name of ['alpha', 'bravo']) mkdirSync(join(home, name));
  const workspace = services.domain.workspaces.create({ name: 'main' });
  alpha = services.domain.projects.create({ workspaceId: workspace.id, name: 'alpha', repoPath: join(home, 'alpha') }).id;
  bravo = services.domain.projects.create({ workspaceId: workspace.id, name: 'bravo', repoPath: join(home, 'bravo') }).id;
  services.domain.labels.create({ projectId: bravo, name: 'bravo-only' });
  services.domain.tasks.create({ projectId: alpha, title: 'alpha visible' });
  services.domain.tasks.create({ projectId: bravo, title: 'bravo secret plan' });
});

afterAll(async () => {
  await services?.close();
  rmSync(home, { recursive: true, force: true });
});

const invokerFor = (caller: OperationCaller) => new OperationInvoker({ registry: ALL_OPERATIONS, services: async () => services, caller });

describe('the read scope of a channel-scoped caller, through a plain invoker', () => {
  const scoped = () => invokerFor({ via: 'http', projectScopes: [{ workspaceId: null, projectId: alpha }] });

  test("refuses another project's labels by name and by id", async () => {
    for (const projectId of ['bravo', bravo, String(bravo)]) {
      await expect(scoped().invoke('list_labels', { projectId }), String(projectId)).rejects.toMatchObject({ code: 'project_out_of_scope' });
    }
    expect(await scoped().invoke('list_labels', { projectId: 'alpha' })).toEqual({ items: [] });
  });

  test('narrows a list to the projects in scope', async () => {
    const titles = (await scoped().invoke('list_tasks', {})).items.map((task: { title: string }) => task.title);
    expect(titles).toEqual(['alpha visible']);
  });

  test('a caller without channel scopes reads every project', async () => {
    const person = invokerFor({ via: 'http' });
    expect((await person.invoke('list_labels', { projectId: 'bravo' })).items.map((label: { name: string }) => label.name)).toEqual(['bravo-only']);
    expect((await person.invoke('list_tasks', {})).items).toHaveLength(2);
  });
});
