import { openSync, closeSync, writeSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { processStartTime } from '../platform/processes/index.js';

export const ServerInfoSchema = z.object({
  pid: z.number().int().positive(),
  /** With the pid, tells the running service from a later process that reused its pid. */
  pidStartTime: z.string().nullable(),
  version: z.string(),
  startedAt: z.string(),
  /** Absent while the service is starting (before it listens). */
  url: z.string().optional(),
  port: z.number().int().optional(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/**
 * `$SVC_HOME/server.json`: how clients (the CLI, `svc mcp`) find the running service, and the
 * lock that keeps a second `svc serve` off the same SVC_HOME (it would sweep the first one's
 * executions). A file left by a dead service is stale and taken over.
 */
export class ServerFile {
  readonly path: string;

  constructor(svcHome: string) {
    this.path = join(svcHome, 'server.json');
  }

  read(): ServerInfo | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      return ServerInfoSchema.parse(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  /** The info of a service that is really running (pid alive with the same start time). */
  live(): ServerInfo | undefined {
    const info = this.read();
    if (!info) return undefined;
    const started = processStartTime(info.pid);
    if (started === undefined) return undefined;
    if (info.pidStartTime !== null && started !== info.pidStartTime) return undefined;
    return info;
  }

  /** Takes the lock for this process, or throws `server_already_running`. */
  claim(info: ServerInfo): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.path, 'wx', 0o600);
        try {
          writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
        } finally {
          closeSync(fd);
        }
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = this.live();
      if (holder) {
        throw new SvcError({
          code: 'server_already_running',
          message: `a service already runs for this SVC_HOME (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''})`,
          details: { pid: holder.pid, ...(holder.url ? { url: holder.url } : {}) },
        });
      }
      rmSync(this.path, { force: true });
    }
    throw new SvcError({ code: 'server_already_running', message: `could not take ${this.path}; another service is starting` });
  }

  /** Replaces the file atomically (readers never see half a file). */
  publish(info: ServerInfo): void {
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.path);
  }

  /** Removes the file if it is this process's. */
  release(pid = process.pid): void {
    if (this.read()?.pid === pid) rmSync(this.path, { force: true });
  }
}
