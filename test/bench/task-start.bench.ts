// A task start as a person waits for it (the web's Start, `svc task start`): the service plans the
// launch, spawns the CLI in a PTY and answers with the execution. Measured on a real `svc serve` with
// the PTYs in the terminal holder, beside a second one that keeps them in its own process (the holder
// off, as before the holder existed), one start on each in turn, 30 tasks each, sequentially: once
// over HTTP (the service's own share) and once through `svc task start` (what the issue measured).
import { QWEN_STAND_IN, prepareQwenDemoProjectOverHttp } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { median, type BenchResult } from './bench-result.js';

const TASKS = Number(process.env.SVC_BENCH_TASK_STARTS ?? 30);

interface Side {
  svc: SvcSandbox;
  serve: ServeProcess;
  tasks: number[];
}

type Start = (side: Side, taskId: number) => Promise<void>;

async function side(holder: 'on' | 'off'): Promise<Side> {
  const svc = createSvcSandbox([QWEN_STAND_IN]);
  const serve = await startServe(svc, { SVC_TERMINAL_HOLDER: holder, SVC_TERMINAL_STOP_GRACE_MS: '1000', SVC_TERMINAL_INTERRUPT_MS: '200' });
  await prepareQwenDemoProjectOverHttp(serve, svc);
  return { svc, serve, tasks: [] };
}

const overHttp: Start = async (s, taskId) => {
  await apiOk(s.serve, 'POST', `/api/internal/terminal/${taskId}/start`, { connection: 'qwen' });
};

const throughCli: Start = async (s, taskId) => {
  const result = await s.svc.run(['task', 'start', String(taskId), '--connection', 'qwen'], { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc task start ${taskId} failed: ${result.stderr}`);
};

/** One task created (not timed), then its start timed until it is answered. */
async function startOne(s: Side, start: Start): Promise<number> {
  const task = await apiOk<{ id: number }>(s.serve, 'POST', '/api/tasks', { projectId: 'demo', title: `bench ${s.tasks.length}` });
  const started = process.hrtime.bigint();
  await start(s, task.id);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  s.tasks.push(task.id);
  // The CLI runs and its output comes through (not timed: the stand-in's own start is the same on both sides).
  await readTerminalUntil(s.serve, task.id, 'qwen> ');
  return ms;
}

/** TASKS starts on each side, taking turns, so a busy machine slows both alike; then every terminal is stopped. */
async function round(held: Side, inService: Side, start: Start): Promise<{ held: number[]; inService: number[] }> {
  const samples = { held: [] as number[], inService: [] as number[] };
  for (let i = 0; i < TASKS; i++) {
    samples.held.push(await startOne(held, start));
    samples.inService.push(await startOne(inService, start));
  }
  for (const s of [held, inService]) await Promise.all(s.tasks.splice(0).map((taskId) => apiOk(s.serve, 'POST', `/api/internal/terminal/${taskId}/stop`)));
  return samples;
}

async function close(s: Side | undefined): Promise<void> {
  if (!s) return;
  s.serve.child.kill('SIGTERM');
  await s.serve.exited;
  s.svc.cleanup();
}

export async function taskStartBenchmarks(): Promise<BenchResult[]> {
  let held: Side | undefined;
  let inService: Side | undefined;
  try {
    held = await side('on');
    inService = await side('off');
    // The first start with the holder also starts the holder: one start on each side, not counted.
    const warm = { held: await startOne(held, overHttp), inService: await startOne(inService, overHttp) };
    const http = await round(held, inService, overHttp);
    const cli = await round(held, inService, throughCli);
    const row = (name: string, samples: { held: number[]; inService: number[] }, notes: string): BenchResult => {
      const [ours, baseline] = [median(samples.held), median(samples.inService)];
      return { name, unit: 'ms', ours, baseline, baselineName: 'PTY in the service (holder off)', ratio: ours / baseline, goal: '≤ 1× (no slower than before the holder)', notes };
    };
    return [
      row(
        `task start over HTTP, ${TASKS} tasks one after another, PTY in the terminal holder (median per start)`,
        http,
        `POST /api/internal/terminal/<id>/start answered (execution recorded, CLI spawned in its PTY) on a real svc serve with the Qwen Code stand-in, ${TASKS} terminals left running; ` +
          `the first start with the holder starts it: ${warm.held.toFixed(0)} ms vs ${warm.inService.toFixed(0)} ms (not counted).`,
      ),
      row(
        `svc task start, ${TASKS} tasks one after another, PTY in the terminal holder (median per start)`,
        cli,
        'the whole command as a person runs it (its own process start included); the issue measured 425 ms per start before the holder.',
      ),
    ];
  } finally {
    await close(held);
    await close(inService);
  }
}
