// Issue 2 figures: Host Context round trip vs a raw MessagePort round trip; preflight + worker start
// + import to first call vs a bare Worker to first message; stream events per second across the line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { openDatabase } from '@svc-org/host/platform/db';
import { ExtensionRuntime, isolationEnforcement, PluginStorageStore, probeIsolation, type LoadableExtension } from '@svc-org/host/features/extensions/runtime';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { Logger } from '@svc-org/host/platform/logging';
import { ProviderStatsRecorder, ProviderStatsStore } from '@svc-org/host/features/extensions/stats';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { FIXTURE_CLIS, REPO_ROOT } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

async function rawMessagePortRoundTrip(n: number): Promise<number> {
  // The worker asks, the main thread answers: the same direction as a Host Context call.
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (message: { id: number }) => port1.postMessage({ id: message.id, ok: true, v: undefined }));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const port = workerData.port; let resolve; port.on('message', (m) => resolve(m));
     const ask = (id) => new Promise((r) => { resolve = r; port.postMessage({ t: 'req', id, m: '$storage.get', a: ['rtt'] }); });
     (async () => { for (let i = 0; i < 200; i++) await ask(i);
       const t = performance.now(); for (let i = 0; i < ${n}; i++) await ask(i);
       parentPort.postMessage(((performance.now() - t) * 1000) / ${n}); port.close(); })();`,
    { eval: true, workerData: { port: port2 }, transferList: [port2] },
  );
  const micros = await new Promise<number>((resolve) => worker.once('message', resolve));
  port1.close();
  await worker.terminate();
  return micros;
}

async function bareWorkerFirstMessage(): Promise<number> {
  const started = performance.now();
  const worker = new Worker(`require('node:worker_threads').parentPort.postMessage('up')`, { eval: true });
  await new Promise((resolve) => worker.once('message', resolve));
  const ms = performance.now() - started;
  await worker.terminate();
  return ms;
}

async function drain(stream: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

/**
 * Four 500 ms calls on one provider thread (maxThreads 1, concurrentTasksPerWorker 4) beside one
 * such call alone: with calls running concurrently the four take about as long as one.
 */
async function concurrentCalls(home: string): Promise<BenchResult[]> {
  const db = openDatabase(join(home, 'concurrency.db'));
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger(),
    platform: { os: process.platform, arch: process.arch, homeDir: home, hostVersion: 'bench', nodeVersion: process.versions.node },
    limits: { maxThreads: 1, concurrentTasksPerWorker: 4 },
  });
  const entryPath = join(REPO_ROOT, 'host/test/runtime/fixtures/limits-provider.mjs');
  const extension: LoadableExtension = { id: 'svc-bench.limits', entryPath, revision: 'bench', granted: new Set(), cli: { command: 'none', version: '1.0.0' } };
  const call = () => runtime.call(extension, 'generate', [{ prompt: 'wait 500', cwd: home }]);
  try {
    await call(); // thread start and import are not what this measures
    const four: number[] = [];
    const one: number[] = [];
    for (let round = 0; round < 3; round++) {
      let started = performance.now();
      await Promise.all([call(), call(), call(), call()]);
      four.push(performance.now() - started);
      started = performance.now();
      await call();
      one.push(performance.now() - started);
    }
    const ours = median(four);
    const baseline = median(one);
    const results: BenchResult[] = [
      { name: '4 concurrent 500 ms calls on one provider thread', unit: 'ms', ours, baseline, baselineName: 'one such call alone', ratio: ours / baseline, goal: '≤ 1.3× (4.0× when calls run one at a time)', notes: `threads used: ${runtime.threadCount(extension.id)}` },
    ];

    // The RPC alone: config.get answers from memory here (no connection), so nothing but the
    // Host Context path (message, permission gate, argument schema, reply) is measured.
    const withConfig: LoadableExtension = { ...extension, granted: new Set(['config:provider']) };
    const n = 20_000;
    const rpc: number[] = [];
    const raw: number[] = [];
    for (let round = 0; round < 6; round++) {
      const events: CliStreamEvent[] = [];
      for await (const event of runtime.stream(withConfig, { prompt: `rtt ${n} config`, cwd: home })) events.push(event);
      const ours = Number((events.find((e) => e.type === 'text') as { text: string }).text);
      const port = await rawMessagePortRoundTrip(n);
      if (round === 0) continue;
      rpc.push(ours);
      raw.push(port);
    }
    const rpcUs = median(rpc);
    const rawUs = median(raw);
    results.push({ name: 'Host Context round trip, RPC only (config.get answered from memory)', unit: 'µs', ours: rpcUs, baseline: rawUs, baselineName: 'raw MessagePort round trip', ratio: rpcUs / rawUs, goal: '≤ 1.3×' });
    return results;
  } finally {
    await runtime.close();
    db.close();
  }
}

/**
 * What the running-provider statistics cost, beside the RPC figure: the same config.get round trip
 * (each one counted as a use of `config:provider`) and the same short adapter call, with the
 * recorder and without it, in one run; the batches are written by its timer as in the service.
 */
async function statsCost(home: string): Promise<BenchResult[]> {
  const db = openDatabase(join(home, 'stats.db'));
  const logger = new Logger();
  const platform = { os: process.platform, arch: process.arch, homeDir: home, hostVersion: 'bench', nodeVersion: process.versions.node };
  const recorder = new ProviderStatsRecorder({ store: new ProviderStatsStore(db), logger });
  const counted = new ExtensionRuntime({ storage: new PluginStorageStore(db), logger, platform, stats: recorder, limits: { maxThreads: 1 } });
  const plain = new ExtensionRuntime({ storage: new PluginStorageStore(db), logger, platform, limits: { maxThreads: 1 } });
  const entryPath = join(REPO_ROOT, 'host/test/runtime/fixtures/limits-provider.mjs');
  const extension: LoadableExtension = { id: 'svc-bench.stats', entryPath, revision: 'bench', granted: new Set(['config:provider']), cli: { command: 'none', version: '1.0.0' } };
  const rtt = async (runtime: ExtensionRuntime, n: number) => {
    const events: CliStreamEvent[] = [];
    for await (const event of runtime.stream(extension, { prompt: `rtt ${n} config`, cwd: home })) events.push(event);
    return Number((events.find((e) => e.type === 'text') as { text: string }).text);
  };
  const calls = async (runtime: ExtensionRuntime, n: number) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await runtime.call(extension, 'generate', [{ prompt: 'wait 0', cwd: home }]);
    return ((performance.now() - started) * 1000) / n;
  };
  try {
    const withRpc: number[] = [];
    const withoutRpc: number[] = [];
    const withCall: number[] = [];
    const withoutCall: number[] = [];
    for (let round = 0; round < 6; round++) {
      const a = await rtt(counted, 20_000);
      const b = await rtt(plain, 20_000);
      const c = await calls(counted, 300);
      const d = await calls(plain, 300);
      if (round === 0) continue;
      withRpc.push(a);
      withoutRpc.push(b);
      withCall.push(c);
      withoutCall.push(d);
    }
    recorder.flush();
    const rpcOurs = median(withRpc);
    const rpcBase = median(withoutRpc);
    const callOurs = median(withCall);
    const callBase = median(withoutCall);
    return [
      { name: 'Host Context round trip with running-provider statistics (each call counted as permission use)', unit: 'µs', ours: rpcOurs, baseline: rpcBase, baselineName: 'the same without statistics', ratio: rpcOurs / rpcBase, goal: '≤ 1.05×, inside the round-trip goal' },
      { name: 'short adapter call with running-provider statistics (latency, outcome, memory counted)', unit: 'µs', ours: callOurs, baseline: callBase, baselineName: 'the same without statistics', ratio: callOurs / callBase, goal: '≤ 1.05×', notes: 'counted in memory on the call path; written once a second in one transaction' },
    ];
  } finally {
    await counted.close();
    await plain.close();
    recorder.close();
    db.close();
  }
}

/** A bare Node child with an IPC channel: spawn → first message, then `n` ping-pongs (µs each). */
async function bareChildProcess(n: number, flags: string[]): Promise<{ firstMs: number; rttUs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, '-e', "process.on('message', (m) => process.send(m)); process.send('up')"], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  await new Promise((resolve) => child.once('message', resolve));
  const firstMs = performance.now() - started;
  const ask = (id: number) => new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ t: 'req', id, m: '$config.get', a: [] });
  });
  for (let i = 0; i < 200; i++) await ask(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) await ask(i);
  const rttUs = ((performance.now() - t) * 1000) / n;
  child.kill('SIGKILL');
  return { firstMs, rttUs };
}

/**
 * The hardened mode (a provider in its own process under the permission model) beside the worker
 * mode, and each beside its bare baseline: a Node child's IPC ping-pong and spawn → first message.
 */
async function hardenedFigures(home: string): Promise<BenchResult[]> {
  const db = openDatabase(join(home, 'hardened.db'));
  const entryPath = join(REPO_ROOT, 'host/test/runtime/fixtures/limits-provider.mjs');
  const fresh = () =>
    new ExtensionRuntime({
      storage: new PluginStorageStore(db),
      logger: new Logger(),
      platform: { os: process.platform, arch: process.arch, homeDir: home, hostVersion: 'bench', nodeVersion: process.versions.node },
    });
  const extension = (isolation: 'worker' | 'process'): LoadableExtension => ({
    id: `svc-bench.${isolation}`,
    entryPath,
    revision: 'bench',
    granted: new Set(['config:provider']),
    cli: { command: 'none', version: '1.0.0' },
    isolation,
  });
  const rtt = async (runtime: ExtensionRuntime, target: LoadableExtension, n: number) => {
    const events: CliStreamEvent[] = [];
    for await (const event of runtime.stream(target, { prompt: `rtt ${n} config`, cwd: home })) events.push(event);
    return Number((events.find((e) => e.type === 'text') as { text: string }).text);
  };
  const probe = probeIsolation();
  const permissionFlags = [probe.permissionFlag, `--allow-fs-read=${REPO_ROOT}`, '--no-addons'];
  try {
    const n = 5_000;
    const processRtt: number[] = [];
    const workerRtt: number[] = [];
    const bareRtt: number[] = [];
    const runtime = fresh();
    for (let round = 0; round < 4; round++) {
      const p = await rtt(runtime, extension('process'), n);
      const w = await rtt(runtime, extension('worker'), n);
      const bare = await bareChildProcess(n, permissionFlags);
      if (round === 0) continue;
      processRtt.push(p);
      workerRtt.push(w);
      bareRtt.push(bare.rttUs);
    }
    await runtime.close();
    const processCold: number[] = [];
    const workerCold: number[] = [];
    const bareCold: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [mode, into] of [['process', processCold], ['worker', workerCold]] as const) {
        const cold = fresh();
        const started = performance.now();
        await cold.call(extension(mode), 'generate', [{ prompt: 'wait 0', cwd: home }]);
        into.push(performance.now() - started);
        await cold.close();
      }
      bareCold.push((await bareChildProcess(1, permissionFlags)).firstMs);
    }
    const [pRtt, wRtt, bRtt] = [median(processRtt), median(workerRtt), median(bareRtt)];
    const [pCold, wCold, bCold] = [median(processCold.slice(1)), median(workerCold.slice(1)), median(bareCold.slice(1))];
    const enforced = isolationEnforcement('process', probe, 256);
    const notes = `this machine: ${enforced.enforces.join('; ')}${enforced.notEnforced.length > 0 ? `; not enforced: ${enforced.notEnforced.join('; ')}` : ''}`;
    return [
      { name: 'Host Context round trip, hardened process (config.get)', unit: 'µs', ours: pRtt, baseline: bRtt, baselineName: 'bare child-process IPC round trip', ratio: pRtt / bRtt, goal: '≤ 1.5×', notes: `worker mode, same call: ${wRtt.toFixed(2)} µs (hardened ${(pRtt / wRtt).toFixed(2)}× the worker)` },
      { name: 'cold load, hardened process: spawn + import → first call', unit: 'ms', ours: pCold, baseline: bCold, baselineName: 'bare node child (same permission flags) → first message', ratio: pCold / bCold, goal: '≤ 1.5×', notes: `worker mode cold load: ${wCold.toFixed(2)} ms (hardened ${(pCold / wCold).toFixed(2)}× the worker); ${notes}` },
    ];
  } finally {
    db.close();
  }
}

/** `figures` narrows the run (`pnpm bench runtime:cold` runs the cold load alone); none: all of them. */
export async function runtimeBenchmarks(figures: string[] = []): Promise<BenchResult[]> {
  const want = (figure: string) => figures.length === 0 || figures.includes(figure);
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const env = { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` };
  let services: HostServices | undefined;
  try {
    services = await openHostServices({ env, builtins: false });
    const { record } = await services.extensions.devAdd(copyFixtureProvider('echo'));
    await services.extensions.enable(record.id, async () => true);
    const results: BenchResult[] = [];
    if (want('concurrency')) results.push(...(await concurrentCalls(home)));
    if (want('stats')) results.push(...(await statsCost(home)));
    if (want('hardened')) results.push(...(await hardenedFigures(home)));

    if (want('cold')) {
      // Cold load: a fresh runtime each round, so the thread, the import and preflight are all paid.
      const cold: number[] = [];
      const prepared: number[] = [];
      const bare: number[] = [];
      const ahead: number[] = [];
      for (let round = 0; round < 7; round++) {
        await services.runtime.close();
        const started = performance.now();
        const target = await services.extensions.prepare(record.id);
        prepared.push(performance.now() - started);
        await services.extensions.models(target);
        cold.push(performance.now() - started);
        bare.push(await bareWorkerFirstMessage());
        // The same first call on a thread started ahead, as `svc serve` does (warmServing), once it is up.
        await services.runtime.close();
        await services.runtime.warm(record.id, 'worker');
        const aheadStarted = performance.now();
        await services.extensions.models(await services.extensions.prepare(record.id));
        ahead.push(performance.now() - aheadStarted);
      }
      const coldMs = median(cold.slice(1));
      const bareMs = median(bare.slice(1));
      const preparedMs = median(prepared.slice(1));
      results.push({ name: 'cold load: preflight + worker start + import → first call', unit: 'ms', ours: coldMs, baseline: bareMs, baselineName: 'bare new Worker → first message', ratio: coldMs / bareMs, goal: '≤ 1.2×', notes: `of which preflight and permissions (prepare): ${preparedMs.toFixed(2)} ms; the CLI version probe is cached per executable identity; the first call on a thread svc serve started ahead: ${median(ahead.slice(1)).toFixed(2)} ms` });
    }

    // The round trip and the event rate share one prepared target; they run only in a full run.
    if (figures.length > 0) return results;
    const n = 20_000;
    const target = await services.extensions.prepare(record.id);
    const rttRuns: number[] = [];
    const rawRuns: number[] = [];
    // Round 0 warms the JIT on both sides and is discarded.
    for (let round = 0; round < 6; round++) {
      const events = await drain(services.extensions.stream(target, { prompt: `rtt ${n}`, cwd: home }));
      const ours = Number((events.find((e) => e.type === 'text') as { text: string }).text);
      const raw = await rawMessagePortRoundTrip(n);
      if (round === 0) continue;
      rttRuns.push(ours);
      rawRuns.push(raw);
    }
    const rtt = median(rttRuns);
    const raw = median(rawRuns);
    // Where the rest goes: the libsql point read itself, timed on the host thread in this run.
    const store = new PluginStorageStore(services.db);
    for (let i = 0; i < 2000; i++) store.get(record.id, 'rtt');
    const readStarted = performance.now();
    for (let i = 0; i < n; i++) store.get(record.id, 'rtt');
    const readUs = ((performance.now() - readStarted) * 1000) / n;
    results.push({ name: 'Host Context round trip (storage.get, libsql read included)', unit: 'µs', ours: rtt, baseline: raw, baselineName: 'raw MessagePort round trip', ratio: rtt / raw, goal: '≤ 1.3×', notes: `of which the libsql point read alone: ${readUs.toFixed(2)} µs (raw round trip + read = ${(raw + readUs).toFixed(2)} µs)` });

    const count = 500_000;
    const rates: number[] = [];
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      let seen = 0;
      for await (const event of services.extensions.stream(target, { prompt: `events ${count}`, cwd: home })) if (event.type === 'text') seen++;
      rates.push(seen / ((performance.now() - started) / 1000));
    }
    const rate = median(rates);
    results.push({ name: 'stream events across the thread line', unit: 'events/s', ours: rate, baseline: 200_000, baselineName: 'goal', ratio: rate / 200_000, goal: '≥ 200k events/s (ratio ≥ 1)' });
    return results;
  } finally {
    await services?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
