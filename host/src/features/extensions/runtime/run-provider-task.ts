// Runs inside a provider's worker thread or hardened process: imports the provider entry once,
// creates its adapter, and serves adapter calls (several at once) over each task's MessagePort.
import { pathToFileURL } from 'node:url';
import type { CliAdapter, CliPlugin, CliStreamEvent, CliStreamItem, SvcErrorData } from '@svc-org/ai-sdk';
import { EVENT_BATCH_SIZE, isCliStreamBatch, PROTOCOL_VERSION, SvcError } from '@svc-org/ai-sdk';
import { eventSize } from './event-size.js';
import type { WorkerTask } from './rpc-messages.js';
import { checkMessageBounds } from './message-bounds.js';
import { createWorkerHostContext, WorkerRpc } from './worker-host-context.js';

/** How a bootstrap loads a provider's entry: its module namespace. */
export type EntryLoader = (entryPath: string) => Promise<Record<string, unknown>>;

/** The entry as an ES module, through Node's `import()`. */
const importEntry: EntryLoader = (entryPath) => import(pathToFileURL(entryPath).href) as Promise<Record<string, unknown>>;

const adapters = new Map<string, Promise<CliAdapter>>();
/** How long the cold load of an entry took, until the call that caused it reports it. */
const loadTimes = new Map<string, number>();

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the global `performance` loads
 * `perf_hooks` and eight modules under it on first use, about 1 ms of a hardened process's start.
 */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

async function loadAdapter(entryPath: string, loadEntry: EntryLoader): Promise<CliAdapter> {
  let adapter = adapters.get(entryPath);
  if (!adapter) {
    adapter = (async () => {
      const started = nowMs();
      const module = (await loadEntry(entryPath)) as { svcCliPlugin?: CliPlugin };
      const plugin = module.svcCliPlugin;
      if (!plugin || plugin.$marker !== 'svc.cli-plugin' || typeof plugin.createAdapter !== 'function') {
        throw new SvcError({
          code: 'plugin_export_missing',
          message: 'the entry does not export `svcCliPlugin` made with defineCliPlugin()',
        });
      }
      if (plugin.apiVersion !== PROTOCOL_VERSION) {
        throw new SvcError({
          code: 'api_version_unsupported',
          message: `the provider was built for contract apiVersion ${JSON.stringify(plugin.apiVersion)}; this host serves ${PROTOCOL_VERSION}`,
          details: { fix: 'rebuild the provider with an @svc-org/ai-sdk release for this host, or update svc' },
        });
      }
      const created = await plugin.createAdapter();
      loadTimes.set(entryPath, nowMs() - started);
      return created;
    })();
    adapters.set(entryPath, adapter);
    adapter.catch(() => adapters.delete(entryPath));
  }
  return adapter;
}

/**
 * Runs one adapter call; `tid` names the thread or process it runs on (the host's handle to stop
 * it), `loadEntry` how the provider's entry is loaded the first time.
 */
export async function runProviderTask(task: WorkerTask, tid: number, loadEntry: EntryLoader = importEntry): Promise<void> {
  const controller = new AbortController();
  const rpc = new WorkerRpc(task.port, (reason) => {
    if (controller.signal.aborted) return;
    const code = reason === 'timeout' ? 'timeout' : 'cancelled';
    controller.abort(new SvcError({ code, message: `the call was ${reason === 'timeout' ? 'timed out' : reason} by the host` }));
  });
  rpc.post({ t: 'hi', tid });
  // A cancel that arrived while the call waited in the queue: the provider is never entered.
  rpc.drain();
  openRpcs.add(rpc);
  try {
    if (controller.signal.aborted) throw controller.signal.reason;
    const adapter = await loadAdapter(task.entryPath, loadEntry);
    const host = createWorkerHostContext(rpc, task.pluginId, task.platform);
    const ctx = { host, signal: controller.signal, cli: task.cli };
    const value = await dispatch(adapter, task, ctx, rpc);
    refuseDeep(value, task.maxMessageDepth, 'result');
    postStats(rpc, task.entryPath);
    rpc.post({ t: 'done', ok: true, v: value });
  } catch (error) {
    postStats(rpc, task.entryPath);
    rpc.post({ t: 'done', ok: false, e: toErrorData(error) });
  } finally {
    openRpcs.delete(rpc);
    rpc.close();
  }
}

/** For the host's statistics: a cold load this call caused, and the heap (and RSS) after the call. */
function postStats(rpc: WorkerRpc, entryPath: string): void {
  const load = loadTimes.get(entryPath);
  loadTimes.delete(entryPath);
  // V8's used heap size (what v8.getHeapStatistics() calls used_heap_size), without loading node:v8.
  const { heapUsed, rss } = process.memoryUsage();
  rpc.post({ t: 'st', heap: heapUsed, rss, ...(load === undefined ? {} : { load }) });
}

async function dispatch(
  adapter: CliAdapter,
  task: WorkerTask,
  ctx: Parameters<CliAdapter['generate']>[1],
  rpc: WorkerRpc,
): Promise<unknown> {
  switch (task.method) {
    case 'buildSessionProcess':
      if (!adapter.buildSessionProcess) throw unsupported('buildSessionProcess');
      return adapter.buildSessionProcess(task.args[0], ctx);
    case 'generate':
      return adapter.generate(task.args[0], ctx);
    case 'stream': {
      if (!adapter.stream) throw unsupported('stream');
      await pumpEvents(adapter.stream(task.args[0], ctx), rpc, task.maxEventBytes, task.maxMessageDepth);
      return undefined;
    }
    case 'models':
      if (!adapter.models) throw unsupported('models');
      return adapter.models(ctx);
    case 'mcp.inspect':
      return integration(adapter, 'mcp', 'inspect').inspect(task.args[0], ctx);
    case 'mcp.install':
      return integration(adapter, 'mcp', 'install').install(task.args[0], task.args[1], ctx);
    case 'mcp.uninstall':
      return integration(adapter, 'mcp', 'uninstall').uninstall(task.args[0], task.args[1], ctx);
    case 'hooks.inspect':
      return integration(adapter, 'hooks', 'inspect').inspect(task.args[0], ctx);
    case 'hooks.install':
      return integration(adapter, 'hooks', 'install').install(task.args[0], task.args[1], ctx);
    case 'hooks.uninstall':
      return integration(adapter, 'hooks', 'uninstall').uninstall(task.args[0], task.args[1], ctx);
    case 'skills.inspect':
      return integration(adapter, 'skills', 'inspect').inspect(task.args[0], ctx);
    case 'skills.install':
      return integration(adapter, 'skills', 'install').install(task.args[0], task.args[1], ctx);
    case 'skills.uninstall':
      return integration(adapter, 'skills', 'uninstall').uninstall(task.args[0], task.args[1], ctx);
    default:
      throw unsupported(String((task as { method: unknown }).method));
  }
}

/** The adapter's integration of `kind`, when it implements `operation`. */
function integration<K extends 'mcp' | 'hooks' | 'skills'>(
  adapter: CliAdapter,
  kind: K,
  operation: 'inspect' | 'install' | 'uninstall',
): NonNullable<CliAdapter[K]> {
  const found = adapter[kind];
  if (!found || typeof found[operation] !== 'function') throw unsupported(`${kind}.${operation}`);
  return found;
}

/**
 * Sends events in batches within the host's credit window (events and size units): backpressure
 * across the thread line. An event over the size bound never crosses it. The adapter's own batches
 * (an array yielded as one item) are taken a whole batch per await.
 */
async function pumpEvents(items: AsyncIterable<CliStreamItem>, rpc: WorkerRpc, maxEventBytes: number, maxMessageDepth: number): Promise<void> {
  let batch: CliStreamEvent[] = [];
  let batchBytes = 0;
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (batch.length === 0) return;
    rpc.credit -= batch.length;
    rpc.creditBytes -= batchBytes;
    rpc.post({ t: 'evs', e: batch });
    batch = [];
    batchBytes = 0;
  };
  try {
    for await (const item of items) {
      // A batch's events are checked and queued without an await of their own (only a spent credit waits).
      for (const event of isCliStreamBatch(item) ? item : [item]) {
        const size = eventSize(event);
        if (!Number.isFinite(size)) throw new SvcError({ code: 'invalid_event', message: 'the provider emitted a stream event that cannot be written as JSON' });
        if (size > maxEventBytes) {
          throw new SvcError({ code: 'event_too_large', message: `the provider emitted a stream event of ${size} size units; the bound is ${maxEventBytes} (runtime.maxEventBytes)` });
        }
        refuseDeep(event, maxMessageDepth, 'stream event');
        if (batch.length + 1 > rpc.credit || batchBytes + size > rpc.creditBytes) {
          flush();
          await rpc.waitForCredit(size);
        }
        batch.push(event);
        batchBytes += size;
        if (batch.length >= EVENT_BATCH_SIZE) flush();
        else if (!scheduled) scheduled = setImmediate(flush);
      }
    }
  } finally {
    flush();
  }
}

/** Messages wrap a value in up to this many levels (process frame, message, batch, event). */
const ENVELOPE_DEPTH = 4;

/**
 * The host stops a provider that sends a message deeper than its bound; an adapter relaying a
 * hostile CLI's output ends the call with the same code instead, and keeps its process.
 */
function refuseDeep(value: unknown, maxMessageDepth: number, what: string): void {
  const fault = checkMessageBounds(value, maxMessageDepth - ENVELOPE_DEPTH, Number.POSITIVE_INFINITY);
  if (fault?.code === 'ipc_message_too_deep') {
    throw new SvcError({ code: fault.code, message: `the provider's ${what} is nested deeper than the host accepts (${maxMessageDepth - ENVELOPE_DEPTH} levels, runtime.maxMessageDepth)` });
  }
}

function unsupported(method: string): SvcError {
  return new SvcError({ code: 'capability_unsupported', message: `the provider does not implement ${method}` });
}

function toErrorData(error: unknown): SvcErrorData {
  if (SvcError.isInstance(error)) return error.toJSON();
  if (SvcError.hasCode(error)) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'plugin_error', message: `the provider failed: ${message}` };
}

/** Calls running on this thread; console output goes through the newest one still open. */
const openRpcs = new Set<WorkerRpc>();

/** A provider's console output goes to the host log, never to the host's stdout (it may be a protocol). */
export function routeConsole(): void {
  const send = (level: 'debug' | 'info' | 'warn' | 'error') => (...parts: unknown[]) => {
    const text = parts.map((part) => (typeof part === 'string' ? part : safeJson(part))).join(' ');
    let newest: WorkerRpc | undefined;
    for (const rpc of openRpcs) newest = rpc;
    try {
      newest?.notify('$log', level, text, { via: 'console' });
    } catch {
      // the call's port is closed: nothing to route to
    }
  };
  console.log = send('info');
  console.info = send('info');
  console.debug = send('debug');
  console.warn = send('warn');
  console.error = send('error');
}


function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
