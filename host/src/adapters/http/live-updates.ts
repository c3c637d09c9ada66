// Live updates for the web UI: a change topic per successful state-changing request, and a watch on
// the database for writes made by other processes (`svc mcp`, the CLI). Pages refetch what a topic
// names; no record travels over this stream.
import { PassThrough } from 'node:stream';
import type Koa from 'koa';

export interface LiveEvent {
  topic: string;
  at: string;
}

export class LiveUpdates {
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private timer: NodeJS.Timeout | undefined;

  publish(topic: string): void {
    const event = { topic, at: new Date().toISOString() };
    for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Publishes `db` when another connection committed: SQLite's `data_version` changes only for
   * commits made by other connections, so this process's own writes (already published) do not count.
   */
  watchDatabase(dataVersion: () => number, intervalMs = 1000): void {
    let last = dataVersion();
    this.timer = setInterval(() => {
      try {
        const now = dataVersion();
        if (now !== last) {
          last = now;
          this.publish('db');
        }
      } catch {
        // A closed database ends the watch with the service.
        this.close();
      }
    }, intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** After a state-changing /api request succeeds, publishes its topic (`/api/tasks/3` → `tasks`). */
export function publishChanges(live: LiveUpdates): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (!UNSAFE.has(ctx.method) || ctx.status >= 400) return;
    const topic = topicOf(ctx.path);
    if (topic) live.publish(topic);
  };
}

export function topicOf(path: string): string | undefined {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'api' || parts.length < 2) return undefined;
  if (parts[1] === 'internal') return parts[2] === 'terminal' ? 'terminals' : parts[2];
  if (parts[1] === 'web') return undefined;
  return parts[1];
}

/** `GET /api/events`: server-sent events, one `change` event per topic, a comment every 25 s. */
export function eventsRoute(live: LiveUpdates): Koa.Middleware {
  return (ctx) => {
    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'text/event-stream';
    ctx.status = 200;
    stream.write('retry: 2000\n\n');
    const unsubscribe = live.subscribe((event) => stream.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`));
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), 25_000);
    const end = () => {
      clearInterval(keepAlive);
      unsubscribe();
      stream.end();
    };
    ctx.res.on('close', end);
    ctx.body = stream;
  };
}
