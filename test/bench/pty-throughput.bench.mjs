// Benchmark: PTY output throughput through the host's terminal path (node-pty in the terminal
// holder → its scrollback → the holder's socket → Terminal → bounded scrollback in the service)
// beside a bare node-pty whose output goes nowhere, plus the memory of 20 idle terminals. The host's TypeScript is bundled on the fly with esbuild (no build step needed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import * as pty from 'node-pty';

const root = resolve(import.meta.dirname, '../..');
const FILE_MIB = Number(process.env.SVC_BENCH_PTY_MIB ?? 32);
const ROUNDS = Number(process.env.SVC_BENCH_PTY_ROUNDS ?? 3);
const IDLE_TERMINALS = 20;

async function loadTerminals() {
  // Inside the repository, so the bundle's bare imports (node-pty, zod) resolve from its node_modules.
  const outfile = join(root, 'node_modules/.cache/svc-bench', `terminals-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, 'host/src/features/terminals/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
    loader: { '.sql': 'text' },
    logLevel: 'warning',
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** A text file of `mib` MiB of 80-column lines, like a long build log. */
function makeFile(dir, mib) {
  const line = `${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 79)}\n`;
  const file = join(dir, 'big.txt');
  writeFileSync(file, line.repeat(Math.ceil((mib * 1024 * 1024) / line.length)));
  return { file, bytes: Math.ceil((mib * 1024 * 1024) / line.length) * line.length };
}

const env = { ...process.env, TERM: 'xterm-256color' };

function bare(file) {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    const term = pty.spawn('cat', [file], { cols: 120, rows: 32, cwd: root, env });
    let output = 0;
    term.onData((data) => (output += data.length));
    term.onExit(() => resolvePromise({ seconds: Number(process.hrtime.bigint() - started) / 1e9, output }));
  });
}

/** A terminal holder of its own in a throwaway SVC_HOME, as `svc serve` starts one. */
async function startHolder(terminals, home) {
  return terminals.startHolder(home, 'bench', terminals.ensureHolderSecret(home), env);
}

/** A terminal in the holder, as the service starts one (the session gate's part is the service's). */
function held(terminals, holder, command, args, cwd, id) {
  return holder.spawn({
    command,
    args,
    cwd,
    env: terminals.ptyEnv(env),
    name: 'xterm-256color',
    cols: 120,
    rows: 32,
    meta: { taskId: id, executionId: id },
    scrollbackBytes: terminals.DEFAULT_TERMINAL_SETTINGS.scrollbackBytes,
    startOffset: 0,
    keepaliveMs: 3_600_000,
    interruptMs: 500,
    stopGraceMs: 5000,
  });
}

async function ours(terminals, holder, file) {
  const started = process.hrtime.bigint();
  const term = await held(terminals, holder, 'cat', [file], root, 1);
  const terminal = new terminals.Terminal({
    taskId: 1,
    executionId: 1,
    pty: term,
    scrollbackBytes: terminals.DEFAULT_TERMINAL_SETTINGS.scrollbackBytes,
    keepaliveMs: 3_600_000,
    onKeepaliveExpired: () => undefined,
  });
  await terminal.exited;
  term.release();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, output: terminal.buffer.end, retained: terminal.buffer.end - terminal.buffer.start };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function memoryNow() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed + usage.external + usage.arrayBuffers, rss: usage.rss };
}

/** What 20 idle terminals cost the service (their PTYs and the holder's rings are in the holder). */
async function idleTerminals(terminals, holder, dir) {
  const before = await memoryNow();
  const running = [];
  for (let i = 0; i < IDLE_TERMINALS; i++) {
    // An idle interactive session: a prompt, then waiting for input.
    const term = await held(terminals, holder, 'sh', ['-c', 'printf "idle %s> " "$$"; exec cat'], dir, 100 + i);
    running.push(
      new terminals.Terminal({ taskId: i + 1, executionId: i + 1, pty: term, scrollbackBytes: terminals.DEFAULT_TERMINAL_SETTINGS.scrollbackBytes, keepaliveMs: 3_600_000, onKeepaliveExpired: () => undefined }),
    );
  }
  const deadline = Date.now() + 10_000;
  while (running.some((t) => t.buffer.end === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  const after = await memoryNow();
  const buffers = running.reduce((sum, t) => sum + t.buffer.memoryBytes, 0);
  await Promise.all(running.map((t) => t.stop('stopped', { interruptMs: 100, graceMs: 1000 })));
  return { heapBytes: after.heap - before.heap, rssBytes: after.rss - before.rss, bufferBytes: buffers };
}

export async function ptyThroughputBench() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pty-'));
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-holder-'));
  let holder;
  try {
    const terminals = await loadTerminals();
    holder = await startHolder(terminals, home);
    // Memory first, before the throughput rounds leave garbage behind.
    const idle = await idleTerminals(terminals, holder, dir);
    const { file, bytes } = makeFile(dir, FILE_MIB);
    await bare(file);
    await ours(terminals, holder, file);
    const bareRuns = [];
    const ourRuns = [];
    let retained = 0;
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push((await bare(file)).seconds);
      const run = await ours(terminals, holder, file);
      // What cat wrote made it through the holder (the PTY turns each \n into \r\n; node-pty itself may
      // drop a few KiB of the tail of a process that exits at once, bare or not).
      if (run.output < bytes * 0.99) throw new Error(`the held terminal delivered ${run.output} of ${bytes} bytes`);
      ourRuns.push(run.seconds);
      retained = run.retained;
    }
    const mib = bytes / (1024 * 1024);
    const oursMibS = mib / median(ourRuns);
    const baselineMibS = mib / median(bareRuns);
    const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
    return {
      name: 'pty-throughput',
      ours: Number(oursMibS.toFixed(1)),
      baseline: Number(baselineMibS.toFixed(1)),
      ratio: Number((oursMibS / baselineMibS).toFixed(3)),
      unit: 'MiB/s',
      memory: { idleTerminals: IDLE_TERMINALS, ...idle },
      notes:
        `cat of a ${FILE_MIB} MiB file, median of ${ROUNDS} rounds: a terminal held by the terminal holder, read by the service's Terminal over the holder socket (scrollback kept ${kib(retained)}) vs bare node-pty discarding output; goal ratio >= 0.9. ` +
        `${IDLE_TERMINALS} idle terminals: ${kib(idle.bufferBytes)} of scrollback rings, heap+external ${kib(idle.heapBytes)}, rss ${kib(idle.rssBytes)}` +
        `${globalThis.gc ? '' : ' (run node with --expose-gc for steadier memory numbers)'}.`,
    };
  } finally {
    holder?.close();
    rmSync(dir, { recursive: true, force: true });
    // Its socket gone, the holder exits.
    rmSync(home, { recursive: true, force: true });
  }
}

export default ptyThroughputBench;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await ptyThroughputBench(), null, 2));
}
