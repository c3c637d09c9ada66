import { describe, expect, test } from 'vitest';
import { abortReason, filterProviderEnvPatch, type JsonValue } from '../src/index.js';
import { createRealProcessHost, createTestHost } from '../src/testing/index.js';

describe('createTestHost', () => {
  test('enforces permissions like the real host', async () => {
    const host = createTestHost({ permissions: [] });
    await expect(host.host.process.spawn({ command: 'x', args: [] })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(host.host.config.get()).rejects.toMatchObject({ code: 'permission_denied' });
    expect(host.spawned).toEqual([]);
  });

  test('host.files works only inside an integration call, which needs its own permission', async () => {
    const host = createTestHost({ permissions: ['integration:mcp'], files: { '/home/test/.cli.json': '{}' } });
    // Granting an integration permission does not open the files API to ordinary calls.
    await expect(host.context().host.files.readText('/home/test/.cli.json')).rejects.toMatchObject({
      code: 'permission_denied',
      message: 'files.readText is available only inside an integration call (mcp, hooks, skills)',
    });
    expect(await host.context({ integration: 'mcp' }).host.files.readText('/home/test/.cli.json')).toBe('{}');
    expect(() => host.context({ integration: 'hooks' })).toThrow('requires the permission "integration:hooks"');
  });

  test('replays the scripted process output and exit code', async () => {
    const host = createTestHost({ spawn: (spec) => ({ stdout: [`ran ${spec.args.join(' ')}\n`, 'more\n'], stderr: 'warn\n', exitCode: 3 }) });
    const result = await host.host.process.run({ command: 'cli', args: ['a', 'b'] });
    expect(result).toEqual({ exitCode: 3, signal: null, stdout: 'ran a b\nmore\n', stderr: 'warn\n' });
  });

  test('plays chunks with their delays', async () => {
    const host = createTestHost({ spawn: () => ({ stdout: ['a', { text: 'b', delayMs: 40 }] }) });
    const child = await host.host.process.spawn({ command: 'cli', args: [] });
    const seen: Array<[string, number]> = [];
    const started = Date.now();
    for await (const chunk of child.stdout) seen.push([chunk, Date.now() - started]);
    expect(seen.map(([chunk]) => chunk)).toEqual(['a', 'b']);
    expect(seen[1]![1]).toBeGreaterThanOrEqual(35);
  });

  test('records kill() and ends the process with that signal', async () => {
    const host = createTestHost({ spawn: () => ({ hang: true }) });
    const child = await host.host.process.spawn({ command: 'cli', args: [], stdin: 'prompt' });
    await child.kill('SIGINT');
    expect(await child.exited).toEqual({ exitCode: null, signal: 'SIGINT' });
    expect(host.processes[0]).toMatchObject({ kills: ['SIGINT'], stdin: ['prompt'], exit: { signal: 'SIGINT' } });
  });

  test('a hanging process ends when the signal aborts, as a cancel or as the deadline', async () => {
    const host = createTestHost({ spawn: () => ({ stdout: 'start\n', hang: true }) });
    const controller = new AbortController();
    const child = await host.host.process.spawn({ command: 'cli', args: [] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await child.exited).toMatchObject({ exitCode: null, killedBy: 'cancelled' });

    const ctx = host.context({ timeoutMs: 10 });
    const late = await ctx.host.process.spawn({ command: 'cli', args: [] }, { signal: ctx.signal });
    expect(await late.exited).toMatchObject({ exitCode: null, killedBy: 'timeout' });
    expect(abortReason(ctx.signal)).toBe('timeout');
  });

  test('storage keeps JSON and names the type read back', async () => {
    interface Ledger {
      turns: number;
      last?: string;
    }
    const host = createTestHost();
    const ledger: Ledger = { turns: 2 };
    await host.host.storage.set('ledger', ledger);
    const back = await host.host.storage.get<Ledger>('ledger');
    expect(back?.turns).toBe(2);
    // @ts-expect-error a function is not JSON
    await expect(host.host.storage.set('f', () => 1)).rejects.toMatchObject({ code: 'invalid_request' });
    host.host.log.warn('careful', { n: 1 });
    expect(await host.host.storage.keys('')).toEqual(['ledger']);
    expect(host.logs).toEqual([{ level: 'warn', message: 'careful', fields: { n: 1 } }]);
  });

  test('config.get names the settings type', async () => {
    const host = createTestHost({ permissions: ['config:provider'], config: { model: 'large' } satisfies Record<string, JsonValue> });
    const settings = await host.host.config.get<{ model?: string }>();
    expect(settings.model).toBe('large');
  });
});

describe('createRealProcessHost', () => {
  test('spawns real processes, records them, and kills them on cancel', async () => {
    const host = createRealProcessHost({ env: { GREETING: 'hello' } });
    const ctx = host.context();
    const run = await ctx.host.process.run({ command: process.execPath, args: ['-e', 'process.stdout.write(process.env.GREETING + process.env.EXTRA)'], envPatch: { EXTRA: '!' } });
    expect(run).toMatchObject({ exitCode: 0, stdout: 'hello!' });

    const call = host.call();
    const child = await call.context.host.process.spawn({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { signal: call.context.signal });
    call.cancel();
    expect(await child.exited).toMatchObject({ exitCode: null, signal: 'SIGTERM', killedBy: 'cancelled' });
    expect(host.processes).toHaveLength(2);
  });

  test("leaves out of envPatch what svc leaves out: the host's SVC_* keys and variables that run other code", async () => {
    const host = createRealProcessHost({ env: { PATH: process.env.PATH, SVC_HOME: undefined, NODE_OPTIONS: undefined, LD_PRELOAD: undefined } });
    const script = "process.stdout.write(JSON.stringify([process.env.NODE_OPTIONS, process.env.LD_PRELOAD, process.env.SVC_HOME, process.env.PATH === process.env.KEPT_PATH, process.env.EXTRA]))";
    const run = await host.context().host.process.run({
      command: process.execPath,
      args: ['-e', script],
      envPatch: { NODE_OPTIONS: '--max-old-space-size=64', LD_PRELOAD: '/nonexistent.so', SVC_HOME: '/tmp', PATH: '/nonexistent', KEPT_PATH: process.env.PATH ?? '', EXTRA: '!' },
    });
    expect(JSON.parse(run.stdout)).toEqual([null, null, null, true, '!']);
    expect(filterProviderEnvPatch({ LD_PRELOAD: 'x', node_options: 'y', GIT_SSH_COMMAND: 'z', ANTHROPIC_API_KEY: 'k' })).toEqual({ env: { ANTHROPIC_API_KEY: 'k' }, dropped: ['LD_PRELOAD', 'node_options', 'GIT_SSH_COMMAND'] });
  });
});
