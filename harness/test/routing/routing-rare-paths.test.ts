// The less-travelled paths of the gateway operations, each driven through the operation a plugin,
// the Workbench or a person calls, over a real libsql database: the parent task completing its
// child's work, a diagnosis through a Workbench batch, a gateway whose client cannot even start, a
// log longer than the window health reads, a failed reply queued again, the routing rungs after the
// bindings, and remote projects cloned with the real system git from a local bare repository.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { transaction } from '@svc-org/host/platform/db';
import { OutboxStore } from '../../src/outbox/outbox-store.js';
import {
  completeGatewayDiscussion,
  completeGatewayWork,
  diagnoseGatewayRequest,
  getGatewayRuntimeHealth,
  provisionRemoteProject,
  recoverGatewayRequest,
  routeGatewayMessage,
  routeGatewayQuery,
  routingStores,
} from '../../src/routing/index.js';
import { addTelegramChannel, openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
let fx: HarnessFixture;
const msg = (id: string, extra: Record<string, unknown> = {}) => ({ platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: id, text: 'hello there', ...extra });
const owner = { platform: 'telegram', chatId: OWNER, senderId: OWNER };
const count = (sql: string, ...args: unknown[]) => (fx.services.db.prepare(sql).get(...args) as { n: number }).n;

beforeEach(async () => {
  fx = await openHarnessFixture();
  addTelegramChannel(fx, OWNER);
});
afterEach(async () => fx.close());

describe('complete_gateway_work from the parent task', () => {
  test("a task's parent (not the project's Workbench) completes its child's work from its own terminal", async () => {
    const parent = fx.newTask('Lead');
    const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
    const done = await fx.call(completeGatewayWork, { taskId: child, result: 'all done' }, { via: 'mcp', taskId: parent });
    expect(done).toMatchObject({ taskId: child, status: 'DONE', completed: 'queued' });
    expect(fx.services.domain.tasks.get(child).status).toBe('DONE');
    // Any other task terminal is still refused, and changes nothing.
    const sibling = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Sibling', parentTaskId: parent }).id;
    await expect(fx.call(completeGatewayWork, { taskId: sibling, result: 'x' }, { via: 'mcp', taskId: fx.newTask('Stranger') })).rejects.toMatchObject({ code: 'not_the_workbench' });
    expect(fx.services.domain.tasks.get(sibling).status).not.toBe('DONE');
  });
});

describe('diagnose_gateway_request', () => {
  test('a request whose Workbench event went out in a batch shows the batch stage with its state', async () => {
    const routed = await fx.call(routeGatewayMessage, msg('b1', { project: 'demo' }));
    const { workbench } = routingStores(fx.services);
    const batchId = transaction(fx.services.db, () => workbench.claimBatch(routed.workbenchTaskId, 60_000, () => 'review batch')!.batchId);
    workbench.delivered(batchId);
    const diagnosis = await fx.call(diagnoseGatewayRequest, { ...owner, inboundId: routed.inboundId });
    const stages = diagnosis.stages.map((s: { stage: string }) => s.stage);
    expect(stages.indexOf('workbench_batch')).toBe(stages.indexOf('workbench_event') + 1);
    expect(diagnosis.stages.find((s: { stage: string }) => s.stage === 'workbench_batch')).toMatchObject({ state: 'DELIVERED', detail: `batch ${batchId}` });
  });
});

describe('get_gateway_runtime_health', () => {
  test('a gateway whose client cannot start (a malformed WebSocket URL) is unreachable, with no secret in the answer', async () => {
    routingStores(fx.services).gateways.add({ name: 'broken', kind: 'openclaw', url: 'ws://', token: 'tok-secret-0123456789' } as never);
    const health = await fx.call(getGatewayRuntimeHealth, {});
    expect(health.gateways.find((g: { name: string }) => g.name === 'broken')).toMatchObject({ state: 'unreachable', detail: 'error', lastError: null });
    expect(JSON.stringify(health)).not.toContain('tok-secret-0123456789');
  });

  test('a log longer than the window read: the cut first line is no record, the lines inside it are', async () => {
    await expect(fx.call(routeGatewayMessage, msg('s1', { project: 'nope' }))).rejects.toMatchObject({ code: expect.any(String) });
    const stuck = (fx.services.db.prepare("SELECT id FROM harness_gateway_inbound WHERE state = 'FAILED'").get() as { id: number }).id;
    // The window is the last 512 KiB; the line straddling its start ends in what would parse as a record.
    const window = 512 * 1024;
    const cutTail = `${JSON.stringify({ inboundId: stuck, msg: 'cut line' })}\n`;
    const kept = `${JSON.stringify({ inboundId: stuck, msg: 'kept line' })}\n`;
    const fillerLine = `${JSON.stringify({ msg: 'other', pad: 'x'.repeat(200) })}\n`;
    let filler = '';
    while (cutTail.length + filler.length + fillerLine.length + kept.length <= window) filler += fillerLine;
    filler += `${' '.repeat(window - cutTail.length - filler.length - kept.length - 1)}\n`;
    const text = `${'y'.repeat(1000)}${cutTail}${filler}${kept}`;
    expect(Buffer.byteLength(text) - window).toBe(1000);
    // The service's own records of the failure are written out first, so none lands after ours.
    await fx.services.logger.close();
    mkdirSync(join(fx.home, 'logs'), { recursive: true });
    writeFileSync(join(fx.home, 'logs', 'svc.log'), text);
    const health = await fx.call(getGatewayRuntimeHealth, {});
    const request = health.stuckRequests.find((r: { inboundId: number }) => r.inboundId === stuck);
    expect(request.logLines).toEqual([expect.stringContaining('kept line')]);
  });
});

describe('recover_gateway_request', () => {
  test('a reply whose delivery FAILED is queued again, once', async () => {
    const routed = await fx.call(routeGatewayMessage, msg('r1', { project: 'demo' }));
    const reply = await fx.call(completeGatewayDiscussion, { inboundId: routed.inboundId, text: 'here is the answer' });
    const outbox = new OutboxStore(fx.services.db, fx.services.domain);
    const entry = outbox.claim('test-owner', 60_000)!;
    expect(entry.messageId).toBe(reply.messageId);
    outbox.record(entry, { kind: 'refused', code: 'bad_target', message: 'chat not found' }, { platform: 'telegram', chatId: OWNER, threadId: null });
    expect(count("SELECT COUNT(*) AS n FROM harness_outbound WHERE message_id = ? AND state = 'FAILED'", reply.messageId)).toBe(1);
    expect(await fx.call(recoverGatewayRequest, { ...owner, inboundId: routed.inboundId })).toMatchObject({ inboundId: routed.inboundId, delivery: 'requeued' });
    expect(count("SELECT COUNT(*) AS n FROM harness_outbound WHERE message_id = ? AND state = 'PENDING'", reply.messageId)).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM harness_messages WHERE id = ? AND status = 'PENDING_DELIVERY'", reply.messageId)).toBe(1);
    // A second recovery finds it already queued and leaves it so.
    expect(await fx.call(recoverGatewayRequest, { ...owner, inboundId: routed.inboundId })).toMatchObject({ delivery: 'PENDING' });
  });
});

describe('routing rungs after the bindings', () => {
  test('a message naming a project in its text is routed by identify_project; a later one in the DM by the recent project', async () => {
    const beta = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: join(fx.home, 'repo') });
    expect(await fx.call(routeGatewayMessage, msg('i1', { text: 'how is beta doing?' }))).toMatchObject({ status: 'routed', projectId: beta.id, routedBy: 'identify_project' });
    expect(await fx.call(routeGatewayMessage, msg('i2', { text: 'zzz qqq' }))).toMatchObject({ status: 'routed', projectId: beta.id, routedBy: 'recent_project' });
  });

  test('with several projects, no binding, no recent project and nothing matching, the caller is asked which project is meant', async () => {
    fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: join(fx.home, 'repo') });
    const answer = await fx.call(routeGatewayMessage, msg('n1', { text: 'zzz qqq' }));
    expect(answer).toMatchObject({ status: 'needs_project', projectId: null, routedBy: null, candidates: [] });
    expect(count("SELECT COUNT(*) AS n FROM harness_gateway_inbound WHERE result = 'needs_project'")).toBe(1);
    expect(count('SELECT COUNT(*) AS n FROM harness_workbench_events')).toBe(0);
  });

  test('two projects whose repositories match the text equally: neither is picked, both are offered', async () => {
    mkdirSync(join(fx.home, 'beta'));
    for (const dir of ['repo', 'beta']) writeFileSync(join(fx.home, dir, 'README.md'), 'The invoice exporter writes CSV files.\n');
    const beta = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: join(fx.home, 'beta') });
    const answer = await fx.call(routeGatewayMessage, msg('n2', { text: 'the invoice exporter is slow' }));
    expect(answer).toMatchObject({ status: 'needs_project', projectId: null, routedBy: null });
    expect(answer.candidates.map((c: { projectId: number }) => c.projectId).sort()).toEqual([fx.projectId, beta.id].sort());
    expect(count('SELECT COUNT(*) AS n FROM harness_workbench_events')).toBe(0);
  });

  test('route_gateway_query answers from a project its text names', async () => {
    const beta = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: join(fx.home, 'repo') });
    fx.services.domain.tasks.create({ projectId: beta.id, title: 'Beta report' });
    const answer = await fx.call(routeGatewayQuery, msg('q1', { text: 'what is open in beta?' }));
    expect(answer).toMatchObject({ projectId: beta.id, projectName: 'beta', context: expect.stringContaining('Beta report') });
  });
});

describe('provision_remote_project with a local bare repository', () => {
  /** A bare repository at <home>/<dir>/remote.git whose one commit holds a README with `content`. */
  function bareRepo(dir = 'origin', content = 'hi\n'): string {
    const source = join(fx.home, dir, 'src-repo');
    mkdirSync(source, { recursive: true });
    execFileSync('git', ['init', '-q', source]);
    writeFileSync(join(source, 'README.md'), content);
    execFileSync('git', ['-C', source, '-c', 'user.email=a@b', '-c', 'user.name=a', 'add', '.']);
    execFileSync('git', ['-C', source, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init']);
    const bare = join(fx.home, dir, 'remote.git');
    execFileSync('git', ['clone', '-q', '--bare', source, bare]);
    return bare;
  }

  test("clones into the service's own data directory", async () => {
    const made = await fx.call(provisionRemoteProject, { ...owner, remoteUrl: bareRepo(), mode: 'FULL_WORK' });
    expect(made).toMatchObject({ created: true, name: 'remote', mode: 'FULL_WORK', repoPath: expect.stringContaining(join(fx.home, 'remote-projects')) });
    expect(existsSync(join(made.repoPath, 'README.md'))).toBe(true);
  });

  test('two remotes that end alike (same name, other workspaces) get a clone each', async () => {
    const other = fx.services.domain.workspaces.create({ name: 'second' });
    const a = await fx.call(provisionRemoteProject, { ...owner, remoteUrl: bareRepo('alice', 'from alice\n'), mode: 'REVIEW_ONLY' });
    const b = await fx.call(provisionRemoteProject, { ...owner, remoteUrl: bareRepo('carol', 'from carol\n'), mode: 'REVIEW_ONLY', workspaceId: other.id });
    expect(b).toMatchObject({ created: true, name: 'remote' });
    expect(b.repoPath).not.toBe(a.repoPath);
    expect(readFileSync(join(a.repoPath, 'README.md'), 'utf8')).toBe('from alice\n');
    expect(readFileSync(join(b.repoPath, 'README.md'), 'utf8')).toBe('from carol\n');
  });

  test('a path that does not exist is clone_failed: nothing is registered and no directory is left', async () => {
    const missing = join(fx.home, 'no-such-repo.git');
    await expect(fx.call(provisionRemoteProject, { ...owner, remoteUrl: missing, mode: 'REVIEW_ONLY' })).rejects.toMatchObject({ code: 'clone_failed' });
    expect(count('SELECT COUNT(*) AS n FROM harness_remote_projects')).toBe(0);
    expect(fx.services.domain.projects.list().map((p) => p.name)).toEqual(['demo']);
    const root = join(fx.home, 'remote-projects');
    expect(existsSync(root) ? execFileSync('ls', ['-A', root]).toString() : '').toBe('');
  });

  test('with no workspace to register in, it is refused before anything is cloned', async () => {
    fx.services.domain.projects.remove(fx.projectId);
    fx.services.domain.workspaces.remove(fx.workspaceId);
    // The workspace's channel went with it; a global channel still reaches the owner.
    const stores = routingStores(fx.services);
    stores.channels.add({ name: 'global', gatewayId: stores.gateways.list()[0]!.id, platform: 'telegram', homeTo: OWNER, ownerId: OWNER, trustedGroups: [], projectId: null, workspaceId: null } as never);
    await expect(fx.call(provisionRemoteProject, { ...owner, remoteUrl: bareRepo(), mode: 'REVIEW_ONLY' })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { fix: expect.stringContaining('workspace create') },
    });
    expect(existsSync(join(fx.home, 'remote-projects'))).toBe(false);
  });

  test('a second call for the same remote while the first is cloning: both answer the one project, registered once', async () => {
    const bare = bareRepo();
    // A post-checkout hook holds the first clone at its end until the second call has registered.
    const hooks = join(fx.home, 'hooks');
    mkdirSync(hooks);
    const started = join(fx.home, 'clone-started');
    const go = join(fx.home, 'clone-go');
    writeFileSync(join(hooks, 'post-checkout'), `#!/bin/sh\ntouch '${started}'\ni=0\nwhile [ ! -e '${go}' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done\n`);
    chmodSync(join(hooks, 'post-checkout'), 0o755);
    const saved = { count: process.env.GIT_CONFIG_COUNT, key: process.env.GIT_CONFIG_KEY_0, value: process.env.GIT_CONFIG_VALUE_0 };
    Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: hooks });
    try {
      const input = { ...owner, remoteUrl: bare, mode: 'REVIEW_ONLY' };
      const first = fx.call(provisionRemoteProject, input);
      for (let i = 0; !existsSync(started); i++) {
        if (i > 600) throw new Error('the clone never reached its post-checkout hook');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const second = await fx.call(provisionRemoteProject, input);
      expect(second).toMatchObject({ created: true });
      writeFileSync(go, '');
      expect(await first).toMatchObject({ created: false, projectId: second.projectId, repoPath: second.repoPath });
      expect(count('SELECT COUNT(*) AS n FROM harness_remote_projects')).toBe(1);
      expect(fx.services.domain.projects.list().filter((p) => p.name === 'remote')).toHaveLength(1);
    } finally {
      writeFileSync(go, '');
      for (const [name, value] of [['GIT_CONFIG_COUNT', saved.count], ['GIT_CONFIG_KEY_0', saved.key], ['GIT_CONFIG_VALUE_0', saved.value]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
