// Runs inside a provider's worker thread (piscina). Imports the provider entry once per thread,
// creates its adapter, and serves one adapter call per task over the task's MessagePort.
import { pathToFileURL } from 'node:url';
import type { CliAdapter, CliPlugin, CliStreamEvent, SvcErrorData } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import { EVENT_BATCH_SIZE, type WorkerTask } from './rpc-messages.js';
import { createWorkerHostContext, WorkerRpc } from './worker-host-context.js';

const adapters = new Map<string, Promise<CliAdapter>>();

async function loadAdapter(entryPath: string): Promise<CliAdapter> {
  let adapter = adapters.get(entryPath);
  if (!adapter) {
    adapter = (async () => {
      const module = (await import(pathToFileURL(entryPath).href)) as { svcCliPlugin?: CliPlugin };
      const plugin = module.svcCliPlugin;
      if (!plugin || plugin.$marker !== 'svc.cli-plugin' || typeof plugin.createAdapter !== 'function') {
        throw new SvcError({
          code: 'plugin_export_missing',
          message: 'the entry does not export `svcCliPlugin` made with defineCliPlugin()',
        });
      }
      return plugin.createAdapter();
    })();
    adapters.set(entryPath, adapter);
    adapter.catch(() => adapters.delete(entryPath));
  }
  return adapter;
}

export default async function runTask(task: WorkerTask): Promise<void> {
  const controller = new AbortController();
  const rpc = new WorkerRpc(task.port, (reason) => {
    const code = reason === 'timeout' ? 'timeout' : 'cancelled';
    controller.abort(new SvcError({ code, message: `the call was ${reason === 'timeout' ? 'timed out' : reason} by the host` }));
  });
  routeConsole(rpc);
  try {
    const adapter = await loadAdapter(task.entryPath);
    const host = createWorkerHostContext(rpc, task.pluginId, task.platform);
    const ctx = { host, signal: controller.signal, cli: task.cli };
    const value = await dispatch(adapter, task, ctx, rpc);
    rpc.post({ t: 'done', ok: true, v: value });
  } catch (error) {
    rpc.post({ t: 'done', ok: false, e: toErrorData(error) });
  } finally {
    rpc.close();
  }
}

async function dispatch(
  adapter: CliAdapter,
  task: WorkerTask,
  ctx: Parameters<CliAdapter['generate']>[1],
  rpc: WorkerRpc,
): Promise<unknown> {
  const args = task.args;
  switch (task.method) {
    case 'buildSessionProcess':
      return adapter.buildSessionProcess(args[0] as never, ctx);
    case 'generate':
      return adapter.generate(args[0] as never, ctx);
    case 'stream': {
      if (!adapter.stream) throw unsupported('stream');
      await pumpEvents(adapter.stream(args[0] as never, ctx), rpc);
      return undefined;
    }
    case 'models':
      if (!adapter.models) throw unsupported('models');
      return adapter.models(ctx);
    default: {
      const [kind, operation] = task.method.split('.') as ['mcp' | 'hooks' | 'skills', 'inspect' | 'install' | 'uninstall'];
      const integration = adapter[kind] as Record<string, (...a: unknown[]) => Promise<unknown>> | undefined;
      if (!integration || typeof integration[operation] !== 'function') throw unsupported(task.method);
      return integration[operation](...args, ctx);
    }
  }
}

/** Sends events in batches within the host's credit window: backpressure across the thread line. */
async function pumpEvents(events: AsyncIterable<CliStreamEvent>, rpc: WorkerRpc): Promise<void> {
  let batch: CliStreamEvent[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (batch.length === 0) return;
    rpc.credit -= batch.length;
    rpc.post({ t: 'evs', e: batch });
    batch = [];
  };
  for await (const event of events) {
    batch.push(event);
    if (batch.length >= EVENT_BATCH_SIZE) {
      flush();
      await rpc.waitForCredit();
    } else if (!scheduled) {
      scheduled = setImmediate(flush);
    }
  }
  flush();
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

let consoleRpc: WorkerRpc | undefined;
let consoleRouted = false;

/** A provider's console output goes to the host log, never to the host's stdout (it may be a protocol). */
function routeConsole(rpc: WorkerRpc): void {
  consoleRpc = rpc;
  if (consoleRouted) return;
  consoleRouted = true;
  const send = (level: 'debug' | 'info' | 'warn' | 'error') => (...parts: unknown[]) => {
    const text = parts.map((part) => (typeof part === 'string' ? part : safeJson(part))).join(' ');
    try {
      consoleRpc?.notify('$log', level, text, { via: 'console' });
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
